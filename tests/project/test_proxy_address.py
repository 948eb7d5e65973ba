"""Behind nginx (BEHIND_PROXY), login throttling counts failures by the client's address, which
nginx writes into X-Forwarded-For, not by REMOTE_ADDR (nginx's own). config/proxy.py."""

import os
import subprocess
import sys

from axes.helpers import get_client_ip_address
from django.test import RequestFactory, override_settings

from config.proxy import client_address
from tests.conftest import ROOT


def request(forwarded=None, remote="10.0.0.5"):
    headers = {"HTTP_X_FORWARDED_FOR": forwarded} if forwarded is not None else {}
    return RequestFactory().post("/accounts/login/", REMOTE_ADDR=remote, **headers)


def test_the_address_the_proxy_wrote_is_the_client():
    assert client_address(request("198.51.100.7")) == "198.51.100.7"
    # A proxy that appends: the last entry is what it saw; the ones before, the client made up.
    assert client_address(request("203.0.113.9, 198.51.100.7")) == "198.51.100.7"
    assert client_address(request("2001:db8::1")) == "2001:db8::1"


def test_without_an_address_from_a_proxy_remote_addr_is_the_client():
    assert client_address(request()) == "10.0.0.5"
    assert client_address(request("")) == "10.0.0.5"
    assert client_address(request("not an address")) == "10.0.0.5"  # never stored as one


@override_settings(AXES_CLIENT_IP_CALLABLE="config.proxy.client_address")
def test_axes_counts_by_it():
    assert get_client_ip_address(request("198.51.100.7")) == "198.51.100.7"


def setting(name, **environment):
    env = {key: value for key, value in os.environ.items() if not key.startswith("BEHIND_")}
    env |= {"SECRET_KEY": "x", "DJANGO_SETTINGS_MODULE": "config.settings", **environment}
    code = f"from django.conf import settings; print(getattr(settings, {name!r}, None))"
    return subprocess.run(
        [sys.executable, "-c", f"import django; django.setup(); {code}"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()


def test_the_settings_use_it_behind_a_proxy_only():
    assert setting("AXES_CLIENT_IP_CALLABLE", BEHIND_PROXY="1") == "config.proxy.client_address"
    assert setting("AXES_CLIENT_IP_CALLABLE", BEHIND_TLS_PROXY="1") == "config.proxy.client_address"
    assert (
        setting("AXES_CLIENT_IP_CALLABLE") == "None"
    )  # reached directly, the header is the client's to invent
