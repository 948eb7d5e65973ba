"""A refused request is one line in the server's log (issue 32: each 403 of a page's activity
report printed its traceback twice in the `rundemo` terminal); a server error keeps its
traceback."""

import io
import logging

import pytest
from django.urls import reverse

pytestmark = pytest.mark.django_db


@pytest.fixture
def server_log():
    """What the site's console handler (settings.LOGGING) writes, however many handlers print."""
    ours = [
        handler
        for handler in logging.getLogger().handlers
        if any(type(f).__name__ == "RefusalsOnOneLine" for f in handler.filters)
    ]
    assert len(ours) == 1
    stream = io.StringIO()
    previous = ours[0].setStream(stream)
    yield stream
    ours[0].setStream(previous)


def test_a_refused_activity_report_is_one_line(client, demo, server_log, settings):
    from annotator.models import PeerAnnotation

    settings.DEBUG = True  # as under rundemo, where Django's own handler printed it again
    submitted = PeerAnnotation.objects.get(pk=demo["annotations"]["1"].pk)
    client.force_login(demo["annotator"])
    answer = client.post(reverse("work-activity", args=["annotation", submitted.pk]))
    assert answer.status_code == 403
    lines = server_log.getvalue().splitlines()
    assert len(lines) == 1, lines
    assert "WARNING django.request: Forbidden (Permission denied)" in lines[0]
    assert "Traceback" not in server_log.getvalue()


def test_a_server_error_keeps_its_traceback(server_log):
    try:
        raise RuntimeError("boom")
    except RuntimeError:
        logging.getLogger("django.request").error(
            "Internal Server Error: /x/", exc_info=True, extra={"status_code": 500}
        )
    assert "Traceback" in server_log.getvalue()
    assert "RuntimeError: boom" in server_log.getvalue()
