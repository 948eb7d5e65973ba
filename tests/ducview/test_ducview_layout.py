"""Finding the model summaries in a pyramid text."""

import pytest

from annotator.ducview import DucviewError
from annotator.ducview.anchoring import (
    ANCHOR_EXACT,
    ANCHOR_MOVED,
    ANCHOR_NEWLINE,
    ANCHOR_UNMATCHED,
    anchor,
)
from annotator.ducview.layout import (
    DUC_HEADER_REGEX,
    java_literal,
    regex_for_models,
    split_models,
)
from annotator.ducview.reader import read_pyramid
from tests.conftest import PYRAMID_FIXTURE

DUC_HEADERS = (
    "#2\n\n\n---------------\nD0640.M.250.D.C\n---------------\n\nFirst model.\nSecond line.\n\n"
    "---------------\nD0640.M.250.D.F\n---------------\n\nSecond model.\n"
)


def test_models_are_found_with_the_start_document_regex():
    pyramid = read_pyramid(PYRAMID_FIXTURE.read_bytes())
    layout = split_models(pyramid.text, pyramid.start_document_regex)
    assert layout.found_by == "startDocumentRegEx"
    assert [m.author for m in layout.models] == ["A", "B", "C"]
    assert [m.name for m in layout.models] == [
        "D9901.M.100.A.A",
        "D9901.M.100.A.B",
        "D9901.M.100.A.C",
    ]
    assert layout.models[0].text.startswith("The Eiffel Tower")
    assert layout.models[0].text.endswith("until 1930.")
    assert layout.join() == pyramid.text


def test_without_a_regex_the_duc_header_lines_delimit_the_models():
    layout = split_models(DUC_HEADERS, None)
    assert layout.found_by == "DUC header lines"
    assert [(m.author, m.text) for m in layout.models] == [
        ("C", "First model.\nSecond line."),
        ("F", "Second model."),
    ]
    assert layout.models[1].header == "\n\n---------------\nD0640.M.250.D.F\n---------------\n\n"
    assert layout.trailer == "\n"
    assert layout.join() == DUC_HEADERS


def test_a_header_count_that_contradicts_the_hash_line_is_refused():
    with pytest.raises(DucviewError, match="#N line says 3.*--model-regex"):
        split_models(DUC_HEADERS.replace("#2", "#3"), None)


def test_a_text_without_headers_needs_a_model_regex():
    text = "---\nFirst student.\n---\nSecond student.\n"
    with pytest.raises(DucviewError, match="give the separator with --model-regex"):
        split_models(text, None)
    layout = split_models(text, None, model_regex=r"(?m)^---\n")
    assert [(m.author, m.text) for m in layout.models] == [
        ("1", "First student."),
        ("2", "Second student."),
    ]


def test_an_invalid_regex_is_reported():
    with pytest.raises(DucviewError, match="not a valid regular expression"):
        split_models("text\n", "[unclosed")


def test_model_at_locates_spans():
    layout = split_models(DUC_HEADERS, None)
    second = layout.models[1]
    assert layout.model_at(second.offset, second.offset + 6) == 1
    assert layout.model_at(layout.models[0].offset, second.offset + 3) is None


@pytest.mark.parametrize(
    ("start", "end", "label", "expected"),
    [
        (4, 9, "quick", (4, 9, ANCHOR_EXACT)),
        (4, 15, "quickbrown", (4, 15, ANCHOR_NEWLINE)),  # DUCView drops "\n" from labels
        (5, 10, "quick", (4, 9, ANCHOR_MOVED)),
        (0, 3, "zebra", (0, 3, ANCHOR_UNMATCHED)),
    ],
)
def test_anchoring(start, end, label, expected):
    text = "The quick\nbrown fox; the quick dog."
    assert anchor(text, start, end, label) == expected


def headers_of(layout) -> list[tuple[int, int]]:
    return [(m.offset - len(m.header), m.offset) for m in layout.models]


def test_a_text_without_a_regex_gets_one_for_its_duc_headers():
    """Issue 33: exported, a pyramid NIST wrote without a startDocumentRegEx carries one that finds
    exactly its models (DUCView 1.4 counts the models by it)."""
    layout = split_models(DUC_HEADERS, None)
    regex = regex_for_models(DUC_HEADERS, headers_of(layout))
    assert regex == DUC_HEADER_REGEX
    again = split_models(DUC_HEADERS, regex)
    assert again.found_by == "startDocumentRegEx"
    assert [(m.author, m.text) for m in again.models] == [(m.author, m.text) for m in layout.models]


def test_other_headers_are_matched_by_their_own_words():
    text = "#2\n--- Model (a)\nFirst model.\n--- Model [b]*\nSecond model.\n"
    layout = split_models(text, None, model_regex=r"--- Model \S+\n")
    regex = regex_for_models(text, headers_of(layout))
    assert regex == r"\-\-\- Model \(a\)|\-\-\- Model \[b\]\*"
    assert [m.text for m in split_models(text, regex).models] == ["First model.", "Second model."]


def test_header_words_a_summary_also_holds_are_matched_with_their_line_breaks():
    text = "A\nFirst model says B.\nB\nSecond model.\n"
    layout = split_models(text, None, model_regex=r"(?m)^[AB]\n")
    regex = regex_for_models(text, headers_of(layout))
    assert regex == r"A\n|\nB\n"
    assert [m.text for m in split_models(text, regex).models] == [
        "First model says B.",
        "Second model.",
    ]


def test_no_regex_where_none_finds_the_models():
    text = "A\nFirst model.\nA\nB\nSecond model.\n"  # a model whose first line is a header's
    layout = split_models(text, None, model_regex=r"(?m)^B\n|\AA\n")
    assert [m.text for m in layout.models] == ["First model.\nA", "Second model."]
    assert regex_for_models(text, headers_of(layout)) is None


def test_java_literal_quotes_all_but_letters_digits_and_spaces():
    assert java_literal("a-b.c 1\n\t(é)") == r"a\-b\.c 1\n\t\(é\)"
