"""Shading texts by the SCUs (or PSEs) that cover them: runs, and the HTML the pages show."""

from annotator.textmarks import marked_html, runs

TEXT = "Apollo 11 landed. Armstrong walked first. Collins orbited."


def spans(*pieces):
    return [(TEXT.index(words), TEXT.index(words) + len(words), key) for words, key in pieces]


def test_neighbouring_contributors_of_different_scus_get_different_shades():
    html = marked_html(runs(TEXT, spans(("Apollo 11 landed", 1), ("Armstrong walked first", 2), ("Collins orbited", 3))))
    assert '<mark data-start="0" data-scus="1" title="SCU 1">Apollo 11 landed</mark>' in html
    assert 'data-scus="2" class="t1" title="SCU 2">Armstrong walked first</mark>' in html
    assert 'data-scus="3" title="SCU 3">Collins orbited</mark>' in html


def test_the_same_scu_keeps_its_shade_and_overlaps_are_marked():
    html = marked_html(runs(TEXT, spans(("Apollo 11 landed", 1), ("Armstrong walked", 1), ("walked first", 2))))
    assert 'data-scus="1" title="SCU 1">Armstrong </mark>' in html  # no change of SCU: same shade
    assert 'data-scus="1 2" class="overlap t1"' in html
    assert 'data-scus="2" title="SCU 2"> first</mark>' in html


def test_tooltips_name_the_scu_by_its_label_escaped():
    html = marked_html(runs(TEXT, spans(("Apollo 11 landed", 1), ("Collins orbited", 0))),
                       zero_key=0, labels={1: 'The "first" landing <1969>'})
    assert 'title="SCU 1: The &quot;first&quot; landing &lt;1969&gt;"' in html
    assert 'class="zero t1" title="Matches nothing in the pyramid (weight 0)">Collins orbited</mark>' in html


def test_words_in_no_scu_are_marked_free_and_spaces_are_not():
    html = marked_html(runs(TEXT, spans(("Apollo 11 landed", 1))))
    assert '<span data-start="16" class="free">. Armstrong walked first. Collins orbited.</span>' in html
    assert marked_html(runs("  ", [])) == '<span data-start="0">  </span>'
