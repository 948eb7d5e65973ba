"""Merging annotators' work into a consensus (issue 8): a consensus pyramid decided group by group,
and a peer's annotations compared side by side and merged into a consensus annotation.

Every action posts to one view per kind; a refusal answers as the builder's do (views/refusals.py):
a stale page (409) or a refusal of the user (403) with the current merge region and the reason, a
broken rule (422) with the status line only. With htmx, that is; without, a redirect.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.db.models import Prefetch
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST
from django_htmx.http import reswap

from annotator.adjudication import annotation_consensus
from annotator.adjudication.merging import merge_context, travel
from annotator.adjudication.models import PyramidMerge, PyramidMergeSource
from annotator.campaigns.access import can_adjudicate, visible_annotations, visible_pyramids
from annotator.editing import history
from annotator.editing.actions import PEER_ACTIONS, PYRAMID_ACTIONS, apply_action, status_for
from annotator.editing.errors import EditError
from annotator.editing.refusals import refused_answer
from annotator.peer_annotation.models import PeerAnnotation
from annotator.pyramids.models import SCU, Pyramid
from annotator.text.textmarks import word_pieces
from annotator.text.words import word_scus, words
from annotator.web.bad_input import NUL, refuses_nul_itself
from scoring.agreement.records import peer_alpha
from scoring.scores.records import score_annotations


def _require_adjudicator(request, collection_id: int) -> None:
    if not can_adjudicate(request.user, collection_id):
        raise PermissionDenied(
            "Merging annotators' work is for the collection's adjudicators and administrators."
        )


# -- consensus pyramids ----------------------------------------------------------------------------


def _consensus_pyramid(request, pk, page: bool = False) -> tuple[Pyramid, PyramidMerge]:
    """The consensus pyramid with its merge and the merge's sources, in two queries (issue 32:
    four), and whether the user adjudicates its collection; for the whole `page`, with the
    collection and who built each source, which it names. Adjudicators see everything in their
    collection: others get a 404 where they may not see the pyramid, else a 403."""
    by = "__created_by" if page else ""
    consensus = (
        Pyramid.objects.select_related(
            "docset__collection" if page else "docset",
            f"merge__source_a{by}",
            f"merge__source_b{by}",
        )
        .prefetch_related(
            Prefetch(
                "merge__further_sources",
                queryset=PyramidMergeSource.objects.select_related(f"pyramid{by}"),
            )
        )
        .filter(pk=pk)
        .first()
    )
    if consensus is None or not can_adjudicate(request.user, consensus.docset.collection_id):
        if consensus is None or not visible_pyramids(request.user).filter(pk=pk).exists():
            raise Http404("no such pyramid")
        _require_adjudicator(request, consensus.docset.collection_id)  # refuses, saying why
    try:
        return consensus, consensus.merge
    except PyramidMerge.DoesNotExist:
        raise Http404("this pyramid is not a consensus") from None


@login_required
def pyramid_merge(request, pk):
    consensus, merge = _consensus_pyramid(request, pk, page=True)
    template = (
        "adjudication/_pyramid_merge.html" if request.htmx else "adjudication/pyramid_merge.html"
    )
    return render(request, template, merge_context(consensus, merge))


# What the merge pages post: the editing actions of annotator.editing.actions, so that the pages
# and the API decide through one table, with the same rules and versions.
PYRAMID_DECISIONS = {"choose_version", "keep_group", "submit", "undo", "redo"}
# Those that decide one group: answered with what they change alone (the group, the counts, the
# controls); Undo, Redo and Submit may change many groups and answer with the whole region.
ONE_GROUP = {"choose_version", "keep_group"}
PEER_DECISIONS = {"take_reading", "keep_reading", "complete", "undo", "redo"}


@refuses_nul_itself  # through annotator.editing.actions: a NUL is a broken rule, in the status line
@require_POST
@login_required
def pyramid_merge_decide(request, pk, action):
    if action not in PYRAMID_DECISIONS:
        raise Http404("no such decision")
    consensus, merge = _consensus_pyramid(request, pk)

    def context(decided_group: str | None = None, result=None) -> dict:
        if result is None:
            current = Pyramid.objects.select_related("docset__collection").get(pk=consensus.pk)
            return merge_context(current, merge, decided_group)
        # A decision's answer: the pyramid as the edit left it (read with its collection, locked)
        return merge_context(result.pyramid, merge, decided_group, just_made=result.change)

    # A decision on one group reads the merge no more: it never changes once begun.
    known = {"merge": merge} if action in ONE_GROUP else {}
    return _decided(
        request,
        lambda: apply_action(
            PYRAMID_ACTIONS, action, consensus.pk, request.user, request.POST, **known
        ),
        context,
        "adjudication/_pyramid_merge.html",
        reverse("pyramid-merge", args=[consensus.pk]),
        place="group",
        placed_after=_travelled(action, consensus),
        one_group=action in ONE_GROUP,
    )


def _decided(
    request,
    act,
    context,
    partial: str,
    page_url: str,
    place: str,
    placed_after=None,
    one_group: bool = False,
):
    """Run a decision; answer with the merge region as it now is (htmx) or a redirect; a decision
    on `one_group` of a consensus pyramid, with what it changed alone. A refusal is
    answered as the builder's are (views/refusals.py): a broken rule with the status line only, a
    stale page or a refusal of the user with the merge region as it now is and the reason. The
    group (or SCU) decided, posted as `place`, shows what became of the decision beside it (after
    Undo or Redo, the one `placed_after()` names), and stays in view where decided ones are hidden,
    so that the focus keeps its place."""
    posted = request.POST.get(place)
    # Only an anchor on the page (and in a redirect's URL): one holding a NUL, which the decision
    # refuses, is none.
    placed = {"placed": posted if posted and NUL not in posted else None}
    current = lambda: _with_next_after(context(), placed["placed"])  # noqa: E731
    anchor = "group" if place == "group" else "scu"
    fragment = lambda: f"#{anchor}-{placed['placed']}" if placed["placed"] else ""  # noqa: E731
    try:
        result = act()
        message = result.description
    except EditError as refused:
        if not request.htmx:
            messages.error(request, refused.message)
            return redirect(page_url + fragment())
        now = current()
        decided_meanwhile = (
            _decided_meanwhile(now, placed["placed"]) if status_for(refused) == 409 else None
        )
        if (
            decided_meanwhile
        ):  # Retry would replace another tab's (or person's) decision: say so first
            refused.message = f"{refused.message} {decided_meanwhile}"
        return refused_answer(
            request, refused, partial, "adjudication/merge/status.html", lambda: now | placed
        )
    if placed_after is not None:
        placed["placed"] = placed_after() or placed["placed"]
    if not request.htmx:
        messages.success(request, message)
        return redirect(page_url + fragment())
    said = placed | {"message": message, "level": "saved"}
    if one_group:
        changed = _with_next_after(context(placed["placed"], result), placed["placed"]) | said
        group = next((g for g in changed["groups"] if g["key"] == placed["placed"]), None)
        if group is not None:
            answer = changed | {"decided_group": group}
            decision = render(request, "adjudication/merge/pyramid_decision.html", answer)
            return reswap(decision, "none")
    return render(request, partial, current() | said)


def _travelled(action: str, consensus):
    """For Undo and Redo: where their answer is placed (see _travelled_to); None for decisions."""
    if action not in ("undo", "redo"):
        return None
    return lambda: _travelled_to(consensus.changes.all(), undone=action == "undo")


def _travelled_to(changes, undone: bool) -> str | None:
    """The first group (or SCU) of the change Undo just reverted (the next Redo would re-apply it)
    or Redo just re-applied (the next Undo would revert it), if that change decided any."""
    change = history.next_to_travel(changes, undoing=not undone)
    groups = (change.decision or {}).get("groups") if change is not None else None
    return str(groups[0]) if groups else None


def _decided_meanwhile(context: dict, placed: str | None) -> str | None:
    """Where a stale decision's group (or SCU) has been decided since the page was loaded: what
    that decision is, and that Retry would replace it."""
    if not placed:
        return None
    items = [
        (g["key"], g["decision"], g["choice"], "Group") for g in context.get("groups") or []
    ] or [(str(r["uid"]), r["decision"], r["choice"], "SCU") for r in context.get("rows") or []]
    for key, change, choice, item in items:
        if key == placed and change is not None:
            who = change.user.username if change.user else "someone"
            return (
                f"{item} {key} was decided meanwhile ({choice}, by {who}): "
                "Retry replaces that decision."
            )
    return None


def _with_next_after(context: dict, placed: str | None) -> dict:
    """The context with `next_after`: the first undecided group (or SCU) after the one decided, in
    the page's order, coming round from the top: where the note beside the decision leads."""
    items = [(g["key"], g["decision"]) for g in context.get("groups") or []] or [
        (str(r["uid"]), r["decision"]) for r in context.get("rows") or []
    ]
    at = next((i for i, (key, _) in enumerate(items) if key == placed), -1)
    following = items[at + 1 :] + items[: at + 1]
    return context | {
        "next_after": next((key for key, decision in following if decision is None), None)
    }


# -- consensus annotations -------------------------------------------------------------------------


def _peer_annotations(request, pyramid_pk, peer_pk):
    annotations = list(
        visible_annotations(request.user)
        .filter(pyramid_id=pyramid_pk, peer_id=peer_pk)
        .select_related("pyramid__docset__collection", "peer", "annotator", "merge")
        .order_by("annotator_code", "pk")
    )
    if not annotations:
        raise Http404("no annotation of this peer against this pyramid")
    _require_adjudicator(request, annotations[0].pyramid.docset.collection_id)
    consensus = next((a for a in annotations if hasattr(a, "merge")), None)
    sources = (
        list(consensus.merge.sources.select_related("annotator").order_by("annotator_code", "pk"))
        if consensus
        else [a for a in annotations if a.pk != getattr(consensus, "pk", None)]
    )
    return annotations[0], sources, consensus


def _scu_title(uids: frozenset) -> str:
    return ", ".join("matches no SCU" if uid == 0 else f"SCU {uid}" for uid in sorted(uids))


def peer_comparison_context(request, pyramid_pk, peer_pk) -> dict:
    first, sources, consensus = _peer_annotations(request, pyramid_pk, peer_pk)
    shown = sources + ([consensus] if consensus else [])
    readings = annotation_consensus.readings_of(shown)
    pyramid, peer = first.pyramid, first.peer
    labels = {
        s.uid: s
        for s in SCU.objects.filter(pyramid=pyramid, uid__in=list(readings)).with_weight(
            pyramid.docset.collection.weight_convention
        )
    }
    decided = annotation_consensus.decisions(consensus) if consensus else {}
    scores = {
        row.annotation_id: row.scores
        for row in score_annotations(PeerAnnotation.objects.filter(pk__in=[a.pk for a in shown]))
    }
    rows = []
    for uid in sorted(
        readings, key=lambda u: (u == 0, labels[u].position if u in labels else 0, u)
    ):
        per_source = {a.pk: readings[uid][a.pk] for a in sources}
        change = decided.get(str(uid))
        rows.append(
            {
                "uid": uid,
                "scu": labels.get(uid),
                "alike": annotation_consensus.agree(per_source),
                "readings": [
                    (a, [_span_text(peer.text, spans) for spans in readings[uid][a.pk]])
                    for a in sources
                ],
                "consensus": [_span_text(peer.text, spans) for spans in readings[uid][consensus.pk]]
                if consensus
                else None,
                "decision": change,
                "choice": _choice_name(change, sources) if change else None,
            }
        )
    texts = []
    per_annotation = {
        a.pk: word_scus(
            peer.text,
            [(s, e, uid) for uid, by in readings.items() for spans in by[a.pk] for s, e in spans],
        )
        for a in shown
    }
    differs = [
        len({per_annotation[a.pk][i] for a in sources}) > 1 for i in range(len(words(peer.text)))
    ]
    for a in shown:
        # Where the annotations differ, each column tells the words its annotator matched to an
        # SCU from those they did not (issue 15).
        def mark(i: int, uids: list[frozenset[int]] = per_annotation[a.pk]) -> dict[str, object]:
            return {
                "title": _scu_title(uids[i]),
                "differs": differs[i],
                "here": bool(uids[i] - {0}),
            }

        texts.append(
            {
                "annotation": a,
                "name": "consensus" if a == consensus else a.annotator_label,
                "scores": scores.get(a.pk),
                "pieces": word_pieces(peer.text, mark),
            }
        )
    left = sum(1 for r in rows if r["decision"] is None) if consensus else None
    return (
        {
            **travel(consensus.changes.all()),
            "next_undecided": next((r["uid"] for r in rows if r["decision"] is None), None),
        }
        if consensus
        else {}
    ) | {
        "pyramid": pyramid,
        "peer": peer,
        "docset": pyramid.docset,
        "collection": pyramid.docset.collection,
        "sources": sources,
        "consensus": consensus,
        "rows": rows,
        "texts": texts,
        "alpha": peer_alpha([a.pk for a in sources]),
        "left": left,
        "differing_words": sum(differs),
        "editable": consensus is not None and consensus.status == PeerAnnotation.Status.IN_PROGRESS,
    }


def _span_text(text: str, spans) -> str:
    return "…".join(text[s:e] for s, e in spans)


def _choice_name(change, sources) -> str:
    choice = change.decision["choice"]
    if choice == annotation_consensus.EDITED:
        return "kept as edited"
    if choice == annotation_consensus.IDENTICAL:
        return "alike in every annotation"
    source = next((a for a in sources if a.pk == choice), None)
    return f"{source.annotator_label}'s reading" if source else "a reading no longer there"


@login_required
def peer_comparison(request, pyramid_pk, peer_pk):
    context = peer_comparison_context(request, pyramid_pk, peer_pk)
    template = (
        "adjudication/_peer_merge.html" if request.htmx else "adjudication/peer_comparison.html"
    )
    return render(request, template, context)


@require_POST
@login_required
def peer_consensus_start(request, pyramid_pk, peer_pk):
    _, sources, consensus = _peer_annotations(request, pyramid_pk, peer_pk)
    if consensus is None:
        try:
            annotation_consensus.start(sources, request.user)
            messages.success(request, "Started the consensus annotation: decide each SCU.")
        except EditError as refused:
            messages.error(request, refused.message)
    return redirect("peer-comparison", pyramid_pk, peer_pk)


@refuses_nul_itself  # through annotator.editing.actions: a NUL is a broken rule, in the status line
@require_POST
@login_required
def peer_merge_decide(request, pyramid_pk, peer_pk, action):
    if action not in PEER_DECISIONS:
        raise Http404("no such decision")
    _, _, consensus = _peer_annotations(request, pyramid_pk, peer_pk)
    if consensus is None:
        raise Http404("no consensus annotation of this peer yet")
    return _decided(
        request,
        lambda: apply_action(PEER_ACTIONS, action, consensus.pk, request.user, request.POST),
        lambda: peer_comparison_context(request, pyramid_pk, peer_pk),
        "adjudication/_peer_merge.html",
        reverse("peer-comparison", args=[pyramid_pk, peer_pk]),
        place="scu",
        placed_after=_travelled(action, consensus),
    )
