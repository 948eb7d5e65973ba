"""annotator.adjudication.merge_words: the merge page's marked stretches of model text."""

from annotator.adjudication.merge_words import stretches
from annotator.text.textmarks import word_pieces


def pieces(text, marked):
    return word_pieces(
        text,
        lambda i: (
            {"marks": marked[i][0], "group": marked[i][1], "title": marked[i][0]}
            if i in marked
            else {}
        ),
    )


def test_consecutive_words_of_one_group_form_one_stretch_over_spaces_and_punctuation():
    text = "One two, three four five.\nsix seven"
    marked = {
        1: ("only-a", "g1"),
        2: ("only-a", "g1"),
        4: ("only-b", "g2"),
        5: ("only-b", "g2"),
        6: ("only-b", "g2"),
    }
    assert stretches(pieces(text, marked)) == [
        {"text": "One "},
        {"text": "two, three", "marks": "only-a", "group": "g1", "title": "only-a"},
        {"text": " four "},
        # A line break ends a stretch: each line's words are their own link.
        {"text": "five", "marks": "only-b", "group": "g2", "title": "only-b"},
        {"text": ".\n"},
        {"text": "six seven", "marks": "only-b", "group": "g2", "title": "only-b"},
    ]


def test_neighbouring_words_of_other_groups_or_sides_stay_apart():
    text = "alpha beta gamma"
    marked = {0: ("only-a", "g1"), 1: ("only-b", "g1"), 2: ("only-b", "g2")}
    assert [s.get("group") for s in stretches(pieces(text, marked)) if s.get("group")] == [
        "g1",
        "g1",
        "g2",
    ]
    assert "".join(s["text"] for s in stretches(pieces(text, marked))) == text  # nothing lost


def test_unmarked_text_is_one_piece():
    assert stretches(pieces("a b c", {})) == [{"text": "a b c"}]
