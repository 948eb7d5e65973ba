"""annotator.text.words: many texts at once find the words words() finds in each."""

import random

from annotator.text.words import words, words_of_texts

# Word characters and others beyond ASCII: accents, a titlecase letter, Arabic-Indic and
# superscript digits, a fraction, a combining accent and a zero-width space (no word characters
# to \w), a dash, CJK, a letter outside the BMP.
PIECES = "abc XYZ 09 _ é ü ß ǅ ٣ ½ ² \u0301 \u200b — . , ;\n\t 漢字 𝔘 ḁ".split(" ") + [" "]


def test_words_of_texts_equal_words_of_each_text():
    rng = random.Random(1)
    texts = ["".join(rng.choice(PIECES) for _ in range(rng.randint(0, 60))) for _ in range(500)]
    texts += ["", "a", " ", "word", "\x00"]
    bounds, first = words_of_texts(texts)
    assert len(first) == len(texts) + 1
    for i, text in enumerate(texts):
        assert [tuple(row) for row in bounds[first[i] : first[i + 1]].tolist()] == words(text)


def test_no_text():
    bounds, first = words_of_texts([])
    assert bounds.shape == (0, 2)
    assert first.tolist() == [0]
