"""Starting a peer annotation, the one way the Start button (assignment_start) and the API
(POST /api/peer-annotations/) do it: the peer must be of the pyramid's docset, assigned to the
annotator against that pyramid (or the annotator an administrator of the collection), and the
pyramid submitted; the new annotation is the annotator's own, in progress at version 1, and their
assignment is marked started (the progress page shows it in progress)."""

from __future__ import annotations

from django.db import IntegrityError, transaction

from annotator.campaigns import assignment_status
from annotator.campaigns.access import can_administer
from annotator.campaigns.models import Assignment, Summary
from annotator.editing.errors import NotAllowed, RuleBroken
from annotator.peer_annotation.models import PeerAnnotation
from annotator.pyramids.models import Pyramid


class StartRefused(RuleBroken):
    """A broken rule; `field` names what was sent at fault (None: the request as a whole)."""

    def __init__(self, message: str, field: str | None = None):
        super().__init__(message)
        self.field = field


def start_annotation(
    user, pyramid: Pyramid, peer: Summary, existing: bool = True
) -> tuple[PeerAnnotation, bool]:
    """The user's annotation of `peer` against `pyramid`, created if they have none (True with it
    then). With existing=False, an annotation already there is refused rather than opened.

    NotAllowed if the peer is not assigned to the user (an active assignment) and they do not
    administer the collection; StartRefused (a RuleBroken) for a peer of another docset, a pyramid
    still being edited, or (existing=False) an annotation already there."""
    if peer.docset_id != pyramid.docset_id:
        raise StartRefused("The peer is not of the pyramid's docset.", "peer")
    assigned = Assignment.objects.filter(
        user=user,
        task=Assignment.Task.ANNOTATE_PEER,
        pyramid=pyramid,
        peer=peer,
        status__in=Assignment.ACTIVE,
    ).exists()
    if not (assigned or can_administer(user, pyramid.docset.collection_id)):
        raise NotAllowed("That peer is not assigned to you against this pyramid.")
    if pyramid.status != Pyramid.Status.SUBMITTED:
        raise StartRefused(
            f"Pyramid {pyramid.name} is still being edited: annotate once it is submitted."
        )
    already = "You already have an annotation of this peer against this pyramid."
    mine = PeerAnnotation.objects.filter(pyramid=pyramid, peer=peer, annotator=user)
    try:
        with transaction.atomic():
            annotation = mine.first()
            if annotation is not None and not existing:
                raise StartRefused(already)
            created = annotation is None
            if annotation is None:
                annotation = PeerAnnotation.objects.create(
                    pyramid=pyramid, peer=peer, annotator=user
                )
            if assigned:
                assignment_status.mark_started(
                    Assignment.Task.ANNOTATE_PEER, pyramid.pk, peer.pk, user.pk
                )
    except IntegrityError:  # started meanwhile, in another tab or request
        if not existing:
            raise StartRefused(already) from None
        return start_annotation(user, pyramid, peer)
    return annotation, created
