"""The rank of the suggestion an annotator took (issue 20): stored with the PSE an assignment makes
(annotator.peer_annotation.editing.assign), checked, carried through undo and redo, and shown by
the API. Matched any other way, a PSE has none."""

import json

import pytest
from django.urls import reverse

from annotator.editing.errors import RuleBroken
from annotator.models import PSE, PeerAnnotation, PeerAnnotationChange
from annotator.peer_annotation import editing as peer_editing

pytestmark = pytest.mark.django_db

COLLINS = "Michael Collins remained in orbit"
APOLLO = "Apollo 11 landed on the Moon in July 1969"


@pytest.fixture
def annotation(demo):
    """A new annotation of demo peer 1, by the annotator assigned to it."""
    return PeerAnnotation.objects.create(
        pyramid=demo["pyramid"], peer=demo["annotations"]["1"].peer, annotator=demo["annotator"]
    )


def version(annotation) -> int:
    return PeerAnnotation.objects.get(pk=annotation.pk).version


def ranges(annotation, phrase):
    start = annotation.peer.text.index(phrase)
    return [(start, start + len(phrase))]


def assign(demo, annotation, phrase, uid, rank=None):
    return peer_editing.assign(
        annotation.pk, demo["annotator"], version(annotation), ranges(annotation, phrase), uid, rank
    )


def stored(annotation) -> list[tuple[int, int | None]]:
    """[(SCU uid or 0, suggestion rank)] of the annotation's PSEs, in order."""
    return [
        (uid or 0, rank)
        for uid, rank in PSE.objects.filter(annotation=annotation)
        .order_by("position", "id")
        .values_list("scu__uid", "suggestion_rank")
    ]


# -- the operation -------------------------------------------------------------------------------


def test_the_rank_taken_is_stored_and_none_when_matched_otherwise(demo, annotation):
    assign(demo, annotation, COLLINS, 4, rank=2)
    assign(demo, annotation, APOLLO, 1)
    assert stored(annotation) == [(4, 2), (1, None)]
    # the snapshot names the rank only where there is one: other PSEs' states read as before
    states = peer_editing.snapshot(annotation)
    assert [p.get("suggestion_rank") for p in states] == [2, None]
    assert "suggestion_rank" not in states[1]


@pytest.mark.parametrize("rank", [0, -1, peer_editing.MAX_SUGGESTION_RANK + 1, "2", 1.0, True])
def test_a_bad_rank_is_refused_and_nothing_is_stored(demo, annotation, rank):
    with pytest.raises(RuleBroken, match="suggestion_rank"):
        assign(demo, annotation, COLLINS, 4, rank=rank)
    assert stored(annotation) == []
    assert version(annotation) == 1
    assert not PeerAnnotationChange.objects.filter(annotation=annotation).exists()


def test_content_matching_nothing_has_no_suggestion_rank(demo, annotation):
    with pytest.raises(RuleBroken, match="no suggestion rank"):
        assign(demo, annotation, COLLINS, 0, rank=1)
    assert stored(annotation) == []


def test_moving_a_pse_clears_its_rank_and_undo_brings_it_back(demo, annotation):
    assign(demo, annotation, COLLINS, 4, rank=3)
    pse = PSE.objects.get(annotation=annotation)
    peer_editing.move_pse(annotation.pk, demo["annotator"], version(annotation), pse.pk, 2)
    assert stored(annotation) == [(2, None)]
    peer_editing.undo(annotation.pk, demo["annotator"], version(annotation))
    assert stored(annotation) == [(4, 3)]
    peer_editing.redo(annotation.pk, demo["annotator"], version(annotation))
    assert stored(annotation) == [(2, None)]


def test_undo_and_redo_restore_the_rank_exactly(demo, annotation):
    assign(demo, annotation, APOLLO, 1)
    assign(demo, annotation, COLLINS, 4, rank=2)
    user = demo["annotator"]
    peer_editing.undo(annotation.pk, user, version(annotation))
    assert stored(annotation) == [(1, None)]
    peer_editing.redo(annotation.pk, user, version(annotation))
    assert stored(annotation) == [(1, None), (4, 2)]
    # removing it and undoing the removal brings back the same PSE with its rank
    pse = PSE.objects.get(annotation=annotation, scu__uid=4)
    peer_editing.remove_pse(annotation.pk, user, version(annotation), pse.pk)
    peer_editing.undo(annotation.pk, user, version(annotation))
    assert stored(annotation) == [(1, None), (4, 2)]
    assert PSE.objects.get(annotation=annotation, scu__uid=4).pk == pse.pk


def test_a_change_recorded_before_ranks_were_kept_still_undoes_and_redoes(demo, annotation):
    """Rows written before issue 20 have no "suggestion_rank" in their states: missing is none."""
    change = assign(demo, annotation, COLLINS, 4, rank=2).change
    after = change.after
    for state in after["pses"]:
        del state["suggestion_rank"]
    PeerAnnotationChange.objects.filter(pk=change.pk).update(after=after)
    user = demo["annotator"]
    peer_editing.undo(annotation.pk, user, version(annotation))
    assert stored(annotation) == []
    peer_editing.redo(annotation.pk, user, version(annotation))
    assert stored(annotation) == [(4, None)]


def test_a_row_holding_every_pse_without_ranks_still_undoes_and_redoes(demo, annotation):
    """Rows written before issue 19 list every PSE (no positions, no ranks)."""
    assign(demo, annotation, APOLLO, 1, rank=1)
    before = peer_editing.snapshot(annotation)
    change = assign(demo, annotation, COLLINS, 4, rank=2).change
    after = peer_editing.snapshot(annotation)

    def every(states):
        return [
            {k: v for k, v in p.items() if k not in ("position", "suggestion_rank")} for p in states
        ]

    PeerAnnotationChange.objects.filter(pk=change.pk).update(
        before=every(before), after=every(after)
    )
    user = demo["annotator"]
    peer_editing.undo(annotation.pk, user, version(annotation))
    assert stored(annotation) == [(1, None)]
    peer_editing.redo(annotation.pk, user, version(annotation))
    assert stored(annotation) == [(1, None), (4, None)]


# -- the page's edit view and the API ------------------------------------------------------------


def post(client, annotation, **values):
    values.setdefault("version", version(annotation))
    return client.post(reverse("annotation-edit", args=[annotation.pk, "assign"]), values)


def test_the_page_sends_the_rank_with_a_suggestion_taken(client, demo, annotation):
    client.force_login(demo["annotator"])
    answer = post(
        client, annotation, scu=4, ranges=json.dumps(ranges(annotation, COLLINS)), suggestion_rank=2
    )
    assert answer.status_code == 200
    # an empty value is no rank (as the other optional arguments)
    answer = post(
        client, annotation, scu=1, ranges=json.dumps(ranges(annotation, APOLLO)), suggestion_rank=""
    )
    assert answer.status_code == 200
    assert stored(annotation) == [(4, 2), (1, None)]


@pytest.mark.parametrize("rank", ["0", "-2", "two", "1.5", "101", str(2**70)])
def test_the_page_refuses_a_bad_rank_and_stores_nothing(client, demo, annotation, rank):
    """Refused as any bad argument of an action is (annotator.editing.actions): 422, with the
    status line saying why."""
    client.force_login(demo["annotator"])
    answer = post(
        client,
        annotation,
        scu=4,
        ranges=json.dumps(ranges(annotation, COLLINS)),
        suggestion_rank=rank,
    )
    assert answer.status_code == 422
    assert "suggestion_rank" in answer.content.decode()
    assert stored(annotation) == []
    assert version(annotation) == 1


def test_the_api_takes_the_rank_and_lists_it_read_only(client, demo, annotation):
    client.force_login(demo["annotator"])
    url = f"/api/peer-annotations/{annotation.pk}/actions/assign/"
    answer = client.post(
        url,
        {"version": 1, "scu": 4, "ranges": ranges(annotation, COLLINS), "suggestion_rank": 2},
        content_type="application/json",
    )
    assert answer.status_code == 200
    refused = client.post(
        url,
        {"version": 2, "scu": 1, "ranges": ranges(annotation, APOLLO), "suggestion_rank": 0},
        content_type="application/json",
    )
    assert refused.status_code == 422
    client.post(
        url,
        {"version": 2, "scu": 1, "ranges": ranges(annotation, APOLLO)},
        content_type="application/json",
    )
    pses = client.get(f"/api/pses/?annotation={annotation.pk}").json()["results"]
    assert [(p["scu_uid"], p["suggestion_rank"]) for p in pses] == [(4, 2), (1, None)]
    one = client.get(f"/api/pses/{pses[0]['id']}/").json()
    assert one["suggestion_rank"] == 2
    schema = client.get("/api/schema/?format=json")
    assert schema.status_code == 200
    pse = schema.json()["components"]["schemas"]["PSE"]["properties"]["suggestion_rank"]
    assert pse["readOnly"] is True
