"""Proposals to confirm (issue 20): for each clause of a peer, the SCU it most likely expresses,
where the ranker is confident; the annotator accepts (a PSE is made) or rejects each one.

A proposal is never scored: scores, exports and agreement read PSEs only, and a proposal becomes
one only when accepted (annotator.peer_annotation.editing.accept_proposal, through the edit engine,
so the version, undo and redo hold as for any match).

How a peer is cut (`clauses`), documented because the annotator sees its effect:
1. sentences, where the suggestions cut them (after . ! ? and at line breaks);
2. each sentence into clauses at ; and : and at a dash between spaces, and at a comma followed by
   a word that starts a clause (and, but, while, which, who, because, ...);
3. a piece with fewer than MIN_WORDS content words joins the piece before it (or after it, for the
   first): "in 1969" is not a clause of its own;
4. a clause's leading conjunction ("and Buzz Aldrin followed him") is left out of its span.
Of a clause, only the words in no PSE are proposed: its longest run of such words (`proposable`).

Confidence: the best SCU's score (word-set cosine, 0 to 1) at least MIN_SCORE, and at least
MIN_MARGIN above the second's, so that a clause close to two SCUs is left to the annotator.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from django.db import transaction
from django.utils import timezone

from annotator.assist import lexical
from annotator.editing.engine import NotAllowed, RuleBroken, StaleVersion
from annotator.models import SCU, PeerAnnotation, Proposal, PSESpan
from annotator.peer_annotation.editing import open_proposal
from annotator.text.words import words

MIN_SCORE = 0.4  # word-set cosine of the clause with the SCU's label or closest contributor
MIN_MARGIN = 0.1  # over the second SCU's score
MIN_WORDS = 2  # content words a clause needs to be ranked
CLAUSE_WORDS = (
    "and but or nor yet so while whereas which who whom whose because although though after "
    "before when where since until unless if"
)
CLAUSE_BREAK = re.compile(
    r"\s*[;:]\s+|\s+[—–-]{1,2}\s+|\s*[—–]\s*|,\s+(?=(?:" + "|".join(CLAUSE_WORDS.split()) + r")\b)",
    re.IGNORECASE,
)
LEADING_CONJUNCTION = re.compile(r"(?:and|but|or|nor|yet|so)\s+", re.IGNORECASE)


# -- the ranker: the one place proposals call it ---------------------------------------------------


@dataclass(frozen=True)
class Ranked:
    uid: int
    score: float


def ranker(annotation: PeerAnnotation) -> tuple[str, Callable[[str], list[Ranked]]]:
    """The ranker's name and a function ranking the pyramid's SCUs for a text, best first (the
    best two are enough here), the pyramid prepared once (annotator.assist.rankers caches it per
    pyramid version).

    The word-set cosine ("overlap", the measure the peer page's suggestions first ranked by): its
    scores lie between 0 and 1 whatever the text, which MIN_SCORE and MIN_MARGIN need. BM25's
    ("lexical") are comparable within one query only: moving proposals to it, or to "semantic",
    means calibrating those two again (a margin relative to the best score, say)."""
    from annotator.assist.rankers import pyramid_index, rank

    name = "overlap"
    index = pyramid_index(annotation.pyramid, name)

    def ranked(text: str) -> list[Ranked]:
        return [Ranked(s.uid, s.score) for s in rank(index, text, limit=2)]

    return name, ranked


# -- cutting a peer into clauses ------------------------------------------------------------------


def _content_count(text: str) -> int:
    return len(lexical.content_words(text))


def clauses(text: str) -> list[tuple[int, int]]:
    """The peer's clauses as (start, end), in text order (see the module's description).

    >>> text = "Armstrong walked first, and Aldrin followed him. Collins stayed in orbit."
    >>> [text[s:e] for s, e in clauses(text)]
    ['Armstrong walked first', 'Aldrin followed him', 'Collins stayed in orbit']
    """
    found: list[tuple[int, int]] = []
    for pieces in lexical.cut(text, CLAUSE_BREAK):
        joined: list[tuple[int, int]] = []
        for start, end in pieces:
            if joined and _content_count(text[start:end]) < MIN_WORDS:
                joined[-1] = (joined[-1][0], end)
            elif joined and _content_count(text[slice(*joined[-1])]) < MIN_WORDS:
                joined[-1] = (joined[-1][0], end)  # a short first piece joins the next
            else:
                joined.append((start, end))
        for start, end in joined:
            span = _words_of(text, start, end)
            if span is not None:
                found.append(span)
    return found


def _words_of(text: str, start: int, end: int) -> tuple[int, int] | None:
    """[start, end) trimmed to its first and last word, a leading conjunction left out."""
    inside = [(s + start, e + start) for s, e in words(text[start:end])]
    return lexical.trimmed(text, inside, LEADING_CONJUNCTION)


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


def propose(annotation_id: int, user) -> list[Proposal]:
    """Propose an SCU for each clause the ranker is confident of, leaving out words in a PSE and
    clauses proposed before (in any state: a rejected proposal is not made again), so a second
    request adds only what the first did not. The new proposals, in text order."""
    with transaction.atomic():
        annotation = locked(annotation_id, user, None)
        text = annotation.peer.text
        covered = list(
            PSESpan.objects.filter(pse__annotation=annotation).values_list("start", "end")
        )
        earlier = list(annotation.proposals.values_list("start", "end"))
        name, rank = ranker(annotation)
        ids = dict(SCU.objects.filter(pyramid_id=annotation.pyramid_id).values_list("uid", "id"))
        made = []
        for clause in clauses(text):
            span = proposable(text, clause, covered)
            if span is None or any(s < span[1] and span[0] < e for s, e in earlier):
                continue
            if _content_count(text[slice(*span)]) < MIN_WORDS:
                continue
            ranked = rank(text[slice(*span)])
            if not ranked or ranked[0].score < MIN_SCORE:
                continue
            if len(ranked) > 1 and ranked[0].score - ranked[1].score < MIN_MARGIN:
                continue
            made.append(
                Proposal(
                    annotation=annotation,
                    scu_id=ids[ranked[0].uid],
                    start=span[0],
                    end=span[1],
                    score=ranked[0].score,
                    ranker=name,
                )
            )
        return Proposal.objects.bulk_create(made)


def reject(annotation_id: int, user, proposal_id: int) -> Proposal:
    """Mark an open proposal rejected, by whom and when. Nothing the page scores changes, so no
    version is asked for (the page's may be behind) and no change is recorded: a rejection is not
    undone, and the clause is not proposed again. The annotation's `updated_at` moves, so the
    reports that count decisions are computed again (scoring.reports.fingerprint)."""
    with transaction.atomic():
        annotation = locked(annotation_id, user, None)
        proposal = open_proposal(annotation, proposal_id)
        proposal.state = Proposal.State.REJECTED
        proposal.decided_at = timezone.now()
        proposal.decided_by = user
        proposal.save(update_fields=["state", "decided_at", "decided_by"])
        PeerAnnotation.objects.filter(pk=annotation.pk).update(updated_at=timezone.now())
        return proposal


def listed(annotation: PeerAnnotation) -> dict:
    """What the page lists: the open proposals in text order (each with its words and its SCU),
    and how many were accepted and rejected."""
    text = annotation.peer.text
    counts = {state: 0 for state in Proposal.State.values}
    for state in annotation.proposals.values_list("state", flat=True):
        counts[state] += 1
    shown = list(
        annotation.proposals.filter(state=Proposal.State.OPEN)
        .select_related("scu")
        .order_by("start", "id")
    )
    for proposal in shown:
        proposal.words = text[proposal.start : proposal.end]  # type: ignore[attr-defined]
    return {
        "proposals": shown,
        "accepted_count": counts[Proposal.State.ACCEPTED],
        "rejected_count": counts[Proposal.State.REJECTED],
    }
