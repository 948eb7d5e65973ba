"""Scores from the stored records: loads a whole collection in a fixed number of queries.

Four queries whatever the number of peers: the peer annotations, the SCU weights of their
pyramids, the pyramids' model counts, and every PSE's SCU. The annotations are read as plain
values (`ROW_VALUES`), not model instances, and what the annotations of one pyramid share is
computed once (`PyramidScorer`): issue 19, at 50x a DUC year (23,000 annotations) building the
instances took 2.2 s where their values take 0.15 s.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import asdict, dataclass
from itertools import accumulate

from django.db.models import Count, Exists, OuterRef, Q

from annotator.adjudication.models import AnnotationMerge, PyramidMerge, PyramidMergeSource
from annotator.campaigns.models import Collection
from annotator.peer_annotation.models import PSE, PeerAnnotation
from annotator.pyramids.models import SCU, Pyramid, PyramidModel
from scoring.scores.pyramid import (
    PeerScores,
    average_scu_count,
    comprehensive_score,
    max_weight,
    plain_number,
    ratio,
)


@dataclass(frozen=True)
class PeerScoreRow:
    annotation_id: int
    collection: str
    docset: str
    peer: str
    annotator: str
    status: (
        str  # PeerAnnotation.Status: "submitted", or "in_progress" (counted only when asked for)
    )
    pyramid: str
    pyramid_id: int
    weight_convention: str
    average_rounding: str
    scores: PeerScores
    # The peer's id as the annotation's file wrote it ("01" for system 1 in DUC 2006's D0647);
    # `peer` where the same. NIST's table (`to_duc`) writes it; the other layouts name the system.
    peer_as_written: str = ""

    def as_dict(self) -> dict:
        row = {k: v for k, v in asdict(self).items() if k not in ("scores", "peer_as_written")}
        row.update(asdict(self.scores))
        return row


def scu_weights(pyramid_ids, convention: str) -> dict[int, dict[int, int]]:
    """{pyramid id: {SCU id: weight}} under a weight convention (SCUQuerySet.with_weight), in one
    query."""
    weights: dict[int, dict[int, int]] = defaultdict(dict)
    for scu_id, pyramid_id, value in (
        SCU.objects.filter(pyramid_id__in=pyramid_ids)
        .order_by()
        .with_weight(convention)
        .values_list("id", "pyramid_id", "weight")
    ):
        weights[pyramid_id][scu_id] = value
    return weights


def model_counts(pyramid_ids) -> dict[int, int]:
    return dict(
        PyramidModel.objects.filter(pyramid_id__in=pyramid_ids)
        .order_by()
        .values("pyramid_id")
        .annotate(n=Count("id"))
        .values_list("pyramid_id", "n")
    )


# The order of every score table: collection, docset, peer, annotator, id.
SCORE_ORDER = (
    "pyramid__docset__collection__name",
    "pyramid__docset__name",
    "peer__author",
    "annotator_code",
    "id",
)


def in_score_order(annotations):
    """The annotations in the order of every score table (collection, docset, peer, annotator),
    with what a row names loaded along (one query, or one per page: /api/scores/), but not the
    texts (the peer's summary, the pyramid's trailer): a table shows none of them."""
    return (
        annotations.select_related("pyramid__docset__collection", "peer", "annotator")
        .defer(*UNSHOWN_TEXTS)
        .order_by(*SCORE_ORDER)
    )


# What score rows never show, left in the database (at 10× a DUC year, the peers' texts alone
# were 14 MB of every score table's query).
UNSHOWN_TEXTS = (
    "peer__text",
    "pyramid__trailer",
    "pyramid__start_document_regex",
    "pyramid__docset__collection__description",
    "scus_changed",
)

# What a score row names, read as plain values (`values_list(*ROW_VALUES)`): no text, no model
# instance. `named` turns such a tuple into a `Named` one.
ROW_VALUES = (
    "id",
    "pyramid_id",
    "annotator_code",
    "annotator__username",
    "status",
    "pyramid__name",
    "pyramid__docset__name",
    "pyramid__docset__collection__name",
    "pyramid__docset__collection__weight_convention",
    "pyramid__docset__collection__average_rounding",
    "peer__author",
    "peer_as_written",
)

# (id, pyramid id, annotator name, status, pyramid, docset, collection, weight convention,
# X_a rounding, peer, peer as written): what `score_rows` scores, whether read as values or from
# instances.
Named = tuple[int, int, str, str, str, str, str, str, str, str, str]


def named(values: tuple) -> Named:
    """A tuple of `ROW_VALUES` with its annotator named as PeerAnnotation.annotator_name names it:
    the imported annotator id, else the user's username, else ""."""
    pk, pyramid_id, code, username, *rest = values
    return (pk, pyramid_id, code or username or "", *rest)


def named_instance(annotation: PeerAnnotation) -> Named:
    """The same tuple from an annotation loaded by `in_score_order`."""
    pyramid = annotation.pyramid
    collection = pyramid.docset.collection
    return (
        annotation.id,
        annotation.pyramid_id,
        annotation.annotator_name,
        annotation.status,
        pyramid.name,
        pyramid.docset.name,
        collection.name,
        collection.weight_convention,
        collection.average_rounding,
        annotation.peer.author,
        annotation.peer_as_written,
    )


class PyramidScorer:
    """Every score of the annotations of one pyramid (scoring.scores.pyramid.score_peer's numbers,
    to the
    last bit: tests/scoring/test_score_rows.py), with what they share computed once: the weights
    sorted, X_a and Max(X_a), and Max(X) for every whole X as a running sum of the weights, where
    score_peer sorted them four times an annotation."""

    __slots__ = ("average", "max_modified", "model_count", "prefix", "weights")

    def __init__(self, weights: Mapping[int, int], model_count: int, rounding: str) -> None:
        ordered = sorted(weights.values(), reverse=True)
        self.weights = weights
        self.model_count = model_count
        self.average = average_scu_count(sum(ordered), model_count, rounding)
        self.max_modified = max_weight(ordered, self.average)
        # prefix[x] = Max(x) for a whole x (scoring.scores.pyramid.max_weight): the x largest
        # weights.
        self.prefix = list(accumulate(ordered, initial=0))

    def score(self, pse_scus: Iterable[int | None]) -> PeerScores:
        """score_peer(pse_scus, weights, model_count, rounding)."""
        per_scu: dict[int, int] = {}
        non_matching = 0
        for scu in pse_scus:
            if scu is None:
                non_matching += 1
            else:
                per_scu[scu] = per_scu.get(scu, 0) + 1
        weights = self.weights
        unknown = [scu for scu in per_scu if scu not in weights]
        if unknown:
            raise ValueError(f"PSEs name SCUs the pyramid does not have: {unknown[:5]}")
        unique = len(per_scu)
        pse_count = sum(per_scu.values()) + non_matching
        raw = sum(weights[scu] for scu in per_scu)
        max_original = self.prefix[min(pse_count, len(self.prefix) - 1)]
        # An empty summary scores 0, not 0/0 (scoring.scores.pyramid.original_score).
        original = ratio(raw, max_original) if pse_count else 0.0
        modified = ratio(raw, self.max_modified)
        coverage = None if modified is None else min(1.0, modified)
        return PeerScores(
            unique_scus=unique,
            repetitions=pse_count - non_matching - unique,
            non_matching=non_matching,
            pse_count=pse_count,
            raw_score=raw,
            model_count=self.model_count,
            average_scu_count=plain_number(self.average),
            max_original=max_original,
            max_modified=plain_number(self.max_modified),
            original=original,
            modified=modified,
            quality=original,
            coverage=coverage,
            comprehensive=comprehensive_score(original, coverage),
        )


def score_rows(rows: list[Named], annotations=None) -> list[PeerScoreRow]:
    """The score rows of annotations named by `rows` (`named`, `named_instance`), in their order,
    in three queries whatever their number: their pyramids' SCU weights, model counts, and their
    PSEs. `annotations`, the queryset the rows were read from, if they are all of it: then the
    queries name it rather than thousands of ids (at 50x a DUC year, the PSEs of 23,000 ids took
    0.6 s, of the subquery 0.25 s)."""
    if not rows:
        return []
    if annotations is None:
        pyramid_ids = {row[1] for row in rows}
        annotation_ids = [row[0] for row in rows]
        pses_query = PSE.objects.filter(annotation_id__in=annotation_ids)
    else:
        pyramid_ids = annotations.order_by().values("pyramid_id")
        pses_query = PSE.objects.filter(annotation__in=annotations.order_by().values("pk"))
    conventions = {row[7] for row in rows}
    weights = {c: scu_weights(pyramid_ids, c) for c in conventions}
    models = model_counts(pyramid_ids)
    pses: dict[int, list[int | None]] = defaultdict(list)
    for annotation_id, scu_id in pses_query.order_by().values_list("annotation_id", "scu_id"):
        pses[annotation_id].append(scu_id)
    scorers: dict[tuple[int, str, str], PyramidScorer] = {}
    scored = []
    for row in rows:
        pk, pyramid_id, rounding, convention = row[0], row[1], row[8], row[7]
        key = (pyramid_id, convention, rounding)
        scorer = scorers.get(key)
        if scorer is None:
            scorer = scorers[key] = PyramidScorer(
                weights[convention].get(pyramid_id, {}), models.get(pyramid_id, 0), rounding
            )
        scored.append(_score_row(row, scorer.score(pses[pk])))
    return scored


def _score_row(row: Named, scores: PeerScores) -> PeerScoreRow:
    pk, pyramid_id, annotator, status, pyramid, docset, collection, convention, rounding = row[:9]
    peer, written = row[9], row[10]
    return PeerScoreRow(
        annotation_id=pk,
        collection=collection,
        docset=docset,
        peer=peer,
        annotator=annotator,
        status=status,
        pyramid=pyramid,
        pyramid_id=pyramid_id,
        weight_convention=convention,
        average_rounding=rounding,
        scores=scores,
        peer_as_written=written or peer,
    )


def score_annotations(annotations) -> list[PeerScoreRow]:
    """Score every peer annotation of a queryset (of one collection or several), in the order of
    every score table (four queries)."""
    rows = [named(values) for values in annotations.order_by(*SCORE_ORDER).values_list(*ROW_VALUES)]
    return score_rows(rows, annotations)


def score_loaded_annotations(annotations: list[PeerAnnotation]) -> list[PeerScoreRow]:
    """Score annotations loaded by `in_score_order`, in three more queries whatever their number
    (their pyramids' SCU weights, model counts, and their PSEs)."""
    return score_rows([named_instance(annotation) for annotation in annotations])


def score_loaded(
    annotation: PeerAnnotation,
    pse_scu_ids: list[int | None],
    weights: dict[int, int],
    model_count: int,
) -> PeerScoreRow:
    """One annotation's row from records already loaded (no query if its pyramid's docset,
    collection, peer and annotator are): its PSEs' SCU ids, its pyramid's SCU weights under the
    collection's convention (SCUQuerySet.with_weight) and its number of models."""
    row = named_instance(annotation)
    return _score_row(row, PyramidScorer(weights, model_count, row[8]).score(pse_scu_ids))


# The query parameter that counts work in progress, the same on the scores page, its downloads and
# /api/scores/: ?include=in-progress (export_scores: --include-in-progress).
INCLUDE_PARAMETER, IN_PROGRESS_VALUE = "include", "in-progress"


def counted_annotations(
    annotations,
    adjudicated: bool = False,
    *,
    scored: bool = True,
    include_in_progress: bool = False,
):
    """The one rule for every score and statistic of peer annotations (issues 15 and 17): the
    scores page, its downloads, `export_scores`, /api/scores/, and every analysis (agreement,
    ranking, correlation, stability) pick their annotations here.

    Work in progress (issue 17): only submitted annotations count, unless `include_in_progress`
    (then each row says its status). Work in progress replaces nothing either: an annotation in
    progress against a consensus pyramid does not put its docset's other annotations out.

    Consensus work is a consensus annotation (a PeerAnnotation with a `merge`) and, for scores, an
    annotation against a consensus pyramid (a Pyramid with a `merge`: its weights are the
    consensus's).
    - Without `adjudicated`: the annotators' own work only; consensus work is left out (it is not
      independent, and would count a peer a third time beside its sources).
    - With `adjudicated`: submitted consensus work replaces its sources, and consensus work in
      progress is left out (with `include_in_progress` too). Of a peer with a complete consensus
      annotation, that one rather than the annotations merged into it; for scores, in a docset whose
      peers are annotated against a submitted consensus pyramid, only those annotations (and not
      those against a consensus pyramid merged, in turn, into a submitted one that has annotations).

    `scored=False` where what counts is what each annotator matched against one given pyramid
    (agreement between annotators, the stability of a named pyramid): there an annotation against
    a consensus pyramid is its annotator's own work, and only the rule on consensus annotations
    applies.
    """
    if not include_in_progress:
        annotations = annotations.filter(status=PeerAnnotation.Status.SUBMITTED)
    merged = AnnotationMerge.sources.through.objects.filter(
        annotationmerge__consensus__status=PeerAnnotation.Status.SUBMITTED
    ).values("peerannotation_id")
    if not scored:
        if not adjudicated:
            return annotations.filter(~_is_consensus_annotation())
        return annotations.exclude(
            merge__isnull=False, status=PeerAnnotation.Status.IN_PROGRESS
        ).exclude(pk__in=merged)
    if not adjudicated:
        return annotations.filter(~_is_consensus_annotation(), ~_against_consensus_pyramid())
    submitted = Pyramid.Status.SUBMITTED
    in_progress = (Q(merge__isnull=False) & ~Q(status=PeerAnnotation.Status.SUBMITTED)) | (
        Q(pyramid__merge__isnull=False) & ~Q(pyramid__status=submitted)
    )
    replacing = (
        PeerAnnotation.objects.all()
        if include_in_progress
        else PeerAnnotation.objects.filter(status=PeerAnnotation.Status.SUBMITTED)
    )
    adjudicated_docsets = replacing.filter(
        pyramid__merge__isnull=False, pyramid__status=submitted
    ).values("pyramid__docset_id")
    annotated_merges = PyramidMerge.objects.filter(
        consensus__status=submitted, consensus__peer_annotations__in=replacing.values("pk")
    )
    return (
        annotations.exclude(in_progress)
        .exclude(pyramid__docset_id__in=adjudicated_docsets, pyramid__merge__isnull=True)
        .exclude(pyramid_id__in=merged_pyramids(annotated_merges))
        .exclude(pk__in=merged)
    )


# Consensus work as NOT EXISTS rather than a LEFT JOIN on the merge tables (merge__isnull=True):
# PostgreSQL estimates the anti-join well, where the join (its tables often empty) made it expect
# one row and walk 23,000 annotations by nested loops (issue 19: 240 ms a page at 50× a DUC year).
def _is_consensus_annotation() -> Exists:
    return Exists(AnnotationMerge.objects.filter(consensus_id=OuterRef("pk")))


def _against_consensus_pyramid() -> Exists:
    return Exists(PyramidMerge.objects.filter(consensus_id=OuterRef("pyramid_id")))


def counted_pyramids(pyramids, adjudicated: bool = False, *, include_in_progress: bool = False):
    """The same rule for statistics of pyramids (agreement between their builders): only submitted
    pyramids count, unless `include_in_progress` (a pyramid still being built, perhaps still empty,
    is not its builder's answer yet). Without `adjudicated`, consensus pyramids are left out; with
    it, a submitted consensus pyramid replaces its sources and one in progress is left out (with
    `include_in_progress` too)."""
    if not include_in_progress:
        pyramids = pyramids.filter(status=Pyramid.Status.SUBMITTED)
    if not adjudicated:
        return pyramids.filter(merge__isnull=True)
    submitted = PyramidMerge.objects.filter(consensus__status=Pyramid.Status.SUBMITTED)
    return pyramids.exclude(merge__isnull=False, status=Pyramid.Status.IN_PROGRESS).exclude(
        pk__in=merged_pyramids(submitted)
    )


def pyramids_in_progress_left_out(
    pyramids, adjudicated: bool = False, include_in_progress: bool = False
) -> int:
    """How many of these pyramids are in progress and left out by `counted_pyramids`, that
    `include_in_progress` would count (0 with it), for pages and commands to say so (one query)."""
    if include_in_progress:
        return 0
    return (
        counted_pyramids(pyramids, adjudicated, include_in_progress=True)
        .filter(status=Pyramid.Status.IN_PROGRESS)
        .count()
    )


def merged_pyramids(merges):
    """The ids of the pyramids these merges merged (A, B, and any more), as one subquery."""
    return Pyramid.objects.filter(
        Q(pk__in=merges.values("source_a_id"))
        | Q(pk__in=merges.values("source_b_id"))
        | Q(pk__in=PyramidMergeSource.objects.filter(merge__in=merges).values("pyramid_id"))
    ).values("pk")


@dataclass(frozen=True)
class WorkCounts:
    """What a score table holds and what it leaves out, for pages and commands to say so."""

    submitted: int  # submitted annotations counted
    in_progress: int  # annotations in progress counted (with `include_in_progress` only), marked
    in_progress_left_out: int  # annotations in progress that `include_in_progress` would count
    left_out: int  # the rest: consensus work, or work that submitted consensus work replaces


def work_counts(
    annotations,
    adjudicated: bool = False,
    include_in_progress: bool = False,
    *,
    scored: bool = True,
    counted_by_status: Mapping[str, int] | None = None,
) -> WorkCounts:
    """How many of these annotations `counted_annotations` keeps, by status, and how many it
    leaves out and why (three queries, or two with `include_in_progress`: counts by status are
    cheaper than one aggregate over `pk IN (...)` subqueries, 140 ms at 50× a DUC year). A caller
    that read every counted annotation already gives their counts by status (one query less)."""
    status = PeerAnnotation.Status
    by_status = (
        counted_by_status
        if counted_by_status is not None
        else dict(
            counted_annotations(
                annotations, adjudicated, scored=scored, include_in_progress=include_in_progress
            )
            .order_by()
            .values_list("status")
            .annotate(n=Count("pk"))
        )
    )
    submitted = by_status.get(status.SUBMITTED, 0)
    in_progress = by_status.get(status.IN_PROGRESS, 0)
    waiting = (
        0
        if include_in_progress
        else counted_annotations(annotations, adjudicated, scored=scored, include_in_progress=True)
        .filter(status=status.IN_PROGRESS)
        .count()
    )
    total = annotations.order_by().count()
    return WorkCounts(submitted, in_progress, waiting, total - submitted - in_progress - waiting)


def collection_annotations(collection: Collection, docset: str | None = None):
    """Every peer annotation of a collection (or of one of its docsets, by name), before the
    rule."""
    annotations = PeerAnnotation.objects.filter(pyramid__docset__collection=collection)
    return annotations.filter(pyramid__docset__name=docset) if docset else annotations


def score_collection(
    collection: Collection,
    docset: str | None = None,
    adjudicated: bool = False,
    *,
    scored: bool = True,
    include_in_progress: bool = False,
) -> list[PeerScoreRow]:
    """The scores of the annotations `counted_annotations` keeps: submitted work (and work in
    progress, marked, with `include_in_progress`); without `adjudicated`, the annotators' own
    work; with it, the adjudicated work where there is some."""
    return score_annotations(
        counted_annotations(
            collection_annotations(collection, docset),
            adjudicated,
            scored=scored,
            include_in_progress=include_in_progress,
        )
    )
