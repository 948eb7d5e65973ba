"""Login throttling with two limits: django-axes' database handler, each count held to its own
limit.

Axes counts failed log-ins for each of its lockout parameters (AXES_LOCKOUT_PARAMETERS, here
[["username", "ip_address"], "ip_address"]) and compares the largest count with one limit. We want
two (issue 16):
- AXES_FAILURE_LIMIT (LOGIN_FAILURE_LIMIT, 5) failures for one user name from one address;
- LOGIN_ADDRESS_FAILURE_LIMIT (20) failures from one address, whatever the names — so someone who
  tries many names once each is throttled too, while people behind one shared address who each
  mistype a password once or twice are not.
Axes' maintainers advise a handler of one's own for different limits (jazzband/django-axes#661).
Either count at its limit locks the request out, with axes' own lockout page.
"""

from __future__ import annotations

from axes.handlers.database import AxesDatabaseHandler
from axes.helpers import get_cool_off, get_failure_limit
from django.conf import settings
from django.db.models import Sum
from django.shortcuts import render


class TwoLimitHandler(AxesDatabaseHandler):
    def _counts(self, request, credentials) -> tuple[int, int]:
        """Failures within the cool-off for this name from this address, and from this address."""
        per_name, per_address = self.get_user_attempts(
            request, credentials
        )  # AXES_LOCKOUT_PARAMETERS' order
        name_failures, address_failures = (
            attempts.aggregate(n=Sum("failures_since_start"))["n"] or 0
            for attempts in (per_name, per_address)
        )
        return name_failures, address_failures

    def get_failures(self, request, credentials=None) -> int:
        # Axes locks out when this reaches AXES_FAILURE_LIMIT: report the per-name count, raised to
        # that limit when the address has reached its own.
        per_name, per_address = self._counts(request, credentials)
        if per_address >= settings.LOGIN_ADDRESS_FAILURE_LIMIT:
            return max(per_name, get_failure_limit(request, credentials))
        return per_name

    def reset_user_attempts(self, request, credentials=None) -> int:
        # A successful log-in (AXES_RESET_ON_SUCCESS) forgets that name's failures from that address
        # only: the address's failures for other names still count, or one valid account would let
        # its holder reset the per-address count between batches of guesses.
        per_name, _per_address = self.filter_user_attempts(request, credentials)
        count, _ = per_name.delete()
        return count


def lockout_response(request, original_response=None, credentials=None):
    """Axes' lockout page (AXES_LOCKOUT_CALLABLE): templates/registration/locked_out.html (429),
    saying how many minutes to wait (axes itself offers an ISO 8601 duration, "PT15M")."""
    cool_off = get_cool_off(request)
    minutes = round(cool_off.total_seconds() / 60) if cool_off else None
    return render(
        request,
        "registration/locked_out.html",
        {"minutes": minutes},
        status=settings.AXES_HTTP_RESPONSE_CODE,
    )
