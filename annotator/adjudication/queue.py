"""The adjudication queue (issue 15): the pairs of pyramids and the peers annotated by two or more
annotators (against one pyramid) that wait for a consensus, with the state of their consensus.

- A pair of pyramids waits when both are submitted annotators' pyramids (not consensus pyramids)
  of one docset, built from the same model summaries (the same words in the same order, as the
  comparison aligns them: separate DUCView files of one docset may name the same models "1",
  "1.txt" and "TCstudent1"). A consensus already made of a pair is listed whatever its sources'
  state.
- A peer waits when at least two annotators' annotations of it against one pyramid are submitted;
  its consensus annotation (one per peer and pyramid) is listed whatever the sources' state.

States: not started, in progress, submitted (the consensus's status). Everything is loaded in five
queries whatever the number of docsets, pyramids and annotations.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import combinations

from django.db.models import Exists, OuterRef, QuerySet
from django.urls import reverse

from annotator.adjudication.aligned_pyramids import comparable_words
from annotator.adjudication.models import PyramidMerge, PyramidMergeSource
from annotator.campaigns.models import Assignment
from annotator.peer_annotation.models import PeerAnnotation
from annotator.pyramids.models import Pyramid, PyramidModel

NOT_STARTED, IN_PROGRESS, SUBMITTED = "not_started", "in_progress", "submitted"
STATE_LABELS = {NOT_STARTED: "Not started", IN_PROGRESS: "In progress", SUBMITTED: "Submitted"}
STATE_ORDER = {IN_PROGRESS: 0, NOT_STARTED: 1, SUBMITTED: 2}
PAIR, PEER = "pyramids", "peer"


@dataclass
class QueueItem:
    kind: str  # PAIR or PEER
    collection_id: int
    collection: str
    docset_id: int
    docset: str
    state: str
    what: str  # "by-annotator + by-other" / "peer 1 against DEMO01"
    annotators: list[str] = field(default_factory=list)
    consensus_id: int | None = None
    consensus_name: str = ""
    a_id: int | None = None  # a pair's pyramids
    b_id: int | None = None
    pyramid_id: int | None = None  # a peer's pyramid and summary
    peer_id: int | None = None
    sort_peer: tuple = ()

    @property
    def state_label(self) -> str:
        # A consensus annotation is "marked complete" on its pages: the same word here.
        return (
            "Complete"
            if self.state == SUBMITTED and self.kind != PAIR
            else STATE_LABELS[self.state]
        )

    @property
    def url(self) -> str:
        """Where to continue (or read) the consensus; for a pair not started, its comparison."""
        if self.kind == PAIR:
            if self.consensus_id:
                return reverse("pyramid-merge", args=[self.consensus_id])
            return (
                reverse("pyramid-comparison", args=[self.docset_id])
                + f"?a={self.a_id}&b={self.b_id}"
            )
        return reverse("peer-comparison", args=[self.pyramid_id, self.peer_id])

    @property
    def start_url(self) -> str:
        if self.kind == PAIR:
            return reverse("pyramid-consensus-start", args=[self.docset_id])
        return reverse("peer-consensus-start", args=[self.pyramid_id, self.peer_id])


def _person(username, code) -> str:
    return code or username or "—"


def _peer_key(author: str) -> tuple:
    return (not author.isdigit(), int(author) if author.isdigit() else 0, author)


def queue(pyramids: QuerySet[Pyramid]) -> list[QueueItem]:
    """The queue of these pyramids' docsets (pass every pyramid of the docsets: e.g.
    Pyramid.objects.filter(docset__collection__in=...)), in progress first, then not started, then
    submitted; by collection, docset, pairs before peers, peers by number."""
    rows = list(
        pyramids.select_related("docset__collection", "created_by")
        .annotate(is_consensus=Exists(PyramidMerge.objects.filter(consensus_id=OuterRef("pk"))))
        .order_by("name", "pk")
    )
    by_id = {p.pk: p for p in rows}
    merges = [
        m
        for m in PyramidMerge.objects.filter(consensus_id__in=list(by_id)).values_list(
            "consensus_id", "source_a_id", "source_b_id"
        )
    ]
    further = defaultdict(list)  # a consensus of more than two: its C, D, ...
    for consensus_id, pyramid_id in (
        PyramidMergeSource.objects.filter(merge__consensus_id__in=list(by_id))
        .order_by("side")
        .values_list("merge__consensus_id", "pyramid_id")
    ):
        further[consensus_id].append(pyramid_id)
    models, words_of = defaultdict(list), {}
    for pyramid_id, summary_id, text in (
        PyramidModel.objects.filter(pyramid_id__in=list(by_id))
        .order_by("pyramid_id", "position", "id")
        .values_list("pyramid_id", "summary_id", "summary__text")
    ):
        if summary_id not in words_of:  # a summary shared by several pyramids is read once
            words_of[summary_id] = comparable_words(text)
        models[pyramid_id].append(words_of[summary_id])
    # Who built each pyramid: its creator, else the imported creator code, else whom it is
    # assigned to.
    builders = defaultdict(list)
    for pyramid_id, username in (
        Assignment.objects.filter(
            pyramid_id__in=list(by_id),
            task=Assignment.Task.BUILD_PYRAMID,
            status__in=Assignment.ACTIVE,
        )
        .order_by("user__username")
        .values_list("pyramid_id", "user__username")
    ):
        builders[pyramid_id].append(username)

    def builder(p: Pyramid) -> str:
        return (
            (p.created_by.username if p.created_by else "")
            or p.creator_code
            or ", ".join(builders[p.pk])
            or "—"
        )

    items = []

    def base(pyramid: Pyramid, **kwargs) -> QueueItem:
        docset = pyramid.docset
        return QueueItem(
            collection_id=docset.collection_id,
            collection=docset.collection.name,
            docset_id=docset.pk,
            docset=docset.name,
            **kwargs,
        )

    def merged(sources: Sequence[Pyramid], **kwargs) -> QueueItem:
        return base(
            sources[0],
            kind=PAIR,
            what=" + ".join(p.name for p in sources),
            a_id=sources[0].pk,
            b_id=sources[1].pk,
            annotators=[builder(p) for p in sources],
            **kwargs,
        )

    # A consensus of A, B and C settles each of their pairs.
    merged_pairs: set[frozenset[int]] = set()
    for consensus_id, a_id, b_id in merges:
        consensus = by_id[consensus_id]
        source_ids = (a_id, b_id, *further[consensus_id])
        if any(pk not in by_id for pk in source_ids):
            continue
        sources = [by_id[pk] for pk in source_ids]
        merged_pairs.update(frozenset(pair) for pair in combinations([p.pk for p in sources], 2))
        items.append(
            merged(
                sources,
                state=consensus.status,
                consensus_id=consensus.pk,
                consensus_name=consensus.name,
            )
        )
    ready = defaultdict(list)
    for p in rows:
        if not p.is_consensus and p.status == Pyramid.Status.SUBMITTED:
            ready[(p.docset_id, tuple(models[p.pk]))].append(p)
    for candidates in ready.values():
        for a, b in combinations(candidates, 2):
            if frozenset((a.pk, b.pk)) not in merged_pairs:
                items.append(merged([a, b], state=NOT_STARTED))

    # (pyramid, peer, peer's author) -> its annotators' (name, status); and its consensus's
    # (pk, status)
    groups: defaultdict[tuple[int, int, str], list[tuple[str, str]]] = defaultdict(list)
    consensus_of: dict[tuple[int, int, str], tuple[int, str]] = {}
    for pk, pyramid_id, peer_id, author, username, code, status, merge_id in (
        PeerAnnotation.objects.filter(pyramid_id__in=list(by_id))
        .order_by("annotator_code", "pk")
        .values_list(
            "pk",
            "pyramid_id",
            "peer_id",
            "peer__author",
            "annotator__username",
            "annotator_code",
            "status",
            "merge__id",
        )
    ):
        key = (pyramid_id, peer_id, author)
        if merge_id is not None:
            consensus_of[key] = (pk, status)
        else:
            groups[key].append((_person(username, code), status))
    for key, readers in groups.items():
        pyramid_id, peer_id, author = key
        found = consensus_of.get(key)
        submitted = sum(1 for _, status in readers if status == PeerAnnotation.Status.SUBMITTED)
        if found is None and (
            submitted < 2 or by_id[pyramid_id].status != Pyramid.Status.SUBMITTED
        ):
            continue
        pyramid = by_id[pyramid_id]
        items.append(
            base(
                pyramid,
                kind=PEER,
                what=f"peer {author} against {pyramid.name}",
                annotators=[name for name, _ in readers],
                state=found[1] if found else NOT_STARTED,
                consensus_id=found[0] if found else None,
                pyramid_id=pyramid_id,
                peer_id=peer_id,
                sort_peer=(pyramid.name, _peer_key(author)),
            )
        )
    items.sort(
        key=lambda i: (
            STATE_ORDER[i.state],
            i.collection,
            i.docset,
            i.kind != PAIR,
            i.sort_peer,
            i.what,
        )
    )
    return items


def counts(items: list[QueueItem]) -> dict[str, int]:
    found = {state: 0 for state in STATE_LABELS}
    for item in items:
        found[item.state] += 1
    return found


def consensuses_of_pair(a: Pyramid, b: Pyramid) -> list[Pyramid]:
    """The consensus pyramids already made of this pair (in either order), oldest first."""
    return consensuses_of([a, b])


def consensuses_of(pyramids: list[Pyramid]) -> list[Pyramid]:
    """The consensus pyramids already made of exactly these pyramids (in any order), oldest
    first."""
    wanted = {p.pk for p in pyramids}
    candidates = (
        PyramidMerge.objects.filter(source_a__in=wanted, source_b__in=wanted)
        .select_related("consensus")
        .prefetch_related("further_sources")
        .order_by("consensus_id")
    )
    return [
        m.consensus
        for m in candidates
        if {m.source_a_id, m.source_b_id, *(f.pyramid_id for f in m.further_sources.all())}
        == wanted
    ]
