"""The report "Proposals confirmed": each annotator's accepted, rejected and edited proposals."""

from __future__ import annotations

from collections import Counter, defaultdict

from annotator.campaigns.models import Collection
from scoring.reports.results import result_table


def proposals_report(collection: Collection, parameters: dict) -> dict:
    """How often the proposals to confirm (annotator.assist.proposals) were right: precision as
    accepted / decided, per annotator and for the collection, with how many accepted ones the
    annotator edited first (their PSE's words differ from the proposal's). Open proposals are
    counted apart: never decided, they say nothing of precision (issue 20)."""
    from annotator.assist.models import Proposal
    from annotator.peer_annotation.models import PSESpan

    rows = Proposal.objects.filter(annotation__pyramid__docset__collection=collection)
    tally: defaultdict[str, Counter[str]] = defaultdict(Counter)
    accepted: dict[int, tuple[str, int, int]] = {}  # PSE id -> (annotator, start, end)
    for name, state, pse_id, start, end in rows.values_list(
        "annotation__annotator__username", "state", "pse_id", "start", "end"
    ).order_by():
        who = name or "(none)"
        tally[who][state] += 1
        if state == Proposal.State.ACCEPTED and pse_id is not None:
            accepted[pse_id] = (who, start, end)
    parts: defaultdict[int, list[tuple[int, int]]] = defaultdict(list)
    for pse_id, start, end in PSESpan.objects.filter(pse_id__in=list(accepted)).values_list(
        "pse_id", "start", "end"
    ):
        parts[pse_id].append((start, end))
    for pse_id, (who, start, end) in accepted.items():
        if sorted(parts[pse_id]) != [(start, end)]:
            tally[who]["edited"] += 1

    def row(who: str, counts: Counter[str]) -> list:
        decided = counts[Proposal.State.ACCEPTED] + counts[Proposal.State.REJECTED]
        return [
            who,
            counts[Proposal.State.ACCEPTED],
            counts[Proposal.State.REJECTED],
            counts["edited"],
            counts[Proposal.State.OPEN],
            counts[Proposal.State.ACCEPTED] / decided if decided else None,
        ]

    total: Counter[str] = Counter()
    for counts in tally.values():
        total.update(counts)
    table_rows = [row(who, tally[who]) for who in sorted(tally)]
    if tally:
        table_rows.append(row("all", total))
    return {
        "tables": [
            result_table(
                "Precision of proposals",
                ["annotator", "accepted", "rejected", "accepted, span edited", "open", "precision"],
                table_rows,
                "Per the annotation's annotator. Precision: accepted / (accepted + rejected); "
                "open proposals (not decided yet) do not count, and are never scored.",
                empty="No proposal was made in this collection yet (“Propose matches” on the "
                "peer page).",
            )
        ],
        "plots": [],
    }
