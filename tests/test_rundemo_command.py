import pytest
from django.core.management import CommandError

from .helpers import run

pytestmark = pytest.mark.django_db


def test_refuses_without_debug(settings):
    settings.DEBUG = False
    with pytest.raises(CommandError, match="DEBUG=1 only"):
        run("rundemo")


def test_migrates_loads_the_demo_creates_the_login_and_serves(settings, monkeypatch, django_user_model):
    settings.DEBUG = True
    served = {}
    from django.core import management

    real_call_command = management.call_command

    def fake_call_command(name, *args, **options):
        if name == "runserver":
            served["address"] = args[0]
            return None
        return real_call_command(name, *args, **options)

    monkeypatch.setattr("annotator.management.commands.rundemo.call_command", fake_call_command)
    out, _ = run("rundemo", "127.0.0.1:8123")
    assert served == {"address": "127.0.0.1:8123"}
    assert "http://127.0.0.1:8123/" in out and "demo / pyramid-demo" in out
    user = django_user_model.objects.get(username="demo")
    assert user.is_superuser and user.check_password("pyramid-demo")
