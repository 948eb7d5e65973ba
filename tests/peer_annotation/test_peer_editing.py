"""The peer annotation operations and their rules, at the service level."""

import pytest

from annotator.models import PeerAnnotation, PeerAnnotationChange, Pyramid
from annotator.peer_annotation import editing as peer_editing
from annotator.pyramids.editing import NotAllowed, RuleBroken, StaleVersion
from scoring.records import score_annotations

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
    change.after = [
        {key: value for key, value in pse.items() if key not in ("id", "span_ids")}
        for pse in change.after
    ]
    change.save()
    peer.do("undo")
    peer.do("redo")
    assert peer.pses() == [(1, ["Apollo 11 landed on the Moon in July 1969"])]


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


def test_a_part_cannot_repeat_words_of_its_pse(peer):
    peer.assign("Michael Collins remained in orbit", 4)
    pse = peer.annotation.pses.get()
    with pytest.raises(RuleBroken, match="already part of this PSE"):
        peer.do("add_part", pse.pk, peer.ranges("Michael Collins"))
    assert peer.pses() == [(4, ["Michael Collins remained in orbit"])]
