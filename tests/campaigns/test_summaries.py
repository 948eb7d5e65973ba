"""annotator.campaigns.summaries: the one way a summary is added (the Paste page and the API)."""

import pytest

from annotator.campaigns import summaries
from annotator.editing.errors import NotAllowed
from annotator.models import Summary

pytestmark = pytest.mark.django_db


def test_the_text_and_the_author_are_stored_as_every_path_stores_them(demo):
    docset = demo["pyramid"].docset
    summary = summaries.create_summary(
        docset, demo["admin"], "peer", " 042 ", "\r\n Line one.\r\nLine two.\rThree.\n", " n "
    )
    assert (summary.author, summary.text, summary.name) == (
        "42",
        "Line one.\nLine two.\nThree.",
        "n",
    )
    model = summaries.create_summary(docset, demo["admin"], "model", "07", "A model.")
    assert model.author == "07"  # a model's author is a name, not a system number


def test_refusals_name_their_field(demo):
    docset = demo["pyramid"].docset
    with pytest.raises(summaries.SummaryRefused) as empty:
        summaries.create_summary(docset, demo["admin"], "peer", "42", "\r\n \r")
    assert (empty.value.field, empty.value.message) == ("text", "The text is empty.")
    with pytest.raises(summaries.SummaryRefused) as again:
        summaries.create_summary(docset, demo["admin"], "peer", "01", "Again.")
    assert (again.value.field, again.value.message) == (
        None,
        "Docset DEMO01 already has a peer summary by 1.",
    )


def test_only_the_collections_administrators_add_summaries(demo):
    before = Summary.objects.count()
    for user in [demo["organizer"], demo["annotator"], demo["outsider"]]:
        with pytest.raises(NotAllowed):
            summaries.create_summary(demo["pyramid"].docset, user, "peer", "42", "Text.")
    assert Summary.objects.count() == before


def test_one_added_meanwhile_is_refused_not_crashed_on(demo, monkeypatch):
    """Between the check and the insert another request added it: the constraint says so."""
    monkeypatch.setattr(summaries, "check_new", lambda *args: None)
    with pytest.raises(summaries.SummaryRefused) as meanwhile:
        summaries.create_summary(demo["pyramid"].docset, demo["admin"], "peer", "1", "Again.")
    assert "already has a peer summary by 1" in meanwhile.value.message
