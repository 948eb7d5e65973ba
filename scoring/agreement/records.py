"""Agreement from the stored records: loads peer annotations and pyramids in bulk and hands the
units to scoring.agreement.alpha (Passonneau 2009 §4.1).

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

import hashlib
import math
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from functools import cached_property
from itertools import combinations
from typing import Any

from django_tasks import task

from annotator.campaigns.models import Collection, Summary
from annotator.peer_annotation.models import PSE, PeerAnnotation
from annotator.pyramids.models import SCU, Pyramid, PyramidModel, Span
from annotator.text.words import words_of_texts
from scoring.agreement.alpha import (
    dice,
    grouped_alphas,
    jaccard,
    krippendorff_alpha,
    masi,
    masi_nltk,
    nominal,
)
from scoring.agreement.pyramids import docset_pyramid_alphas
from scoring.agreement.units import peer_units, pse_values, span_words
from scoring.models import StoredPyramidAgreement
from scoring.scores.records import (
    collection_annotations,
    counted_annotations,
    counted_pyramids,
    pyramids_in_progress_left_out,
)
from scoring.scores.score_table import StoredRow, current_stored_rows
from scoring.statistics.significance import anova_oneway, pearson

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
    the PSE counts its annotators found (-1: no annotator there): scoring.agreement.alpha's
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
    """Per docset with two or more pyramids; and the docsets left out, saying why. The pyramids
    are `counted_pyramids`: submitted ones (and those in progress, named in each result, with
    `include_in_progress`: `pyramids_left_in_progress` counts those left out). Consensus pyramids
    are not independent work: left out, or with `adjudicated` in place of their sources.

    A docset's result is kept (scoring.models.StoredPyramidAgreement) and computed again only
    where its pyramids or their models changed since: four queries when none did, and the
    contributors read only for the docsets computed (issue 32)."""
    pyramids = counted_pyramids(
        collection_pyramids(collection, docset),
        adjudicated,
        include_in_progress=include_in_progress,
    ).select_related("docset", "created_by")
    by_docset: dict[str, list[Pyramid]] = defaultdict(list)
    for pyramid in pyramids.order_by("docset__name", "name", "id"):
        by_docset[pyramid.docset.name].append(pyramid)
    by_docset = {name: group for name, group in by_docset.items() if len(group) >= 2}
    models, texts = _models_and_texts([p.pk for group in by_docset.values() for p in group])
    found = _stored_agreements(by_docset, models, texts)
    to_compute = {name: group for name, group in by_docset.items() if name not in found}
    if to_compute:
        found |= _computed_agreements(to_compute, models, texts)
    results, skipped = [], []
    for name, group in by_docset.items():
        stored = found[name]
        if not stored.same_words:
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
                units=stored.units,
                # In PYRAMID_DISTANCES' order (a JSON object stored keeps none).
                alpha={distance: _alpha(stored.alphas[distance]) for distance in PYRAMID_DISTANCES},
                in_progress=[p.name for p in group if p.status == Pyramid.Status.IN_PROGRESS],
            )
        )
    return results, skipped


@task()
def keep_pyramid_agreement(collection_id: int) -> int:
    """Compute and keep the pyramid agreement of a collection's docsets whose pyramids or models
    changed (after an import, beside the stored scores: scoring.apps), as `agreement --kind
    pyramids` would at its next run, so that that run reads it (issue 32: 3.8 s at 50 DUC years
    the first time, 0.23 s once kept): with and without `--adjudicated` and
    `--include-in-progress` (a group of pyramids the choices share is computed once). Returns how
    many docsets the default choice compares."""
    collection = Collection.objects.filter(pk=collection_id).first()
    if collection is None:  # deleted meanwhile
        return 0
    compared = len(pyramid_agreement(collection)[0])
    for adjudicated, include_in_progress in [(False, True), (True, False), (True, True)]:
        pyramid_agreement(
            collection, adjudicated=adjudicated, include_in_progress=include_in_progress
        )
    return compared


def _alpha(stored: float | None) -> float:
    return math.nan if stored is None else stored  # JSON has no NaN: an undefined alpha is null


def _group_key(group: list[Pyramid]) -> str:
    return ",".join(str(p.pk) for p in group)


def _fingerprint(group: list[Pyramid], models: dict, texts: dict) -> str:
    """What a docset's agreement is computed from: its pyramids (ids and versions, raised by every
    edit), their models in order, and the models' texts (an import may mend a stored text); and
    the distances whose alphas are kept."""
    digest = hashlib.sha256(f"{list(PYRAMID_DISTANCES)};".encode())  # the alphas it holds
    for pyramid in group:
        digest.update(f"{pyramid.pk}:{pyramid.version}:{models[pyramid.pk]};".encode())
    for summary in sorted({s for p in group for s in models[p.pk]}):
        digest.update(f"{summary}:".encode())
        digest.update(hashlib.sha256(texts[summary].encode()).digest())
    return digest.hexdigest()


def _stored_agreements(
    by_docset: dict[str, list[Pyramid]], models: dict, texts: dict
) -> dict[str, StoredPyramidAgreement]:
    """The docsets whose stored agreement is current, with it (one query)."""
    keys = {(group[0].docset_id, _group_key(group)): name for name, group in by_docset.items()}
    rows = StoredPyramidAgreement.objects.filter(
        docset_id__in={docset for docset, _ in keys}, pyramids__in={key for _, key in keys}
    )
    found = {}
    for row in rows:
        name = keys.get((row.docset_id, row.pyramids))
        if name is not None and row.fingerprint == _fingerprint(by_docset[name], models, texts):
            found[name] = row
    return found


def _computed_agreements(
    by_docset: dict[str, list[Pyramid]], models: dict, texts: dict
) -> dict[str, StoredPyramidAgreement]:
    """The docsets' agreement computed (their contributors read in one query, every docset at
    once: scoring.agreement.pyramids) and stored in place of what was."""
    loaded = _models_and_spans([p.pk for group in by_docset.values() for p in group], models, texts)
    same = {name: group for name, group in by_docset.items() if _same_words(group, loaded)}
    computed = dict(zip(same, _docset_alphas(list(same.values()), loaded, list(PYRAMID_DISTANCES))))
    rows = {}
    for name, group in by_docset.items():
        units, alphas = computed.get(name, (0, {}))
        rows[name] = StoredPyramidAgreement(
            docset_id=group[0].docset_id,
            pyramids=_group_key(group),
            fingerprint=_fingerprint(group, models, texts),
            same_words=name in same,
            units=units,
            # JSON has no NaN: an undefined alpha is stored as null.
            alphas={d: None if math.isnan(value) else value for d, value in alphas.items()},
        )
    StoredPyramidAgreement.objects.bulk_create(
        rows.values(),
        update_conflicts=True,
        unique_fields=["docset", "pyramids"],
        update_fields=["fingerprint", "same_words", "units", "alphas", "computed_at"],
        batch_size=500,
    )
    return rows


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


@dataclass
class _Loaded:
    """Pyramids' models and contributor spans, as _models_and_spans reads them."""

    models: dict  # pyramid id -> its model summaries' ids, in order
    summaries: list  # the summaries' ids: summary k is summaries[k]
    texts: list  # their texts
    bounds: Any  # their words (annotator.text.words.words_of_texts): summary k's are
    first: Any  # the rows bounds[first[k]:first[k + 1]]
    spans: Any  # every contributor span, a row (pyramid id, summary id, start, end, SCU id)

    def words(self, k: int) -> Any:
        return self.bounds[self.first[k] : self.first[k + 1]]

    @cached_property
    def index(self) -> dict[int, int]:
        """Summary id -> k."""
        return {s: k for k, s in enumerate(self.summaries)}


def _models_and_texts(ids) -> tuple[dict[int, list[int]], dict[int, str]]:
    """Each pyramid's model summaries in order, and their texts by id (two queries)."""
    models: defaultdict[int, list[int]] = defaultdict(list)
    for pyramid, summary in (
        PyramidModel.objects.filter(pyramid_id__in=ids)
        .order_by("pyramid_id", "position")
        .values_list("pyramid_id", "summary_id")
    ):
        models[pyramid].append(summary)
    texts = dict(
        Summary.objects.filter(pk__in={s for found in models.values() for s in found})
        .order_by("pk")
        .values_list("pk", "text")
    )
    return models, texts


def _models_and_spans(ids, models=None, texts=None) -> _Loaded:
    """Each pyramid's model summaries in order, with their texts and words (`models` and `texts`
    as _models_and_texts reads them, where the caller has); and every contributor span as a row
    (pyramid, summary, start, end, scu) (one query, the spans read as plain rows: a collection
    has hundreds of thousands)."""
    import numpy as np

    if models is None or texts is None:
        models, texts = _models_and_texts(ids)
    mine = sorted({s for pyramid in ids for s in models[pyramid]})
    bounds, first = words_of_texts([texts[s] for s in mine])
    rows = np.array(
        Span.objects.filter(contributor__scu__pyramid_id__in=ids)
        .order_by()
        .values_list(
            "contributor__scu__pyramid_id", "summary_id", "start", "end", "contributor__scu_id"
        ),
        dtype=np.int64,
    ).reshape(-1, 5)
    return _Loaded(
        {pyramid: models[pyramid] for pyramid in ids},
        mine,
        [texts[s] for s in mine],
        bounds,
        first,
        rows,
    )


def _same_words(group: list[Pyramid], loaded: _Loaded) -> bool:
    """Whether the pyramids' models have the same words (the same summaries, or texts that differ
    only in whitespace, say)."""
    models = loaded.models
    if all(models[p.pk] == models[group[0].pk] for p in group):
        return True
    index = loaded.index

    def text_words(pyramid: Pyramid) -> list[list[str]]:
        return [
            [loaded.texts[index[s]][a:b].lower() for a, b in loaded.words(index[s]).tolist()]
            for s in models[pyramid.pk]
        ]

    texts = [text_words(p) for p in group]
    return all(t == texts[0] for t in texts[1:])


def _docset_alphas(
    groups: list[list[Pyramid]], loaded: _Loaded, names: list[str]
) -> list[tuple[int, dict[str, float]]]:
    """The units of §4.1.4 and their alphas for each group of pyramids of the same models, all
    groups at once (scoring.agreement.pyramids): a word of a docset is numbered by its place in
    the models laid end to end, and a span's words are found by one search over every summary's
    words."""
    import numpy as np

    pyramids = [p.pk for group in groups for p in group]
    owner_docset = np.array([d for d, group in enumerate(groups) for _ in group], dtype=np.int64)
    index = loaded.index
    counts = np.diff(loaded.first)
    # Where each (pyramid, summary)'s words start among its docset's (the models in order).
    place_list: list[int] = []
    start_list: list[int] = []
    docset_words = []
    for group in groups:
        for p in group:
            ks = [index[s] for s in loaded.models[p.pk]]
            place_list += [p.pk * len(index) + k for k in ks]
            start_list += np.concatenate([[0], np.cumsum(counts[ks])])[:-1].tolist()
        docset_words.append(int(counts[ks].sum()))  # the same for each of its pyramids
    order = np.argsort(place_list)
    places = np.array(place_list, dtype=np.int64)[order]
    starts = np.array(start_list, dtype=np.int64)[order]
    # Only the groups' pyramids' spans on their models (a span elsewhere touches none of their
    # words).
    spans = loaded.spans
    summary_of = np.array(loaded.summaries, dtype=np.int64)
    k = np.searchsorted(summary_of, spans[:, 1]).clip(max=max(len(summary_of) - 1, 0))
    place = spans[:, 0] * len(index) + k
    at = np.searchsorted(places, place).clip(max=max(len(places) - 1, 0))
    if len(places) and len(summary_of):
        kept = (summary_of[k] == spans[:, 1]) & (places[at] == place)
    else:
        kept = np.zeros(len(spans), dtype=bool)
    spans, k, at = spans[kept], k[kept], at[kept]
    span, word = span_words(loaded.bounds, loaded.first, np.column_stack([k, spans[:, 2:4]]))
    owner = np.searchsorted(np.sort(pyramids), spans[:, 0])
    owner = np.argsort(pyramids)[owner]  # the pyramid's place in `pyramids`
    units, alphas = docset_pyramid_alphas(
        docset_words,
        owner_docset,
        owner[span],
        starts[at][span] + word,
        spans[span, 4],
        names,
    )
    return [
        (int(units[d]), {name: float(alphas[name][d]) for name in names})
        for d in range(len(groups))
    ]


def pair_agreement(
    pyramids: list[Pyramid], names=("masi", "masi_nltk", "jaccard")
) -> dict[str, float]:
    """Alpha for these pyramids only (three queries); ValueError if their models differ."""
    loaded = _models_and_spans([p.pk for p in pyramids])
    if not _same_words(pyramids, loaded):
        raise ValueError("the pyramids are not built from the same model summaries")
    return _docset_alphas([pyramids], loaded, list(names))[0][1]


@dataclass
class ScoreAgreement:
    annotators: tuple[str, str]
    score: str  # "modified" or "original"
    scope: str  # "all", or a peer system
    n: int
    r: float
    # None, and the interval too, with three pairs (scoring.judgments.correlation.MIN_PAIRS_FOR_P)
    p: float | None
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
    # The stored mean scores, kept current (scoring.scores.score_table.current_stored_rows): the
    # fresh
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
