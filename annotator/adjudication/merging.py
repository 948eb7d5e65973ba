"""What the merge pages present (issue 8): the consensus pyramid's groups, each with every source's
SCUs (A, B, and C, ... where more were merged), what the consensus took from it and its decision;
and what Undo and Redo would do on either merge page.

Next to the services it presents (annotator.adjudication.pyramid_consensus decides the groups,
annotator.adjudication.overlaps finds model words counted twice), so that the views only render
it. The pyramid comparison page shows the same SCU rows (`scus_with_contributors`: each with its
weight, its number of contributors as in the builder) and links here with the same query
(`side_query`): both live here, and the comparison view imports them.
"""

from __future__ import annotations

from collections import defaultdict

from django.db.models import Q

from annotator.adjudication import pyramid_consensus
from annotator.adjudication.alignment import SIDES
from annotator.adjudication.merge_words import merge_models
from annotator.adjudication.models import PyramidMerge
from annotator.adjudication.overlaps import counted_twice
from annotator.campaigns.models import Summary, WeightConvention
from annotator.editing import history
from annotator.editing.models import PyramidChange
from annotator.pyramids.models import SCU, Contributor, Pyramid


def model_summaries(pyramid_ids, also=()) -> dict[int, tuple[str, str]]:
    """{summary id: (author, text)} of the pyramids' models (and of the summaries `also` names
    that are none of them), in one query."""
    summaries = Summary.objects.filter(pk__in=also)
    if pyramid_ids:
        summaries = Summary.objects.filter(Q(pyramids__in=pyramid_ids) | Q(pk__in=also)).distinct()
    return {
        pk: (author, text) for pk, author, text in summaries.values_list("pk", "author", "text")
    }


def scus_with_contributors(
    pyramid_ids, only: Q | None = None, summaries: dict[int, tuple[str, str]] | None = None
) -> list[SCU]:
    """The pyramids' SCUs in order (those `only` selects, where given), each with `weight`
    (contributors) and `texts` ([(model author, its words: the parts in text order)] per
    contributor), in three queries: the contributors with their parts as plain rows, each model's
    text read once (issue 32: read with every contributor, a decision's answer carried each text
    dozens of times): `summaries` (model_summaries), where the caller has read them."""
    chosen = Q(pyramid_id__in=pyramid_ids) & (only or Q())
    # The SCUs first, their contributors then by their ids: `only` (a group's SCUs, with a
    # subquery) is compiled once, not again as the contributors' subquery (issue 32).
    scus = list(
        SCU.objects.filter(chosen)
        .with_weight(WeightConvention.CONTRIBUTORS)
        .order_by("position", "id")
    )
    contributors: defaultdict[int, list[tuple[int, int]]] = defaultdict(list)  # SCU id -> its
    # contributors' (id, summary id)
    parts: defaultdict[int, list[tuple[int, int]]] = defaultdict(list)  # contributor id -> its
    # parts, in text order
    for contributor_id, scu_id, summary_id, start, end in (
        Contributor.objects.filter(scu_id__in=[scu.pk for scu in scus])
        .order_by("scu_id", "position", "id", "spans__start", "spans__end")
        .values_list("id", "scu_id", "summary_id", "spans__start", "spans__end")
    ):  # each contributor with its parts (none: one row, without a part)
        if not contributors[scu_id] or contributors[scu_id][-1][0] != contributor_id:
            contributors[scu_id].append((contributor_id, summary_id))
        if start is not None:
            parts[contributor_id].append((start, end))
    shown = {summary for found in contributors.values() for _, summary in found}
    if summaries is None or not shown <= summaries.keys():
        summaries = model_summaries([], also=shown)
    for scu in scus:
        # A contributor's parts in the text's order, as the models show them (issue 32: they
        # showed in the order they were added, "open casinos…They can determine").
        scu.texts = [
            (
                summaries[summary][0],
                "…".join(summaries[summary][1][start:end] for start, end in parts[contributor]),
            )
            for contributor, summary in contributors[scu.pk]
        ]
    return scus


def side_query(pyramids) -> str:
    """?a=1&b=2[&c=3]: the query of a comparison of these pyramids."""
    return "?" + "&".join(f"{letter}={p.pk}" for letter, p in zip(SIDES, pyramids))


def merge_context(
    consensus: Pyramid,
    merge: PyramidMerge,
    decided_group: str | None = None,
    just_made: PyramidChange | None = None,
) -> dict:
    """Every group with each source's SCUs (A, B, and C, ... where more were merged), what the
    consensus has from it, and its decision, loaded in a fixed number of queries, with the sources'
    model texts marked where they differ and the groups a source changed since the merge began.

    For the answer to a decision on one group (`decided_group`, issue 32): that group's SCUs alone
    (with the consensus's added ones), and neither the model texts nor the changed groups, which
    depend on the sources alone and which a decision does not change; every group's decision still,
    for the counts and where the next undecided one is. `just_made`: the change the decision
    recorded, which says what Undo and Redo now do (`travel`) and is the one decision the answer
    shows (the others are read as plain rows, to count them)."""
    sides = merge.sides()
    only = None
    if decided_group is not None:
        the_group: dict = next((g for g in merge.groups if g["key"] == decided_group), {})
        in_group = Q(pk__in=[])
        for letter, pyramid in sides:
            in_group |= Q(pyramid_id=pyramid.pk, uid__in=the_group.get(letter, []))
        # The consensus's SCUs taken from the group, or from no source (added, or made for a group
        # kept as edited): those the answer shows.
        of_consensus = Q(pyramid_id=consensus.pk) & (
            Q(source__isnull=True) | Q(source_id__in=SCU.objects.filter(in_group).values("id"))
        )
        only = in_group | of_consensus
    pyramid_ids = [p.pk for _, p in sides] + [consensus.pk]
    # Every model's text, read once: the SCUs' words and the words counted twice (issue 32)
    summaries = model_summaries(pyramid_ids)
    scus = scus_with_contributors(pyramid_ids, only, summaries)
    by_uid = {(s.pyramid_id, s.uid): s for s in scus}
    source_of = {s.pk: s for s in scus if s.pyramid_id != consensus.pk}
    taken = defaultdict(list)  # (source pyramid, source uid) -> consensus SCUs taken from it
    added = []
    for scu in (s for s in scus if s.pyramid_id == consensus.pk):
        source = None if scu.source_id is None else source_of.get(scu.source_id)
        if source is None:
            added.append(scu)
        else:
            taken[(source.pyramid_id, source.uid)].append(scu)
    decided: dict[str, PyramidChange | history.Decided]
    if just_made is None:
        decided = dict(pyramid_consensus.decisions(consensus))
    else:  # the answer shows the decision it made, with who and when, and counts the others
        decided = dict(history.decided_groups(consensus.changes.all()))
        decided.update(dict.fromkeys((just_made.decision or {}).get("groups", []), just_made))
    # SCUs the adjudicator made for a group kept as edited belong to it (its decision names them).
    made_for: dict[int, str] = {}
    for key, decider in decided.items():
        assert decider.decision is not None  # decisions() holds only changes that made one
        made_for.update((uid, key) for uid in decider.decision.get("scus", []))
    made = defaultdict(list)
    for scu in [s for s in added if s.uid in made_for]:
        made[made_for[scu.uid]].append(scu)
        added.remove(scu)
    groups = []
    for group in merge.groups:
        mine = [
            s for letter, p in sides for uid in group[letter] for s in taken[(p.pk, uid)]
        ] + made[group["key"]]
        change = decided.get(group["key"])
        groups.append(
            {
                **group,
                "sides": [
                    (letter, [by_uid[(p.pk, u)] for u in group[letter] if (p.pk, u) in by_uid])
                    for letter, p in sides
                ],
                "consensus_scus": mine,
                "decision": change,
                "choice": choice_of(change, group) if change else None,
            }
        )
    left = sum(1 for g in groups if g["decision"] is None)
    return {
        "consensus": consensus,
        "merge": merge,
        **({} if decided_group is not None else sources_changed(merge, sides)),
        "groups": groups,
        "added": added,
        "left": left,
        "next_undecided": next((g["key"] for g in groups if g["decision"] is None), None),
        "counted_twice": counted_twice(
            consensus, merge, decided, {pk: text for pk, (_, text) in summaries.items()}
        ),
        "model_texts": merge_models(merge) if decided_group is None else [],
        "sources": sides,
        "columns": len(sides) + 1,
        "compare_query": side_query([p for _, p in sides]),
        "decided": len(groups) - left,
        "docset": consensus.docset,
        "collection": consensus.docset.collection,
        "editable": consensus.status == Pyramid.Status.IN_PROGRESS,
        **travel(consensus.changes.all(), just_made),
    }


def sources_changed(merge: PyramidMerge, sides) -> dict:
    """The groups were aligned when the merge began: which sources changed since
    (`sources_changed`, their names), and in which groups (`changed_groups`: by content, an edit
    undone is no change); merges begun before the prints: by time."""
    changed_groups = pyramid_consensus.changed_groups(merge)
    names = {letter.upper(): f"{letter.upper()} ({source.name})" for letter, source in sides}
    if changed_groups is None:
        changed = [
            names[letter.upper()]
            for letter, source in sides
            if source.updated_at > merge.created_at
        ]
    else:
        changed = [names[letter] for letter in sorted({letter for letter, _ in changed_groups})]
    return {"sources_changed": changed, "changed_groups": changed_groups or []}


def choice_of(change, group: dict) -> str:
    """How a group's decision reads: "B's version", or "left out (as A)" where the pyramid taken has
    nothing in the group."""
    choice = change.decision["choice"]
    if choice in group and not group[choice]:
        return f"left out (as {choice.upper()})"
    return pyramid_consensus.choice_name(choice)


def travel(changes, just_made: PyramidChange | None = None) -> dict:
    """What the merge page's Undo and Redo would do (two queries): each button names the change it
    reverts or re-applies (undoing the start takes back what was taken at once, for instance).
    Right after a new edit (`just_made`), known without a query: Undo reverts it, and nothing can
    be redone (the edit ended the redo chain)."""
    if just_made is not None and just_made.action not in history.NOT_ON_THE_UNDO_STACK:
        return {
            "can_undo": True,
            "can_redo": False,
            "undo_what": just_made.description,
            "redo_what": "",
        }
    changes = changes.defer("before", "after")  # the snapshots, large, are not shown
    undo, redo = (
        history.next_to_travel(changes, undoing=True),
        history.next_to_travel(changes, undoing=False),
    )
    return {
        "can_undo": undo is not None,
        "can_redo": redo is not None,
        "undo_what": undo.description if undo else "",
        "redo_what": redo.description if redo else "",
    }
