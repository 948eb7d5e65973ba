"""annotator.worktime.recording: the gap rule, the first action, concurrency, the edit hook."""

import threading
from datetime import timedelta

import pytest
from django.db import connection
from django.utils import timezone

from annotator.editing.errors import EditError
from annotator.models import PeerAnnotation, WorkTime
from annotator.peer_annotation import editing as peer_editing
from annotator.worktime.recording import counted_seconds, record

pytestmark = pytest.mark.django_db


@pytest.fixture
def annotation(demo):
    return PeerAnnotation.objects.create(
        pyramid=demo["pyramid"], peer=demo["annotations"]["1"].peer, annotator=demo["annotator"]
    )


def test_the_first_action_makes_the_row_with_no_time_yet(demo, annotation):
    now = timezone.now()
    record(demo["annotator"], annotation_id=annotation.pk, now=now)
    row = WorkTime.objects.get()
    assert (row.actions, row.active_seconds) == (1, 0)
    assert row.first_action_at == row.last_action_at == now
    assert row.annotation_id == annotation.pk
    assert row.pyramid_id is None


def test_a_pause_up_to_the_gap_counts_a_longer_one_does_not(demo, annotation):
    start = timezone.now()
    user = demo["annotator"]
    record(user, annotation_id=annotation.pk, now=start)
    record(user, annotation_id=annotation.pk, now=start + timedelta(seconds=40))
    record(user, annotation_id=annotation.pk, now=start + timedelta(seconds=40, minutes=5))
    record(user, annotation_id=annotation.pk, now=start + timedelta(seconds=41, minutes=10))
    row = WorkTime.objects.get()
    assert row.actions == 4
    assert row.active_seconds == 40 + 300  # the last pause, 5 min 1 s, was away from the page
    assert row.first_action_at == start
    assert row.last_action_at == start + timedelta(seconds=41, minutes=10)


def test_a_late_action_does_not_move_the_last_one_back():
    assert counted_seconds(timedelta(seconds=-3)) == 0
    assert counted_seconds(timedelta(minutes=5)) == 300
    assert counted_seconds(timedelta(minutes=5, microseconds=1)) == 0


def test_users_and_pieces_of_work_have_their_own_rows(demo, annotation):
    record(demo["annotator"], annotation_id=annotation.pk)
    record(demo["admin"], annotation_id=annotation.pk)
    record(demo["annotator"], pyramid_id=demo["pyramid"].pk)
    assert WorkTime.objects.count() == 3


def test_a_pause_is_counted_once_for_the_work_acted_on_after_it(demo, annotation):
    """Found by a tester: 4 min on a pyramid, then back to a peer annotation, were counted on the
    pyramid and again on the peer (each piece of work timed its own pauses)."""
    start, user = timezone.now(), demo["annotator"]
    at = [start + timedelta(minutes=m) for m in (0, 1, 2, 4, 5)]
    record(user, annotation_id=annotation.pk, now=at[0])
    record(user, annotation_id=annotation.pk, now=at[1])  # 60 s on the peer
    record(user, pyramid_id=demo["pyramid"].pk, now=at[2])  # 60 s, the move, on the pyramid
    record(user, pyramid_id=demo["pyramid"].pk, now=at[3])  # 120 s on the pyramid
    record(user, annotation_id=annotation.pk, now=at[4])  # 60 s, the move back, on the peer
    peer = WorkTime.objects.get(annotation=annotation)
    pyramid = WorkTime.objects.get(pyramid=demo["pyramid"])
    assert (peer.active_seconds, pyramid.active_seconds) == (120, 180)
    # Every pause once: the first to the last action, 5 minutes.
    assert peer.active_seconds + pyramid.active_seconds == 300


def test_two_queries_an_action_once_the_row_is_made(demo, annotation, django_assert_num_queries):
    record(demo["annotator"], annotation_id=annotation.pk)
    # The user's last action, then the update that adds to the row (and locks it): no locked read
    # before it, no savepoint (issue 32: statements per action). (One UPDATE finding the last action
    # itself was tried: its expressions cost more CPU to build than the query they saved.)
    with django_assert_num_queries(2):
        record(demo["annotator"], annotation_id=annotation.pk)


def test_a_late_action_never_moves_the_last_action_back(demo, annotation):
    """The row's last action is the later of the two, whichever arrives first (the database's
    GREATEST, on PostgreSQL and SQLite alike)."""
    now = timezone.now()
    record(demo["annotator"], annotation_id=annotation.pk, now=now)
    record(demo["annotator"], annotation_id=annotation.pk, now=now - timedelta(seconds=5))
    row = WorkTime.objects.get(user=demo["annotator"], annotation=annotation)
    assert row.last_action_at == now
    assert row.actions == 2
    assert row.active_seconds == 0  # it arrived before the last action it knows of: no pause


@pytest.mark.django_db(transaction=True)
def test_concurrent_actions_are_all_counted(demo, annotation, postgresql_only):
    """Actions at once, the first ones included, from separate connections: none lost."""
    user, start = demo["annotator"], timezone.now()
    errors = []

    def act(i):
        try:
            record(user, annotation_id=annotation.pk, now=start + timedelta(seconds=i))
        except Exception as error:  # pragma: no cover - reported below
            errors.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=act, args=(i,)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    row = WorkTime.objects.get()
    assert row.actions == 8
    assert row.last_action_at == start + timedelta(seconds=7)


def test_an_edit_is_an_action_of_its_user(demo, annotation):
    peer_editing.assign(annotation.pk, demo["annotator"], 1, [(0, 9)], 1)
    row = WorkTime.objects.get()
    assert (row.user, row.annotation_id, row.actions) == (demo["annotator"], annotation.pk, 1)
    peer_editing.EDITOR.undo(annotation.pk, demo["annotator"], None)
    row.refresh_from_db()
    assert row.actions == 2


def test_a_refused_edit_records_nothing(demo, annotation):
    with pytest.raises(EditError):
        peer_editing.assign(annotation.pk, demo["outsider"], 1, [(0, 9)], 1)
    assert not WorkTime.objects.exists()
