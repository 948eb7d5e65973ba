"""Merging annotators' annotations of one peer (against one pyramid) into a consensus annotation
(issue 8), as annotator.adjudication.pyramid_consensus does for pyramids.

The groups are the SCUs the sources matched, and "no SCU" (uid 0) for the content they matched to
nothing. For each, the adjudicator takes one source's PSEs of that SCU (copies, with
PSE.source pointing to the originals), or edits the consensus with the annotation page's operations
and keeps the SCU as edited. SCUs every source matched with exactly the same words are taken at the
start. Every choice is an ordinary edit (annotator.peer_annotation.editing, which never imports
this module): versioned, undoable, in the history with who and when, and with a `decision`; an SCU
is decided while that change is applied.
"""

from __future__ import annotations

from collections import defaultdict

from django.db import transaction

from annotator.adjudication.models import AnnotationMerge
from annotator.campaigns.access import can_adjudicate
from annotator.editing import history
from annotator.editing.errors import NotAllowed, RuleBroken
from annotator.editing.models import PeerAnnotationChange
from annotator.peer_annotation import editing as peer_editing
from annotator.peer_annotation.models import PSE, PeerAnnotation, PSESpan
from annotator.pyramids.models import Pyramid
from annotator.text.plurals import counted

CONSENSUS_CODE = "consensus"
EDITED, IDENTICAL = "edited", "identical"


def readings_of(sources: list[PeerAnnotation]) -> dict[int, dict[int, list]]:
    """{SCU uid (0: none): {source id: its PSEs of that SCU, each as its sorted spans}}
    (2 queries)."""
    spans = defaultdict(list)
    for pse_id, start, end in PSESpan.objects.filter(pse__annotation__in=sources).values_list(
        "pse_id", "start", "end"
    ):
        spans[pse_id].append((start, end))
    readings: dict[int, dict[int, list]] = defaultdict(lambda: {s.pk: [] for s in sources})
    for pse_id, annotation_id, uid in (
        PSE.objects.filter(annotation__in=sources)
        .order_by("position", "id")
        .values_list("pk", "annotation_id", "scu__uid")
    ):
        readings[uid or peer_editing.NO_SCU][annotation_id].append(sorted(spans[pse_id]))
    return readings


def readings(consensus: PeerAnnotation) -> dict[int, dict[int, list]]:
    """The consensus's groups: for each SCU the sources matched, how each source matched it."""
    return readings_of(list(merge_of(consensus).sources.order_by("annotator_code", "pk")))


def agree(per_source: dict[int, list]) -> bool:
    """Whether every source matched the SCU with the same words (in any order of PSEs)."""
    forms = [sorted(pses) for pses in per_source.values()]
    return all(form == forms[0] for form in forms[1:])


def existing(pyramid_id: int, peer_id: int) -> PeerAnnotation | None:
    return PeerAnnotation.objects.filter(
        pyramid_id=pyramid_id, peer_id=peer_id, merge__isnull=False
    ).first()


def start(sources: list[PeerAnnotation], user) -> PeerAnnotation:
    """A consensus annotation of the sources' peer (or the one already begun), with the SCUs every
    source matched alike already taken (one change in the history)."""
    if len(sources) < 2:
        raise RuleBroken("A consensus needs at least two annotations of the peer.")
    first = sources[0]
    if any((s.pyramid_id, s.peer_id) != (first.pyramid_id, first.peer_id) for s in sources):
        raise RuleBroken("The annotations are not of the same peer against the same pyramid.")
    if not can_adjudicate(user, first.pyramid.docset.collection_id):
        raise NotAllowed(
            "Merging annotations is for the collection's adjudicators and administrators."
        )
    if first.pyramid.status != Pyramid.Status.SUBMITTED:
        raise RuleBroken(
            "The pyramid is still being edited: peers are annotated against a submitted pyramid."
        )
    if AnnotationMerge.objects.filter(consensus__in=sources).exists():
        raise RuleBroken("A consensus cannot be one of its own sources.")
    found = existing(first.pyramid_id, first.peer_id)
    if found is not None:
        return found
    with transaction.atomic():
        consensus = PeerAnnotation.objects.create(
            pyramid_id=first.pyramid_id, peer_id=first.peer_id, annotator_code=CONSENSUS_CODE
        )
        merge = AnnotationMerge.objects.create(consensus=consensus, created_by=user)
        merge.sources.set(sources)
        alike = {
            uid: per_source for uid, per_source in readings_of(sources).items() if agree(per_source)
        }
        if alike:

            def take_alike(annotation):
                _copy(annotation, first.pk, list(alike))
                return (
                    f"Started the consensus: took the {counted(len(alike), 'SCU')} every "
                    "annotation matched alike"
                )

            peer_editing.run_edit(
                consensus.pk,
                user,
                None,
                "start_consensus",
                take_alike,
                decision={"groups": [str(uid) for uid in alike], "choice": IDENTICAL},
            )
        consensus.refresh_from_db()
    return consensus


def _copy(consensus: PeerAnnotation, source_id: int, uids: list[int]) -> int:
    """Copies of the source's PSEs of these SCUs at the end of the consensus; how many."""
    pses = (
        PSE.objects.filter(annotation_id=source_id).select_related("scu").order_by("position", "id")
    )
    chosen = [
        p for p in pses if (p.scu.uid if p.scu is not None else peer_editing.NO_SCU) in set(uids)
    ]
    last = max(consensus.pses.values_list("position", flat=True), default=0)
    copies = PSE.objects.bulk_create(
        PSE(
            annotation=consensus,
            scu_id=p.scu_id,
            comment=p.comment,
            position=last + 1 + i,
            source=p,
        )
        for i, p in enumerate(chosen)
    )
    copy_of = {p.pk: copy for p, copy in zip(chosen, copies)}
    PSESpan.objects.bulk_create(
        PSESpan(pse=copy_of[s.pse_id], start=s.start, end=s.end, position=s.position)
        for s in PSESpan.objects.filter(pse__in=chosen).order_by("pse_id", "position", "id")
    )
    return len(copies)


def merge_of(annotation: PeerAnnotation) -> AnnotationMerge:
    merge = AnnotationMerge.objects.filter(consensus=annotation).first()
    if merge is None:
        raise RuleBroken("This annotation is not a consensus: there is nothing to decide.")
    return merge


def _describe_uid(uid: int) -> str:
    return "Content matching no SCU" if uid == peer_editing.NO_SCU else f"SCU {uid}"


def choose(
    annotation_id: int, user, version: int | None, scu_uid: int, source_id: int
) -> peer_editing.PeerEditResult:
    """The consensus's PSEs of the SCU become copies of one source's PSEs of it (none, if that
    source did not match it)."""

    def apply(annotation):
        source = (
            merge_of(annotation).sources.filter(pk=source_id).select_related("annotator").first()
        )
        if source is None:
            raise RuleBroken(
                "That annotation is not one of this consensus's sources: reload the page."
            )
        of_scu = {"scu__uid": scu_uid} if scu_uid else {"scu__isnull": True}
        annotation.pses.filter(**of_scu).delete()
        count = _copy(annotation, source.pk, [scu_uid])
        who = source.annotator_label
        if not count:
            return f"{_describe_uid(scu_uid)}: left out, as annotator {who} matched nothing to it"
        return (
            f"{_describe_uid(scu_uid)}: chose annotator {who}'s reading "
            f"({count} PSE{'s' if count != 1 else ''})"
        )

    return peer_editing.run_edit(
        annotation_id,
        user,
        version,
        "adjudicate",
        apply,
        decision={"groups": [str(scu_uid)], "choice": source_id},
    )


def keep(
    annotation_id: int, user, version: int | None, scu_uid: int
) -> peer_editing.PeerEditResult:
    """The SCU is decided as the consensus has it now (after the adjudicator's edits)."""

    def apply(annotation):
        merge_of(annotation)
        of_scu = {"scu__uid": scu_uid} if scu_uid else {"scu__isnull": True}
        if not annotation.pses.filter(**of_scu).exists():  # say so, in case a reading was meant
            return (
                f"{_describe_uid(scu_uid)}: kept as edited, with no PSE of it in the consensus: "
                "it is left out"
            )
        return f"{_describe_uid(scu_uid)}: kept as edited"

    return peer_editing.run_edit(
        annotation_id,
        user,
        version,
        "adjudicate",
        apply,
        decision={"groups": [str(scu_uid)], "choice": EDITED},
    )


def decisions(annotation: PeerAnnotation) -> dict[str, PeerAnnotationChange]:
    """{SCU uid as a string: the applied change that decided it}."""
    return history.decisions(annotation.changes.all())


def undecided_scus(annotation: PeerAnnotation) -> list[int]:
    """The consensus's SCUs not decided yet (none for an ordinary annotation). Marking the
    annotation complete waits for them, so this lives with the editing, which cannot import this
    module (it builds on the editing)."""
    return peer_editing.undecided_scus(annotation)
