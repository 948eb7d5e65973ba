"""One line in the server's log for each refused request, not a traceback.

Django logs a 403 (PermissionDenied) or a 400 with the exception's traceback, and under DEBUG its
own console handler printed it again beside ours (issue 32: a page's refused activity report
printed two tracebacks in the `rundemo` terminal). A refusal is no fault of the server's: its
line says what and where; a 5xx keeps its traceback."""

from __future__ import annotations

import logging


class RefusalsOnOneLine(logging.Filter):
    """Drops the traceback of django.request records for answers below 500."""

    def filter(self, record: logging.LogRecord) -> bool:
        status = getattr(record, "status_code", None)
        if record.name.startswith("django.") and isinstance(status, int) and status < 500:
            record.exc_info = None
            record.exc_text = None
        return True
