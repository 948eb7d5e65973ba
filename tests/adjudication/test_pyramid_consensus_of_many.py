"""A consensus of more than two pyramids merged at once (issue 15): groups aligned over A, B and C,
each pyramid's version to take, provenance, and the one rule of consensus work in statistics."""

import pytest

from annotator.adjudication import pyramid_consensus
from annotator.adjudication.aligned_pyramids import NotComparable
from annotator.adjudication.alignment import ONE_TO_ONE, PARTIAL, SPLIT, only_in
from annotator.adjudication.queue import consensuses_of
from annotator.editing.errors import RuleBroken
from annotator.models import SCU, Pyramid, PyramidMerge, PyramidMergeSource
from annotator.pyramids import editing
from scoring.scores.records import counted_pyramids

pytestmark = pytest.mark.django_db


def version(pyramid_id):
    return Pyramid.objects.get(pk=pyramid_id).version


def started(trio):
    return pyramid_consensus.start_many([trio["a"], trio["b"], trio["c"]], trio["adjudicator"])


def test_three_pyramids_aligned_into_groups_of_every_kind(trio):
    consensus = started(trio)
    merge = PyramidMerge.objects.get(consensus=consensus)
    assert [(side, p.name) for side, p in merge.sides()] == [
        ("a", "by-annotator"),
        ("b", "by-other"),
        ("c", "by-third"),
    ]
    assert list(
        PyramidMergeSource.objects.filter(merge=merge).values_list("side", "pyramid_id")
    ) == [("c", trio["c"].pk)]
    kinds = {g["kind"]: g for g in merge.groups}
    assert set(kinds) == {ONE_TO_ONE, SPLIT, PARTIAL, only_in(1), only_in(2)}
    assert kinds[SPLIT]["key"] == "a2-b2.3-c2"
    assert kinds[PARTIAL]["key"] == "a3-b-c3"
    # The group identical in all three was taken from A at the start, with its provenance.
    decided = pyramid_consensus.decisions(consensus)
    assert decided[kinds[ONE_TO_ONE]["key"]].decision["choice"] == "identical"
    (copy,) = consensus.scus.all()
    assert copy.source.pyramid_id == trio["a"].pk
    assert copy.label == "Apollo 11 landed on the Moon"
    assert (
        "took the 1 group(s) identical in all"
        in consensus.changes.get(action="start_consensus").description
    )


def test_each_pyramids_version_can_be_taken_with_its_provenance(trio):
    consensus = started(trio)
    keys = {g["kind"]: g["key"] for g in PyramidMerge.objects.get(consensus=consensus).groups}
    result = pyramid_consensus.choose(
        consensus.pk, trio["adjudicator"], version(consensus.pk), keys[PARTIAL], "c"
    )
    assert "chose C's version (1 SCU of by-third)" in result.description
    taken = consensus.scus.get(label="Collins in orbit")
    assert taken.source.pyramid_id == trio["c"].pk
    assert {c.source.scu.pyramid_id for c in taken.contributors.all()} == {trio["c"].pk}
    # B has nothing in that group: taking B's version leaves it out.
    result = pyramid_consensus.choose(
        consensus.pk, trio["adjudicator"], version(consensus.pk), keys[PARTIAL], "b"
    )
    assert (
        f"Group {keys[PARTIAL]} (in some pyramids only): "
        "left out, as B (by-other) has nothing there" == result.description
    )
    assert not consensus.scus.filter(label="Collins in orbit").exists()
    # There is no D.
    with pytest.raises(RuleBroken, match=r"one of the pyramids merged \(A, B, C\)"):
        pyramid_consensus.choose(
            consensus.pk, trio["adjudicator"], version(consensus.pk), keys[SPLIT], "d"
        )
    # C's version of the split group: C's one SCU, whatever A and B made of it.
    pyramid_consensus.choose(
        consensus.pk, trio["adjudicator"], version(consensus.pk), keys[SPLIT], "c"
    )
    assert (
        consensus.scus.get(label="Armstrong and Aldrin on the Moon").source.pyramid_id
        == trio["c"].pk
    )


def test_a_source_edited_after_the_merge_began_is_named_by_its_letter(trio):
    consensus = started(trio)
    merge = PyramidMerge.objects.get(consensus=consensus)
    kennedy = SCU.objects.get(pyramid=trio["c"], label="Kennedy's goal fulfilled")
    editing.set_label(
        trio["c"].pk,
        trio["demo"]["outsider"],
        version(trio["c"].pk),
        kennedy.uid,
        "Kennedy's aim met",
    )
    assert pyramid_consensus.changed_groups(merge) == [
        ("C", next(g["key"] for g in merge.groups if g["kind"] == only_in(2)))
    ]


def test_the_consensus_of_many_replaces_all_its_sources_when_submitted(trio):
    consensus = started(trio)
    for group in PyramidMerge.objects.get(consensus=consensus).groups:
        if group["key"] not in pyramid_consensus.decisions(consensus):
            pyramid_consensus.choose(
                consensus.pk, trio["adjudicator"], version(consensus.pk), group["key"], "a"
            )
    editing.submit(consensus.pk, trio["adjudicator"], version(consensus.pk))
    everything = Pyramid.objects.filter(docset=trio["a"].docset)
    adjudicated = set(counted_pyramids(everything, adjudicated=True).values_list("name", flat=True))
    assert consensus.name in adjudicated
    assert not adjudicated & {
        "by-annotator",
        "by-other",
        "by-third",
    }
    assert consensus.name not in set(counted_pyramids(everything).values_list("name", flat=True))


def test_which_consensus_is_of_which_pyramids(trio):
    consensus = started(trio)
    assert consensuses_of([trio["c"], trio["a"], trio["b"]]) == [consensus]
    assert (
        consensuses_of([trio["a"], trio["b"]]) == []
    )  # a consensus of A, B and C is not one of A and B alone
    pair = pyramid_consensus.start(trio["a"], trio["b"], trio["adjudicator"])
    assert consensuses_of([trio["b"], trio["a"]]) == [pair]


def test_the_same_pyramid_twice_or_too_many_are_refused(trio):
    with pytest.raises(NotComparable, match="two or more different pyramids"):
        pyramid_consensus.start_many([trio["a"], trio["b"], trio["a"]], trio["adjudicator"])
    with pytest.raises(NotComparable, match="two or more different pyramids"):
        pyramid_consensus.start_many([trio["a"]], trio["adjudicator"])


def test_the_queue_shows_a_consensus_of_three_and_settles_each_of_its_pairs(trio):
    from annotator.adjudication.queue import NOT_STARTED, queue

    for pyramid in (trio["a"], trio["b"], trio["c"]):
        Pyramid.objects.filter(pk=pyramid.pk).update(status=Pyramid.Status.SUBMITTED)
    waiting = [
        i.what
        for i in queue(Pyramid.objects.filter(docset=trio["a"].docset))
        if i.state == NOT_STARTED
    ]
    assert "by-annotator + by-other" in waiting
    assert "by-other + by-third" in waiting
    consensus = started(trio)
    items = queue(Pyramid.objects.filter(docset=trio["a"].docset))
    (merged,) = [i for i in items if i.consensus_id == consensus.pk]
    assert merged.what == "by-annotator + by-other + by-third"
    assert merged.state == "in_progress"
    assert len(merged.annotators) == 3
    # Its pairs wait no more (the demo pyramid, not merged, still pairs with each).
    waiting = [i.what for i in items if i.state == NOT_STARTED]
    assert not {"by-annotator + by-other", "by-annotator + by-third", "by-other + by-third"} & set(
        waiting
    )


def test_keeping_a_group_with_nothing_of_it_in_the_consensus_says_its_content_is_left_out(trio):
    consensus = started(trio)
    keys = {g["kind"]: g["key"] for g in PyramidMerge.objects.get(consensus=consensus).groups}
    left = pyramid_consensus.keep(
        consensus.pk, trio["adjudicator"], version(consensus.pk), keys[SPLIT]
    )
    assert left.description.endswith(
        "kept as edited, with nothing of it in the consensus: its content is left out"
    )
    pyramid_consensus.choose(
        consensus.pk, trio["adjudicator"], version(consensus.pk), keys[PARTIAL], "a"
    )
    kept = pyramid_consensus.keep(
        consensus.pk, trio["adjudicator"], version(consensus.pk), keys[PARTIAL]
    )
    assert kept.description == f"Group {keys[PARTIAL]} (in some pyramids only): kept as edited"


def test_an_edit_of_the_third_source_undone_ties_the_consensus_copy_to_it_again(trio):
    """Undo in a pyramid merged as C (not A or B) recreates its SCU and ties the consensus's copy
    to it again: its snapshots note the copies as A's and B's do (the check of which pyramids a
    consensus was merged from knows the further sources too)."""
    consensus = started(trio)
    keys = {g["kind"]: g["key"] for g in PyramidMerge.objects.get(consensus=consensus).groups}
    pyramid_consensus.choose(
        consensus.pk, trio["adjudicator"], version(consensus.pk), keys[PARTIAL], "c"
    )
    copy = consensus.scus.get(label="Collins in orbit")
    source = copy.source
    assert source.pyramid_id == trio["c"].pk
    owner = trio["demo"]["outsider"]  # who built C
    editing.remove_scu(trio["c"].pk, owner, version(trio["c"].pk), source.uid)
    assert SCU.objects.get(pk=copy.pk).source is None
    editing.undo(trio["c"].pk, owner, version(trio["c"].pk))
    restored = SCU.objects.get(pk=copy.pk).source
    assert restored is not None
    assert (restored.pyramid_id, restored.uid) == (trio["c"].pk, source.uid)
