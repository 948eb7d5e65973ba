"""Comparing pyramids of a docset, for adjudicators (issue 8; more than two at once, issue 15):
their SCUs aligned, the words they disagree on, their agreement, and the docset's peers scored
under each."""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from statistics import fmean

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.text import capfirst
from django.views.decorators.http import require_POST

from annotator.adjudication import pyramid_consensus
from annotator.adjudication.aligned_pyramids import NotComparable, align_many_pyramids
from annotator.adjudication.alignment import ONE_TO_ONE, PARTIAL, SIDES, SPLIT, TANGLE, only_in
from annotator.adjudication.merge_words import marked_models, model_words
from annotator.adjudication.merging import scus_with_contributors, side_query
from annotator.adjudication.models import PyramidMerge
from annotator.adjudication.queue import consensuses_of
from annotator.campaigns.access import can_adjudicate
from annotator.campaigns.guards import docset_for
from annotator.campaigns.models import Docset
from annotator.editing.errors import EditError
from annotator.peer_annotation.models import PeerAnnotation
from scoring.agreement.records import pair_agreement
from scoring.models import Report
from scoring.numbers import p_equals
from scoring.scores.records import score_annotations
from scoring.statistics.significance import pearson

WORDS_SHOWN = 30


def _phrase(word_ids, text_of) -> str:
    ordered = [text_of[w] for w in sorted(word_ids) if w in text_of]
    shown = " ".join(ordered[:WORDS_SHOWN])
    return shown + (" …" if len(ordered) > WORDS_SHOWN else "")


def adjudicated_docset(request, pk) -> Docset:
    docset = docset_for(request, pk)
    if not can_adjudicate(request.user, docset.collection_id):
        raise PermissionDenied(
            "Comparing annotators' work is for the collection's adjudicators and administrators."
        )
    return docset


def chosen_pyramids(query, pyramids: list) -> list:
    """The pyramids a comparison (or a merge) is of: ?a=&b= (and &c=, &d=, ... for more than two at
    once), each a pyramid of the docset, none twice; A and B default to the docset's first two."""
    by_id = {str(p.pk): p for p in pyramids}
    chosen = []
    for letter in SIDES:
        found = by_id.get(query.get(letter) or "")
        if letter in "ab" and found is None:
            found = next((p for p in pyramids if p not in chosen), None)
        if found is not None and found not in chosen:
            chosen.append(found)
    return chosen


@login_required
def pyramid_comparison(request, pk):
    docset = adjudicated_docset(request, pk)
    pyramids = list(docset.pyramids.select_related("created_by").order_by("name", "id"))
    chosen = chosen_pyramids(request.GET, pyramids)
    merges = list(
        PyramidMerge.objects.filter(consensus__docset=docset)
        .select_related("consensus", "source_a", "source_b")
        .prefetch_related("further_sources__pyramid")
        .order_by("consensus__name")
    )
    selects = [
        (letter, chosen[i] if i < len(chosen) else None)
        for i, letter in enumerate(SIDES[: min(len(pyramids), len(SIDES))])
    ]
    context = {
        "docset": docset,
        "collection": docset.collection,
        "pyramids": pyramids,
        "chosen": chosen,
        "selects": selects,
        "merges": [(m, [p for _, p in _sides_of(m)]) for m in merges],
    }
    if len(chosen) < 2:
        context["problem"] = (
            "Choose two different pyramids of the docset."
            if len(pyramids) > 1
            else (
                "The docset has fewer than two pyramids: "
                "assign its creation to two annotators first."
            )
        )
        return render(request, "adjudication/compare.html", context)
    # A consensus of these pyramids already made (issue 15): say so, lead to it, and start another
    # only when asked explicitly.
    wanted = {p.pk for p in chosen}
    context["pair_consensuses"] = [
        m.consensus for m, sources in context["merges"] if {p.pk for p in sources} == wanted
    ]
    # A consensus of more pyramids, these among them: merging a part of them again is seldom meant.
    context["wider_consensuses"] = [
        (m.consensus, [p for p in sources if p.pk not in wanted])
        for m, sources in context["merges"]
        if wanted < {p.pk for p in sources}
    ]
    try:
        groups = align_many_pyramids(chosen)
        alphas = _alphas(chosen, docset.collection_id)
    except NotComparable as problem:
        context["problem"] = (
            capfirst(str(problem)) + "."
        )  # capitalize() would lower "SCU" and "D0601"
        return render(request, "adjudication/compare.html", context)
    scus = {(s.pyramid_id, s.uid): s for s in scus_with_contributors([p.pk for p in chosen])}
    text_of = model_words(chosen[0])
    letters = SIDES[: len(chosen)]
    rows = [
        {
            "group": g,
            "key": pyramid_consensus.group_key(*g.sides),
            "sides": [[scus[(p.pk, uid)] for uid in side] for p, side in zip(chosen, g.sides)],
            "differing": [_phrase(words, text_of) for words in g.differing],
        }
        for g in groups
    ]
    kinds = Counter(g.kind for g in groups)
    counts = {
        "one_to_one": kinds[ONE_TO_ONE],
        "identical": sum(g.identical for g in groups),
        "split": kinds[SPLIT],
        "tangle": kinds[TANGLE],
        "partial": kinds[PARTIAL] if len(chosen) > 2 else None,
        "only": [(only_in(i), kinds[only_in(i)]) for i in range(len(chosen))],
    }
    context |= {
        "rows": rows,
        "alphas": alphas,
        "letters": [x.upper() for x in letters],
        "sides": list(zip(letters, chosen)),
        "model_texts": marked_models(chosen, [(row["key"], row["group"].sides) for row in rows]),
        "columns": len(chosen),
        "counts": counts,
        "query": side_query(chosen),
        **_peer_scores(chosen),
    }
    return render(request, "adjudication/compare.html", context)


def _sides_of(merge) -> list:
    """A merge's (letter, source pyramid) from what was loaded with it (no query)."""
    return [("a", merge.source_a), ("b", merge.source_b)] + [
        (f.side, f.pyramid) for f in merge.further_sources.all()
    ]


AGAIN = "again"  # the start form's explicit confirmation of another consensus of the same pyramids


@require_POST
@login_required
def pyramid_consensus_start(request, pk):
    """Start a consensus of two or more pyramids, unless these already have one and the form does
    not confirm starting another: then back to the comparison, which names the existing consensus
    and links it."""
    docset = adjudicated_docset(request, pk)
    pyramids = list(docset.pyramids.select_related("docset"))
    chosen = [
        p
        for p in chosen_pyramids(request.POST, pyramids)
        if str(p.pk) in {request.POST.get(x) for x in SIDES}
    ]
    if len(chosen) < 2:
        raise Http404("no such pyramids in this docset")
    back = reverse("pyramid-comparison", args=[docset.pk]) + side_query(chosen)
    existing = consensuses_of(chosen)
    if existing and not request.POST.get(AGAIN):
        names = ", ".join(f"{c.name} ({c.get_status_display().lower()})" for c in existing)
        together = " and ".join([", ".join(p.name for p in chosen[:-1]), chosen[-1].name])
        messages.error(
            request,
            f"{together} already have a consensus: {names}. Continue it, or confirm "
            "that you want another one.",
        )
        return redirect(back + "#start-consensus")
    try:
        consensus = pyramid_consensus.start_many(chosen, request.user)
    except (NotComparable, EditError) as problem:
        messages.error(request, getattr(problem, "message", None) or capfirst(str(problem)) + ".")
        return redirect(back)
    messages.success(request, f"Started {consensus.name}: decide each aligned group.")
    return redirect("pyramid-merge", consensus.pk)


def _alphas(pyramids, collection_id: int) -> dict[str, float | None]:
    """Alpha for these pyramids, kept (as a Report) until any of them changes: it is the slow part
    of the page (every word of the models, once per pyramid)."""
    stamp = ":".join(f"{p.pk}:{p.version}" for p in pyramids)
    kept = (
        Report.objects.filter(
            collection_id=collection_id,
            kind="pair-agreement",
            fingerprint=stamp,
            status=Report.Status.DONE,
        )
        .values_list("result", flat=True)
        .first()
    )
    if kept is not None:
        return kept
    try:
        alphas = {
            name: None if math.isnan(value) else value
            for name, value in pair_agreement(pyramids).items()
        }
    except ValueError as problem:
        raise NotComparable(str(problem)) from None
    Report.objects.create(
        collection_id=collection_id,
        kind="pair-agreement",
        fingerprint=stamp,
        parameters={"pyramids": [p.pk for p in pyramids]},
        status=Report.Status.DONE,
        result=alphas,
        finished_at=timezone.now(),
    )
    return alphas


def _peer_scores(pyramids) -> dict:
    """The docset's peers' modified scores under each pyramid (where annotated); with two,
    Pearson's r."""
    # peer -> pyramid id -> its annotations' modified scores (None where the score is undefined)
    scores: defaultdict[str, dict[int, list[float | None]]] = defaultdict(dict)
    for row in score_annotations(PeerAnnotation.objects.filter(pyramid__in=pyramids)):
        scores[row.peer].setdefault(row.pyramid_id, []).append(row.scores.modified)
    peers = sorted(scores, key=lambda p: (not p.isdigit(), int(p) if p.isdigit() else 0, p))
    table = [(peer, [_mean(scores[peer].get(p.pk)) for p in pyramids]) for peer in peers]
    r = None
    if len(pyramids) == 2:
        both = [(x, y) for _, (x, y) in table if x is not None and y is not None]
        r = pearson([x for x, _ in both], [y for _, y in both]) if both else None
    return {"peer_scores": table, "score_r": r, "score_p": p_equals(r[1]) if r else None}


def _mean(values):
    present = [v for v in values or [] if v is not None]
    return fmean(present) if present else None


def _who_matched(annotators: list[str], counts: list[int]) -> str:
    """ "matched by 114, not by 153"; "114 ×1, 153 ×2" where both matched it a different number of
    times."""
    matched = [
        f"{name} ×{n}" if n > 1 or all(c for c in counts) else name
        for name, n in zip(annotators, counts)
        if n
    ]
    missed = [name for name, n in zip(annotators, counts) if not n]
    if not missed:
        return ", ".join(matched)
    return f"matched by {', '.join(matched) or 'nobody'}, not by {', '.join(missed)}"


@login_required
def peer_disagreements(request, pk):
    """A docset's peers annotated more than once against one pyramid, worst agreement first: the
    adjudicator's place to start (issue 8)."""
    from scoring.agreement.records import peer_agreement

    docset = adjudicated_docset(request, pk)
    peers, _ = peer_agreement(docset.collection, docset.name)
    annotations = PeerAnnotation.objects.filter(
        pyramid__docset=docset, merge__isnull=True
    ).select_related("peer", "pyramid", "annotator")
    scores = {row.annotation_id: row.scores.modified for row in score_annotations(annotations)}
    by_peer = defaultdict(list)
    for annotation in annotations:
        by_peer[(annotation.pyramid.name, annotation.peer.author)].append(annotation)
    # Each peer's consensus annotation, if one was started (issue 15): its state and a link.
    consensus_of = {
        (c.pyramid.name, c.peer.author): c
        for c in PeerAnnotation.objects.filter(
            pyramid__docset=docset, merge__isnull=False
        ).select_related("peer", "pyramid")
    }
    rows = []
    for p in peers:
        group = sorted(by_peer[(p.pyramid, p.peer)], key=lambda a: (a.annotator_code, a.pk))
        values = [scores.get(a.pk) for a in group]
        known = [v for v in values if v is not None]
        rows.append(
            {
                "peer": p,
                "annotations": list(zip(group, values)),
                "first": group[0] if group else None,
                "difference": max(known) - min(known) if len(known) > 1 else None,
                "consensus": consensus_of.get((p.pyramid, p.peer)),
                # Who matched each SCU they differ on, by name, rather than "(1 / 2)".
                "disagreements": [
                    (uid, label, _who_matched(p.annotators, counts))
                    for uid, label, counts in p.disagreements
                ],
            }
        )
    # Undefined alphas (no variation at all) last: there is nothing to adjudicate there.
    rows.sort(
        key=lambda r: (
            2 if math.isnan(r["peer"].alpha["dice"]) else r["peer"].alpha["dice"],
            -(r["difference"] or 0),
        )
    )
    return render(
        request,
        "adjudication/peer_disagreements.html",
        {"docset": docset, "collection": docset.collection, "rows": rows},
    )
