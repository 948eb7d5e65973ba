"""annotator.adjudication.pyramid_consensus: two annotators' pyramids merged into a consensus, at
the service level."""

import pytest

from annotator.adjudication import pyramid_consensus
from annotator.adjudication.aligned_pyramids import NotComparable
from annotator.adjudication.alignment import ONE_TO_ONE, ONLY_A, ONLY_B, SPLIT
from annotator.ducview.writer import write_pyramid
from annotator.editing import history
from annotator.editing.errors import NotAllowed, RuleBroken, StaleVersion
from annotator.models import SCU, Contributor, Pyramid, PyramidChange, PyramidMerge, Span
from annotator.pyramids import editing
from annotator.transfer.exporting import pyramid_documents

pytestmark = pytest.mark.django_db


def groups_by_kind(consensus):
    merge = PyramidMerge.objects.get(consensus=consensus)
    return {group["kind"]: group for group in merge.groups}


def current(consensus):
    return Pyramid.objects.get(pk=consensus.pk).version


def scus(consensus):
    return [
        (s.label, s.source.pyramid.name if s.source else None, s.source.uid if s.source else None)
        for s in SCU.objects.filter(pyramid=consensus)
        .select_related("source__pyramid")
        .order_by("position")
    ]


def test_starting_takes_the_identical_group_from_a_with_its_provenance(pair):
    consensus = pyramid_consensus.start(pair["a"], pair["b"], pair["adjudicator"])
    assert sorted(groups_by_kind(consensus)) == sorted([ONE_TO_ONE, SPLIT, ONLY_A, ONLY_B])
    assert scus(consensus) == [("Apollo 11 landed on the Moon", "by-annotator", 1)]
    copied = Contributor.objects.filter(scu__pyramid=consensus).select_related("source__scu")
    assert {c.source.scu.pyramid_id for c in copied} == {pair["a"].pk}
    assert len(copied) == 2
    assert list(consensus.model_links.values_list("summary_id", flat=True)) == list(
        pair["a"].model_links.values_list("summary_id", flat=True)
    )
    decided = pyramid_consensus.decisions(consensus)
    assert list(decided) == [groups_by_kind(consensus)[ONE_TO_ONE]["key"]]
    assert decided[groups_by_kind(consensus)[ONE_TO_ONE]["key"]].user == pair["adjudicator"]
    assert len(editing.undecided_groups(consensus)) == 3


def test_choosing_a_side_replaces_what_the_group_gave_before_and_undo_restores_it(pair):
    consensus = pyramid_consensus.start(pair["a"], pair["b"], pair["adjudicator"])
    user, split = pair["adjudicator"], groups_by_kind(consensus)[SPLIT]
    pyramid_consensus.choose(consensus.pk, user, current(consensus), split["key"], "b")
    assert [label for label, _, _ in scus(consensus)][1:] == [
        "Armstrong",
        "Aldrin walked on the Moon",
    ]
    result = pyramid_consensus.choose(consensus.pk, user, current(consensus), split["key"], "a")
    assert scus(consensus)[1:] == [("Armstrong and Aldrin walked on the Moon", "by-annotator", 2)]
    assert "chose A's version" in result.description
    change = PyramidChange.objects.filter(pyramid=consensus).latest("id")
    assert change.decision == {"groups": [split["key"]], "choice": "a"}
    assert change.user == user
    editing.undo(
        consensus.pk, user, current(consensus)
    )  # back to B's version, still decided (as B)
    assert [label for label, _, _ in scus(consensus)][1:] == [
        "Armstrong",
        "Aldrin walked on the Moon",
    ]
    assert pyramid_consensus.decisions(consensus)[split["key"]].decision["choice"] == "b"
    # Read as plain rows (to count and place them), the same changes decide the same groups.
    full = pyramid_consensus.decisions(consensus)
    light = history.decided_groups(consensus.changes.all())
    assert {key: (c.pk, c.decision) for key, c in light.items()} == {
        key: (c.pk, c.decision) for key, c in full.items()
    }
    editing.undo(consensus.pk, user, current(consensus))  # and undecided
    assert split["key"] not in pyramid_consensus.decisions(consensus)
    assert split["key"] not in history.decided_groups(consensus.changes.all())
    assert len(scus(consensus)) == 1


def test_a_version_taken_again_goes_after_the_scus_that_stay_under_new_numbers(pair):
    """The SCUs a decision replaces, the numbers and the place of the new ones come from one read
    of the consensus's SCUs (issue 32): the new ones after the last SCU that stays, numbered above
    every number given."""
    consensus = pyramid_consensus.start(pair["a"], pair["b"], pair["adjudicator"])
    user, groups = pair["adjudicator"], groups_by_kind(consensus)
    for kind in (SPLIT, ONLY_A):
        pyramid_consensus.choose(consensus.pk, user, current(consensus), groups[kind]["key"], "a")
    split_copy = SCU.objects.get(pyramid=consensus, source__uid=2, source__pyramid=pair["a"])
    assert [label for label, _, _ in scus(consensus)][1] == split_copy.label  # in the middle
    pyramid_consensus.choose(consensus.pk, user, current(consensus), groups[SPLIT]["key"], "b")
    rows = list(
        SCU.objects.filter(pyramid=consensus)
        .order_by("position", "id")
        .values_list("uid", "position", "label")
    )
    assert [label for _, _, label in rows] == [
        "Apollo 11 landed on the Moon",
        "Collins orbited",
        "Armstrong",
        "Aldrin walked on the Moon",
    ]
    kept_last = rows[1][1]
    assert [position for _, position, _ in rows[2:]] == [kept_last + 1, kept_last + 2]
    assert [uid for uid, _, _ in rows[2:]] == [4, 5]  # 1-3 were given: never again
    assert Pyramid.objects.get(pk=consensus.pk).last_uid == 5
    assert not SCU.objects.filter(pk=split_copy.pk).exists()


def test_one_sided_groups_edits_and_submission(pair):
    consensus = pyramid_consensus.start(pair["a"], pair["b"], pair["adjudicator"])
    user, groups = pair["adjudicator"], groups_by_kind(consensus)
    pyramid_consensus.choose(consensus.pk, user, current(consensus), groups[SPLIT]["key"], "a")
    pyramid_consensus.choose(
        consensus.pk, user, current(consensus), groups[ONLY_B]["key"], "a"
    )  # leave it out
    assert "Samples were collected" not in [label for label, _, _ in scus(consensus)]
    with pytest.raises(RuleBroken, match="1 aligned group of this consensus is not decided"):
        editing.submit(consensus.pk, user, current(consensus))
    pyramid_consensus.choose(consensus.pk, user, current(consensus), groups[ONLY_A]["key"], "a")
    # Edit what A gave (the builder's operations work on the consensus), then keep it as edited.
    collins = SCU.objects.get(pyramid=consensus, label="Collins orbited")
    editing.set_label(
        consensus.pk, user, current(consensus), collins.uid, "Collins stayed in orbit"
    )
    pyramid_consensus.keep(consensus.pk, user, current(consensus), groups[ONLY_A]["key"])
    assert (
        pyramid_consensus.decisions(consensus)[groups[ONLY_A]["key"]].decision["choice"] == "edited"
    )
    editing.submit(consensus.pk, user, current(consensus))
    consensus.refresh_from_db()
    assert consensus.status == Pyramid.Status.SUBMITTED
    assert [label for label, _, _ in scus(consensus)] == [
        "Apollo 11 landed on the Moon",
        "Armstrong and Aldrin walked on the Moon",
        "Collins stayed in orbit",
    ]
    # An ordinary pyramid from now on: it exports to DUCView's format.
    exported = pyramid_documents(Pyramid.objects.filter(pk=consensus.pk))[consensus.pk]
    assert b'label="Collins stayed in orbit"' in write_pyramid(exported.document)


def test_who_may_merge(pair):
    demo = pair["demo"]
    for user in (demo["annotator"], demo["organizer"], demo["outsider"]):
        with pytest.raises(NotAllowed):
            pyramid_consensus.start(pair["a"], pair["b"], user)
    consensus = pyramid_consensus.start(pair["a"], pair["b"], demo["admin"])
    key = groups_by_kind(consensus)[SPLIT]["key"]
    # The builders of the sources cannot edit the consensus; the adjudicator can.
    with pytest.raises(NotAllowed):
        pyramid_consensus.choose(consensus.pk, demo["annotator"], current(consensus), key, "a")
    pyramid_consensus.choose(consensus.pk, pair["adjudicator"], current(consensus), key, "a")


def test_stale_choices_and_bad_groups_are_refused(pair):
    consensus = pyramid_consensus.start(pair["a"], pair["b"], pair["adjudicator"])
    key = groups_by_kind(consensus)[SPLIT]["key"]
    with pytest.raises(StaleVersion):
        pyramid_consensus.choose(
            consensus.pk, pair["adjudicator"], current(consensus) - 1, key, "a"
        )
    with pytest.raises(RuleBroken, match="no such group"):
        pyramid_consensus.choose(
            consensus.pk, pair["adjudicator"], current(consensus), "a99-b", "a"
        )
    with pytest.raises(RuleBroken, match="not a consensus"):
        pyramid_consensus.keep(pair["a"].pk, pair["demo"]["admin"], None, key)


def test_pyramids_of_other_models_cannot_be_merged(pair):
    other = pair["b"]
    other.model_links.order_by("-position").first().delete()
    with pytest.raises(NotComparable):
        pyramid_consensus.start(pair["a"], other, pair["adjudicator"])
    with pytest.raises(NotComparable):
        pyramid_consensus.start(pair["a"], pair["a"], pair["adjudicator"])


def test_a_submitted_consensus_counts_as_the_docsets_adjudicated_pyramid(pair):
    from annotator.models import PeerAnnotation
    from annotator.peer_annotation import editing as peer_editing
    from scoring.scores.records import score_collection

    demo, user = pair["demo"], pair["adjudicator"]
    consensus = pyramid_consensus.start(pair["a"], pair["b"], user)
    for key in editing.undecided_groups(consensus):
        pyramid_consensus.choose(consensus.pk, user, current(consensus), key, "a")
    editing.submit(consensus.pk, user, current(consensus))
    peer = demo["annotations"]["1"].peer
    annotation = PeerAnnotation.objects.create(
        pyramid=consensus, peer=peer, annotator_code="adjudicated"
    )
    start = peer.text.index("Apollo 11 landed on the Moon")
    peer_editing.assign(annotation.pk, demo["admin"], annotation.version, [(start, start + 28)], 1)
    # In progress it replaces nothing (issue 17: submitted work counts); marked complete, it does.
    assert len(score_collection(demo["collection"], adjudicated=True)) == 3
    peer_editing.complete(annotation.pk, demo["admin"], annotation.version + 1)
    # Without adjudication consensus work is left out (issue 15): the demo's three only.
    assert len(score_collection(demo["collection"])) == 3
    (row,) = score_collection(demo["collection"], adjudicated=True)
    assert (row.pyramid, row.annotator) == (consensus.name, "adjudicated")


@pytest.mark.shared_data
def test_pyramids_of_separate_files_merge_word_for_word(shared_data, django_user_model):
    """The two MATTER pyramids hold their own copies of the five models (spacing and quotes differ):
    B's contributors are copied onto the consensus's (A's) model texts, word for word."""
    import re

    from tests.helpers import import_files

    folder = shared_data / "pyreval-matter"
    import_files(
        folder / "IA/Yinghui_12_10_09_MATTER_fixed.pyr", collection="MATTER", docset="MATTER"
    )
    import_files(
        folder / "IA/12_10_09_MATTER_fixed.pyr",
        collection="MATTER",
        docset="MATTER",
        model_regex=r"(?m)^---\n",
    )
    a, b = (
        Pyramid.objects.get(name="Yinghui_12_10_09_MATTER_fixed"),
        Pyramid.objects.get(name="12_10_09_MATTER_fixed"),
    )
    admin = django_user_model.objects.create_superuser("boss")
    consensus = pyramid_consensus.start(a, b, admin)
    for key in editing.undecided_groups(consensus):
        pyramid_consensus.choose(consensus.pk, admin, current(consensus), key, "b")
    a_models = set(a.model_links.values_list("summary_id", flat=True))
    copies = Contributor.objects.filter(
        scu__pyramid=consensus, source__scu__pyramid=b
    ).select_related("source__summary", "summary")
    assert copies
    assert {c.summary_id for c in copies} <= a_models
    word = re.compile(r"\w+")
    for copy in copies:
        mine = " ".join(copy.summary.text[s.start : s.end] for s in copy.spans.order_by("position"))
        theirs = " ".join(
            copy.source.summary.text[s.start : s.end]
            for s in copy.source.spans.order_by("position")
        )
        assert word.findall(mine.lower()) == word.findall(theirs.lower())
    assert not editing.undecided_groups(consensus)


def test_overlapping_contributors_align_apart_and_merge_as_they_are(demo, django_user_model):
    """A's two SCUs share the words "walked on the surface" (overlapping contributors): each
    aligns with its own SCU of B, and taking A's versions keeps the overlap."""
    from tests.helpers import Builder

    a, b = (
        Builder(demo, name="overlapping", user="annotator"),
        Builder(demo, name="plain", user="other_annotator"),
    )
    a.new_scu("A", "Neil Armstrong and Buzz Aldrin walked on the surface", label="They walked")
    a.new_scu(
        "A",
        "walked on the surface while Michael Collins orbited above",
        label="Collins orbited while they walked",
    )
    b.new_scu("A", "Neil Armstrong and Buzz Aldrin", label="Armstrong and Aldrin")
    b.new_scu("A", "Michael Collins orbited above in the command module", label="Collins orbited")
    consensus = pyramid_consensus.start(a.pyramid, b.pyramid, demo["admin"])
    groups = PyramidMerge.objects.get(consensus=consensus).groups
    assert sorted((g["kind"], g["a"], g["b"]) for g in groups) == [
        (ONE_TO_ONE, [1], [1]),
        (ONE_TO_ONE, [2], [2]),
    ]
    for group in groups:
        pyramid_consensus.choose(consensus.pk, demo["admin"], current(consensus), group["key"], "a")
    text = a.models["A"].text
    spans = sorted(
        (s.start, s.end) for s in Span.objects.filter(contributor__scu__pyramid=consensus)
    )
    assert [text[s:e] for s, e in spans] == [
        "Neil Armstrong and Buzz Aldrin walked on the surface",
        "walked on the surface while Michael Collins orbited above",
    ]


def consensus_counting_words_twice(pair):
    """A consensus whose kept groups both cover model D's "Neil Armstrong and Buzz Aldrin walked on
    the Moon": A's version of the split group, and the only-A group edited to add those words."""
    from annotator.models import Summary

    consensus = pyramid_consensus.start(pair["a"], pair["b"], pair["adjudicator"])
    user, groups = pair["adjudicator"], groups_by_kind(consensus)
    for kind in (SPLIT, ONLY_A, ONLY_B):
        pyramid_consensus.choose(consensus.pk, user, current(consensus), groups[kind]["key"], "a")
    model_d = Summary.objects.get(docset=pair["a"].docset, kind="model", author="D")
    words = "Neil Armstrong and Buzz Aldrin walked on the Moon"
    start = model_d.text.index(words)
    collins = SCU.objects.get(pyramid=consensus, label="Collins orbited")
    editing.add_contributor(
        consensus.pk,
        user,
        current(consensus),
        collins.uid,
        model_d.pk,
        [(start, start + len(words))],
    )
    pyramid_consensus.keep(consensus.pk, user, current(consensus), groups[ONLY_A]["key"])
    return consensus, groups, collins


def test_model_words_two_kept_groups_cover_are_named_with_their_groups(pair):
    from annotator.adjudication.overlaps import counted_twice

    consensus, groups, collins = consensus_counting_words_twice(pair)
    (twice,) = counted_twice(consensus)
    split_scu = SCU.objects.get(pyramid=consensus, label="Armstrong and Aldrin walked on the Moon")
    assert twice.model == "D"
    assert twice.words == "Neil Armstrong and Buzz Aldrin walked on the Moon"
    assert twice.scus == tuple(sorted((split_scu.uid, collins.uid)))
    by_uid = dict(zip(twice.scus, twice.groups))
    assert by_uid == {split_scu.uid: groups[SPLIT]["key"], collins.uid: groups[ONLY_A]["key"]}
    assert counted_twice(pair["a"]) == []  # an ordinary pyramid is not a consensus


def test_submit_refuses_words_counted_twice_unless_confirmed(pair):
    consensus, _, _ = consensus_counting_words_twice(pair)
    user = pair["adjudicator"]
    with pytest.raises(
        RuleBroken,
        match=r"Not submitted: 1 stretch of model words is in two SCUs, which counts it twice "
        r"\(Model D: “Neil Armstrong and Buzz Aldrin walked on the Moon” is in SCU",
    ):
        editing.submit(consensus.pk, user, current(consensus))
    assert Pyramid.objects.get(pk=consensus.pk).status == Pyramid.Status.IN_PROGRESS
    editing.submit(consensus.pk, user, current(consensus), confirm=1)
    assert Pyramid.objects.get(pk=consensus.pk).status == Pyramid.Status.SUBMITTED


def test_identical_words_under_different_labels_wait_for_the_adjudicator_to_pick_one(pair):
    SCU.objects.filter(pyramid=pair["b"], uid=1).update(label="The Moon landing of Apollo 11")
    consensus = pyramid_consensus.start(pair["a"], pair["b"], pair["adjudicator"])
    group = groups_by_kind(consensus)[ONE_TO_ONE]
    assert group["identical"]
    assert group["labels_differ"]
    assert group["key"] in editing.undecided_groups(consensus)
    assert scus(consensus) == []
    pyramid_consensus.choose(
        consensus.pk, pair["adjudicator"], current(consensus), group["key"], "b"
    )
    assert scus(consensus) == [("The Moon landing of Apollo 11", "by-other", 1)]


def test_provenance_survives_an_edit_of_a_source_undone_and_redone(pair):
    consensus = pyramid_consensus.start(pair["a"], pair["b"], pair["adjudicator"])
    annotator = pair["demo"]["annotator"]
    copy = SCU.objects.get(pyramid=consensus, label="Apollo 11 landed on the Moon")
    contributors = list(copy.contributors.values_list("pk", flat=True))

    def sources():
        return (
            SCU.objects.get(pk=copy.pk).source,
            [Contributor.objects.get(pk=pk).source for pk in contributors],
        )

    original = sources()
    assert original[0].pyramid == pair["a"]
    assert all(c.scu == original[0] for c in original[1])
    a = Pyramid.objects.get(pk=pair["a"].pk)
    editing.remove_scu(
        a.pk, annotator, a.version, 1
    )  # the source's SCU goes: SET_NULL clears the links
    assert sources() == (None, [None, None])
    editing.undo(
        a.pk, annotator, Pyramid.objects.get(pk=a.pk).version
    )  # back as it was: so are the links
    restored_scu, restored_contributors = sources()
    assert restored_scu.pyramid == pair["a"]
    assert restored_scu.uid == 1
    assert [c.scu_id for c in restored_contributors] == [restored_scu.pk] * 2
    assert sorted(c.summary.author for c in restored_contributors) == ["A", "D"]
    editing.redo(a.pk, annotator, Pyramid.objects.get(pk=a.pk).version)
    assert sources() == (None, [None, None])
    editing.undo(a.pk, annotator, Pyramid.objects.get(pk=a.pk).version)
    assert sources()[0].uid == 1


def test_a_contributor_split_off_in_a_consensus_takes_its_provenance_to_its_new_scu(pair):
    consensus = pyramid_consensus.start(pair["a"], pair["b"], pair["adjudicator"])
    copy = SCU.objects.get(pyramid=consensus, label="Apollo 11 landed on the Moon")
    model_d = copy.contributors.get(summary__author="D")
    result = editing.split_contributor(
        consensus.pk, pair["adjudicator"], current(consensus), model_d.pk
    )
    new = SCU.objects.get(
        pyramid=consensus,
        uid=max(SCU.objects.filter(pyramid=consensus).values_list("uid", flat=True)),
    )
    assert "into new SCU" in result.description
    assert new.source == copy.source
    assert new.source.pyramid == pair["a"]


def test_words_counted_twice_name_the_group_an_scu_was_kept_for_and_leave_a_sources_own_overlaps(
    pair,
):
    from annotator.adjudication.overlaps import counted_twice

    user = pair["adjudicator"]
    # A's annotator had "Neil Armstrong" in two of their own SCUs: copied as it was, not the
    # merge's doing.
    a = Pyramid.objects.get(pk=pair["a"].pk)
    model_a = a.models_used.get(author="A")
    start = model_a.text.index("Neil Armstrong")
    editing.new_scu(
        a.pk,
        pair["demo"]["annotator"],
        a.version,
        model_a.pk,
        [(start, start + len("Neil Armstrong"))],
        "Armstrong",
    )
    consensus = pyramid_consensus.start(pair["a"], pair["b"], user)
    groups = groups_by_kind(consensus)
    (astronauts,) = [g for g in PyramidMerge.objects.get(consensus=consensus).groups if 4 in g["a"]]
    assert astronauts["a"] == [2, 4]  # both of A's SCUs over those words fell in one group
    pyramid_consensus.choose(consensus.pk, user, current(consensus), astronauts["key"], "a")
    assert counted_twice(consensus) == []
    # An SCU the adjudicator makes over Collins's words and keeps for Collins's group, beside A's
    # copy.
    pyramid_consensus.choose(consensus.pk, user, current(consensus), groups[ONLY_A]["key"], "a")
    words = "Michael Collins orbited"
    start = model_a.text.index(words)
    editing.new_scu(
        consensus.pk, user, current(consensus), model_a.pk, [(start, start + len(words))], "Collins"
    )
    pyramid_consensus.keep(consensus.pk, user, current(consensus), groups[ONLY_A]["key"])
    (twice,) = counted_twice(consensus)
    assert twice.groups == (groups[ONLY_A]["key"], groups[ONLY_A]["key"])
    assert "added by" not in twice.message
    assert twice.linked_groups == [groups[ONLY_A]["key"]]


def test_a_source_pyramids_own_overlap_across_two_groups_is_not_counted_twice(pair):
    from annotator.adjudication.overlaps import counted_twice

    user = pair["adjudicator"]
    a = Pyramid.objects.get(pk=pair["a"].pk)
    model_a = a.models_used.get(author="A")
    start = model_a.text.index("Michael Collins")
    editing.new_scu(
        a.pk,
        pair["demo"]["annotator"],
        a.version,
        model_a.pk,
        [(start, start + len("Michael Collins"))],
        "Collins",
    )  # A's own second SCU over Collins's name: a group of its own (B has neither)
    consensus = pyramid_consensus.start(pair["a"], pair["b"], user)
    collins_groups = [
        g
        for g in PyramidMerge.objects.get(consensus=consensus).groups
        if 3 in g["a"] or 4 in g["a"]
    ]
    assert len(collins_groups) == 2
    for group in collins_groups:
        pyramid_consensus.choose(consensus.pk, user, current(consensus), group["key"], "a")
    assert counted_twice(consensus) == []
    # The adjudicator's own SCU over the same words does count.
    editing.new_scu(
        consensus.pk,
        user,
        current(consensus),
        model_a.pk,
        [(start, start + len("Michael"))],
        "Michael",
    )
    assert {t.words for t in counted_twice(consensus)} == {"Michael"}
