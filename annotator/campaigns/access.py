"""Who may see and change what.

Roles (issue 6):
- Administrator: manages a collection's docsets, summaries, members and assignments, and may edit
  and reopen any of its pyramids and annotations. Site-wide through the group "Administrators"
  (permission annotator.administer_all_collections; superusers too), or per collection through a
  Membership with the role "administrator".
- Organizer: reads everything in a collection and exports its scores; edits nothing. Site-wide
  through the group "Organizers" (annotator.read_all_collections), or a Membership.
- Adjudicator: reads everything in a collection and compares annotators' work (a Membership).
- Annotator: a member who sees and works on only what is assigned to them: the pyramids they are
  assigned to build, and their own annotations of the peers assigned to them (with the submitted
  pyramid those are made against). A withdrawn assignment gives nothing.

Querysets filter in the database (subqueries, no per-row checks); the `can_*` checks take an
object whose collection is reachable (select_related it to save the query).
"""

from __future__ import annotations

from django.db.models import Exists, OuterRef, Q, QuerySet

from annotator.adjudication.models import AnnotationMerge, PyramidMerge
from annotator.campaigns.models import Assignment, Collection, Docset, Membership, Role, Summary
from annotator.peer_annotation.models import PeerAnnotation
from annotator.pyramids.models import Pyramid

ADMINISTER_ALL = "annotator.administer_all_collections"
READER_ROLES = [Role.ADMINISTRATOR, Role.ORGANIZER, Role.ADJUDICATOR]
READ_ALL = "annotator.read_all_collections"
ACTIVE = Assignment.ACTIVE


def _signed_in(user) -> bool:
    return bool(user and user.is_authenticated and user.is_active)


def is_site_administrator(user) -> bool:
    return _signed_in(user) and user.has_perm(ADMINISTER_ALL)


def reads_everything(user) -> bool:
    return _signed_in(user) and (user.has_perm(READ_ALL) or user.has_perm(ADMINISTER_ALL))


def _member_of(user, roles) -> QuerySet:
    return Membership.objects.filter(user=user, role__in=roles).values("collection_id")


def administered_collections(user) -> QuerySet[Collection]:
    if is_site_administrator(user):
        return Collection.objects.all()
    if not _signed_in(user):
        return Collection.objects.none()
    return Collection.objects.filter(pk__in=_member_of(user, [Role.ADMINISTRATOR]))


def readable_collections(user) -> QuerySet[Collection]:
    """Collections whose every record the user may read: administrators' and organizers'."""
    if reads_everything(user):
        return Collection.objects.all()
    if not _signed_in(user):
        return Collection.objects.none()
    return Collection.objects.filter(pk__in=_member_of(user, READER_ROLES))


def adjudicated_collections(user) -> QuerySet[Collection]:
    """Collections whose annotators' work the user compares and merges: administrators' and
    adjudicators' (as can_adjudicate)."""
    if is_site_administrator(user):
        return Collection.objects.all()
    if not _signed_in(user):
        return Collection.objects.none()
    return Collection.objects.filter(
        pk__in=_member_of(user, [Role.ADMINISTRATOR, Role.ADJUDICATOR])
    )


def _assigned(user, **where) -> QuerySet:
    return Assignment.objects.filter(user=user, status__in=ACTIVE, **where)


def visible_collections(user) -> QuerySet[Collection]:
    """Collections the user reads in full, and those where they have work assigned."""
    if reads_everything(user):
        return Collection.objects.all()
    if not _signed_in(user):
        return Collection.objects.none()
    return Collection.objects.filter(
        Q(pk__in=_member_of(user, READER_ROLES))
        | Q(pk__in=_assigned(user).values("pyramid__docset__collection_id"))
    )


def visible_docsets(user) -> QuerySet[Docset]:
    """Docsets of the collections the user reads, and those where they have work assigned."""
    if reads_everything(user):
        return Docset.objects.all()
    if not _signed_in(user):
        return Docset.objects.none()
    return Docset.objects.filter(
        Q(collection__in=readable_collections(user))
        | Q(pk__in=_assigned(user).values("pyramid__docset_id"))
    )


def visible_summaries(user) -> QuerySet[Summary]:
    """Summaries the user reads: all in their collections; for an annotator, the model summaries
    of the docsets they work on and the peers assigned to them (not the docset's other peers)."""
    if reads_everything(user):
        return Summary.objects.all()
    if not _signed_in(user):
        return Summary.objects.none()
    return Summary.objects.filter(
        Q(docset__collection__in=readable_collections(user))
        | Q(kind=Summary.Kind.MODEL, docset_id__in=_assigned(user).values("pyramid__docset_id"))
        | Q(pk__in=_assigned(user, task=Assignment.Task.ANNOTATE_PEER).values("peer_id"))
    )


def visible_assignments(user) -> QuerySet[Assignment]:
    """Every assignment in the collections the user reads; an annotator's own otherwise."""
    if reads_everything(user):
        return Assignment.objects.all()
    if not _signed_in(user):
        return Assignment.objects.none()
    return Assignment.objects.filter(
        Q(pyramid__docset__collection__in=readable_collections(user))
        | Q(pk__in=_assigned(user).values("pk"))
    )


def visible_pyramids(user) -> QuerySet[Pyramid]:
    pyramids = Pyramid.objects.all()
    if reads_everything(user):
        return pyramids
    if not _signed_in(user):
        return pyramids.none()
    return pyramids.filter(
        Q(docset__collection__in=readable_collections(user))
        | Q(pk__in=_assigned(user, task=Assignment.Task.BUILD_PYRAMID).values("pyramid_id"))
        | Q(
            status=Pyramid.Status.SUBMITTED,
            pk__in=_assigned(user, task=Assignment.Task.ANNOTATE_PEER).values("pyramid_id"),
        )
    )


def visible_annotations(user) -> QuerySet[PeerAnnotation]:
    annotations = PeerAnnotation.objects.all()
    if reads_everything(user):
        return annotations
    if not _signed_in(user):
        return annotations.none()
    own_assigned = Exists(
        _assigned(
            user,
            task=Assignment.Task.ANNOTATE_PEER,
            pyramid_id=OuterRef("pyramid_id"),
            peer_id=OuterRef("peer_id"),
        )
    )
    return annotations.filter(
        Q(pyramid__docset__collection__in=readable_collections(user))
        | (Q(annotator=user) & own_assigned)
    )


def can_administer(user, collection: Collection | int) -> bool:
    collection_id = collection if isinstance(collection, int) else collection.pk
    if is_site_administrator(user):
        return True
    return (
        _signed_in(user)
        and Membership.objects.filter(
            user=user, collection_id=collection_id, role=Role.ADMINISTRATOR
        ).exists()
    )


def can_read_collection(user, collection: Collection | int) -> bool:
    collection_id = collection if isinstance(collection, int) else collection.pk
    if reads_everything(user):
        return True
    return (
        _signed_in(user)
        and Membership.objects.filter(
            user=user, collection_id=collection_id, role__in=READER_ROLES
        ).exists()
    )


def can_adjudicate(user, collection: Collection | int) -> bool:
    """Comparing and merging annotators' work: the collection's administrators and adjudicators."""
    collection_id = collection if isinstance(collection, int) else collection.pk
    if not _signed_in(user):
        return False
    # Members first: a site administrator's permissions are read only where the membership says
    # no (an adjudicator's decision never needs them, issue 32).
    return Membership.objects.filter(
        user=user, collection_id=collection_id, role__in=[Role.ADMINISTRATOR, Role.ADJUDICATOR]
    ).exists() or is_site_administrator(user)


def build_assignment_statuses(user, pyramid: Pyramid) -> set[str]:
    """The statuses of the user's active assignments to build `pyramid` (none: not assigned)."""
    if not _signed_in(user):
        return set()
    return set(
        _assigned(user, task=Assignment.Task.BUILD_PYRAMID, pyramid=pyramid).values_list(
            "status", flat=True
        )
    )


def can_edit_pyramid(user, pyramid: Pyramid) -> bool:
    """The collection's administrators, the annotators assigned to build this pyramid, and for a
    consensus pyramid (issue 8) the collection's adjudicators."""
    if not _signed_in(user):
        return False
    if _assigned(user, task=Assignment.Task.BUILD_PYRAMID, pyramid=pyramid).exists():
        return True
    return can_edit_pyramid_unassigned(user, pyramid)


def can_edit_pyramid_unassigned(user, pyramid: Pyramid) -> bool:
    """`can_edit_pyramid` for a user known not to be assigned to build it (as the edits' check
    knows, having read their assignments): the collection's administrators, and for a consensus
    pyramid its adjudicators, in one query (issue 32: three, after the assignment's again); site
    administrators by their permissions, read only for a user who is neither (an adjudicator's
    decision never needs them)."""
    if not _signed_in(user):
        return False
    consensus = Exists(PyramidMerge.objects.filter(consensus=pyramid))
    return (
        Membership.objects.filter(user=user, collection_id=pyramid.docset.collection_id)
        .filter(Q(role=Role.ADMINISTRATOR) | (Q(role=Role.ADJUDICATOR) & Q(consensus)))
        .exists()
    ) or is_site_administrator(user)


def can_edit_annotation(user, annotation: PeerAnnotation) -> bool:
    """The collection's administrators, and the annotation's own annotator while assigned to it."""
    if not _signed_in(user):
        return False
    if (
        annotation.annotator_id == user.pk
        and _assigned(
            user,
            task=Assignment.Task.ANNOTATE_PEER,
            pyramid_id=annotation.pyramid_id,
            peer_id=annotation.peer_id,
        ).exists()
    ):
        return True
    if can_administer(user, annotation.pyramid.docset.collection_id):
        return True
    return AnnotationMerge.objects.filter(consensus=annotation).exists() and can_adjudicate(
        user, annotation.pyramid.docset.collection_id
    )


def can_reopen(user, record: Pyramid | PeerAnnotation) -> bool:
    """Reopening submitted work is for the collection's administrators."""
    pyramid = record if isinstance(record, Pyramid) else record.pyramid
    return can_administer(user, pyramid.docset.collection_id)
