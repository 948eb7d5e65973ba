"""Merging annotators' pyramids into a consensus pyramid (issue 8; more than two at once, issue 15).

The papers' procedure: annotators "created first pass pyramid annotations working independently,
then merged their results" (Passonneau 2009 §3). An adjudicator starts a consensus from two or more
pyramids built from the same model summaries (A, B, C, ...); their SCUs are aligned by their words
(annotator.adjudication.alignment) and frozen into groups. For each group the adjudicator takes
one pyramid's version (copies of its SCUs there, with their contributors), or edits the consensus
with the builder's operations and keeps the group as edited. Groups identical in all are taken at
the start.

Every choice is an ordinary edit of the consensus (annotator.pyramids.editing, which never imports
this module): versioned, undoable, in the history with who and when, and with a `decision` naming
the group and the choice. A group is
decided while such a change is applied (undoing it makes the group undecided again). Copies keep
their provenance: SCU.source and Contributor.source point to the annotator's SCU and contributor.
"""

from __future__ import annotations

import hashlib
import json
from bisect import bisect_left, bisect_right
from collections import defaultdict
from functools import lru_cache
from typing import Any

from django.db import transaction
from django.db.models import Prefetch, Q

from annotator.adjudication.aligned_pyramids import NotComparable, align_many_pyramids
from annotator.adjudication.alignment import SIDES
from annotator.adjudication.models import PyramidMerge, PyramidMergeSource
from annotator.campaigns.access import can_adjudicate
from annotator.editing import history
from annotator.editing.errors import NotAllowed, RuleBroken
from annotator.editing.models import PyramidChange
from annotator.pyramids import editing
from annotator.pyramids.models import SCU, Contributor, Pyramid, PyramidModel, Span
from annotator.text.words import words

A, B, EDITED, IDENTICAL = "a", "b", "edited", "identical"

# An aligned group as PyramidMerge.groups stores it (JSON): "key", "kind", "identical",
# "labels_differ", "prints", and each side's SCU uids under its letter ("a", "b", "c", ...). The
# letters depend on how many pyramids were merged, which a TypedDict cannot describe.
Group = dict[str, Any]


def choice_name(choice: str) -> str:
    """How a decision reads on the pages: "B's version", "kept as edited", ..."""
    if choice == EDITED:
        return "kept as edited"
    if choice == IDENTICAL:
        return "identical in every pyramid"
    return f"{choice.upper()}'s version"


def group_key(*sides) -> str:
    """A group's name, stable for the merge: its SCUs' uids on each side, e.g. "a3.5-b7" (and
    "-c2" where a third pyramid is merged)."""
    return "-".join(letter + ".".join(map(str, sorted(uids))) for letter, uids in zip(SIDES, sides))


def _consensus_name(a: Pyramid) -> str:
    return Pyramid.free_name(a.docset_id, f"{a.docset.name}-consensus")


def start(a: Pyramid, b: Pyramid, user) -> Pyramid:
    """A new consensus pyramid of A and B (see start_many)."""
    return start_many([a, b], user)


def start_many(pyramids: list[Pyramid], user) -> Pyramid:
    """A new consensus pyramid of two or more pyramids A, B, C, ... (same docset, same model
    summaries), with the groups that are identical in all (the same words, under the same label)
    already taken from A (one change in the history). Groups of the same words under different
    labels wait for the adjudicator."""
    a = pyramids[0]
    if not can_adjudicate(user, a.docset.collection_id):
        raise NotAllowed(
            "Merging annotators' pyramids is for the collection's adjudicators and administrators."
        )
    if (
        len(pyramids) < 2
        or len({p.pk for p in pyramids}) != len(pyramids)
        or any(p.docset_id != a.docset_id for p in pyramids)
    ):
        raise NotComparable("choose two or more different pyramids of the same docset")
    if len(pyramids) > len(SIDES):
        raise NotComparable(f"choose at most {len(SIDES)} pyramids to merge at once")
    letters = SIDES[: len(pyramids)]
    groups: list[Group] = [
        {
            "key": group_key(*g.sides),
            "kind": g.kind,
            **{letter: list(side) for letter, side in zip(letters, g.sides)},
            "identical": g.identical,
        }
        for g in align_many_pyramids(pyramids)
    ]
    # Identical words under different labels: the adjudicator picks the label (one pyramid's
    # version).
    labels = {
        (pyramid_id, uid): label
        for pyramid_id, uid, label in SCU.objects.filter(
            pyramid__in=pyramids,
            uid__in={
                uid for g in groups if g["identical"] for letter in letters for uid in g[letter]
            },
        ).values_list("pyramid_id", "uid", "label")
    }
    for g in groups:
        if g["identical"]:
            g["labels_differ"] = (
                len(
                    {
                        frozenset(labels.get((p.pk, uid)) for uid in g[letter])
                        for letter, p in zip(letters, pyramids)
                    }
                )
                > 1
            )
    # What each source SCU was when the merge began, to tell later which groups a source's edits
    # touched.
    prints = scu_prints([p.pk for p in pyramids])
    for g in groups:
        g["prints"] = {
            letter: {str(uid): prints.get((source.pk, uid)) for uid in g[letter]}
            for letter, source in zip(letters, pyramids)
        }
    with transaction.atomic():
        consensus = Pyramid.objects.create(
            docset=a.docset, name=_consensus_name(a), created_by=user, creator_code="consensus"
        )
        PyramidModel.objects.bulk_create(
            PyramidModel(
                pyramid=consensus,
                summary_id=link.summary_id,
                position=link.position,
                header=link.header,
            )
            for link in a.model_links.order_by("position")
        )
        merge = PyramidMerge.objects.create(
            consensus=consensus, source_a=a, source_b=pyramids[1], groups=groups, created_by=user
        )
        PyramidMergeSource.objects.bulk_create(
            PyramidMergeSource(merge=merge, side=letter, pyramid=p)
            for letter, p in zip(letters[2:], pyramids[2:])
        )
        identical = [g for g in groups if g["identical"] and not g["labels_differ"]]
        if identical:
            uids = [uid for g in identical for uid in g["a"]]
            new_uids = list(range(1, len(uids) + 1))

            def plan(pyramid):
                def apply():
                    _copy(pyramid, a, uids, first_uid=1, position=0)  # the first SCUs
                    names = ", ".join(p.name for p in pyramids[:-1]) + f" and {pyramids[-1].name}"
                    return (
                        f"Started the consensus of {names}: took the {len(identical)} "
                        f"group(s) identical in {'both' if len(pyramids) == 2 else 'all'}"
                    )

                return new_uids, apply

            editing.run_edit(
                consensus.pk,
                user,
                None,
                "start_consensus",
                plan,
                decision={"groups": [g["key"] for g in identical], "choice": IDENTICAL},
            )
        consensus.refresh_from_db()
    return consensus


def scu_prints(pyramid_ids) -> dict[tuple[int, int], str]:
    """{(pyramid id, uid): a short hash of the SCU's label and its contributors' words}
    (one query)."""
    content = defaultdict(list)
    labels = {}
    for pyramid_id, uid, label, contributor, summary, start, end in Span.objects.filter(
        contributor__scu__pyramid_id__in=pyramid_ids
    ).values_list(
        "contributor__scu__pyramid_id",
        "contributor__scu__uid",
        "contributor__scu__label",
        "contributor__position",
        "summary__author",
        "start",
        "end",
    ):  # by content: the same after an archive's restore
        labels[(pyramid_id, uid)] = label
        content[(pyramid_id, uid)].append((contributor, summary, start, end))
    return {
        key: hashlib.sha256(json.dumps([labels[key], sorted(spans)]).encode()).hexdigest()[:16]
        for key, spans in content.items()
    }


def changed_groups(merge: PyramidMerge) -> list[tuple[str, str]] | None:
    """The groups whose SCUs a source has changed since the merge began, as (side name, group key),
    comparing content (an edit undone is no change); None for a merge begun without the prints."""
    if not merge.groups or "prints" not in merge.groups[0]:
        return None
    sides = merge.side_ids()
    now = scu_prints([source for _, source in sides])
    changed = []
    for group in merge.groups:
        for side, source in sides:
            if any(
                now.get((source, int(uid))) != was for uid, was in group["prints"][side].items()
            ):
                changed.append((side.upper(), group["key"]))
    return changed


def _span_mapper(consensus: Pyramid, source: Pyramid):
    """(summary, start, end) in the source's models -> the same words in the consensus's models
    (see _span_mappers)."""
    return _span_mappers(consensus, [source])[source.pk]


def _span_mappers(consensus: Pyramid, sources: list[Pyramid]) -> dict:
    """{source pyramid id: its span mapper}: (summary, start, end) in the source's models -> the
    same words in the consensus's models, every pyramid's models read in one query.

    Pyramids imported from separate DUCView files hold their own copies of the model texts, which
    may differ in spacing or punctuation but not in words (annotator.adjudication.aligned_pyramids
    checks this): a span then maps word for word, by the models' order. None where a span covers
    no word."""
    links: dict[int, list[PyramidModel]] = {
        pk: [] for pk in [consensus.pk, *(s.pk for s in sources)]
    }
    for link in (
        PyramidModel.objects.filter(pyramid_id__in=links)
        .select_related("summary")
        .order_by("position")
    ):
        links[link.pyramid_id].append(link)
    return {source.pk: _mapper(links[consensus.pk], links[source.pk]) for source in sources}


@lru_cache(maxsize=256)
def _words(text: str) -> tuple[tuple[int, int], ...]:
    """A model's words, kept for the next decision (each maps the same models' words again: issue
    32, a millisecond a decision)."""
    return tuple(words(text))


@lru_cache(maxsize=256)
def _word_bounds(text: str) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """A model's words' starts and ends (`_words`), to bisect."""
    found = _words(text)
    return tuple(start for start, _ in found), tuple(end for _, end in found)


def _mapper(ours: list[PyramidModel], theirs: list[PyramidModel]):
    if [link.summary_id for link in ours] == [link.summary_id for link in theirs]:
        return lambda summary_id, start, end: (summary_id, start, end)
    target = {}
    for mine, other in zip(ours, theirs):
        starts, ends = _word_bounds(other.summary.text)
        target[other.summary_id] = (mine.summary_id, starts, ends, _words(mine.summary.text))

    def mapped(summary_id, start, end):
        summary, starts, ends, our_words = target[summary_id]
        # The words ending after the span starts and starting before it ends (as word_scus finds
        # them).
        first, after_last = bisect_right(ends, start), bisect_left(starts, end)
        if first >= after_last:
            return None
        return summary, our_words[first][0], our_words[after_last - 1][1]

    return mapped


def _copy(
    consensus: Pyramid, source: Pyramid, uids: list[int], first_uid: int, position: int
) -> list[int]:
    """Copies of the source's SCUs (in their order) at `position` and after in the consensus, with
    provenance. The SCUs, their contributors and parts are read in one query (issue 32: four)."""
    remap = _span_mapper(consensus, source)
    scus: dict[int, tuple[str, str]] = {}  # id -> label, comment; in the source's order
    contributors: dict[int, tuple[int, str, int]] = {}  # id -> SCU id, comment, position
    spans = []  # (contributor id, where in the consensus's models, position)
    for row in (
        SCU.objects.filter(pyramid=source, uid__in=uids)
        .order_by(
            "position",
            "id",
            "contributors__position",
            "contributors__id",
            "contributors__spans__position",
            "contributors__spans__id",
        )
        .values_list(
            "id",
            "label",
            "comment",
            "contributors__id",
            "contributors__comment",
            "contributors__position",
            "contributors__spans__summary_id",
            "contributors__spans__start",
            "contributors__spans__end",
            "contributors__spans__position",
        )
    ):
        scu_id, label, comment, contributor_id, contributor_comment, contributor_position = row[:6]
        summary_id, start, end, span_position = row[6:]
        scus[scu_id] = (label, comment)
        if start is None:  # an SCU without contributors, or a contributor without parts
            continue
        where = remap(summary_id, start, end)
        if where:  # a contributor none of whose words map is left out
            contributors[contributor_id] = (scu_id, contributor_comment, contributor_position)
            spans.append((contributor_id, where, span_position))
    copies = SCU.objects.bulk_create(
        SCU(
            pyramid=consensus,
            uid=first_uid + i,
            label=label,
            comment=comment,
            position=position + i,
            source_id=scu_id,
        )
        for i, (scu_id, (label, comment)) in enumerate(scus.items())
    )
    copy_of_scu = dict(zip(scus, copies))
    model_of = {contributor_id: where[0] for contributor_id, where, _ in spans}
    contributor_copies = Contributor.objects.bulk_create(
        Contributor(
            scu=copy_of_scu[scu_id],
            summary_id=model_of[contributor_id],
            comment=comment,
            position=contributor_position,
            source_id=contributor_id,
        )
        for contributor_id, (scu_id, comment, contributor_position) in contributors.items()
    )
    copy_of_contributor = dict(zip(contributors, contributor_copies))
    Span.objects.bulk_create(
        Span(
            contributor=copy_of_contributor[contributor_id],
            summary_id=summary_id,
            start=start,
            end=end,
            position=span_position,
        )
        for contributor_id, (summary_id, start, end), span_position in spans
    )
    return [copy.uid for copy in copies]


def merge_of(pyramid: Pyramid) -> PyramidMerge:
    """The consensus's merge, with all its sources (its sides and side_ids read no more)."""
    merge = (
        PyramidMerge.objects.filter(consensus=pyramid)
        .select_related("source_a", "source_b")
        .prefetch_related(
            Prefetch(
                "further_sources",
                queryset=PyramidMergeSource.objects.select_related(
                    "pyramid", "pyramid__created_by"
                ),
            )
        )
        .first()
    )
    if merge is None:
        raise RuleBroken("This pyramid is not a consensus: it has no aligned groups to decide.")
    return merge


def _group(merge: PyramidMerge, key: str) -> Group:
    found = next((g for g in merge.groups if g["key"] == key), None)
    if found is None:
        raise RuleBroken("There is no such group in this consensus: reload the page.")
    return found


def _from_group(consensus: Pyramid, merge: PyramidMerge, group: Group) -> list[SCU]:
    """The consensus's SCUs taken from the group's SCUs (on any side)."""
    return _places(consensus, merge, group)[0]


def _places(
    consensus: Pyramid, merge: PyramidMerge, group: Group
) -> tuple[list[SCU], int, int | None]:
    """From one read of the consensus's SCUs (issue 32: three queries, with the snapshot before
    the edit, which takes these rows: editing.scu_rows_for_plan): those taken from the group's
    SCUs on any side (each with its id and uid, as a deletion needs them), the largest uid in use
    and the last position of the others (None: there are none)."""
    from_group = {(source, uid) for side, source in merge.side_ids() for uid in group[side]}
    taken, largest, last = [], 0, None
    for row in editing.scu_rows_for_plan(consensus, with_sources=True):
        largest = max(largest, row.uid)
        if (row.source_pyramid_id, row.source_uid) in from_group:
            taken.append(SCU(pk=row.id, pyramid=consensus, uid=row.uid))
        elif last is None or row.position > last:
            last = row.position
    return taken, largest, last


def _merge_of(pyramid: Pyramid, merge: PyramidMerge | None) -> PyramidMerge:
    """The consensus's merge, as the caller loaded it (a merge never changes once begun) or read
    now."""
    if merge is None:
        return merge_of(pyramid)
    assert merge.consensus_id == pyramid.pk, "the merge of another pyramid"
    return merge


def choose(
    pyramid_id: int,
    user,
    version: int | None,
    key: str,
    side: str,
    merge: PyramidMerge | None = None,
) -> editing.EditResult:
    """The group's SCUs in the consensus become copies of side A's (or B's, C's, ...) SCUs of the
    group: what the consensus took from the group before goes. Choosing an empty side of a group
    (a pyramid that has nothing there) leaves the content out. `merge`: the consensus's, where the
    caller has it loaded (with its sources: merge_of)."""

    def plan(pyramid):
        found = _merge_of(pyramid, merge)
        sources = dict(found.sides())
        if side not in sources:
            raise RuleBroken(
                "Choose the version of one of the pyramids merged "
                f"({', '.join(s.upper() for s in sources)})."
            )
        group = _group(found, key)
        source = sources[side]
        uids = group[side]
        replaced, in_use, last = _places(pyramid, found, group)
        first = editing.take_uids(pyramid, in_use, len(uids))  # next_uid's, read with them
        position = 0 if last is None else last + 1
        new_uids = list(range(first, first + len(uids)))

        def apply():
            editing.delete_scus(replaced)
            _copy(pyramid, source, uids, first, position)
            name = side.upper()
            if not uids:
                return (
                    f"Group {key} ({group['kind']}): left out, as {name} ({source.name}) has "
                    "nothing there"
                )
            return (
                f"Group {key} ({group['kind']}): chose {name}'s version "
                f"({len(uids)} SCU{'s' if len(uids) != 1 else ''} of {source.name})"
            )

        return [scu.uid for scu in replaced] + new_uids, apply

    return editing.run_edit(
        pyramid_id, user, version, "adjudicate", plan, decision={"groups": [key], "choice": side}
    )


def keep(
    pyramid_id: int, user, version: int | None, key: str, merge: PyramidMerge | None = None
) -> editing.EditResult:
    """The group is decided as the consensus has it now (after the adjudicator's edits). SCUs the
    adjudicator made in the builder over the group's words are tied to it (the decision names
    them). `merge`: as `choose` takes it."""
    decision = {"groups": [key], "choice": EDITED}

    def plan(pyramid):
        found = _merge_of(pyramid, merge)
        group = _group(found, key)
        decision["scus"] = _made_for(pyramid, found, group)
        if decision["scus"] or _from_group(pyramid, found, group):
            return [], lambda: f"Group {key} ({group['kind']}): kept as edited"
        # Nothing of the group is in the consensus: keeping it leaves its content out. Say so, in
        # case the adjudicator meant to take a version (Undo takes the decision back).
        return (
            [],
            lambda: (
                f"Group {key} ({group['kind']}): kept as edited, with nothing of it in the "
                "consensus: its content is left out"
            ),
        )

    return editing.run_edit(pyramid_id, user, version, "adjudicate", plan, decision=decision)


def _made_for(consensus: Pyramid, merge: PyramidMerge, group: Group) -> list[int]:
    """The uids of the consensus's SCUs of no source (made by the adjudicator) whose words overlap
    those of the group's SCUs on any side (three queries)."""
    sides = merge.sides()
    mappers = _span_mappers(consensus, [source for _, source in sides])
    in_group = Q(pk__in=[])
    for side, source in sides:
        in_group |= Q(contributor__scu__pyramid=source, contributor__scu__uid__in=group[side])
    group_spans = defaultdict(list)  # consensus summary -> ranges of the group's words
    for pyramid_id, summary_id, start, end in Span.objects.filter(in_group).values_list(
        "contributor__scu__pyramid_id", "summary_id", "start", "end"
    ):
        target = mappers[pyramid_id](summary_id, start, end)
        if target:
            group_spans[target[0]].append(target[1:])
    made = set()
    for uid, summary_id, start, end in Span.objects.filter(
        contributor__scu__pyramid=consensus, contributor__scu__source__isnull=True
    ).values_list("contributor__scu__uid", "summary_id", "start", "end"):
        if any(
            start < other_end and other_start < end
            for other_start, other_end in group_spans[summary_id]
        ):
            made.add(uid)
    return sorted(made)


def decisions(pyramid: Pyramid) -> dict[str, PyramidChange]:
    """{group key: the applied change that decided it} (the latest, where decided more than
    once)."""
    return history.decisions(pyramid.changes.all())
