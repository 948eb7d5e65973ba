"""Model words that two SCUs of a consensus pyramid both cover: words counted twice.

Taking A's version of one group and B's version of another can put the same model words in two
SCUs although neither annotator had them twice; each SCU then counts that model, which raises
weights (Passonneau 2009 §2.1: a contributor's words express one SCU). The merge page lists such
words as soon as they appear, naming the groups whose SCUs hold them, and Submit asks for a
confirmation while any remain (annotator.pyramids.editing.submit).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from django.db.models import F

from annotator.adjudication.models import PyramidMerge
from annotator.editing import history
from annotator.editing.models import PyramidChange
from annotator.pyramids.models import Span

ADDED = "added by the adjudicator"


@dataclass(frozen=True)
class CountedTwice:
    model: str  # the model summary's author
    words: str  # the words both SCUs cover (the first stretch, if several)
    scus: tuple[int, int]  # the two SCUs' uids, smaller first
    groups: tuple[str, str]  # each SCU's group key (or ADDED)

    @property
    def message(self) -> str:
        (a, b), (ga, gb) = self.scus, self.groups
        return (
            f"Model {self.model}: “{self.words}” is in SCU {a} ({_group(ga)}) "
            f"and in SCU {b} ({_group(gb)})"
        )

    @property
    def linked_groups(self) -> list[str]:
        """The groups to open (each once; an SCU added outside any group has none)."""
        return [key for key in dict.fromkeys(self.groups) if key != ADDED]


def _group(key: str) -> str:
    return key if key == ADDED else f"group {key}"


def overlaps(spans: list[tuple]) -> dict[tuple[int, int], tuple[int, int]]:
    """{(scu, other scu): the first stretch both cover} for spans (start, end, scu[, origin]) of
    one text. Two spans of the same origin (copies of one source pyramid's contributors) are that
    pyramid's own overlap and are not paired.

    >>> overlaps([(0, 10, 1), (5, 15, 2), (20, 25, 3), (0, 4, 1)])
    {(1, 2): (5, 10)}
    >>> overlaps([(0, 10, 1, "A"), (5, 15, 2, "A"), (8, 12, 3, None)])
    {(1, 3): (8, 10), (2, 3): (8, 12)}
    """
    found: dict[tuple[int, int], tuple[int, int]] = {}
    ordered = sorted(tuple(span) + (None,) * (4 - len(span)) for span in spans)
    for i, (_, end, scu, origin) in enumerate(ordered):
        for other_start, other_end, other, other_origin in ordered[i + 1 :]:
            if other_start >= end:
                break
            if other != scu and (origin is None or origin != other_origin):
                pair = (min(scu, other), max(scu, other))
                found.setdefault(pair, (other_start, min(end, other_end)))
    return found


def counted_twice(
    consensus,
    merge: PyramidMerge | None = None,
    decided: Mapping[str, PyramidChange | history.Decided] | None = None,
    texts: dict[int, str] | None = None,
) -> list[CountedTwice]:
    """The words of the consensus's model summaries in two of its SCUs where merging put them
    there: in one query where the caller gives what it read (below), else up to five. Words two
    contributors copied from one source pyramid both cover were that pyramid's own overlap (its
    annotator's, not the merge's) and are left to the builder's problems list. Every other pair
    counts: copies from different source pyramids, and any pair with a contributor the
    adjudicator made (in an SCU tied to the group it was kept for, else "added by the
    adjudicator"). `merge`, `decided` (the consensus's decisions) and `texts` (the models' texts
    by summary id), where the caller has them loaded already.
    """
    merge = merge or PyramidMerge.objects.filter(consensus=consensus).first()
    if merge is None:
        return []
    group_of = {}
    sides = merge.side_ids()
    for group in merge.groups:
        for side, source in sides:
            group_of.update({(source, uid): group["key"] for uid in group[side]})
    if decided is None:
        decided = history.decided_groups(consensus.changes.all())
    made_for: dict[int, str] = {}
    for key, change in decided.items():
        assert change.decision is not None  # decisions() holds only changes that made one
        made_for.update((uid, key) for uid in change.decision.get("scus", []))
    rows = Span.objects.filter(contributor__scu__pyramid=consensus, start__lt=F("end")).values_list(
        "summary_id",
        "summary__author",
        "start",
        "end",
        "contributor__scu__uid",
        "contributor__scu__source__pyramid_id",
        "contributor__scu__source__uid",
        "contributor__source__scu__pyramid_id",
    )
    by_summary: dict[int, list] = {}
    authors, groups = {}, {}
    for summary_id, author, start, end, uid, source_pyramid, source_uid, copied_from in rows:
        by_summary.setdefault(summary_id, []).append((start, end, uid, copied_from))
        authors[summary_id] = author
        groups[uid] = group_of.get((source_pyramid, source_uid)) or made_for.get(uid, ADDED)
    found = []
    if texts is None or not by_summary.keys() <= texts.keys():
        texts = dict(consensus.models_used.filter(pk__in=by_summary).values_list("pk", "text"))
    for summary_id, spans in by_summary.items():
        for (a, b), (start, end) in overlaps(spans).items():
            found.append(
                CountedTwice(
                    authors[summary_id],
                    texts[summary_id][start:end].strip(),
                    (a, b),
                    (groups[a], groups[b]),
                )
            )
    return sorted(found, key=lambda c: (c.model, c.scus))
