"""The words some annotators put in a group's SCUs and others did not, in the model texts of the
pyramids compared or merged (issue 15): each stretch marked with the pyramids that have it and
tied to its group, so that the pages can open the group from the text.

The groups are those frozen when the merge began; the words are the sources' as they are now (a
source edited since shows its current words, as taking its version would copy them).
"""

from __future__ import annotations

from annotator.adjudication.aligned_pyramids import scu_words
from annotator.adjudication.alignment import SIDES
from annotator.adjudication.models import PyramidMerge
from annotator.pyramids.models import Pyramid
from annotator.text.textmarks import word_pieces
from annotator.text.words import words


def model_words(pyramid: Pyramid) -> dict[tuple[int, int], str]:
    """Each word of the pyramid's models by (model position, word index)."""
    found = {}
    for position, link in enumerate(
        pyramid.model_links.select_related("summary").order_by("position")
    ):
        text = link.summary.text
        for index, (start, end) in enumerate(words(text)):
            found[(position, index)] = text[start:end]
    return found


def _names(letters) -> str:
    names = [f"{letter.upper()}" for letter in letters]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def word_marks(
    pyramids: list[Pyramid], groups: list[tuple[str, list]]
) -> dict[tuple[int, int], tuple[str, str, str]]:
    """{(model position, word index): (its marks, the key of the first group it differs in, what the
    mark means)} for the words some pyramids put in a group's SCUs and others did not. `groups`:
    (key, [each pyramid's SCU uids in the group]). A word is marked "only-a" where A has it (and
    "only-b" where B has it, ...)."""
    covered = scu_words(pyramids)
    letters = SIDES[: len(pyramids)]
    found = {}
    for key, sides in groups:
        by_side = [
            set().union(*(covered[i].get(uid, set()) for uid in uids))
            for i, uids in enumerate(sides)
        ]
        for word in set().union(*by_side) - by_side[0].intersection(*by_side[1:]):
            if word in found:
                continue
            have = [letter for letter, side in zip(letters, by_side) if word in side]
            lack = [letter for letter, side in zip(letters, by_side) if word not in side]
            meaning = (
                f"only {_names(have)} {'has' if len(have) == 1 else 'have'} these words"
                if len(pyramids) == 2
                else f"{_names(have)} put these words in the group's SCUs, {_names(lack)} did not"
            )
            found[word] = (" ".join(f"only-{letter}" for letter in have), key, meaning)
    return found


def stretches(pieces: list[dict]) -> list[dict]:
    """Word pieces joined into stretches: consecutive marked words of the same group and marks, and
    what lies between them on one line, become one {"text", "marks", "group"}; the text between
    stretches is joined into plain {"text"} pieces."""
    out: list[dict] = []
    for piece in pieces:
        marked = {k: piece[k] for k in ("marks", "group", "title")} if piece.get("group") else {}
        last = out[-1] if out else None
        if not piece.get("word") or not marked:
            if last is not None and "group" not in last:
                last["text"] += piece["text"]
            else:
                out.append({"text": piece["text"]})
            continue
        # A marked word continues the stretch before it over spaces and punctuation, not a line
        # break.
        if (
            len(out) >= 2
            and last is not None
            and "group" not in last
            and "\n" not in last["text"]
            and {k: out[-2].get(k) for k in marked} == marked
            and not any(ch.isalnum() for ch in last["text"])
        ):
            gap = out.pop()
            out[-1]["text"] += gap["text"] + piece["text"]
        elif last is not None and {k: last.get(k) for k in marked} == marked:
            last["text"] += piece["text"]
        else:
            out.append({"text": piece["text"], **marked})
    return out


def marked_models(pyramids: list[Pyramid], groups: list[tuple[str, list]]) -> list[dict]:
    """The model texts (in the first pyramid's order) as [{"author", "stretches"}], the words the
    pyramids disagree on marked and tied to their group (see word_marks)."""
    marks = word_marks(pyramids, groups)
    models = []
    for position, link in enumerate(
        pyramids[0].model_links.select_related("summary").order_by("position")
    ):

        def mark(index, position=position):
            found = marks.get((position, index))
            return {"marks": found[0], "group": found[1], "title": found[2]} if found else {}

        models.append(
            {
                "author": link.summary.author,
                "stretches": stretches(word_pieces(link.summary.text, mark)),
            }
        )
    return models


def merge_models(merge: PyramidMerge) -> list[dict]:
    """The model texts of a merge's sources, marked by the groups frozen when the merge began."""
    sides = merge.sides()
    return marked_models(
        [p for _, p in sides],
        [(g["key"], [g[letter] for letter, _ in sides]) for g in merge.groups],
    )
