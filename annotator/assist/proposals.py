"""Proposals to confirm (issue 20): for each clause of a peer, the SCU it most likely expresses,
where the ranker is confident; the annotator accepts (a PSE is made) or rejects each one.

A proposal is never scored: scores, exports and agreement read PSEs only, and a proposal becomes
one only when accepted (annotator.peer_annotation.editing.accept_proposal, through the edit engine,
so the version, undo and redo hold as for any match).

How a peer is cut (`clauses`, in annotator.coverage.splitting, which cuts SEE's units too),
documented because the annotator sees its effect:
1. sentences, where the suggestions cut them (after . ! ? and at line breaks);
2. each sentence into clauses at ; and : and at a dash between spaces, and at a comma followed by
   a word that starts a clause (and, but, while, which, who, because, ...);
3. a piece with fewer than MIN_WORDS content words joins the piece before it (or after it, for the
   first): "in 1969" is not a clause of its own;
4. a clause's leading conjunction ("and Buzz Aldrin followed him") is left out of its span.
Of a clause, only the words in no PSE are proposed: its longest run of such words (`proposable`).

Confidence: the best SCU's score (word-set cosine, 0 to 1) at least MIN_SCORE, and at least
MIN_MARGIN above the second's, so that a clause close to two SCUs is left to the annotator. An SCU
the annotation has a PSE for is never proposed (`confident`): accepting would repeat it.

How the thresholds were chosen (`manage.py evaluate_proposals --sweep`, bench/proposals.py): each
of NIST's 69 peer annotations of the shared DUC 2006 files replayed empty and proposed for; a
proposal is correct when its words overlap a stored PSE of its SCU. Annotators reject wrong
proposals one by one, so the rule (proposal_evaluation.RULE) takes the best recall at precision
>= 0.8, on a grid (MIN_SCORE 0.2-1.2 by 0.05, MIN_MARGIN 0-0.3 by 0.05) measured on alternate
docsets only (D0601, D0640: 25 annotations, 184 PSEs with an SCU); D0631 (44 annotations, 786
PSEs) was held out. MIN_SCORE 0.45 and MIN_MARGIN 0.15:
- tuning docsets: 19 proposals, precision 0.89, recall 0.09;
- held out: 58 proposals, precision 0.93, recall 0.07;
- all: 77 proposals, precision 0.92, recall 0.08 (about one proposal a peer; 5-30 ms a peer).
The thresholds before (0.4 and 0.1) gave 0.65 / 0.13 on the tuning docsets: the 18 proposals
more were mostly wrong (7 right). Recall stays low: one proposal a clause, and only where one SCU
clearly leads; the semantic ranker reaches more (F0.5 0.41 against 0.36 on the tuning docsets)
but at no grid point precision 0.8 with recall >= 0.05. Proposing the same SCU for two clauses of
a run is kept: on these files each such pair was a repetition NIST matched too.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from django.db import transaction
from django.utils import timezone

from annotator.assist.models import Proposal
from annotator.assist.rankers import Index, pyramid_index, rank
from annotator.coverage.splitting import clauses
from annotator.coverage.splitting import content_count as _content_count
from annotator.coverage.splitting import words_of as _words_of
from annotator.editing.errors import NotAllowed, RuleBroken, StaleVersion
from annotator.peer_annotation.editing import open_proposal
from annotator.peer_annotation.models import PeerAnnotation, PSESpan
from annotator.pyramids.models import SCU
from annotator.text.words import words

RANKER = "overlap"  # see `ranker`
MIN_SCORE = 0.45  # word-set cosine of the clause with the SCU's label or closest contributor
MIN_MARGIN = 0.15  # over the second SCU's score
MIN_WORDS = 2  # content words a clause needs to be ranked


# -- the ranker: the one place proposals call it ---------------------------------------------------


@dataclass(frozen=True)
class Ranked:
    uid: int
    score: float


@dataclass(frozen=True)
class Candidate:
    """A clause's proposable words, (start, end), and the best two SCUs for them."""

    start: int
    end: int
    ranked: tuple[Ranked, ...]


def ranker(annotation: PeerAnnotation) -> tuple[str, Callable[[str], list[Ranked]]]:
    """The ranker's name and a function ranking the pyramid's SCUs for a text, best first (the
    best two are enough here), the pyramid prepared once (annotator.assist.rankers caches it per
    pyramid version).

    The word-set cosine ("overlap", the measure the peer page's suggestions first ranked by): its
    scores lie between 0 and 1 whatever the text, which MIN_SCORE and MIN_MARGIN need. BM25's
    ("lexical") are comparable within one query only: moving proposals to it, or to "semantic",
    means calibrating those two again (`manage.py evaluate_proposals --ranker R --sweep`)."""
    return RANKER, ranking(pyramid_index(annotation.pyramid, RANKER))


def ranking(index: Index) -> Callable[[str], list[Ranked]]:
    """A function ranking the SCUs of a prepared `index` for a text: the best two, best first."""

    def ranked(text: str) -> list[Ranked]:
        return [Ranked(s.uid, s.score) for s in rank(index, text, limit=2)]

    return ranked


# -- cutting a peer into clauses ------------------------------------------------------------------


# The cutting itself (`clauses`) is shared with SEE's units: annotator.coverage.splitting.


def proposable(text: str, clause: tuple[int, int], covered: Sequence[tuple[int, int]]):
    """The longest run of the clause's words that no PSE part (`covered`) touches, as (start,
    end), or None where every word is in a PSE."""
    best: tuple[int, int] | None = None
    run: list[tuple[int, int]] = []
    clause_words = [(s + clause[0], e + clause[0]) for s, e in words(text[slice(*clause)])]
    for word in [*clause_words, None]:
        free = word is not None and not any(s < word[1] and word[0] < e for s, e in covered)
        if free:
            assert word is not None
            run.append(word)
            continue
        if run and (best is None or run[-1][1] - run[0][0] > best[1] - best[0]):
            best = (run[0][0], run[-1][1])
        run = []
    if best is None:
        return None
    return _words_of(text, *best)


# -- who may, and the three requests --------------------------------------------------------------


def locked(annotation_id: int, user, version: int | None) -> PeerAnnotation:
    """The annotation, locked as the edit engine locks it (so a request runs after an edit of the
    same annotation, never beside it), once the engine's rules let `user` edit it and, for a
    `version` given, the page was current. Proposals are the annotation's annotator's alone: an
    administrator may correct a match, but the precision of proposals is that of the annotator's
    decisions."""
    from annotator.peer_annotation.editing import EDITOR

    try:
        annotation = EDITOR.rows.select_for_update(of=("self",)).get(pk=annotation_id)
    except PeerAnnotation.DoesNotExist:
        raise RuleBroken(EDITOR.missing) from None
    EDITOR.may_edit(annotation, user, False)
    if annotation.annotator_id is None or annotation.annotator_id != user.pk:
        raise NotAllowed("Only the annotation's annotator proposes and decides its matches.")
    if version is not None and version != annotation.version:
        raise StaleVersion(annotation.version, record=EDITOR.name)
    return annotation


def candidates(
    text: str,
    covered: Sequence[tuple[int, int]],
    earlier: Sequence[tuple[int, int]],
    rank: Callable[[str], list[Ranked]],
) -> list[Candidate]:
    """Each clause's proposable words (not in a PSE part, `covered`, nor in a proposal made
    before, `earlier`; at least MIN_WORDS content words) with the best two SCUs for them, in text
    order: what `confident` chooses from, whatever the thresholds."""
    found = []
    for clause in clauses(text):
        span = proposable(text, clause, covered)
        if span is None or any(s < span[1] and span[0] < e for s, e in earlier):
            continue
        if _content_count(text[slice(*span)]) < MIN_WORDS:
            continue
        ranked = rank(text[slice(*span)])
        if ranked:
            found.append(Candidate(span[0], span[1], tuple(ranked[:2])))
    return found


def confident(
    found: Sequence[Candidate],
    matched: set[int],
    min_score: float = MIN_SCORE,
    min_margin: float = MIN_MARGIN,
) -> list[Candidate]:
    """The candidates to propose: the best SCU's score at least `min_score` and `min_margin`
    above the second's, and the best SCU in no PSE of the annotation yet (`matched`, uids).

    An SCU already matched is not proposed, nor is the clause then given to its second SCU: the
    words are closest to content the annotator has matched already (the leftover of a clause
    matched in part, or a repetition), which is theirs to extend or match again by hand.
    Accepting the proposal would make a second PSE of the SCU (a repetition, counted once)."""
    chosen = []
    for candidate in found:
        best = candidate.ranked[0]
        if best.score < min_score or best.uid in matched:
            continue
        if len(candidate.ranked) > 1 and best.score - candidate.ranked[1].score < min_margin:
            continue
        chosen.append(candidate)
    return chosen


def propose(annotation_id: int, user) -> list[Proposal]:
    """Propose an SCU for each clause the ranker is confident of (`confident`), leaving out words
    in a PSE, SCUs with a PSE, and clauses proposed before (in any state: a rejected proposal is
    not made again), so a second request adds only what the first did not. The new proposals, in
    text order."""
    with transaction.atomic():
        annotation = locked(annotation_id, user, None)
        text = annotation.peer.text
        covered = list(
            PSESpan.objects.filter(pse__annotation=annotation).values_list("start", "end")
        )
        matched = set(annotation.pses.filter(scu__isnull=False).values_list("scu__uid", flat=True))
        earlier = list(annotation.proposals.values_list("start", "end"))
        name, rank = ranker(annotation)
        ids = dict(SCU.objects.filter(pyramid_id=annotation.pyramid_id).values_list("uid", "id"))
        made = [
            Proposal(
                annotation=annotation,
                scu_id=ids[candidate.ranked[0].uid],
                start=candidate.start,
                end=candidate.end,
                score=candidate.ranked[0].score,
                ranker=name,
            )
            for candidate in confident(candidates(text, covered, earlier, rank), matched)
        ]
        return Proposal.objects.bulk_create(made)


def reject(annotation_id: int, user, proposal_id: int) -> Proposal:
    """Mark an open proposal rejected, by whom and when. Nothing the page scores changes, so no
    version is asked for (the page's may be behind) and no change is recorded in the edit history:
    `reopen` undoes a rejection. The clause is not proposed again (`propose`). The annotation's
    `updated_at` moves, so the reports that count decisions are computed again
    (scoring.reports.compute.fingerprint)."""
    with transaction.atomic():
        annotation = locked(annotation_id, user, None)
        proposal = open_proposal(annotation, proposal_id)
        proposal.state = Proposal.State.REJECTED
        proposal.decided_at = timezone.now()
        proposal.decided_by = user
        proposal.save(update_fields=["state", "decided_at", "decided_by"])
        PeerAnnotation.objects.filter(pk=annotation.pk).update(updated_at=timezone.now())
        return proposal


def reopen(annotation_id: int, user, proposal_id: int) -> Proposal:
    """Make a rejected proposal open again, undecided (found by a tester: Backspace and Delete
    also delete PSEs on the page, so a rejection is often a slip, and it was lost for good). As
    for `reject`, who may and no version: the page's Ctrl+Z right after a rejection, or the
    list's Reopen button."""
    with transaction.atomic():
        annotation = locked(annotation_id, user, None)
        proposal = (
            Proposal.objects.filter(annotation=annotation, pk=proposal_id)
            .select_related("scu")
            .first()
        )
        if proposal is None:
            raise RuleBroken("That proposal is not in this annotation: reload the page.")
        if proposal.state != Proposal.State.REJECTED:
            raise RuleBroken(
                f"That proposal is {proposal.get_state_display().lower()}, not rejected."
            )
        proposal.state = Proposal.State.OPEN
        proposal.decided_at = None
        proposal.decided_by = None
        proposal.save(update_fields=["state", "decided_at", "decided_by"])
        PeerAnnotation.objects.filter(pk=annotation.pk).update(updated_at=timezone.now())
        return proposal


def list_context(annotation: PeerAnnotation, user) -> dict:
    """What peer_annotation/annotation/proposal_list.html needs: the list (`listed`), and whether
    `user`
    decides the proposals (the annotation's annotator, while they may edit it)."""
    from annotator.campaigns.access import can_edit_annotation

    decides = annotation.annotator_id == user.pk and can_edit_annotation(user, annotation)
    return {"annotation": annotation, "decides": decides} | listed(annotation)


NONE_LEFT = "No open proposal left: match the rest by hand."


def none_left(annotation: PeerAnnotation) -> str:
    """NONE_LEFT once no proposal of the annotation is open (the status line says it as the last
    one is decided: the list is gone, the focus has left it), else nothing."""
    if annotation.proposals.filter(state=Proposal.State.OPEN).exists():
        return ""
    return NONE_LEFT


def listed(annotation: PeerAnnotation) -> dict:
    """What the page lists: the open proposals in text order (each with its words and its SCU),
    how many were accepted and rejected, and the rejected ones (to reopen)."""
    text = annotation.peer.text
    counts = {state: 0 for state in Proposal.State.values}
    for state in annotation.proposals.values_list("state", flat=True):
        counts[state] += 1
    shown = list(
        annotation.proposals.filter(state=Proposal.State.OPEN)
        .select_related("scu")
        .order_by("start", "id")
    )
    rejected = list(
        annotation.proposals.filter(state=Proposal.State.REJECTED)
        .select_related("scu")
        .order_by("start", "id")
    )
    for proposal in shown + rejected:
        proposal.words = text[proposal.start : proposal.end]  # type: ignore[attr-defined]
    return {
        "proposals": shown,
        "rejected": rejected,
        "accepted_count": counts[Proposal.State.ACCEPTED],
        "rejected_count": counts[Proposal.State.REJECTED],
    }
