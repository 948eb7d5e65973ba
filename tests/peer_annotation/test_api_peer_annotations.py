"""/api/peer-annotations/: annotate an assigned peer through the API; scores as export_scores has
them."""

import pytest

from annotator.models import PSE, PeerAnnotation
from tests.helpers import NUL, refuses_nul

pytestmark = pytest.mark.django_db


def test_annotate_an_assigned_peer(client, demo):
    client.force_login(demo["annotator"])
    pyramid, peer = demo["pyramid"], demo["annotations"]["1"].peer
    created = client.post(
        "/api/peer-annotations/",
        {"pyramid": pyramid.pk, "peer": peer.pk},
        content_type="application/json",
    )
    assert created.status_code == 201
    assert created.json()["annotator"] == "annotator"
    annotation_id = created.json()["id"]
    url = f"/api/peer-annotations/{annotation_id}/actions/assign/"
    start = peer.text.index("Apollo 11 landed")
    answer = client.post(
        url,
        {"version": 1, "scu": 1, "ranges": [[start, start + 16]]},
        content_type="application/json",
    )
    assert answer.status_code == 200
    assert answer.json()["version"] == 2
    pses = client.get(f"/api/pses/?annotation={annotation_id}").json()["results"]
    assert [(p["scu_uid"], p["spans"][0]["start"]) for p in pses] == [(1, start)]
    twice = client.post(
        "/api/peer-annotations/",
        {"pyramid": pyramid.pk, "peer": peer.pk},
        content_type="application/json",
    )
    assert twice.status_code == 400


def test_a_nul_character_in_an_actions_argument_is_refused_and_nothing_is_stored(client, demo):
    """Read by hand from the JSON (annotator.editing.actions), a NUL is refused as any bad argument:
    422 (issue 16)."""
    client.force_login(demo["annotator"])
    annotation = PeerAnnotation.objects.create(
        pyramid=demo["pyramid"], peer=demo["annotations"]["1"].peer, annotator=demo["annotator"]
    )
    answer = client.post(
        f"/api/peer-annotations/{annotation.pk}/actions/assign/",
        {"version": 1, "scu": f"1{NUL}", "ranges": [[0, 6]]},
        content_type="application/json",
    )
    assert refuses_nul(answer, "scu", status=422)
    assert PeerAnnotation.objects.get(pk=annotation.pk).version == 1
    assert not PSE.objects.filter(annotation=annotation).exists()


def test_the_peer_must_be_of_the_pyramids_docset(client, demo):
    from annotator.models import Docset, Summary

    client.force_login(demo["admin"])
    other = Docset.objects.create(collection=demo["collection"], name="DEMO02")
    stranger = Summary.objects.create(docset=other, kind="peer", author="1", text="Elsewhere.")
    response = client.post(
        "/api/peer-annotations/",
        {"pyramid": demo["pyramid"].pk, "peer": stranger.pk},
        content_type="application/json",
    )
    assert response.status_code == 400
    assert not PeerAnnotation.objects.filter(peer=stranger).exists()


@pytest.mark.parametrize(
    "path", ["peer-annotations/", "peer-annotations/{annotation}/actions/undo/"]
)
def test_a_body_that_is_not_a_json_object_is_refused_and_nothing_changes(client, demo, path):
    """Issue 16: one rule for every write of the API, said the same way."""
    client.force_login(demo["admin"])
    before = list(PeerAnnotation.objects.values())
    answer = client.post(
        "/api/" + path.format(annotation=demo["annotations"]["1"].pk),
        "null",
        content_type="application/json",
    )
    assert answer.status_code == 400
    assert answer.json() == {"detail": "The body must be a JSON object of fields, not null."}
    assert list(PeerAnnotation.objects.values()) == before


def test_an_actions_answer_counts_the_words_in_no_pse_and_complete_is_not_refused_for_them(
    client, demo
):
    """Issue 17: the page warns before "complete" when peer words are in no PSE; the API says how
    many in every action's answer (punctuation is no word), and completes all the same."""
    import re

    client.force_login(demo["annotator"])
    annotation = PeerAnnotation.objects.create(
        pyramid=demo["pyramid"], peer=demo["annotations"]["1"].peer, annotator=demo["annotator"]
    )
    text = annotation.peer.text
    url = f"/api/peer-annotations/{annotation.pk}/actions/"
    phrase = "Apollo 11 landed on the Moon in July 1969."  # its full stop is no word
    answer = client.post(
        url + "assign/",
        {"version": 1, "scu": 1, "ranges": [[0, len(phrase)]]},
        content_type="application/json",
    )
    left = len(re.findall(r"\w+", text)) - 9
    assert answer.status_code == 200
    assert answer.json()["uncovered_words"] == left
    answer = client.post(url + "complete/", {"version": 2}, content_type="application/json")
    assert answer.status_code == 200
    assert answer.json() == {
        "version": 3,
        "description": f"Marked the annotation complete ({left} words in no PSE)",
        "uncovered_words": left,
    }
    assert PeerAnnotation.objects.get(pk=annotation.pk).status == PeerAnnotation.Status.SUBMITTED
    # Every word in a PSE: none left.
    client.force_login(demo["admin"])
    client.post(url + "reopen/", {"version": 3}, content_type="application/json")
    answer = client.post(
        url + "assign/",
        {"version": 4, "scu": 0, "ranges": [[len(phrase), len(text)]]},
        content_type="application/json",
    )
    assert answer.json()["uncovered_words"] == 0


def _create(client, pyramid, peer, **more):
    return client.post(
        "/api/peer-annotations/",
        {"pyramid": pyramid.pk, "peer": peer.pk, **more},
        content_type="application/json",
    )


def test_starting_through_the_api_marks_the_assignment_started_as_the_page_does(client, demo):
    """The progress page showed API users as not started: only the page marked the assignment."""
    from annotator.models import Assignment

    client.force_login(demo["annotator"])
    assert _create(client, demo["pyramid"], demo["annotations"]["1"].peer).status_code == 201
    assignment = Assignment.objects.get(user=demo["annotator"])
    assert assignment.status == Assignment.Status.IN_PROGRESS


def test_a_pyramid_still_being_edited_is_refused_as_the_page_refuses_it(client, demo):
    from annotator.models import Assignment, Pyramid

    Pyramid.objects.filter(pk=demo["pyramid"].pk).update(status=Pyramid.Status.IN_PROGRESS)
    client.force_login(demo["annotator"])  # who sees it no more
    answer = _create(client, demo["pyramid"], demo["annotations"]["1"].peer)
    assert answer.status_code == 400
    assert "pyramid" in answer.json()
    assert Assignment.objects.get(user=demo["annotator"]).status == Assignment.Status.ASSIGNED
    client.force_login(demo["admin"])  # who sees it, and may annotate any peer: not before submit
    answer = _create(client, demo["pyramid"], demo["annotations"]["1"].peer)
    assert answer.status_code == 400
    assert answer.json() == {
        "detail": "Pyramid DEMO01 is still being edited: annotate once it is submitted."
    }
    assert not PeerAnnotation.objects.filter(annotator__isnull=False).exists()


def test_a_new_annotation_starts_in_progress_at_version_one_whatever_the_body_says(client, demo):
    """As the page starts it: status, version, review marks and names are not for the caller."""
    client.force_login(demo["annotator"])
    answer = _create(
        client,
        demo["pyramid"],
        demo["annotations"]["1"].peer,
        status="submitted",
        version=7,
        scus_changed=[1, 2],
        annotator_code="H",
        source_name="forged.pan",
    )
    assert answer.status_code == 201
    stored = PeerAnnotation.objects.get(pk=answer.json()["id"])
    assert (
        stored.status,
        stored.version,
        stored.scus_changed,
        stored.annotator_code,
        stored.source_name,
    ) == ("in_progress", 1, [], "", "")


def test_only_an_assigned_peer_or_an_administrator(client, demo):
    from annotator.models import Assignment

    peer = demo["annotations"]["2"].peer  # other_annotator's
    client.force_login(demo["annotator"])
    refused = _create(client, demo["pyramid"], peer)
    assert refused.status_code == 400  # a peer not assigned to them is one they do not see
    assert "peer" in refused.json()
    client.force_login(demo["admin"])  # no assignment: allowed, nothing to mark
    assert _create(client, demo["pyramid"], peer).status_code == 201
    assert Assignment.objects.get(user=demo["other_annotator"]).status == "assigned"
