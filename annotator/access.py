"""Who may see what. Staff (administrators, organizers) see everything; an annotator sees the
pyramids they built or are assigned to, and the peer annotations they made or are assigned to."""

from django.db.models import F, Q

from .models import Collection, PeerAnnotation, Pyramid


def visible_pyramids(user):
    pyramids = Pyramid.objects.all()
    if user.is_staff:
        return pyramids
    return pyramids.filter(Q(created_by=user) | Q(assignments__user=user)).distinct()


def visible_annotations(user):
    annotations = PeerAnnotation.objects.all()
    if user.is_staff:
        return annotations
    return annotations.filter(
        Q(annotator=user)
        | Q(pyramid__assignments__user=user, pyramid__assignments__task="peer",
            pyramid__assignments__peer=F("peer"))
    ).distinct()


def visible_collections(user):
    if user.is_staff:
        return Collection.objects.all()
    return Collection.objects.filter(
        Q(docsets__pyramids__in=visible_pyramids(user)) | Q(docsets__pyramids__peer_annotations__in=visible_annotations(user))
    ).distinct()


def can_edit_pyramid(user, pyramid) -> bool:
    """Staff, the pyramid's creator, and annotators assigned to build it may edit it."""
    if not (user and user.is_authenticated):
        return False
    if user.is_staff or (pyramid.created_by_id and pyramid.created_by_id == user.pk):
        return True
    return pyramid.assignments.filter(user=user, task="pyramid").exists()


def can_edit_annotation(user, annotation) -> bool:
    """Staff, the annotation's annotator, and annotators assigned to that peer may edit it."""
    if not (user and user.is_authenticated):
        return False
    if user.is_staff or (annotation.annotator_id and annotation.annotator_id == user.pk):
        return True
    return annotation.pyramid.assignments.filter(user=user, task="peer", peer_id=annotation.peer_id).exists()
