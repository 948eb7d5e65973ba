"""What the peer page's suggest endpoint (annotation_suggestions) answers, as a tester found it
wanting: the caret's sentence ranked wherever the caret is (the end of the text too), a heading
that says what was ranked, "· shares" only with words after it, and `m` pressed again with
proposals open answered with what to do (annotator.assist.views.propose)."""

import re

import pytest
from django.urls import reverse

from annotator.models import PeerAnnotation

pytestmark = pytest.mark.django_db


def answer(client, annotation, start, end) -> str:
    response = client.get(
        reverse("annotation-suggestions", args=[annotation.pk]), {"start": start, "end": end}
    )
    assert response.status_code == 200
    return response.content.decode()


def uids(page: str) -> list[int]:
    return [int(uid) for uid in re.findall(r'data-uid="(\d+)"', page)]


def heading(page: str) -> str:
    found = re.search(r"<h3>(.*?)</h3>", page)
    return found.group(1) if found else ""


def test_a_caret_at_the_very_end_of_the_text_ranks_the_last_sentence(client, demo):
    client.force_login(demo["admin"])
    annotation = demo["annotations"]["1"]
    text = annotation.peer.text
    last = "The astronauts returned to Earth with lunar rock samples."
    assert text.endswith(last)
    at_end = uids(answer(client, annotation, len(text), len(text)))
    # The same SCUs as for the caret inside that sentence, and its SCUs (5: lunar samples, 6:
    # returned to Earth) among the first.
    inside = text.index("returned")
    assert at_end
    assert at_end == uids(answer(client, annotation, inside, inside))
    assert {5, 6} <= set(at_end[:3])


def test_every_caret_in_a_sentence_ranks_that_sentence(client, demo):
    client.force_login(demo["admin"])
    annotation = demo["annotations"]["1"]
    text = annotation.peer.text
    sentence = "Michael Collins remained in orbit."
    start = text.index(sentence)
    first = uids(answer(client, annotation, start, start))
    assert first[0] == 4
    for caret in (start + 8, start + len(sentence) - 1, start + len(sentence)):
        assert uids(answer(client, annotation, caret, caret)) == first, caret


def test_the_heading_says_what_was_ranked(client, demo):
    client.force_login(demo["admin"])
    annotation = demo["annotations"]["1"]
    text = annotation.peer.text
    start = text.index("Buzz Aldrin")
    selected = answer(client, annotation, start, start + len("Buzz Aldrin"))
    assert heading(selected) == "Suggested SCUs for the selected words"
    assert uids(selected)[0] == 2
    caret = answer(client, annotation, start, start)
    assert heading(caret) == "Suggested SCUs for this sentence"
    # Only a space and a comma "selected": no words, so the sentence is ranked, and said to be.
    comma = text.index(", and Buzz")
    assert heading(answer(client, annotation, comma, comma + 2)) == (
        "Suggested SCUs for this sentence"
    )


def test_shares_is_shown_only_with_the_words_shared(client, demo):
    client.force_login(demo["admin"])
    annotation = demo["annotations"]["1"]
    text = annotation.peer.text
    # "walk": SCU 3 says "walk", SCU 2 only "walked" (found by the stem, or by meaning), so one
    # suggestion shares a word and another shares none, whichever ranker is installed.
    start = text.index("walk on")
    page = answer(client, annotation, start, start + len("walk"))
    items = re.findall(r"<li>(.*?)</li>", page, re.S)
    notes = [
        re.sub(r"<[^>]+>", "", re.search(r'<span class="muted">(.*?)</span>', item).group(1))
        for item in items
    ]
    assert len(notes) >= 2
    assert all(not note.rstrip().endswith("shares") for note in notes), notes
    assert "#3 · shares walk" in notes
    assert "#2" in notes  # SCU 2 shares no word: its number alone


def test_proposing_again_with_proposals_open_says_they_are_shown(client, demo):
    annotation = PeerAnnotation.objects.create(
        pyramid=demo["pyramid"], peer=demo["annotations"]["1"].peer, annotator=demo["annotator"]
    )
    client.force_login(demo["annotator"])
    client.post(reverse("propose", args=[annotation.pk]))
    again = client.post(reverse("propose", args=[annotation.pk]))
    page = again.content.decode()
    assert again.status_code == 200
    assert (
        "No confident match left to propose beyond the 4 shown: in their list, Enter accepts, "
        "Backspace rejects" in page
    )
    assert annotation.proposals.count() == 4  # nothing proposed twice
    # Once all are decided, the message is the old one: nothing is open.
    for proposal in annotation.proposals.all():
        client.post(reverse("proposal-reject", args=[annotation.pk, proposal.pk]))
    last = client.post(reverse("propose", args=[annotation.pk])).content.decode()
    assert "No confident match left to propose: match the rest by hand" in last


def test_shares_says_the_words_as_the_selection_writes_them(client, demo):
    """Found by a tester: "shares collin, michael, ..." (the ranker's folded words)."""
    client.force_login(demo["admin"])
    annotation = demo["annotations"]["1"]
    text = annotation.peer.text
    start = text.index("Michael Collins remained in orbit")
    page = answer(client, annotation, start, start + len("Michael Collins remained in orbit"))
    assert uids(page)[0] == 4
    assert "#4 · shares Michael, Collins, remained, orbit</span>" in page
    assert "collin" not in page
