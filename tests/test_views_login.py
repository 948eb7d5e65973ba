"""POST /accounts/login/: failed attempts are throttled (django-axes)."""

import pytest
from django.urls import reverse

pytestmark = pytest.mark.django_db


def test_five_failures_lock_the_name_out_even_with_the_right_password(client, demo, settings):
    statuses = [client.post(reverse("login"), {"username": "organizer", "password": "wrong"}).status_code
                for _ in range(settings.AXES_FAILURE_LIMIT)]
    assert statuses == [200] * (settings.AXES_FAILURE_LIMIT - 1) + [429]  # the last failure locks
    locked = client.post(reverse("login"), {"username": "organizer", "password": "organizer-pass-1"})
    assert locked.status_code == 429 and "Too many failed log-ins" in locked.content.decode()
    # Another user from the same address is not locked out.
    other = client.post(reverse("login"), {"username": "admin", "password": "admin-pass-1"})
    assert other.status_code == 302
