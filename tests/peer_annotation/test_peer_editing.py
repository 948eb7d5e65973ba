"""The peer annotation operations and their rules, at the service level."""

import json

import pytest

from annotator.editing.errors import NotAllowed, RuleBroken, StaleVersion
from annotator.models import PSE, PeerAnnotation, PeerAnnotationChange, PSESpan, Pyramid
from annotator.peer_annotation import editing as peer_editing
from scoring.scores.records import score_annotations

pytestmark = pytest.mark.django_db


class Annotating:
    """A new annotation of demo peer 1 by the annotator assigned to it."""

    def __init__(self, demo):
        self.user = demo["annotator"]
        self.annotation = PeerAnnotation.objects.create(
            pyramid=demo["pyramid"], peer=demo["annotations"]["1"].peer, annotator=self.user
        )
        self.text = self.annotation.peer.text

    @property
    def version(self):
        return PeerAnnotation.objects.get(pk=self.annotation.pk).version

    def ranges(self, phrase):
        start = self.text.index(phrase)
        return [(start, start + len(phrase))]

    def do(self, operation, *args, user=None):
        return getattr(peer_editing, operation)(
            self.annotation.pk, user or self.user, self.version, *args
        )

    def assign(self, phrase, uid):
        return self.do("assign", self.ranges(phrase), uid)

    def pses(self):
        """[(uid, [texts])] in order."""
        return [
            (pse["scu"], [self.text[s:e] for s, e in pse["spans"]])
            for pse in peer_editing.snapshot(PeerAnnotation.objects.get(pk=self.annotation.pk))
        ]

    def scores(self):
        (row,) = score_annotations(PeerAnnotation.objects.filter(pk=self.annotation.pk))
        return row.scores


@pytest.fixture
def peer(demo):
    return Annotating(demo)


def test_assigning_text_to_scus_repetitions_and_nothing(peer):
    result = peer.assign("Apollo 11 landed on the Moon in July 1969", 1)
    assert result.description == "Matched “Apollo 11 landed on the Moon in July 1969” to SCU 1"
    peer.assign("Neil Armstrong was the first man to walk on the Moon", 3)
    assert peer.assign("The astronauts returned to Earth", 1).description.endswith(
        "(a repetition)"
    )  # other words
    assert (
        "nothing in the pyramid (weight 0)"
        in peer.assign("Michael Collins remained in orbit", 0).description
    )
    scores = peer.scores()
    assert (scores.unique_scus, scores.repetitions, scores.non_matching, scores.raw_score) == (
        2,
        1,
        1,
        7,
    )
    assert peer.pses()[-1] == (0, ["Michael Collins remained in orbit"])


def test_selections_snap_and_must_hold_words_within_the_peer(peer):
    start = peer.text.index("pollo 11")
    peer.do("assign", [(start, start + 8)], 1)
    assert peer.pses() == [(1, ["Apollo 11"])]
    with pytest.raises(RuleBroken, match="holds no words"):
        peer.do("assign", [(41, 43)], 1)  # ". "
    with pytest.raises(RuleBroken, match="outside the peer summary"):
        peer.do("assign", [(0, 10_000)], 1)
    with pytest.raises(RuleBroken, match="SCU 99 is not in this annotation's pyramid"):
        peer.assign("Apollo", 99)


def test_parts_moves_and_removals(peer):
    peer.assign("The astronauts", 5)
    pse = peer.annotation.pses.get()
    peer.do("add_part", pse.pk, peer.ranges("with lunar rock samples"))
    assert peer.pses() == [(5, ["The astronauts", "with lunar rock samples"])]
    peer.do("move_pse", pse.pk, 6)
    assert peer.pses()[0][0] == 6
    with pytest.raises(RuleBroken, match="already expresses SCU 6"):
        peer.do("move_pse", pse.pk, 6)
    peer.do("remove_part", pse.spans.get(position=1).pk)
    assert peer.pses() == [(6, ["The astronauts"])]
    peer.do("remove_part", pse.spans.get().pk)  # the last part: the PSE goes
    assert peer.pses() == []
    peer.assign("Michael Collins remained in orbit", 4)
    peer.do("remove_pse", peer.annotation.pses.get().pk)
    assert peer.pses() == []


def test_undo_and_redo(peer):
    states = [peer.pses()]
    for phrase, uid in [
        ("Apollo 11 landed on the Moon in July 1969", 1),
        ("Buzz Aldrin followed him", 2),
    ]:
        peer.assign(phrase, uid)
        states.append(peer.pses())
    peer.do("move_pse", peer.annotation.pses.get(scu__uid=2).pk, 0)
    states.append(peer.pses())
    for expected in reversed(states[:-1]):
        peer.do("undo")
        assert peer.pses() == expected
    with pytest.raises(RuleBroken, match="nothing to undo"):
        peer.do("undo")
    for expected in states[1:]:
        peer.do("redo")
        assert peer.pses() == expected
    assert (
        PeerAnnotationChange.objects.filter(annotation=peer.annotation, action="undo").count() == 3
    )


def test_undo_and_redo_keep_the_ids_of_pses_and_their_parts(peer):
    """The page redraws only the SCUs an edit changed: the PSEs it shows elsewhere must still be
    the stored ones after an undo or a redo (a removal once answered "That PSE is not in this
    annotation")."""

    def ids():
        return sorted(peer.annotation.pses.values_list("id", "spans__id"))

    peer.assign("Apollo 11 landed on the Moon in July 1969", 1)
    first = ids()
    peer.assign("Michael Collins remained in orbit", 4)
    both = ids()
    peer.do("remove_pse", peer.annotation.pses.get(scu__uid=1).pk)
    peer.do("undo")
    assert ids() == both
    peer.do("undo")
    assert ids() == first
    peer.do("redo")
    assert ids() == both
    peer.do("remove_pse", both[0][0])  # the id the page shows still works
    assert peer.pses() == [(4, ["Michael Collins remained in orbit"])]
    # After new PSEs were made, an undo brings the removed one back under its own id.
    peer.do("undo")
    assert ids() == both


def test_undo_of_a_change_recorded_without_ids_still_restores_it(peer):
    """Changes stored before ids were kept in the snapshots restore with new ids."""
    peer.assign("Apollo 11 landed on the Moon in July 1969", 1)
    change = PeerAnnotationChange.objects.filter(annotation=peer.annotation).latest("id")
    change.before = []  # every PSE, as rows were stored then: none before, one after
    change.after = [
        {key: value for key, value in pse.items() if key not in ("id", "span_ids", "position")}
        for pse in peer_editing.snapshot(peer.annotation)
    ]
    change.save()
    peer.do("undo")
    assert peer.pses() == []
    redo = peer.do("redo")
    assert peer.pses() == [(1, ["Apollo 11 landed on the Moon in July 1969"])]
    assert redo.change.after == change.after  # PSEs that cannot be told apart: kept whole


def test_a_stale_version_changes_nothing(peer):
    peer.assign("Apollo 11", 1)
    with pytest.raises(StaleVersion):
        peer_editing.assign(peer.annotation.pk, peer.user, 1, peer.ranges("Buzz Aldrin"), 2)
    assert len(peer.pses()) == 1


def test_who_may_annotate(peer, demo):
    with pytest.raises(NotAllowed, match="not assigned"):
        peer.do("assign", peer.ranges("Apollo"), 1, user=demo["outsider"])
    peer.do("assign", peer.ranges("Apollo"), 1, user=demo["admin"])
    assert len(peer.pses()) == 1


def test_a_pyramid_still_being_edited_cannot_be_annotated_against(peer, demo):
    Pyramid.objects.filter(pk=demo["pyramid"].pk).update(status=Pyramid.Status.IN_PROGRESS)
    with pytest.raises(NotAllowed, match="still being edited"):
        peer.assign("Apollo", 1)


def test_complete_is_read_only_until_an_administrator_reopens(peer, demo):
    with pytest.raises(RuleBroken, match="at least some"):
        peer.do("complete")
    peer.assign("Apollo 11", 1)
    peer.do("complete")
    with pytest.raises(NotAllowed, match="complete and read-only"):
        peer.assign("Buzz Aldrin", 2)
    with pytest.raises(NotAllowed, match="Only an administrator"):
        peer.do("reopen")
    peer.do("reopen", user=demo["admin"])
    peer.assign("Buzz Aldrin", 2)
    assert len(peer.pses()) == 2


def test_words_left_in_no_pse_do_not_prevent_complete_and_are_counted_in_its_history(peer):
    """DUC 2005 puts every peer word in a PSE (of an SCU, or of "matches nothing"); the page warns
    (issue 17), the operation never refuses, and the history says how many were left out."""
    import re

    phrase = "Apollo 11 landed on the Moon in July 1969"
    peer.assign(phrase, 1)
    left = len(re.findall(r"\w+", peer.text)) - len(re.findall(r"\w+", phrase))
    assert [peer.text[s:e] for s, e in peer_editing.words_in_no_pse(peer.annotation)][:3] == [
        "Neil",
        "Armstrong",
        "was",
    ]
    assert len(peer_editing.words_in_no_pse(peer.annotation)) == left > 20
    result = peer.do("complete")
    assert result.description == f"Marked the annotation complete ({left} words in no PSE)"
    stored = PeerAnnotation.objects.get(pk=peer.annotation.pk)
    assert stored.status == PeerAnnotation.Status.SUBMITTED
    assert stored.changes.latest("id").description == result.description


def test_complete_with_every_word_in_a_pse_says_nothing_more(peer):
    peer.assign("Apollo 11 landed on the Moon in July 1969", 1)
    peer.do(
        "assign", [(peer.text.index(". Neil"), len(peer.text))], 0
    )  # the rest, punctuation and all: nothing
    assert peer_editing.words_in_no_pse(peer.annotation) == []
    assert peer.do("complete").description == "Marked the annotation complete"
    assert (
        PeerAnnotation.objects.get(pk=peer.annotation.pk).status == PeerAnnotation.Status.SUBMITTED
    )


def test_review_after_the_pyramid_changed(peer):
    PeerAnnotation.objects.filter(pk=peer.annotation.pk).update(scus_changed=[3, 5])
    result = peer.do("mark_reviewed")
    assert result.description == "Reviewed against the changed SCUs (3, 5)"
    assert not PeerAnnotation.objects.get(pk=peer.annotation.pk).needs_review


def test_the_same_words_cannot_express_the_same_scu_twice(peer):
    """Matched again to the same SCU (or to nothing), the same words would count twice: refused.
    Other words for the same SCU are a repetition, and the same words may express another SCU."""
    peer.assign("Neil Armstrong was the first man to walk on the Moon", 3)
    with pytest.raises(RuleBroken, match="already express SCU 3"):
        peer.assign("Neil Armstrong was the first man", 3)
    peer.assign("Buzz Aldrin followed him", 0)
    with pytest.raises(RuleBroken, match="already express nothing in the pyramid"):
        peer.assign("Aldrin followed", 0)
    peer.assign("Neil Armstrong", 2)  # the same words, another SCU
    assert peer.pses() == [
        (3, ["Neil Armstrong was the first man to walk on the Moon"]),
        (0, ["Buzz Aldrin followed him"]),
        (2, ["Neil Armstrong"]),
    ]
    # Moving a PSE onto an SCU that those words already express is refused too.
    with pytest.raises(RuleBroken, match="already express SCU 3"):
        peer.do("move_pse", peer.annotation.pses.get(scu__uid=2).pk, 3)


def test_words_that_express_an_scu_cannot_also_match_nothing(peer):
    """Issue 32: `0` over words of a PSE of an SCU made the same words both match and match
    nothing (Original 1.0000 -> 0.7857), and a tester found the other way round too (words matching
    nothing matched to an SCU): refused either way, naming the other PSE, whether by a new PSE, a
    part added or a PSE moved; nothing is stored."""
    peer.assign("Neil Armstrong was the first man to walk on the Moon", 3)
    before = (peer.pses(), peer.version)
    with pytest.raises(RuleBroken) as refused:
        peer.assign("the first man", 0)
    assert str(refused.value) == (
        "Those words are in a PSE of SCU 3 (the words “Neil Armstrong was the first man to "
        "wal…”): words that express an SCU cannot also match nothing. Select other words, or "
        "remove that PSE first."
    )
    peer.assign("Buzz Aldrin followed him", 0)
    zero = peer.annotation.pses.get(scu=None)
    with pytest.raises(RuleBroken, match="in a PSE of SCU 3"):
        peer.do("add_part", zero.pk, peer.ranges("walk on the Moon"))
    peer.assign("Neil Armstrong", 2)  # the same words, another SCU: allowed
    with pytest.raises(RuleBroken, match="in a PSE of SCU 3"):
        peer.do("move_pse", peer.annotation.pses.get(scu__uid=2).pk, 0)
    # The other way round: words matching nothing, matched to an SCU.
    with pytest.raises(RuleBroken) as refused:
        peer.assign("Aldrin followed", 4)
    assert str(refused.value) == (
        "Those words are in a PSE that matches nothing (the words “Buzz Aldrin followed him”): "
        "words that match nothing cannot also express an SCU. Move that PSE to the SCU (click its "
        "words, v, then the SCU), or remove it first."
    )
    with pytest.raises(RuleBroken, match="in a PSE that matches nothing"):
        peer.do("add_part", peer.annotation.pses.get(scu__uid=2).pk, peer.ranges("Buzz"))
    assert peer.pses() == before[0] + [
        (0, ["Buzz Aldrin followed him"]),
        (2, ["Neil Armstrong"]),
    ]
    # Moving the PSE that matches nothing to the SCU is the way: allowed.
    peer.do("move_pse", zero.pk, 4)
    assert peer.pses()[1] == (4, ["Buzz Aldrin followed him"])
    # The scores count the peer's SCUs as stored: no zero-weight PSE was added.
    assert peer.scores().non_matching == 0


def test_a_part_cannot_repeat_words_of_its_pse(peer):
    peer.assign("Michael Collins remained in orbit", 4)
    pse = peer.annotation.pses.get()
    with pytest.raises(RuleBroken, match="already part of this PSE"):
        peer.do("add_part", pse.pk, peer.ranges("Michael Collins"))
    assert peer.pses() == [(4, ["Michael Collins remained in orbit"])]


# -- the history keeps only the PSEs a change changed (issue 19) --------------------------------


def full_state(annotation_id) -> list[tuple]:
    """Every PSE of the annotation as the database holds it, in order: id, SCU uid (0: none),
    comment, position, provenance, and its parts (id, start, end) in order."""
    return [
        (
            pse.pk,
            pse.scu.uid if pse.scu else 0,
            pse.comment,
            pse.position,
            pse.source_id,
            [(s.pk, s.start, s.end) for s in pse.spans.order_by("position", "id")],
        )
        for pse in PSE.objects.filter(annotation_id=annotation_id)
        .select_related("scu")
        .order_by("position", "id")
    ]


def many_pses(peer, count):
    """`count` PSEs on the annotation, as an import leaves them (positions 0, 1, ...; one part
    each, in the last sentence), every tenth with a comment."""
    scus = list(peer.annotation.pyramid.scus.order_by("uid"))
    pses = PSE.objects.bulk_create(
        PSE(
            annotation=peer.annotation,
            scu=scus[i % len(scus)],
            comment=f"comment {i}" if i % 10 == 0 else "",
            position=i,
        )
        for i in range(count)
    )
    last = peer.text.index("The astronauts")  # words the tests' edits leave alone
    PSESpan.objects.bulk_create(
        PSESpan(pse=pse, start=last + i % 40, end=last + i % 40 + 6, position=0)
        for i, pse in enumerate(pses)
    )
    return pses


def stored_size(change) -> int:
    return len(json.dumps(change.before)) + len(json.dumps(change.after))


def edits_on(peer):
    """One of each operation, on an annotation the test made."""
    peer.assign("Buzz Aldrin followed him", 2)
    added = peer.annotation.pses.latest("id")
    yield peer.do("add_part", added.pk, peer.ranges("Michael Collins"))
    yield peer.do("move_pse", added.pk, 4)
    yield peer.do("remove_part", added.spans.latest("id").pk)
    yield peer.do("remove_pse", added.pk)
    yield peer.do("undo")
    yield peer.do("redo")


@pytest.mark.parametrize("count", [5, 500])
def test_a_change_keeps_only_the_pses_it_changed_whatever_the_annotation_holds(peer, count):
    many_pses(peer, count)
    first = peer.assign("Neil Armstrong", 1)
    assert first.change.before == {"pses": [], "absent": [first.change.after["pses"][0]["id"]]}
    sizes = [stored_size(first.change)] + [stored_size(r.change) for r in edits_on(peer)]
    assert max(sizes) < 600, sizes  # a few PSEs each side, 500 PSEs or 5 (was 76 KB at 500)


def test_at_500_pses_a_change_is_a_few_hundred_bytes(peer, capsys):
    many_pses(peer, 500)
    whole = len(json.dumps(peer_editing.snapshot(peer.annotation)))
    change = peer.assign("Neil Armstrong", 1).change
    assert whole > 25_000  # what each side held when every PSE was kept
    assert stored_size(change) < 400
    with capsys.disabled():
        print(f"\n500 PSEs: a change keeps {stored_size(change)} bytes (every PSE: 2 × {whole})")


def test_undo_and_redo_interleaved_with_new_edits_restore_every_pse_exactly(peer):
    """After every step the annotation is what it was at that point of the history: ids, SCUs,
    comments, positions, provenance and parts of every PSE, the unchanged ones too."""
    many_pses(peer, 30)
    states = [full_state(peer.annotation.pk)]  # the states the applied changes left
    redoable: list = []

    def edited(step):
        step()
        states.append(full_state(peer.annotation.pk))
        redoable.clear()

    def travel(action):
        peer.do(action)
        if action == "undo":
            redoable.append(states.pop())
        else:
            states.append(redoable.pop())
        assert full_state(peer.annotation.pk) == states[-1], action

    commented = peer.annotation.pses.get(position=10)
    assert commented.comment == "comment 10"
    edited(lambda: peer.do("remove_pse", commented.pk))
    edited(lambda: peer.assign("Buzz Aldrin followed him", 2))
    travel("undo")
    travel("undo")  # the commented PSE is back, in its place
    travel("redo")
    # (to nothing: words of no other SCU's PSE, which the many PSEs above share with each other)
    edited(lambda: peer.assign("Buzz Aldrin followed him", 2))
    edited(lambda: peer.do("move_pse", peer.annotation.pses.latest("id").pk, 0))
    edited(
        lambda: peer.do("add_part", peer.annotation.pses.get(position=5).pk, peer.ranges("Moon"))
    )
    travel("undo")
    edited(lambda: peer.assign("Michael Collins remained in orbit", 4))
    last = peer.annotation.pses.latest("id")
    edited(lambda: peer.do("add_part", last.pk, peer.ranges("samples")))
    edited(lambda: peer.do("remove_part", last.spans.order_by("position").first().pk))
    for action in ["undo", "undo", "undo", "redo", "redo", "undo", "undo", "undo", "undo", "undo"]:
        travel(action)
    with pytest.raises(RuleBroken, match="nothing to undo"):
        peer.do("undo")
    for _ in range(6):
        travel("redo")
    with pytest.raises(RuleBroken, match="nothing to redo"):
        peer.do("redo")


def as_written_before_issue_19(change, before, after):
    """The change row as the snapshots of every PSE were stored: a list of every PSE in order, no
    positions."""

    def every(state):
        return [{key: value for key, value in p.items() if key != "position"} for p in state]

    PeerAnnotationChange.objects.filter(pk=change.pk).update(
        before=every(before), after=every(after)
    )


def test_a_change_stored_with_every_pse_still_undoes_and_redoes(peer):
    """Rows written before issue 19 hold every PSE; undo and redo read them as they did, also
    between rows of the new form, and record their own steps in the new form."""
    many_pses(peer, 8)
    expected = [full_state(peer.annotation.pk)]
    for step in [
        lambda: peer.assign("Buzz Aldrin followed him", 2),
        lambda: peer.do("remove_pse", peer.annotation.pses.get(position=2).pk),
    ]:
        before = peer_editing.snapshot(peer.annotation)
        change = step().change
        as_written_before_issue_19(change, before, peer_editing.snapshot(peer.annotation))
        expected.append(full_state(peer.annotation.pk))
    peer.assign("Michael Collins remained in orbit", 4)  # a row of the new form on top
    expected.append(full_state(peer.annotation.pk))

    def order(state):  # an old row renumbers positions as it restores: the order is what holds
        return [row[:3] + row[4:] for row in state]

    for back in (2, 1, 0):
        undo = peer.do("undo")
        assert order(full_state(peer.annotation.pk)) == order(expected[back])
        assert isinstance(undo.change.after, dict)  # the step itself: the PSEs changed
    for forward in (1, 2, 3):
        peer.do("redo")
        assert order(full_state(peer.annotation.pk)) == order(expected[forward])
    assert peer.pses()[-1] == (4, ["Michael Collins remained in orbit"])


def test_what_an_edit_changed_names_the_scus_to_redraw(peer):
    many_pses(peer, 12)
    assert peer.assign("Buzz Aldrin followed him", 2).changed_uids == {2}
    moved = peer.annotation.pses.latest("id")
    assert peer.do("move_pse", moved.pk, 5).changed_uids == {2, 5}
    assert peer.do("add_part", moved.pk, peer.ranges("Moon")).changed_uids == {5}
    assert peer.do("undo").changed_uids == {5}
    assert peer.do("remove_pse", moved.pk).changed_uids == {5}
