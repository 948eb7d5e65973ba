"""Shading texts by the SCUs (or PSEs) that cover them: runs, and the HTML the pages show."""

from annotator.text.textmarks import (
    Run,
    coverage,
    marked_html,
    runs,
    uncovered_runs,
    uncovered_words,
)

TEXT = "Apollo 11 landed. Armstrong walked first. Collins orbited."


def spans(*pieces):
    return [(TEXT.index(words), TEXT.index(words) + len(words), key) for words, key in pieces]


def test_neighbouring_contributors_of_different_scus_get_different_shades():
    html = marked_html(
        runs(
            TEXT,
            spans(("Apollo 11 landed", 1), ("Armstrong walked first", 2), ("Collins orbited", 3)),
        )
    )
    assert '<mark data-start="0" data-scus="1" title="SCU 1">Apollo 11 landed</mark>' in html
    assert 'data-scus="2" class="t1" title="SCU 2">Armstrong walked first</mark>' in html
    assert 'data-scus="3" title="SCU 3">Collins orbited</mark>' in html


def test_the_same_scu_keeps_its_shade_and_overlaps_are_marked():
    html = marked_html(
        runs(TEXT, spans(("Apollo 11 landed", 1), ("Armstrong walked", 1), ("walked first", 2)))
    )
    assert 'data-scus="1" title="SCU 1">Armstrong </mark>' in html  # no change of SCU: same shade
    assert 'data-scus="1 2" class="overlap t1"' in html
    assert 'data-scus="2" title="SCU 2"> first</mark>' in html


def test_tooltips_name_the_scu_by_its_label_escaped():
    html = marked_html(
        runs(TEXT, spans(("Apollo 11 landed", 1), ("Collins orbited", 0))),
        zero_key=0,
        labels={1: 'The "first" landing <1969>'},
    )
    assert 'title="SCU 1: The &quot;first&quot; landing &lt;1969&gt;"' in html
    assert (
        'class="zero t1" title="Matches nothing in the pyramid (weight 0)">Collins orbited</mark>'
        in html
    )


def test_words_in_no_scu_are_marked_free_and_spaces_are_not():
    html = marked_html(runs(TEXT, spans(("Apollo 11 landed", 1))))
    assert (
        '<span data-start="16" class="free">. Armstrong walked first. Collins orbited.</span>'
        in html
    )
    assert marked_html(runs("  ", [])) == '<span data-start="0">  </span>'


def test_words_in_no_span_are_found_and_punctuation_alone_is_no_word():
    text = "Apollo 11 landed -- and, then: Collins orbited (alone)."
    covered = [(0, 16, 1), (text.index("Collins"), text.index(" (alone"), 0)]  # (start, end, SCU)
    left = uncovered_words(text, covered)
    assert [text[s:e] for s, e in left] == ["and", "then", "alone"]  # not "--", ",", ":", "(", ")."
    assert [text[s:e] for s, e in uncovered_runs(text, left)] == ["and, then", "alone"]
    # A span touching part of a word covers it (selections snap to whole words; imports may not).
    assert uncovered_words("Moonwalk now", [(0, 4)]) == [(9, 12)]
    assert uncovered_words("Moonwalk now", []) == [(0, 8), (9, 12)]
    assert uncovered_words("Moonwalk now", [(0, 12)]) == []
    assert uncovered_words(" ... ", []) == []
    # Overlapping and nested spans, in any order; a span ending where a word starts does not cover
    # it.
    assert uncovered_words("a b c d", [(2, 7), (2, 3), (0, 1)]) == []
    assert uncovered_words("a b c d", [(0, 2), (6, 6)]) == [(2, 3), (4, 5), (6, 7)]


def _runs_by_definition(text, spans):
    """runs() as first written (every span compared with every boundary): the reference."""
    boundaries = {0, len(text)}
    for start, end, _ in spans:
        boundaries.update((max(0, min(start, len(text))), max(0, min(end, len(text)))))
    points = sorted(boundaries)
    result = []
    for left, right in zip(points, points[1:]):
        keys = tuple(
            sorted({key for start, end, key in spans if start <= left and right <= end}, key=str)
        )
        if result and result[-1].keys == keys:
            result[-1] = Run(result[-1].text + text[left:right], keys, result[-1].start)
        else:
            result.append(Run(text[left:right], keys, left))
    return result


def _coverage_by_definition(text, spans):
    covered = [False] * len(text)
    for start, end, _ in spans:
        for i in range(max(0, start), min(end, len(text))):
            covered[i] = True
    counted = [c for ch, c in zip(text, covered) if not ch.isspace()]
    return sum(counted) / len(counted) if counted else 0.0


def test_runs_and_coverage_equal_their_definitions_on_random_spans():
    """The sweeps (issue 32) give what the definitions give: the same runs, the same share, for
    spans that overlap, repeat a key, nest, touch, hold nothing or reach outside the text."""
    import random

    rng = random.Random(32)
    alphabet = "ab  c\n\u00a0é.,\t"
    for _ in range(3000):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randrange(0, 40)))
        spans = []
        for _ in range(rng.randrange(0, 8)):
            start = rng.randrange(-3, len(text) + 3)
            spans.append((start, start + rng.randrange(-2, 15), rng.choice([1, 2, 3, 0, 12])))
        assert runs(text, spans) == _runs_by_definition(text, spans), (text, spans)
        assert coverage(text, spans) == _coverage_by_definition(text, spans), (text, spans)
