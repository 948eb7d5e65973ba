"""The words one annotator put in a group's SCUs and the other did not, in the model texts of a
consensus being merged (issue 15): marked as the comparison page marks them, each stretch tied
to the group it belongs to, so that the merge page can open the group from the text.

The groups are those frozen when the merge began; the words are the sources' as they are now (a
source edited since shows its current words, as taking its version would copy them).
"""

from __future__ import annotations

from .adjudication import scu_words
from .models import PyramidMerge
from .textmarks import word_pieces

ONLY_A, ONLY_B = "only-a", "only-b"


def word_owners(merge: PyramidMerge) -> dict[tuple[int, int], tuple[str, str]]:
    """{(model position, word index): (its marks, the key of the first group it differs in)}."""
    words_a, words_b = scu_words([merge.source_a, merge.source_b])
    marks, first_group = {}, {}
    for group in merge.groups:
        a = set().union(*(words_a.get(uid, set()) for uid in group["a"]))
        b = set().union(*(words_b.get(uid, set()) for uid in group["b"]))
        for mark, only in ((ONLY_A, a - b), (ONLY_B, b - a)):
            for word in only:
                marks.setdefault(word, set()).add(mark)
                first_group.setdefault(word, group["key"])
    return {word: (" ".join(sorted(marks[word])), first_group[word]) for word in marks}


def stretches(pieces: list[dict]) -> list[dict]:
    """Word pieces joined into stretches: consecutive marked words of the same group and marks, and
    what lies between them on one line, become one {"text", "marks", "group"}; the text between
    stretches is joined into plain {"text"} pieces."""
    out: list[dict] = []
    for piece in pieces:
        marked = {"marks": piece["marks"], "group": piece["group"]} if piece.get("group") else {}
        last = out[-1] if out else None
        if not piece.get("word") or not marked:
            if last is not None and "group" not in last:
                last["text"] += piece["text"]
            else:
                out.append({"text": piece["text"]})
            continue
        # A marked word continues the stretch before it over spaces and punctuation, not a line break.
        if len(out) >= 2 and "group" not in last and "\n" not in last["text"] and \
                {k: out[-2].get(k) for k in ("marks", "group")} == marked and not any(ch.isalnum() for ch in last["text"]):
            gap = out.pop()
            out[-1]["text"] += gap["text"] + piece["text"]
        elif last is not None and {k: last.get(k) for k in ("marks", "group")} == marked:
            last["text"] += piece["text"]
        else:
            out.append({"text": piece["text"], **marked})
    return out


def marked_models(merge: PyramidMerge) -> list[dict]:
    """The model texts, in the consensus's order, as [{"author", "stretches"}]."""
    owners = word_owners(merge)
    models = []
    for position, link in enumerate(merge.consensus.model_links.select_related("summary").order_by("position")):
        def mark(index, position=position):
            found = owners.get((position, index))
            return {"marks": found[0], "group": found[1]} if found else {}
        models.append({"author": link.summary.author, "stretches": stretches(word_pieces(link.summary.text, mark))})
    return models
