"""annotator.assist.builder_help: cutting a model into phrases, and ranking them for an SCU, on a
small pyramid of our own (no database)."""

import pytest

from annotator.assist.builder_help import (
    BuilderTexts,
    ContributorParts,
    ModelText,
    ScuParts,
    help_for,
    phrases,
    prepare_phrases,
)


def cut(text):
    return [text[s:e] for s, e in phrases(text)]


def test_sentences_are_cut_at_commas_semicolons_dashes_and_clause_words():
    text = (
        "Reservations set up casinos, bringing jobs and money; few casinos make a profit.\n"
        "The land -- held in trust -- shuts Indians out of home loans which banks refuse."
    )
    assert cut(text) == [
        "Reservations set up casinos",
        "bringing jobs and money",
        "few casinos make a profit",
        "The land -- held in trust",  # "The land": one content word, joins the next piece
        "shuts Indians out of home loans",
        "which banks refuse",
    ]


def test_and_between_words_stays_and_a_leading_conjunction_is_left_out():
    text = "Communities suffer drug and alcohol addiction, and poor health care."
    assert cut(text) == ["Communities suffer drug and alcohol addiction", "poor health care"]
    # "and who" cuts before the conjunction, which stays out of both phrases.
    text = "Taxes fall on Americans who work there and who have no vote."
    assert cut(text) == ["Taxes fall on Americans", "who work there", "who have no vote"]


def test_short_pieces_join_a_neighbour():
    # "However" (one content word) joins the next piece; "and tourism" the one before it.
    text = "However, few casinos are profitable. Casinos bring jobs, money, and tourism."
    assert cut(text) == [
        "However, few casinos are profitable",
        "Casinos bring jobs",
        "money, and tourism",
    ]
    assert cut("Yes. OK.") == ["Yes", "OK"]  # a short sentence is still one phrase
    assert cut("") == []
    assert cut("  ,; -- ") == []


def test_spans_are_code_points_of_the_text_and_hold_whole_words():
    text = "Café owners—naïve ones—thrive 🙂, surely."
    spans = phrases(text)
    assert [text[s:e] for s, e in spans] == ["Café owners", "naïve ones", "thrive 🙂, surely"]
    for start, end in spans:
        assert text[start].isalnum()
        assert text[end - 1].isalnum() or text[end - 1] == "🙂"


# -- ranking ---------------------------------------------------------------------------------------

A = "Casinos bring jobs to reservations. Tribal schools lack money, and teachers leave."
B = "Tribes opened casinos that bring jobs, which pleased the elders. Diabetes is common."
C = "Gambling employs many Indians on reservations. Health care is poor."
CASINOS = "Casinos bring jobs"


def pyramid(**scus):
    """Models A, B, C; SCUs given as uid_<n>=(label, [(contributor id, author, its words)])."""
    models = (ModelText(1, "A", A), ModelText(2, "B", B), ModelText(3, "C", C))
    by_author = {m.author: m for m in models}

    def contributor(cid, author, phrase):
        start = by_author[author].text.index(phrase)
        return ContributorParts(cid, by_author[author].summary_id, ((start, start + len(phrase)),))

    return BuilderTexts(
        models,
        {
            int(key.removeprefix("uid_")): ScuParts(
                int(key.removeprefix("uid_")),
                label,
                tuple(contributor(*c) for c in contributors),
            )
            for key, (label, contributors) in scus.items()
        },
    )


def casinos(*authors):
    words = {
        "A": "Casinos bring jobs to reservations",
        "B": "Tribes opened casinos that bring jobs",
    }
    return pyramid(uid_1=(CASINOS, [(10 + n, a, words[a]) for n, a in enumerate(authors)]))


def test_models_lacking_a_contributor_get_their_phrases_best_first():
    texts = casinos("A")
    helps = help_for(texts, prepare_phrases(texts.models), 1)
    assert [h.author for h in helps] == ["B", "C"]  # A has a contributor in SCU 1
    b, c = helps
    assert [p.text for p in b.phrases] == ["Tribes opened casinos that bring jobs"]
    assert [p.text for p in c.phrases] == ["Gambling employs many Indians on reservations"]
    # Shared with the contributor (plurals folded), said as the phrase writes them.
    assert c.phrases[0].shared == ("reservations",)
    first = b.phrases[0]
    assert B[first.start : first.end] == first.text
    assert first.score > 0
    assert first.shared == ("casinos", "bring", "jobs")


def test_the_limit_and_phrases_sharing_nothing_are_left_out():
    texts = casinos("A")
    helps = help_for(texts, prepare_phrases(texts.models), 1, limit=1)
    assert [len(h.phrases) for h in helps] == [1, 1]
    every = help_for(texts, prepare_phrases(texts.models), 1, limit=None)
    assert all(p.score > 0 for h in every for p in h.phrases)
    assert "Health care is poor" not in [p.text for h in every for p in h.phrases]


def test_phrases_in_other_scus_are_marked_not_skipped():
    texts = pyramid(
        uid_1=(CASINOS, [(10, "B", "Tribes opened casinos that bring jobs")]),
        uid_2=("Jobs on reservations", [(20, "A", "jobs to reservations")]),
        uid_3=("Schools lack money", [(30, "A", "Tribal schools lack money")]),
    )
    helps = help_for(texts, prepare_phrases(texts.models), 1, limit=None)
    a = next(h for h in helps if h.author == "A")
    assert [(p.text, p.taken) for p in a.phrases] == [("Casinos bring jobs to reservations", (2,))]


def test_a_held_out_contributor_is_neither_a_query_nor_taken():
    texts = casinos("A", "B")
    phrase_index = prepare_phrases(texts.models)
    assert [h.author for h in help_for(texts, phrase_index, 1)] == ["C"]
    held = help_for(texts, phrase_index, 1, hold_out=11)  # B's contributor
    assert [h.author for h in held] == ["B", "C"]
    assert held[0].phrases[0].text == "Tribes opened casinos that bring jobs"
    assert held[0].phrases[0].taken == ()


@pytest.mark.parametrize("ranker", ["lexical", "overlap"])
def test_every_ranker_finds_the_casinos(ranker):
    texts = casinos("A")
    helps = help_for(texts, prepare_phrases(texts.models, ranker), 1)
    assert helps[0].phrases[0].text == "Tribes opened casinos that bring jobs"


def test_an_unknown_scu_is_a_key_error():
    texts = casinos("A")
    with pytest.raises(KeyError):
        help_for(texts, prepare_phrases(texts.models), 99)
