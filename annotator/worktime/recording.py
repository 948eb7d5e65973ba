"""Recording an action: the user's WorkTime row on the piece of work gets the time since their last
action, on this or any other piece of work, added when that pause is at most ACTIVE_GAP, one more
action, and the action's time as the last one; the row is made on the first action. So each pause
is counted once, for the work the user then acts on: a user who goes from one peer to another and
back is not also credited, on the first peer, with the time spent on the second (found by a tester:
4 minutes on a pyramid were counted on the peer annotation resumed after it too).

Race-free under concurrent requests: the row is written by one UPDATE that adds to what is there
(and locks it), so two actions of one user on one piece of work are added one after the other; two
first actions at once meet the unique constraint (worktime_unique_pyramid /
worktime_unique_annotation): the one that loses adds itself to the row the other made. Two queries
an action (the user's last action anywhere, then the write), on PostgreSQL and SQLite alike.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.db import IntegrityError, transaction
from django.db.models import F, Max, Value
from django.db.models.functions import Greatest
from django.utils import timezone

from annotator.peer_annotation.models import PeerAnnotation
from annotator.pyramids.models import Pyramid
from annotator.worktime.models import WorkTime


def counted_seconds(pause: timedelta) -> float:
    """What a pause between two actions adds: all of it up to ACTIVE_GAP, nothing beyond (the user
    was away), nothing if negative (two servers' clocks a little apart)."""
    if timedelta(0) <= pause <= WorkTime.ACTIVE_GAP:
        return pause.total_seconds()
    return 0.0


def record(
    user,
    *,
    pyramid_id: int | None = None,
    annotation_id: int | None = None,
    now: datetime | None = None,
) -> None:
    """One action of `user` on a pyramid or (exclusively) a peer annotation, at `now`."""
    assert (pyramid_id is None) != (annotation_id is None), "one piece of work"
    now = now or timezone.now()
    work = (
        {"pyramid_id": pyramid_id} if pyramid_id is not None else {"annotation_id": annotation_id}
    )
    rows = WorkTime.objects.filter(user=user, **work)
    # The user's last action before this one, on whatever work: the pause since then is this
    # work's (an action that arrives late, its `now` before that, counts nothing).
    latest = WorkTime.objects.filter(user=user, last_action_at__lte=now).aggregate(
        last=Max("last_action_at")
    )["last"]
    since = counted_seconds(now - latest) if latest else 0.0
    # One UPDATE, which locks the row itself: two actions on one work are added one after the
    # other. An action that arrives late does not move the last action back.
    added = {
        "active_seconds": F("active_seconds") + since,
        "actions": F("actions") + 1,
        "last_action_at": Greatest(F("last_action_at"), Value(now)),
    }
    if rows.update(**added):
        return
    try:
        with transaction.atomic():  # a savepoint: the loser of a race goes on below
            WorkTime.objects.create(
                user=user,
                first_action_at=now,
                last_action_at=now,
                actions=1,
                active_seconds=since,
                **work,
            )
    except IntegrityError:  # another first action made the row meanwhile: add to it
        rows.update(**added)


def record_action(work: object, user) -> None:
    """An edit, undo or redo of `work` (a pyramid, a peer annotation) by `user`: the edit engine's
    Editor.after_action, inside the edit's transaction (so a refused or failed edit records
    nothing). Nothing for an anonymous user."""
    if user is None or not user.is_authenticated:
        return
    if isinstance(work, Pyramid):
        record(user, pyramid_id=work.pk)
    elif isinstance(work, PeerAnnotation):
        record(user, annotation_id=work.pk)
