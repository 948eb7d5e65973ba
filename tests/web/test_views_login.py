"""/accounts/login/: failed attempts are throttled (django-axes) per user name and address, and per
address whatever the names; the page offers a password reset only where email can be sent, and says
why a log-in over plain HTTP cannot work when cookies are secure-only."""

import pytest
from django.urls import reverse

pytestmark = pytest.mark.django_db


def test_five_failures_lock_the_name_out_even_with_the_right_password(client, demo, settings):
    statuses = [
        client.post(reverse("login"), {"username": "organizer", "password": "wrong"}).status_code
        for _ in range(settings.AXES_FAILURE_LIMIT)
    ]
    assert statuses == [200] * (settings.AXES_FAILURE_LIMIT - 1) + [429]  # the last failure locks
    locked = client.post(
        reverse("login"), {"username": "organizer", "password": "organizer-pass-1"}
    )
    assert locked.status_code == 429
    assert "Too many failed log-ins" in locked.content.decode()
    assert "Try again in 15 minutes" in locked.content.decode()
    # A new password does not lift the pause (a tester was told it would): the page says what does.
    assert "A new password does not lift the pause" in locked.content.decode()
    assert "python manage.py axes_reset_ip ADDRESS" in locked.content.decode()
    # Another user from the same address is not locked out.
    other = client.post(reverse("login"), {"username": "admin", "password": "admin-pass-1"})
    assert other.status_code == 302


def test_many_names_from_one_address_lock_the_address_out(client, demo, settings):
    # Guessing names: one wrong password for each of 30 names from one address. The per-name limit
    # never trips; the per-address limit does, at its own count.
    limit = settings.LOGIN_ADDRESS_FAILURE_LIMIT
    assert settings.AXES_FAILURE_LIMIT < limit <= 30
    statuses = [
        client.post(reverse("login"), {"username": f"guess-{n}", "password": "wrong"}).status_code
        for n in range(30)
    ]
    assert statuses == [200] * (limit - 1) + [429] * (30 - limit + 1)
    # The right password of a real user is refused from that address too, with the lockout page.
    locked = client.post(reverse("login"), {"username": "admin", "password": "admin-pass-1"})
    assert locked.status_code == 429
    assert "Too many failed log-ins" in locked.content.decode()
    assert "_auth_user_id" not in client.session
    # Another address still logs in.
    elsewhere = client.post(
        reverse("login"), {"username": "admin", "password": "admin-pass-1"}, REMOTE_ADDR="192.0.2.7"
    )
    assert elsewhere.status_code == 302


def test_a_few_failures_of_several_names_from_one_address_lock_nothing(client, demo, settings):
    # People sharing one address (a room behind NAT) who each mistype once or twice stay below
    # the per-address limit, and each logs in.
    for name in ("organizer", "annotator", "other-annotator", "outsider"):
        for _ in range(2):
            client.post(reverse("login"), {"username": name, "password": "wrong"})
    assert 8 < settings.LOGIN_ADDRESS_FAILURE_LIMIT
    response = client.post(
        reverse("login"), {"username": "organizer", "password": "organizer-pass-1"}
    )
    assert response.status_code == 302


def test_a_successful_log_in_clears_only_its_own_names_failures(client, demo, settings):
    # Logging in with one's own account does not wipe the address's failures for other names
    # (else one valid account would reset the per-address count between batches of guesses).
    limit = settings.LOGIN_ADDRESS_FAILURE_LIMIT
    for n in range(limit - 1):
        client.post(reverse("login"), {"username": f"guess-{n}", "password": "wrong"})
    assert (
        client.post(
            reverse("login"), {"username": "outsider", "password": "outsider-pass-1"}
        ).status_code
        == 302
    )
    client.logout()
    assert (
        client.post(reverse("login"), {"username": "guess-x", "password": "wrong"}).status_code
        == 429
    )


def test_the_login_page_says_why_a_plain_http_log_in_cannot_work(client, settings):
    # Without DEBUG, session and CSRF cookies are secure-only unless SECURE_COOKIES=false: a browser
    # on plain HTTP drops them, and the log-in silently returns here. The page says so.
    settings.SESSION_COOKIE_SECURE = True
    settings.CSRF_COOKIE_SECURE = True
    page = client.get(reverse("login")).content.decode()
    assert 'id="insecure-cookies"' in page
    assert "SECURE_COOKIES=false" in page
    assert "HTTPS" in page
    # Over HTTPS (or through a TLS proxy that says so) there is nothing to say.
    assert 'id="insecure-cookies"' not in client.get(reverse("login"), secure=True).content.decode()


def test_the_login_page_says_nothing_of_cookies_when_they_are_not_secure_only(client, settings):
    settings.SESSION_COOKIE_SECURE = False
    settings.CSRF_COOKIE_SECURE = False
    assert 'id="insecure-cookies"' not in client.get(reverse("login")).content.decode()


def test_no_password_reset_link_where_no_email_can_be_sent(client, settings):
    settings.EMAIL_ENABLED = False
    page = client.get(reverse("login")).content.decode()
    assert "Forgot your password?" not in page
    assert reverse("password_reset") not in page


def test_the_password_reset_link_where_email_can_be_sent(client, settings):
    settings.EMAIL_ENABLED = True
    page = client.get(reverse("login")).content.decode()
    assert f'<a href="{reverse("password_reset")}">Forgot your password?</a>' in page
