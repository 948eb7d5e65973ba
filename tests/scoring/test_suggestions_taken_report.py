"""The report "Suggestions taken" (scoring.reports.suggestions_taken.suggestions_taken_report,
issue 20): per
annotator and for the collection, the share of PSEs of an SCU matched from a suggestion, and of
those the shares at rank 1, 2–3 and 4+; on the page and in its JSON."""

import json

import pytest
from django.urls import reverse

from annotator.models import PeerAnnotation
from annotator.peer_annotation import editing as peer_editing
from scoring.reports.suggestions_taken import suggestions_taken_report

pytestmark = pytest.mark.django_db

COLUMNS = [
    "annotator",
    "peer annotations",
    "PSEs of an SCU",
    "from a suggestion",
    "share from a suggestion",
    "share at rank 1",
    "share at rank 2–3",
    "share at rank 4+",
]


def annotate(demo, who, peer, matches):
    """A new annotation of demo peer `peer` by `who`, matched as [(phrase, uid, rank or None)]."""
    user = demo[who]
    annotation = PeerAnnotation.objects.create(
        pyramid=demo["pyramid"], peer=demo["annotations"][peer].peer, annotator=user
    )
    text = annotation.peer.text
    for phrase, uid, rank in matches:
        start = text.index(phrase)
        peer_editing.assign(
            annotation.pk,
            user,
            PeerAnnotation.objects.get(pk=annotation.pk).version,
            [(start, start + len(phrase))],
            uid,
            rank,
        )
    return annotation


@pytest.fixture
def taken(demo):
    """The annotator took suggestions at ranks 1, 2 and 5, matched one SCU by hand and some words
    to nothing; the other annotator took one first suggestion and matched words to nothing. The
    demo's imported annotations (no ranks) are in the collection too."""
    annotate(
        demo,
        "annotator",
        "1",
        [
            ("Michael Collins remained in orbit", 4, 1),
            ("Apollo 11 landed on the Moon in July 1969", 1, 2),
            ("Neil Armstrong was the first man to walk on the Moon", 3, 5),
            ("Buzz Aldrin followed him", 0, None),  # matching nothing: not counted
            ("The astronauts returned to Earth", 6, None),  # clicked or typed
        ],
    )
    annotate(
        demo,
        "other_annotator",
        "2",
        [
            ("Apollo 11 reached the Moon in 1969", 1, 1),
            ("The Saturn V rocket launched from Florida", 0, None),
        ],
    )
    return demo


def test_shares_per_annotator_and_for_the_collection(taken):
    result = suggestions_taken_report(taken["collection"], {})
    (table,) = result["tables"]
    assert table["title"] == "Suggestions taken, by annotator"
    assert table["columns"] == COLUMNS
    assert table["rows"] == [
        ["annotator", 1, 4, 3, 0.75, 0.3333, 0.3333, 0.3333],
        ["other_annotator", 1, 1, 1, 1.0, 1.0, 0.0, 0.0],
        # imported annotations (the demo's, without an annotator) are not the annotators' work
        ["all", 2, 5, 4, 0.8, 0.5, 0.25, 0.25],
    ]
    (plot,) = result["plots"]
    assert plot["labels"] == ["1", "2", "3", "4", "5", "6", "7", "8", "9", "10+"]
    assert plot["values"] == [2, 1, 0, 0, 1, 0, 0, 0, 0, 0]


def test_an_annotator_who_never_took_a_suggestion_has_no_shares_by_rank(demo):
    annotate(demo, "annotator", "1", [("Michael Collins remained in orbit", 4, None)])
    result = suggestions_taken_report(demo["collection"], {})
    assert result["tables"][0]["rows"] == [
        ["annotator", 1, 1, 0, 0.0, None, None, None],
        ["all", 1, 1, 0, 0.0, None, None, None],
    ]
    assert result["plots"] == []


def test_a_collection_without_the_annotators_work_has_no_rows(demo):
    result = suggestions_taken_report(demo["collection"], {})
    assert result["tables"][0]["rows"] == []
    assert result["tables"][0]["note"] == ""
    assert result["plots"] == []


def test_a_moved_pse_no_longer_counts_as_taken_from_a_suggestion(demo):
    annotation = annotate(demo, "annotator", "1", [("Michael Collins remained in orbit", 2, 1)])
    pse = annotation.pses.get()
    peer_editing.move_pse(annotation.pk, demo["annotator"], annotation.version + 1, pse.pk, 4)
    rows = suggestions_taken_report(demo["collection"], {})["tables"][0]["rows"]
    assert rows[-1] == ["all", 1, 1, 0, 0.0, None, None, None]


@pytest.fixture
def organizer(client, demo, django_capture_on_commit_callbacks):
    client.force_login(demo["organizer"])
    url = reverse("collection-report", args=[demo["collection"].pk, "suggestions-taken"])

    def get(query=""):
        with django_capture_on_commit_callbacks(execute=True):  # queued, then computed
            client.get(url + query)
        return client.get(url + query)

    return get


def test_the_report_page_and_its_json(taken, organizer, client):
    page = organizer().content.decode()
    assert "Suggestions taken, by annotator" in page
    assert "<th>share at rank 1</th>" in page
    assert "<td>other_annotator</td>" in page
    assert page.count('<svg xmlns="http://www.w3.org/2000/svg"') == 1
    result = json.loads(organizer("?format=json").content)
    assert result["tables"][0]["rows"][-1] == ["all", 2, 5, 4, 0.8, 0.5, 0.25, 0.25]
    index = client.get(reverse("collection-reports", args=[taken["collection"].pk]))
    assert "suggestions-taken" in index.content.decode()
