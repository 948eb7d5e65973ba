"""Active time where work is listed: the progress page (column, sort, totals, CSV), the dashboard,
the API's assignments and the "Time on task" report."""

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from annotator.models import PeerAnnotation
from annotator.worktime.queries import shown
from annotator.worktime.recording import record
from scoring.reports.work_time import work_time_report

pytestmark = pytest.mark.django_db


@pytest.fixture
def timed(demo):
    """The annotator 12 min on their annotation of peer 1 (three actions, a long pause left out);
    the other annotator 2 min on peer 2."""
    start = timezone.now() - timedelta(hours=1)
    mine = PeerAnnotation.objects.create(
        pyramid=demo["pyramid"], peer=demo["annotations"]["1"].peer, annotator=demo["annotator"]
    )
    theirs = PeerAnnotation.objects.create(
        pyramid=demo["pyramid"],
        peer=demo["annotations"]["2"].peer,
        annotator=demo["other_annotator"],
    )
    for minutes in (0, 4, 8, 12, 30):  # 30: after 18 min away, not counted
        record(demo["annotator"], annotation_id=mine.pk, now=start + timedelta(minutes=minutes))
    for minutes in (0, 2):
        record(
            demo["other_annotator"], annotation_id=theirs.pk, now=start + timedelta(minutes=minutes)
        )
    return mine, theirs


def test_shown():
    assert [shown(s) for s in (None, 0, 20, 12 * 60, 3 * 3600 + 5 * 60)] == [
        "—",
        "0 min",
        "< 1 min",
        "12 min",
        "3 h 05 min",
    ]


def test_progress_column_sort_and_total(client, demo, timed, django_assert_max_num_queries):
    client.force_login(demo["organizer"])
    url = reverse("collection-progress", args=[demo["collection"].pk])
    with django_assert_max_num_queries(17):
        page = client.get(url + "?sort=time").content.decode()
    assert "Active time</th>" in page
    assert "14 min active" in page  # the total
    assert page.index("12 min</td>") < page.index("2 min</td>")  # most first
    csv = b"".join(client.get(url + "?sort=time&format=csv").streaming_content).decode()
    lines = csv.splitlines()
    assert lines[0].endswith(",last_activity,active_seconds")
    assert lines[1].startswith("DEMO")
    assert lines[1].endswith(",720")
    assert lines[2].endswith(",120")


def test_dashboard_shows_the_annotator_s_own_time(client, demo, timed):
    client.force_login(demo["annotator"])
    page = client.get(reverse("home")).content.decode()
    assert '<td class="num">12 min</td>' in page
    assert "12 min active" in page
    assert ">2 min<" not in page
    assert "14 min" not in page


def test_api_assignments_carry_active_seconds(client, demo, timed, django_assert_max_num_queries):
    client.force_login(demo["admin"])
    with django_assert_max_num_queries(8):
        data = client.get("/api/assignments/?ordering=-active_seconds").json()
    rows = data["results"] if isinstance(data, dict) else data
    assert [r["active_seconds"] for r in rows[:2]] == [720, 120]


def test_report_time_per_annotator_and_against_agreement(demo, timed):
    mine, theirs = timed
    result = work_time_report(demo["collection"], {"include_in_progress": True})
    per_peer, per_pyramid, against = result["tables"]
    assert per_peer["rows"] == [
        ["annotator", 1, 12.0, 12.0, 0.2],
        ["other_annotator", 1, 2.0, 2.0, 0.0333],
    ]
    assert per_pyramid["rows"] == []
    # Peers 1 and 2 are annotated by the demo's annotator too (imported: no time of theirs).
    rows = {row[0]: row for row in against["rows"]}
    assert rows["annotator"][:4] == ["annotator", 1, 1, 12.0]
    assert rows["other_annotator"][:4] == ["other_annotator", 1, 1, 2.0]
    assert rows["demo"][1:4] == [2, 0, None]
    assert all(row[4] is not None for row in rows.values())  # the peers' mean alpha
    # Only submitted work without include_in_progress.
    assert work_time_report(demo["collection"], {})["tables"][0]["rows"] == []
