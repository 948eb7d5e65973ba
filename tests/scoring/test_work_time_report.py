"""The report "Time on task" (scoring.reports.work_time.work_time_report, issue 20) and work in
progress:
only submitted work by default, as the other reports count it, with the work in progress left out
said (found by a tester: it was left out silently, and the pyramids in progress were counted
anyway); counted too when asked, with the checkbox of its page."""

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from annotator.models import PeerAnnotation
from annotator.worktime.recording import record
from scoring.models import Report
from scoring.reports.work_time import work_time_report
from tests.helpers import empty_pyramid

pytestmark = pytest.mark.django_db

CHECKBOX = '<input type="checkbox" name="include" value="in-progress"'


def worked(user, minutes, **work):
    """`user`'s actions on the work, `minutes` apart from an hour ago."""
    start = timezone.now() - timedelta(hours=1)
    for minute in minutes:
        record(user, now=start + timedelta(minutes=minute), **work)


@pytest.fixture
def timed(demo):
    """The annotator 12 min on their annotation of peer 1, in progress; the other annotator 2 min
    on theirs of peer 2, submitted; the annotator 6 min on a pyramid they build, in progress."""
    mine = PeerAnnotation.objects.create(
        pyramid=demo["pyramid"], peer=demo["annotations"]["1"].peer, annotator=demo["annotator"]
    )
    theirs = PeerAnnotation.objects.create(
        pyramid=demo["pyramid"],
        peer=demo["annotations"]["2"].peer,
        annotator=demo["other_annotator"],
    )
    worked(demo["annotator"], (0, 4, 8, 12), annotation_id=mine.pk)
    worked(demo["other_annotator"], (0, 2), annotation_id=theirs.pk)
    PeerAnnotation.objects.filter(pk=theirs.pk).update(status=PeerAnnotation.Status.SUBMITTED)
    building = empty_pyramid(demo, name="DEMO01-annotator", assign_to="annotator")
    worked(demo["annotator"], (0, 3, 6), pyramid_id=building.pk)
    assert mine.status == PeerAnnotation.Status.IN_PROGRESS
    return demo


def test_work_in_progress_is_left_out_by_default_and_said(timed):
    per_peer, per_pyramid, _ = work_time_report(timed["collection"], {})["tables"]
    assert per_peer["rows"] == [["other_annotator", 1, 2.0, 2.0, 0.0333]]
    assert (
        "1 peer annotation in progress left out (count work in progress to include it)."
        in (per_peer["note"])
    )
    assert "counted too" not in per_peer["note"]
    assert per_pyramid["rows"] == []  # the pyramid in progress was counted anyway
    assert (
        per_pyramid["note"]
        == "1 pyramid in progress left out (count work in progress to include it)."
    )


def test_work_in_progress_counted_when_asked_and_said(timed):
    result = work_time_report(timed["collection"], {"include_in_progress": True})
    per_peer, per_pyramid, _ = result["tables"]
    assert per_peer["rows"] == [
        ["annotator", 1, 12.0, 12.0, 0.2],
        ["other_annotator", 1, 2.0, 2.0, 0.0333],
    ]
    assert "Work in progress counted too: 1 peer annotation in progress." in per_peer["note"]
    assert per_pyramid["rows"] == [["annotator", 1, 6.0, 6.0, 0.1]]
    assert "Work in progress counted too: 1 pyramid in progress." in per_pyramid["note"]
    assert "left out (count" not in per_peer["note"] + per_pyramid["note"]


def test_nothing_in_progress_nothing_said(demo):
    per_peer, per_pyramid, _ = work_time_report(demo["collection"], {})["tables"]
    assert "in progress" not in per_peer["note"] + per_pyramid["note"]


@pytest.fixture
def organizer(client, timed, django_capture_on_commit_callbacks):
    client.force_login(timed["organizer"])
    url = reverse("collection-report", args=[timed["collection"].pk, "work-time"])

    def get(query=""):
        with django_capture_on_commit_callbacks(execute=True):  # queued, then computed
            client.get(url + query)
        return client.get(url + query).content.decode()

    return get


def test_the_page_counts_submitted_work_by_default_with_the_checkbox_unchecked(organizer):
    page = organizer()
    assert f"{CHECKBOX} data-auto-submit> work in progress too</label>" in page
    assert "1 peer annotation in progress left out" in page
    assert "1 pyramid in progress left out" in page
    assert "<td>annotator</td>" not in page
    # The default, explicitly: the report as stored was asked without work in progress.
    assert Report.objects.get(kind="work-time").parameters == {"include_in_progress": False}


def test_the_checkbox_checked_counts_work_in_progress(organizer):
    page = organizer("?include=in-progress")
    assert f"{CHECKBOX} checked data-auto-submit> work in progress too</label>" in page
    assert "Work in progress counted too: 1 peer annotation in progress." in page
    assert "<td>annotator</td>" in page
    assert Report.objects.get(kind="work-time").parameters == {"include_in_progress": True}


def test_reports_without_the_choice_have_no_checkbox(organizer, client, timed):
    page = client.get(
        reverse("collection-report", args=[timed["collection"].pk, "suggestions-taken"])
    ).content.decode()
    assert CHECKBOX not in page
