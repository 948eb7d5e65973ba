"""/healthz/: whether this app server can serve requests, for Docker's health checks and the stack
script (deploy/): the database answers and every migration is applied.

200 {"status": "ok"} when both hold; 503 with the reason otherwise (an app server started before the
migrations ran is not ready, however well gunicorn runs). No login: the checker has no account. The
view reads neither the session nor the user, so it sets no cookie and writes no session row; the
answer is never cached. The reasons name no host, table or error text (anyone may ask).
"""

from __future__ import annotations

from django.db import DatabaseError, connection
from django.http import JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe

from annotator.web.database import pending_migrations


@never_cache
@require_safe
def healthz(request):
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
        # Reads django_migrations and the migration files (imported once): ~8 ms on PostgreSQL.
        pending = pending_migrations()
    except DatabaseError:
        return JsonResponse(
            {"status": "unavailable", "reason": "the database does not answer"}, status=503
        )
    if pending:
        return JsonResponse(
            {
                "status": "unavailable",
                "reason": "migrations not applied",
                "pending_migrations": pending,
            },
            status=503,
        )
    return JsonResponse({"status": "ok"})
