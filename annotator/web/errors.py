"""The answers to an error no view handled (config.urls' handler404 and handler500).

While the database cannot be reached (a restart, a failover) every page would fail: say so with a
503 and when to try again, not a generic 500 that reads like a bug. Nothing here may touch the
database: the pages are plain templates rendered without a request context (no user, no session).
"""

from __future__ import annotations

import sys

from django.http import HttpResponse, JsonResponse
from django.template import loader
from django.views import defaults

from annotator.web.database import database_unreachable

RETRY_AFTER_SECONDS = 30


def server_error(request):
    if database_unreachable(sys.exception()):
        message = (
            "The database is not answering; the site is back once it does. Your saved work is safe."
        )
        if request.path.startswith("/api/"):
            response = JsonResponse({"detail": message}, status=503)
        else:
            response = HttpResponse(loader.render_to_string("503.html"), status=503)
        response["Retry-After"] = str(RETRY_AFTER_SECONDS)
        return response
    if request.path.startswith("/api/"):
        return JsonResponse({"detail": "A server error occurred; it has been logged."}, status=500)
    return HttpResponse(loader.render_to_string("500.html"), status=500)


def not_found(request, exception):
    """An address no route matches: the API answers in JSON as everywhere else in it (its schema
    documents 404 as JSON), a page with the site's 404 page."""
    if request.path.startswith("/api/"):
        return JsonResponse({"detail": "Not found."}, status=404)
    return defaults.page_not_found(request, exception)
