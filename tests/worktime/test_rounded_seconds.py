"""Active seconds as every place that lists work gives them: whole seconds, the same on the API's
assignments, the progress page's CSV and total, and the dashboard (a running total of float
additions carries noise, e.g. 754.3000000000001, which the API once gave as it was)."""

import pytest
from django.urls import reverse
from django.utils import timezone

from annotator.models import PeerAnnotation, WorkTime
from annotator.worktime.queries import whole_seconds

pytestmark = pytest.mark.django_db

NOISY = 754.3000000000001  # 12 min 34.3 s, with the noise of a sum of floats


@pytest.fixture
def noisy(demo):
    """The annotator's annotation of their assigned peer 1, with a noisy active time stored."""
    annotation = PeerAnnotation.objects.create(
        pyramid=demo["pyramid"], peer=demo["annotations"]["1"].peer, annotator=demo["annotator"]
    )
    now = timezone.now()
    WorkTime.objects.create(
        user=demo["annotator"],
        annotation=annotation,
        active_seconds=NOISY,
        actions=2,
        first_action_at=now,
        last_action_at=now,
    )
    assert WorkTime.objects.get().active_seconds == NOISY  # stored with its noise
    return demo


def test_whole_seconds():
    assert [whole_seconds(s) for s in (None, 0.0, NOISY, 12.5, 13.5, 0.4)] == [
        None,
        0,
        754,
        12,  # to the even second, as round() does
        14,
        0,
    ]


def test_the_api_gives_whole_seconds(client, noisy):
    client.force_login(noisy["admin"])
    data = client.get("/api/assignments/").json()
    rows = data["results"] if isinstance(data, dict) else data
    seconds = {r["user"]: r["active_seconds"] for r in rows}
    assert seconds == {"annotator": 754, "other_annotator": None}
    assert isinstance(seconds["annotator"], int)


def test_the_schema_says_whole_seconds(client, noisy):
    client.force_login(noisy["admin"])
    schema = client.get("/api/schema/?format=json").json()
    field = schema["components"]["schemas"]["Assignment"]["properties"]["active_seconds"]
    assert field["type"] == "integer"
    assert field["nullable"] is True
    assert "whole seconds" in field["description"]


def test_the_progress_csv_and_total_agree_with_the_api(client, noisy):
    client.force_login(noisy["organizer"])
    url = reverse("collection-progress", args=[noisy["collection"].pk])
    lines = b"".join(client.get(url + "?sort=time&format=csv").streaming_content).decode()
    assert lines.splitlines()[1].endswith(",754")
    page = client.get(url).content.decode()
    assert "13 min active" in page  # 754 s: 12.57 min, shown to the minute


def test_the_dashboard_shows_the_same_time(client, noisy):
    client.force_login(noisy["annotator"])
    page = client.get(reverse("home")).content.decode()
    assert '<td class="num">13 min</td>' in page
    assert "13 min active" in page
