"""Agreement from the stored records: loads peer annotations and pyramids in bulk and hands the
units to scoring.agreement (Passonneau 2009 §4.1).

- Peers: every peer annotated two or more times against the same pyramid. Alpha per peer, per
  docset (the docset's units pooled) and over the whole collection (all units pooled), with the
  distances 1 - Dice (the paper's), Binary and Binary′ (Fig. 4).
- Pyramids: every docset with two or more pyramids of the same model summaries. Alpha per docset
  with MASI (both definitions), Jaccard and nominal distances.
- Scores: for each pair of annotators who annotated the same peers, Pearson's r of their scores
  with its 95% confidence interval (overall and per peer system), and the one-way ANOVA with
  annotator as the factor, the paper's acceptance test (§5.1).
"""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass, field
from itertools import combinations

from annotator.models import PSE, SCU, Collection, PeerAnnotation, Pyramid, PyramidModel, Span
from annotator.text.words import words
from scoring.agreement import (
    dice,
    grouped_alphas,
    jaccard,
    krippendorff_alpha,
    masi,
    masi_nltk,
    nominal,
    pyramid_alphas,
)
from scoring.agreement_units import peer_units, pse_values, scu_incidence
from scoring.records import (
    collection_annotations,
    counted_annotations,
    counted_pyramids,
    pyramids_in_progress_left_out,
)
from scoring.score_table import StoredRow, current_stored_rows
from scoring.statistics import anova_oneway, pearson

PEER_DISTANCES = {"dice": dice, "binary": nominal}
PYRAMID_DISTANCES = {"masi": masi, "masi_nltk": masi_nltk, "jaccard": jaccard, "nominal": nominal}


@dataclass
class PeerAgreement:
    docset: str
    peer: str
    pyramid: str
    annotators: list[str]
    units: int  # SCUs matched by at least one annotator
    alpha: dict[str, float]  # dice, binary, binary_reduced
    matched_jaccard: (
        float  # |SCUs both matched| / |SCUs either matched| (a plain overlap, for reading)
    )
    disagreements: list = field(
        default_factory=list
    )  # (SCU uid, label, PSEs each annotator found), where they differ


@dataclass
class PooledAgreement:
    scope: str  # a docset's name, or "all"
    peers: int
    units: int
    alpha: dict[str, float]


def _alphas(values, groups, count: int) -> list[dict[str, float]]:
    """Each group's alphas (1 - Dice, Binary, Binary′) over its units, `values` a row per unit of
    the PSE counts its annotators found (-1: no annotator there): scoring.agreement's
    grouped_alphas, every group at once; the values are pse_values(count), so a distance between
    two of them is one between their counts."""
    import numpy as np

    values = np.asarray(values, dtype=np.int64)
    sets = [pse_values(k) for k in range(max(int(values.max(initial=0)) + 1, 2))]
    reduced = np.minimum(values, 1)  # Binary′: found or not (-1 stays -1)
    found = {
        "dice": grouped_alphas(values, groups, count, dice(sets)),
        "binary": grouped_alphas(values, groups, count, nominal(sets)),
        "binary_reduced": grouped_alphas(reduced, groups, count, nominal(sets)),
    }
    return [{name: float(alphas[g]) for name, alphas in found.items()} for g in range(count)]


def peer_agreement(
    collection: Collection,
    docset: str | None = None,
    adjudicated: bool = False,
    *,
    include_in_progress: bool = False,
) -> tuple[list[PeerAgreement], list[PooledAgreement]]:
    """Per peer, then pooled per docset and over everything (three queries). The annotations are
    `counted_annotations(scored=False)`: submitted ones (and those in progress with
    `include_in_progress`); consensus annotations are not an annotator's independent
    work and stay out; with `adjudicated`, a complete one replaces its sources (leaving that peer
    one annotation, so out of agreement). Annotations against a consensus pyramid are their
    annotators' own matching, compared against that one pyramid: they count. Read as plain rows
    and the alphas computed for every peer and docset at once (issue 19)."""
    annotations = counted_annotations(
        PeerAnnotation.objects.filter(pyramid__docset__collection=collection),
        adjudicated,
        scored=False,
        include_in_progress=include_in_progress,
    )
    if docset:
        annotations = annotations.filter(pyramid__docset__name=docset)
    groups: dict[tuple[int, int], list[tuple]] = defaultdict(list)
    for row in annotations.order_by("pyramid_id", "peer_id", "annotator_code", "id").values_list(
        "id",
        "pyramid_id",
        "peer_id",
        "annotator_code",
        "annotator__username",
        "pyramid__docset__name",
        "peer__author",
        "pyramid__name",
    ):
        groups[(row[1], row[2])].append(row)
    groups = {key: group for key, group in groups.items() if len(group) >= 2}
    counts: dict[int, Counter] = defaultdict(Counter)
    wanted = [row[0] for group in groups.values() for row in group]
    for annotation_id, scu_id in PSE.objects.filter(
        annotation_id__in=wanted, scu__isnull=False
    ).values_list("annotation_id", "scu_id"):
        counts[annotation_id][scu_id] += 1
    peers: list[PeerAgreement] = []
    widest = max((len(group) for group in groups.values()), default=2)
    values: list[tuple[int, ...]] = []  # a row per unit: the PSEs each annotator found
    of_peer: list[int] = []  # its peer's index in `peers`
    for group in groups.values():
        pk, _, _, _, _, docset_name, author, pyramid_name = group[0]
        per_annotator = [counts[row[0]] for row in group]
        matched = [set(c) for c in per_annotator]
        union = set().union(*matched)
        rows = [tuple(c.get(scu, 0) for c in per_annotator) for scu in union]
        values += [row + (-1,) * (widest - len(row)) for row in rows]
        of_peer += [len(peers)] * len(rows)
        differing = sorted(scu for scu in union if len({c.get(scu, 0) for c in per_annotator}) > 1)
        peers.append(
            PeerAgreement(
                docset=docset_name,
                peer=author,
                pyramid=pyramid_name,
                annotators=[code or username or f"#{pk}" for pk, _, _, code, username, *_ in group],
                units=len(rows),
                alpha={},
                matched_jaccard=len(set.intersection(*matched)) / len(union) if union else 1.0,
                disagreements=[(scu, [c.get(scu, 0) for c in per_annotator]) for scu in differing],
            )
        )
    for p, alpha in zip(peers, _alphas(values, of_peer, len(peers))):
        p.alpha = alpha
    # Pooled: the units of a docset's peers, and of every peer ("all").
    scopes = sorted({p.docset for p in peers})
    index = {scope: i for i, scope in enumerate(scopes)}
    scope_of_peer = [index[p.docset] for p in peers]
    pooled = []
    if peers:
        by_scope = _alphas(values, [scope_of_peer[p] for p in of_peer], len(scopes))
        by_scope += _alphas(values, [0] * len(values), 1)
        peer_counts: Counter[str] = Counter()
        units: Counter[str] = Counter()
        for p in peers:
            peer_counts[p.docset] += 1
            units[p.docset] += p.units
        pooled = [
            PooledAgreement(
                scope=scope,
                peers=peer_counts[scope] if scope != "all" else len(peers),
                units=units[scope] if scope != "all" else len(values),
                alpha=alpha,
            )
            for scope, alpha in zip([*scopes, "all"], by_scope)
        ]
    found = {
        pk: (uid, label)
        for pk, uid, label in SCU.objects.filter(
            pk__in={scu for p in peers for scu, _ in p.disagreements}
        ).values_list("pk", "uid", "label")
    }
    for p in peers:
        p.disagreements = [(*found[scu], counts) for scu, counts in p.disagreements]
    peers.sort(key=lambda p: (p.docset, int(p.peer) if p.peer.isdigit() else 10**9, p.peer))
    return peers, pooled


def peer_alpha(annotation_ids: list[int]) -> float:
    """Alpha with 1 − Dice (Passonneau 2009 §4.1) for annotations of one peer against one pyramid:
    the units are the SCUs any of them matched (one query)."""
    counts: dict[int, Counter] = {pk: Counter() for pk in annotation_ids}
    for annotation_id, scu_id in PSE.objects.filter(
        annotation_id__in=annotation_ids, scu__isnull=False
    ).values_list("annotation_id", "scu_id"):
        counts[annotation_id][scu_id] += 1
    return krippendorff_alpha(peer_units([counts[pk] for pk in annotation_ids]), dice)


@dataclass
class PyramidAgreement:
    docset: str
    pyramids: list[str]
    annotators: list[str]
    units: int  # words that at least one annotator put in an SCU
    alpha: dict[str, float]
    in_progress: list[str] = field(
        default_factory=list
    )  # those of `pyramids` in progress (with include_in_progress only)


def _pyramid_annotator(pyramid: Pyramid) -> str:
    return pyramid.creator_code or (
        pyramid.created_by.username if pyramid.created_by is not None else pyramid.name
    )


def collection_pyramids(collection: Collection, docset: str | None = None):
    """Every pyramid of a collection (or of one of its docsets, by name), before the rule."""
    pyramids = Pyramid.objects.filter(docset__collection=collection)
    return pyramids.filter(docset__name=docset) if docset else pyramids


def pyramid_agreement(
    collection: Collection,
    docset: str | None = None,
    adjudicated: bool = False,
    *,
    include_in_progress: bool = False,
) -> tuple[list[PyramidAgreement], list[str]]:
    """Per docset with two or more pyramids; and the docsets left out, saying why (3 queries).
    The pyramids are `counted_pyramids`: submitted ones (and those in progress, named in each
    result, with `include_in_progress`: `pyramids_left_in_progress` counts those left out).
    Consensus pyramids are not independent work: left out, or with `adjudicated` in place of
    their sources."""
    pyramids = counted_pyramids(
        collection_pyramids(collection, docset),
        adjudicated,
        include_in_progress=include_in_progress,
    ).select_related("docset", "created_by")
    by_docset: dict[str, list[Pyramid]] = defaultdict(list)
    for pyramid in pyramids.order_by("docset__name", "name", "id"):
        by_docset[pyramid.docset.name].append(pyramid)
    by_docset = {name: group for name, group in by_docset.items() if len(group) >= 2}
    ids = [p.pk for group in by_docset.values() for p in group]
    loaded = _models_and_spans(ids)
    results, skipped = [], []
    for name, group in by_docset.items():
        try:
            units, alphas = _pyramid_alphas(group, loaded, list(PYRAMID_DISTANCES))
        except ValueError:
            skipped.append(
                f"{name}: its pyramids are not built from the same model summaries "
                "(their words differ)"
            )
            continue
        results.append(
            PyramidAgreement(
                docset=name,
                pyramids=[p.name for p in group],
                annotators=[_pyramid_annotator(p) for p in group],
                units=units,
                alpha=alphas,
                in_progress=[p.name for p in group if p.status == Pyramid.Status.IN_PROGRESS],
            )
        )
    return results, skipped


def pyramids_left_in_progress(
    collection: Collection,
    docset: str | None = None,
    adjudicated: bool = False,
    *,
    include_in_progress: bool = False,
) -> int:
    """How many pyramids in progress `pyramid_agreement` left out (0 with `include_in_progress`)."""
    return pyramids_in_progress_left_out(
        collection_pyramids(collection, docset), adjudicated, include_in_progress
    )


def _models_and_spans(ids) -> tuple[dict, dict, dict]:
    """Each pyramid's model summaries in order; each summary's words; and each pyramid's
    contributor spans as an array of rows (summary, start, end, scu) (two queries, the spans read
    as plain rows: a collection has tens of thousands)."""
    import numpy as np

    models = defaultdict(list)
    words_of = {}  # summary -> its words, found once however many pyramids share it
    for link in (
        PyramidModel.objects.filter(pyramid_id__in=ids)
        .select_related("summary")
        .order_by("pyramid_id", "position")
    ):
        models[link.pyramid_id].append(link.summary)
        if link.summary_id not in words_of:
            words_of[link.summary_id] = words(link.summary.text)
    rows = np.array(
        Span.objects.filter(contributor__scu__pyramid_id__in=ids)
        .order_by()
        .values_list(
            "contributor__scu__pyramid_id", "summary_id", "start", "end", "contributor__scu_id"
        ),
        dtype=np.int64,
    ).reshape(-1, 5)
    rows = rows[np.argsort(rows[:, 0], kind="stable")]
    bounds = np.searchsorted(rows[:, 0], ids), np.searchsorted(rows[:, 0], ids, side="right")
    spans = {pk: rows[start:stop, 1:] for pk, start, stop in zip(ids, *bounds)}
    return models, words_of, spans


def _pyramid_alphas(
    group: list[Pyramid], loaded: tuple[dict, dict, dict], names: list[str]
) -> tuple[int, dict[str, float]]:
    """The units of §4.1.4 for pyramids of the same models, and their alphas (ValueError if
    their words differ)."""

    models, words_of, spans = loaded
    if any([m.pk for m in models[p.pk]] != [m.pk for m in models[group[0].pk]] for p in group):
        # Other summaries (texts that differ in whitespace, say): their words must be the same.
        texts = [
            [[m.text[s:e].lower() for s, e in words_of[m.pk]] for m in models[p.pk]] for p in group
        ]
        if any(t != texts[0] for t in texts[1:]):
            raise ValueError("the pyramids are not built from the same model summaries")
    incidences = []
    for p in group:
        mine = spans[p.pk]
        incidences.append(
            scu_incidence([(words_of[m.pk], mine[mine[:, 0] == m.pk, 1:]) for m in models[p.pk]])
        )
    return pyramid_alphas(incidences, names)


def pair_agreement(
    pyramids: list[Pyramid], names=("masi", "masi_nltk", "jaccard")
) -> dict[str, float]:
    """Alpha for these pyramids only (three queries); ValueError if their models differ."""
    ids = [p.pk for p in pyramids]
    return _pyramid_alphas(pyramids, _models_and_spans(ids), list(names))[1]


@dataclass
class ScoreAgreement:
    annotators: tuple[str, str]
    score: str  # "modified" or "original"
    scope: str  # "all", or a peer system
    n: int
    r: float
    p: (
        float | None
    )  # None, and the interval too, with three pairs (scoring.correlation.MIN_PAIRS_FOR_P)
    low: float | None
    high: float | None


@dataclass
class AnovaByAnnotator:
    score: str
    f: float
    p: float
    groups: dict[str, int]


def score_agreement(
    collection: Collection,
    docset: str | None = None,
    adjudicated: bool = False,
    *,
    include_in_progress: bool = False,
) -> tuple[list[ScoreAgreement], list[AnovaByAnnotator]]:
    """Pearson's r between annotators' scores of the same peers (overall and per peer system, where
    a system has three or more pairs), and the ANOVA with annotator as the factor (§5.1)."""
    # The stored mean scores, kept current (scoring.score_table.current_stored_rows): the fresh
    # scores, in the same order, without scoring the collection again.
    rows = current_stored_rows(
        counted_annotations(
            collection_annotations(collection, docset),
            adjudicated,
            scored=False,  # the annotations peer_agreement compares
            include_in_progress=include_in_progress,
        ),
        in_table_order=True,
    )
    by_item: defaultdict[tuple[str, str], dict[str, StoredRow]] = defaultdict(dict)
    for row in rows:
        by_item[(row.docset, row.peer)][row.annotator] = row.scores
    correlations, anovas = [], []
    for score in ("modified", "original"):
        pairs = defaultdict(list)  # (a, b) -> [(peer, x, y)]
        for (_, peer), by_annotator in by_item.items():
            for a, b in combinations(sorted(by_annotator), 2):
                x, y = getattr(by_annotator[a], score), getattr(by_annotator[b], score)
                if x is not None and y is not None:
                    pairs[(a, b)].append((peer, x, y))
        for annotators, values in sorted(pairs.items()):
            scopes = {"all": values}
            for peer in sorted(
                {p for p, _, _ in values},
                key=lambda p: (not p.isdigit(), int(p) if p.isdigit() else 0, p),
            ):
                scopes[peer] = [v for v in values if v[0] == peer]
            for scope, chosen in scopes.items():
                if len(chosen) < 3:
                    continue
                result = pearson([x for _, x, _ in chosen], [y for _, _, y in chosen])
                if result is not None:
                    correlations.append(
                        ScoreAgreement(annotators, score, scope, len(chosen), *result)
                    )
        groups = defaultdict(list)
        for by_annotator in by_item.values():
            if len(by_annotator) >= 2:
                for annotator, scores in by_annotator.items():
                    if getattr(scores, score) is not None:
                        groups[annotator].append(getattr(scores, score))
        test = anova_oneway(groups) if len(groups) >= 2 else None
        if test is not None:
            anovas.append(
                AnovaByAnnotator(score, test[0], test[1], {a: len(v) for a, v in groups.items()})
            )
    return correlations, anovas
