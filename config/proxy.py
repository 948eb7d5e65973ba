"""The client's address behind the reverse proxy (deploy/nginx.conf.template), for login throttling.

django-axes reads the address with django-ipware where that is installed (it is not a dependency
here) and otherwise takes REMOTE_ADDR: behind nginx, nginx's own address, the same for every user.
One user's failed log-ins would then count against everybody, and the per-address limit would lock
the whole site out at once. With BEHIND_PROXY, the settings point AXES_CLIENT_IP_CALLABLE here.
"""

from __future__ import annotations

import ipaddress


def client_address(request) -> str | None:
    """The last address of X-Forwarded-For, else REMOTE_ADDR.

    The last entry is the one our proxy wrote: nginx replaces the header with the address that
    connected to it, and a proxy that appends instead still puts its own client last. Entries before
    it came from the client and could say anything. Not an address (no proxy wrote it): REMOTE_ADDR.
    """
    forwarded = request.META.get("HTTP_X_FORWARDED_FOR", "").rsplit(",", 1)[-1].strip()
    try:
        return str(ipaddress.ip_address(forwarded))
    except ValueError:
        return request.META.get("REMOTE_ADDR")
