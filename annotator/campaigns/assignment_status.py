"""An assignment's status follows the work: started at its first edit, done when the pyramid or
the annotation is submitted, in progress again when an administrator reopens it."""

from django.db.models import Q

from annotator.campaigns.models import Assignment

Status = Assignment.Status


def _work(task: str, pyramid_id: int, peer_id: int | None = None, user_id: int | None = None):
    where = Q(task=task, pyramid_id=pyramid_id)
    if peer_id is not None:
        where &= Q(peer_id=peer_id)
    if user_id is not None:
        where &= Q(user_id=user_id)
    return Assignment.objects.filter(where)


def mark_started(
    task: str, pyramid_id: int, peer_id: int | None = None, user_id: int | None = None
) -> None:
    _work(task, pyramid_id, peer_id, user_id).filter(status=Status.ASSIGNED).update(
        status=Status.IN_PROGRESS
    )


def mark_done(
    task: str, pyramid_id: int, peer_id: int | None = None, user_id: int | None = None
) -> None:
    _work(task, pyramid_id, peer_id, user_id).filter(
        status__in=[Status.ASSIGNED, Status.IN_PROGRESS]
    ).update(status=Status.DONE)


def mark_reopened(
    task: str, pyramid_id: int, peer_id: int | None = None, user_id: int | None = None
) -> None:
    _work(task, pyramid_id, peer_id, user_id).filter(status=Status.DONE).update(
        status=Status.IN_PROGRESS
    )
