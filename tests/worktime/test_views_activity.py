"""POST /work/<kind>/<pk>/activity/: a selection or a move on the page, recorded for those who may
edit the work now; refused to everyone else."""

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from annotator.models import PeerAnnotation, Pyramid, WorkTime

pytestmark = pytest.mark.django_db


@pytest.fixture
def annotation(demo):
    return PeerAnnotation.objects.create(
        pyramid=demo["pyramid"], peer=demo["annotations"]["1"].peer, annotator=demo["annotator"]
    )


def url(kind, pk):
    return reverse("work-activity", args=[kind, pk])


def test_the_annotator_s_selection_is_recorded(client, demo, annotation):
    client.force_login(demo["annotator"])
    assert client.post(url("annotation", annotation.pk)).status_code == 204
    assert client.post(url("annotation", annotation.pk)).status_code == 204
    row = WorkTime.objects.get()
    assert (row.user, row.annotation_id, row.actions) == (demo["annotator"], annotation.pk, 2)


def test_anonymous_is_sent_to_log_in(client, annotation):
    response = client.post(url("annotation", annotation.pk))
    assert response.status_code == 302
    assert "/login" in response["Location"]
    assert not WorkTime.objects.exists()


@pytest.mark.parametrize("who", ["other_annotator", "outsider", "organizer"])
def test_who_may_not_edit_is_refused(client, demo, annotation, who):
    """Another annotator (not assigned to it), a user with no role, an organizer (who reads)."""
    client.force_login(demo[who])
    assert client.post(url("annotation", annotation.pk)).status_code == 403
    assert not WorkTime.objects.exists()


def test_submitted_work_is_only_viewed(client, demo, annotation):
    PeerAnnotation.objects.filter(pk=annotation.pk).update(status=PeerAnnotation.Status.SUBMITTED)
    client.force_login(demo["annotator"])
    assert client.post(url("annotation", annotation.pk)).status_code == 403


def test_get_is_not_allowed_and_no_such_work_is_404(client, demo, annotation):
    client.force_login(demo["annotator"])
    assert client.get(url("annotation", annotation.pk)).status_code == 405
    assert client.post(url("annotation", 10**9)).status_code == 404
    assert client.post(url("summary", annotation.pk)).status_code == 404


def test_a_pyramid_builder_s_activity(client, demo):
    from tests.helpers import empty_pyramid

    pyramid = empty_pyramid(demo, assign_to="outsider")
    client.force_login(demo["outsider"])
    assert client.post(url("pyramid", pyramid.pk)).status_code == 204
    assert WorkTime.objects.get().pyramid_id == pyramid.pk
    client.force_login(demo["annotator"])
    assert client.post(url("pyramid", pyramid.pk)).status_code == 403


def test_csrf_is_checked(demo, annotation):
    from django.test import Client

    client = Client(enforce_csrf_checks=True)
    client.force_login(demo["annotator"])
    assert client.post(url("annotation", annotation.pk)).status_code == 403
    assert not WorkTime.objects.exists()


def test_the_pages_include_the_script_only_for_who_may_edit(client, demo, annotation):
    page = reverse("annotation-detail", args=[annotation.pk])
    client.force_login(demo["annotator"])
    assert url("annotation", annotation.pk) in client.get(page).content.decode()
    client.force_login(demo["organizer"])
    assert "worktime.js" not in client.get(page).content.decode()
    assert Pyramid.objects.filter(pk=demo["pyramid"].pk).exists()


@pytest.mark.parametrize(
    ("ago_ms", "seconds_before"),
    [("16000", 16), ("0", 0), ("-5", 0), ("999999", 60), ("nan-ish", 0), (None, 0)],
)
def test_a_report_counts_the_moment_of_the_activity(
    client, demo, annotation, ago_ms, seconds_before
):
    """Found by a tester: a report held back to the end of the page's 30-second interval was
    counted at the moment it was sent, so up to 30 s of idleness after the last action counted as
    active. The page says how long ago the activity was (ago_ms); more than a minute, or nonsense,
    is not believed."""
    client.force_login(demo["annotator"])
    before = timezone.now()
    data = {} if ago_ms is None else {"ago_ms": ago_ms}
    assert client.post(url("annotation", annotation.pk), data).status_code == 204
    after = timezone.now()
    row = WorkTime.objects.get()
    assert before - timedelta(seconds=seconds_before) <= row.last_action_at
    assert row.last_action_at <= after - timedelta(seconds=seconds_before)
