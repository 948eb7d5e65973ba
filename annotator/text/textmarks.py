"""Cut a text into runs of characters covered by the same set of spans, for shading in pages."""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from html import escape  # Django's escape is this, wrapped in a SafeString per call
from typing import Generic, TypeVar

from django.utils.safestring import SafeString, mark_safe

from annotator.text.words import words

Key = TypeVar("Key", bound=Hashable)  # what a span names: an SCU's id or uid, 0 for "no SCU"


@dataclass(frozen=True)
class Run(Generic[Key]):
    text: str
    keys: tuple[Key, ...]  # the keys of the spans covering this run, sorted; empty = uncovered
    start: int = 0  # code point offset of the run in the text (the browser maps selections by it)

    @property
    def has_words(self) -> bool:
        """Whether the run holds letters or digits (spaces and punctuation alone are not
        content)."""
        return any(ch.isalnum() for ch in self.text)


def word_pieces(text: str, mark: Callable[[int], dict[str, object]]) -> list[dict[str, object]]:
    """The text cut into its words and what lies between them, for templates: a word is
    {"text", "word": True, **mark(its index)} (index as in scoring.agreement.units.words), the rest
    {"text"}."""
    pieces: list[dict[str, object]] = []
    at = 0
    for index, (start, end) in enumerate(words(text)):
        if start > at:
            pieces.append({"text": text[at:start]})
        pieces.append({"text": text[start:end], "word": True, **mark(index)})
        at = end
    if at < len(text):
        pieces.append({"text": text[at:]})
    return pieces


def runs(text: str, spans: Sequence[tuple[int, int, Key]]) -> list[Run[Key]]:
    """spans: (start, end, key). Adjacent characters with the same covering keys form one run.

    One sweep over the spans' ends (issue 32: comparing every span with every boundary took ~1 ms
    of each builder action for a DUC model); offsets outside the text are taken at its ends."""
    size = len(text)
    starting: defaultdict[int, list[Key]] = defaultdict(list)
    ending: defaultdict[int, list[Key]] = defaultdict(list)
    boundaries = {0, size}
    for start, end, key in spans:
        start, end = max(0, min(start, size)), max(0, min(end, size))
        boundaries.update((start, end))
        if start < end:
            starting[start].append(key)
            ending[end].append(key)
    covering: dict[Key, int] = {}  # the keys of the spans open here, each with how many
    cuts: list[tuple[int, tuple[Key, ...]]] = []  # where the covering keys change, and to what
    for point in sorted(boundaries)[:-1]:
        for key in ending.get(point, ()):
            covering[key] -= 1
            if not covering[key]:
                del covering[key]
        for key in starting.get(point, ()):
            covering[key] = covering.get(key, 0) + 1
        keys = tuple(sorted(covering, key=str))
        if not cuts or cuts[-1][1] != keys:
            cuts.append((point, keys))
    ends = [start for start, _ in cuts[1:]] + [size]
    return [Run(text[start:end], keys, start) for (start, keys), end in zip(cuts, ends)]


SPACE = re.compile(r"\s")  # as str.isspace: both are Unicode's white space


def coverage(text: str, spans: Iterable[tuple[int, int, object]]) -> float:
    """Share of the text's non-space characters that lie in some span (the spans merged first,
    then each stretch's spaces counted at once)."""
    size = len(text)
    stretches = sorted(
        (max(0, start), min(end, size)) for start, end, _ in spans if max(0, start) < min(end, size)
    )
    covered, reach = 0, 0  # non-space characters counted, and up to where
    for start, end in stretches:
        start = max(start, reach)
        if start < end:
            covered += end - start - len(SPACE.findall(text, start, end))
            reach = end
    counted = size - len(SPACE.findall(text))
    return covered / counted if counted else 0.0


def uncovered_words(
    text: str, spans: Iterable[tuple[int, int, *tuple[object, ...]]]
) -> list[tuple[int, int]]:
    """The words of the text (scoring.agreement.units.words: runs of letters and digits, so
    punctuation alone is never a word) that share no character with any span ((start, end, ...),
    code point offsets), as (start, end) in text order. DUC 2005's convention puts every word of
    a peer in a PSE, of an SCU or of "matches nothing": these are the words still left out.

    >>> text = "Apollo 11 landed, and Collins orbited."
    >>> [text[s:e] for s, e in uncovered_words(text, [(0, 16, 1), (22, 37, 0)])]
    ['and']
    """
    depth = [0] * (len(text) + 1)  # spans open at each character, by their starts and ends
    for start, end, *_ in spans:
        start, end = max(0, min(start, len(text))), max(0, min(end, len(text)))
        if start < end:
            depth[start] += 1
            depth[end] -= 1
    covered: list[bool] = []
    open_spans = 0
    for change in depth[:-1]:
        open_spans += change
        covered.append(open_spans > 0)
    return [(start, end) for start, end in words(text) if not any(covered[start:end])]


def uncovered_runs(text: str, uncovered: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """Uncovered words (`uncovered_words`) joined into runs: words with only spaces and
    punctuation between them (no other word) make one run, from its first word to its last.

    >>> text = "Apollo 11 landed, and then, Collins orbited."
    >>> runs = uncovered_runs(text, uncovered_words(text, [(0, 16, 1), (28, 43, 0)]))
    >>> [text[s:e] for s, e in runs]
    ['and then']
    """
    joined: list[tuple[int, int]] = []
    for start, end in uncovered:
        if joined and not words(text[joined[-1][1] : start]):
            joined[-1] = (joined[-1][0], end)
        else:
            joined.append((start, end))
    return joined


def run_title(keys: tuple[Key, ...], zero_key: Key | None, labels: Mapping[Key, str]) -> str:
    """A covered run's tooltip: the SCUs it is in, by number and label (`labels`, where known)."""

    def named(key: Key) -> str:
        return f"SCU {key}: {labels[key]}" if key in labels else f"SCU {key}"

    if len(keys) > 1:
        return "In " + "; ".join(named(k) for k in keys) + " (overlapping contributors)"
    if zero_key is not None and keys == (zero_key,):
        return "Matches nothing in the pyramid (weight 0)"
    return named(keys[0])


def run_titles(
    text_runs: Iterable[Run[Key]], keys: set[Key], labels: Mapping[Key, str]
) -> list[tuple[int, str]]:
    """(start, tooltip) of the runs in any of the SCUs `keys`, as marked_html titles them: what a
    relabel changes in a shaded text (issue 32: sent instead of the whole text)."""
    return [
        (run.start, run_title(run.keys, None, labels)) for run in text_runs if keys & set(run.keys)
    ]


def marked_html(
    text_runs: Iterable[Run[Key]],
    zero_key: Key | None = None,
    labels: Mapping[Key, str] | None = None,
) -> SafeString:
    """The runs as HTML: <mark> for covered runs (naming their keys), <span> for the others.

    Every element carries data-start, the run's code point offset, from which the browser turns
    a selection into offsets. Built here rather than in a template: a summary has hundreds of
    runs, and this is the page's hot path. `zero_key` marks runs covered only by that key
    (zero-weight PSEs) with class "zero"; `labels` ({key: SCU label}) name the SCUs in the
    tooltip (run_title). Each change of SCUs along the text flips the shade (class "t1"):
    neighbouring contributors of different SCUs never look like one.
    """
    known = labels or {}
    pieces: list[str] = []
    shade, previous = 0, None
    for run in text_runs:
        text = escape(run.text)
        if run.keys:
            if previous is not None and run.keys != previous:
                shade ^= 1
            previous = run.keys
            keys = " ".join(str(k) for k in run.keys)
            if len(run.keys) > 1:
                classes = ["overlap"]
            elif zero_key is not None and run.keys == (zero_key,):
                classes = ["zero"]
            else:
                classes = []
            if shade:
                classes.append("t1")
            extra = f' class="{" ".join(classes)}"' if classes else ""
            title = run_title(run.keys, zero_key, known)
            pieces.append(
                f'<mark data-start="{run.start}" data-scus="{keys}"{extra} '
                f'title="{escape(title)}">{text}</mark>'
            )
        elif run.has_words:
            pieces.append(f'<span data-start="{run.start}" class="free">{text}</span>')
        else:
            pieces.append(f'<span data-start="{run.start}">{text}</span>')
    return mark_safe("".join(pieces))  # every piece of text above went through escape()
