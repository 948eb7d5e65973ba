"""Comparing two pyramids of a docset, for adjudicators (issue 8): their SCUs aligned, the words
they disagree on, their agreement, and the docset's peers scored under each."""

from __future__ import annotations

import math
from collections import defaultdict
from statistics import fmean

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_POST

from scoring.agreement_records import pair_agreement
from scoring.models import Report
from scoring.agreement_units import words
from scoring.records import score_annotations
from scoring.statistics import pearson

from ..access import can_adjudicate
from ..adjudication import NotComparable, align_pyramids
from ..adjudication_queue import consensuses_of_pair
from ..alignment import ONE_TO_ONE, ONLY_A, ONLY_B, SPLIT, TANGLE, summary
from ..models import SCU, Contributor, Docset, PeerAnnotation, PyramidMerge
from ..textmarks import word_pieces
from .guards import docset_for

WORDS_SHOWN = 30


def _model_words(pyramid, groups) -> tuple[dict[tuple[int, int], str], list[dict]]:
    """Each word's text by (model, index); and the model texts in pieces, the words only one side
    put in the group's SCUs marked (a word may be A's alone in one group and B's in another)."""
    only_a = set().union(*(g.only_a_words for g in groups))
    only_b = set().union(*(g.only_b_words for g in groups))
    found, models = {}, []
    for position, link in enumerate(pyramid.model_links.select_related("summary").order_by("position")):
        text = link.summary.text
        for index, (start, end) in enumerate(words(text)):
            found[(position, index)] = text[start:end]
        pieces = word_pieces(text, lambda index, position=position: {"marks": " ".join(
            name for name, side in (("only-a", only_a), ("only-b", only_b)) if (position, index) in side)})
        models.append({"author": link.summary.author, "pieces": pieces})
    return found, models


def _phrase(word_ids, text_of) -> str:
    ordered = [text_of[w] for w in sorted(word_ids) if w in text_of]
    shown = " ".join(ordered[:WORDS_SHOWN])
    return shown + (" …" if len(ordered) > WORDS_SHOWN else "")


def scus_with_contributors(pyramid_ids) -> list[SCU]:
    """The pyramids' SCUs in order, each with `weight` (contributors) and `texts` ([(model author,
    its words)] per contributor), in three queries."""
    contributors = defaultdict(list)
    for c in (Contributor.objects.filter(scu__pyramid_id__in=pyramid_ids).select_related("summary")
              .prefetch_related("spans").order_by("scu_id", "position", "id")):
        contributors[c.scu_id].append(c)
    scus = list(SCU.objects.filter(pyramid_id__in=pyramid_ids).order_by("position", "id"))
    for scu in scus:
        scu.weight = len(contributors[scu.pk])
        scu.texts = [(c.summary.author, "…".join(c.summary.text[s.start:s.end] for s in c.spans.all()))
                     for c in contributors[scu.pk]]
    return scus


def adjudicated_docset(request, pk) -> Docset:
    docset = docset_for(request, pk)
    if not can_adjudicate(request.user, docset.collection_id):
        raise PermissionDenied("Comparing annotators' work is for the collection's adjudicators and administrators.")
    return docset


@login_required
def pyramid_comparison(request, pk):
    docset = adjudicated_docset(request, pk)
    pyramids = list(docset.pyramids.select_related("created_by").order_by("name", "id"))
    chosen = {str(p.pk): p for p in pyramids}
    a = chosen.get(request.GET.get("a")) or (pyramids[0] if pyramids else None)
    b = chosen.get(request.GET.get("b")) or next((p for p in pyramids if p != a), None)
    consensus = PyramidMerge.objects.filter(consensus__docset=docset).select_related("consensus", "source_a", "source_b")
    context = {"docset": docset, "collection": docset.collection, "pyramids": pyramids, "a": a, "b": b,
               "merges": list(consensus.order_by("consensus__name"))}
    if a is not None and b is not None and a != b:
        # A consensus of this pair already made (issue 15): say so, lead to it, and start another
        # only when asked explicitly.
        context["pair_consensuses"] = [m.consensus for m in context["merges"]
                                       if {m.source_a_id, m.source_b_id} == {a.pk, b.pk}]
    if a is None or b is None or a == b:
        context["problem"] = "Choose two different pyramids of the docset." if len(pyramids) > 1 else \
            "The docset has fewer than two pyramids: assign its creation to two annotators first."
        return render(request, "annotator/compare.html", context)
    try:
        groups = align_pyramids(a, b)
        alphas = _pair_alphas(a, b, docset.collection_id)
    except NotComparable as problem:
        context["problem"] = str(problem).capitalize() + "."
        return render(request, "annotator/compare.html", context)
    scus = {(s.pyramid_id, s.uid): s for s in scus_with_contributors([a.pk, b.pk])}
    text_of, model_texts = _model_words(a, groups)
    rows = [{
        "group": g,
        "a": [scus[(a.pk, uid)] for uid in g.a], "b": [scus[(b.pk, uid)] for uid in g.b],
        "only_a": _phrase(g.only_a_words, text_of), "only_b": _phrase(g.only_b_words, text_of),
    } for g in groups]
    counts = summary(groups)
    context |= {"rows": rows, "alphas": alphas, "model_texts": model_texts, **_peer_scores(a, b), "counts": {
        "identical": counts["identical"], "one_to_one": counts[ONE_TO_ONE], "split": counts[SPLIT],
        "tangle": counts[TANGLE], "only_a": counts[ONLY_A], "only_b": counts[ONLY_B]}}
    return render(request, "annotator/compare.html", context)


AGAIN = "again"  # the start form's explicit confirmation of another consensus of the same pair


@require_POST
@login_required
def pyramid_consensus_start(request, pk):
    """Start a consensus of two pyramids (annotator.views.consensus does), unless the pair already
    has one and the form does not confirm starting another: then back to the comparison, which
    names the existing consensus and links it."""
    from .consensus import pyramid_consensus_start as start

    docset = adjudicated_docset(request, pk)
    pyramids = {str(p.pk): p for p in docset.pyramids.all()}
    a, b = pyramids.get(request.POST.get("a")), pyramids.get(request.POST.get("b"))
    if a is None or b is None:
        raise Http404("no such pyramid in this docset")
    existing = consensuses_of_pair(a, b) if a != b else []
    if existing and not request.POST.get(AGAIN):
        names = ", ".join(f"{c.name} ({c.get_status_display().lower()})" for c in existing)
        messages.error(request, f"{a.name} and {b.name} already have a consensus: {names}. Continue it, or confirm "
                                "that you want another one.")
        return redirect(reverse("pyramid-comparison", args=[docset.pk]) + f"?a={a.pk}&b={b.pk}#start-consensus")
    return start(request, pk)


def _pair_alphas(a, b, collection_id: int) -> dict[str, float | None]:
    """Alpha for the pair, kept (as a Report) until either pyramid changes: it is the slow part of
    the page (every word of the models, twice)."""
    stamp = f"{a.pk}:{a.version}:{b.pk}:{b.version}"
    kept = Report.objects.filter(collection_id=collection_id, kind="pair-agreement", fingerprint=stamp,
                                 status=Report.Status.DONE).values_list("result", flat=True).first()
    if kept is not None:
        return kept
    try:
        alphas = {name: None if math.isnan(value) else value for name, value in pair_agreement([a, b]).items()}
    except ValueError as problem:
        raise NotComparable(str(problem)) from None
    Report.objects.create(collection_id=collection_id, kind="pair-agreement", fingerprint=stamp,
                          parameters={"a": a.pk, "b": b.pk}, status=Report.Status.DONE, result=alphas,
                          finished_at=timezone.now())
    return alphas


def _peer_scores(a, b) -> dict:
    """The docset's peers' modified scores under each pyramid (where annotated), and Pearson's r."""
    scores = defaultdict(dict)
    for row in score_annotations(PeerAnnotation.objects.filter(pyramid__in=[a, b])):
        scores[row.peer].setdefault(row.pyramid_id, []).append(row.scores.modified)
    peers = sorted(scores, key=lambda p: (not p.isdigit(), int(p) if p.isdigit() else 0, p))
    table = [(peer, _mean(scores[peer].get(a.pk)), _mean(scores[peer].get(b.pk))) for peer in peers]
    both = [(x, y) for _, x, y in table if x is not None and y is not None]
    return {"peer_scores": table, "score_r": pearson([x for x, _ in both], [y for _, y in both]) if both else None}


def _mean(values):
    present = [v for v in values or [] if v is not None]
    return fmean(present) if present else None


def _who_matched(annotators: list[str], counts: list[int]) -> str:
    """"matched by 114, not by 153"; "114 ×1, 153 ×2" where both matched it a different number of times."""
    matched = [f"{name} ×{n}" if n > 1 or all(c for c in counts) else name
               for name, n in zip(annotators, counts) if n]
    missed = [name for name, n in zip(annotators, counts) if not n]
    if not missed:
        return ", ".join(matched)
    return f"matched by {', '.join(matched) or 'nobody'}, not by {', '.join(missed)}"


@login_required
def peer_disagreements(request, pk):
    """A docset's peers annotated more than once against one pyramid, worst agreement first: the
    adjudicator's place to start (issue 8)."""
    from scoring.agreement_records import peer_agreement

    docset = adjudicated_docset(request, pk)
    peers, _ = peer_agreement(docset.collection, docset.name)
    annotations = PeerAnnotation.objects.filter(pyramid__docset=docset, merge__isnull=True).select_related(
        "peer", "pyramid", "annotator")
    scores = {row.annotation_id: row.scores.modified for row in score_annotations(annotations)}
    by_peer = defaultdict(list)
    for annotation in annotations:
        by_peer[(annotation.pyramid.name, annotation.peer.author)].append(annotation)
    # Each peer's consensus annotation, if one was started (issue 15): its state and a link.
    consensus_of = {(c.pyramid.name, c.peer.author): c for c in PeerAnnotation.objects.filter(
        pyramid__docset=docset, merge__isnull=False).select_related("peer", "pyramid")}
    rows = []
    for p in peers:
        group = sorted(by_peer[(p.pyramid, p.peer)], key=lambda a: (a.annotator_code, a.pk))
        values = [scores.get(a.pk) for a in group]
        known = [v for v in values if v is not None]
        rows.append({"peer": p, "annotations": list(zip(group, values)), "first": group[0] if group else None,
                     "difference": max(known) - min(known) if len(known) > 1 else None,
                     "consensus": consensus_of.get((p.pyramid, p.peer)),
                     # Who matched each SCU they differ on, by name, rather than "(1 / 2)".
                     "disagreements": [(uid, label, _who_matched(p.annotators, counts))
                                       for uid, label, counts in p.disagreements]})
    # Undefined alphas (no variation at all) last: there is nothing to adjudicate there.
    rows.sort(key=lambda r: (2 if math.isnan(r["peer"].alpha["dice"]) else r["peer"].alpha["dice"], -(r["difference"] or 0)))
    return render(request, "annotator/peer_disagreements.html", {"docset": docset, "collection": docset.collection, "rows": rows})
