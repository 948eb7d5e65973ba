"""/accounts/password_reset/ and the pages after it: a reset link by email where email can be sent;
where none can, the pages say so (ask an administrator) and pretend nothing."""

import re

import pytest
from django.core import mail
from django.urls import reverse

pytestmark = pytest.mark.django_db


@pytest.fixture
def with_email(settings):
    # pytest-django's test environment already sends through Django's locmem backend (mail.outbox).
    settings.EMAIL_ENABLED = True
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    settings.DEFAULT_FROM_EMAIL = "pyramids@example.org"


@pytest.fixture
def without_email(settings):
    settings.EMAIL_ENABLED = False


def test_without_email_the_page_says_to_ask_an_administrator(client, demo, without_email):
    response = client.get(reverse("password_reset"))
    page = response.content.decode()
    assert response.status_code == 200
    assert "Resetting a password by email is not available here" in page
    assert "ask an administrator" in page
    assert "<form" not in page  # nothing to fill in


def test_without_email_a_post_sends_nothing_and_claims_nothing(client, demo, without_email):
    demo["organizer"].email = "organizer@example.org"
    demo["organizer"].save()
    response = client.post(reverse("password_reset"), {"email": "organizer@example.org"})
    page = response.content.decode()
    assert response.status_code == 200
    assert "not available here" in page
    assert "sent" not in page.lower()
    assert "emailed" not in page.lower()
    assert mail.outbox == []


def test_without_email_the_done_page_does_not_pretend(client, without_email):
    page = client.get(reverse("password_reset_done")).content.decode()
    assert "not available here" in page
    assert "emailed" not in page.lower()
    assert "sent" not in page.lower()


def test_with_email_a_working_link_is_sent(client, demo, with_email):
    user = demo["organizer"]
    user.email = "organizer@example.org"
    user.save()
    form = client.get(reverse("password_reset")).content.decode()
    assert 'name="email"' in form
    assert "not available" not in form
    response = client.post(reverse("password_reset"), {"email": "organizer@example.org"})
    assert response.status_code == 302
    assert response.url == reverse("password_reset_done")
    assert "If an account has this address" in client.get(response.url).content.decode()

    (message,) = mail.outbox
    assert message.to == ["organizer@example.org"]
    assert message.from_email == "pyramids@example.org"
    assert "organizer" in message.body  # the user name, which people forget too
    link = re.search(r"http://testserver(/accounts/reset/\S+/\S+/)", message.body).group(1)
    # The link leads to a form for the new password (Django swaps the token for a session key).
    page = client.get(link, follow=True)
    assert page.status_code == 200
    assert 'name="new_password1"' in page.content.decode()
    done = client.post(
        page.redirect_chain[-1][0],
        {"new_password1": "a-new-pass-phrase-7", "new_password2": "a-new-pass-phrase-7"},
    )
    assert done.status_code == 302
    assert done.url == reverse("password_reset_complete")
    assert "Log in" in client.get(done.url).content.decode()
    user.refresh_from_db()
    assert user.check_password("a-new-pass-phrase-7")


def test_with_email_an_unknown_address_gets_the_same_answer_and_no_email(client, demo, with_email):
    response = client.post(reverse("password_reset"), {"email": "nobody@example.org"})
    assert response.status_code == 302
    assert response.url == reverse("password_reset_done")
    assert mail.outbox == []


def test_a_used_link_says_so(client, demo, with_email):
    page = client.get(
        reverse("password_reset_confirm", args=["MQ", "not-a-token"])
    ).content.decode()
    assert "no longer valid" in page
    assert reverse("password_reset") in page
