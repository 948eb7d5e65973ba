"""The editing operations and their rules, at the service level."""

import pytest

from annotator.editing.errors import NotAllowed, RuleBroken, StaleVersion
from annotator.models import PSE, SCU, Contributor, PeerAnnotation, PyramidChange
from annotator.pyramids import editing
from tests.helpers import Builder

pytestmark = pytest.mark.django_db


@pytest.fixture
def build(demo):
    return Builder(demo)


def test_new_scu_takes_the_selection_as_its_label(build):
    result = build.new_scu("A", "Apollo 11 landed on the Moon")
    assert result.description == "New SCU 1 “Apollo 11 landed on the Moon”"
    assert build.state() == [
        (1, "Apollo 11 landed on the Moon", {"A": ["Apollo 11 landed on the Moon"]})
    ]
    assert result.version == 2
    assert build.version == 2


def test_selections_snap_to_whole_words_without_punctuation(build):
    summary, _ = build.where("A", "Apollo")
    text = build.models["A"].text
    start = text.index("pollo 11 landed")  # starts mid-word
    end = text.index("July 20, 1969.") + len("July 20, 1969. ")  # ends after ". "
    build.do("new_scu", summary, [(start, end)])
    assert build.state()[0][2] == {"A": ["Apollo 11 landed on the Moon on July 20, 1969"]}


def test_empty_and_outside_selections_are_refused(build):
    summary, _ = build.where("A", "Apollo")
    with pytest.raises(RuleBroken, match="holds no words"):
        build.do("new_scu", summary, [(45, 47)])  # ". "
    with pytest.raises(RuleBroken, match="outside the summary"):
        build.do("new_scu", summary, [(0, 10_000)])
    with pytest.raises(RuleBroken, match="not in one of this pyramid's model summaries"):
        build.do("new_scu", PeerAnnotation.objects.first().peer_id, [(0, 5)])
    assert build.state() == []
    assert build.version == 1


def test_add_contributor_and_the_one_per_model_rule(build):
    build.new_scu("A", "Apollo 11 landed on the Moon")
    build.add(1, "B", "NASA's Apollo 11 mission put two astronauts on the Moon")
    with pytest.raises(RuleBroken, match="already has a contributor from model A") as refused:
        build.add(1, "A", "Armstrong was the first person")
    # The fix offered adds exactly the words refused, to the contributor the refusal was about.
    summary, ranges = build.where("A", "Armstrong was the first person")
    assert refused.value.fix == {
        "action": "add_part",
        "contributor": build.contributor(summary__author="A").id,
        "summary": summary,
        "ranges": [list(r) for r in ranges],
    }
    assert sorted(build.state()[0][2]) == ["A", "B"]


@pytest.mark.parametrize("operation", ["move_contributor", "merge_scus"])
def test_a_refused_move_or_merge_offers_no_fix_it_could_not_do(build, operation):
    """A move or merge refused by the one-per-model rule has no selection to add: no fix is offered
    (the page once offered to add whatever words were selected last, putting them in two SCUs)."""
    build.new_scu("A", "Apollo 11 landed on the Moon")
    build.new_scu("A", "Neil Armstrong and Buzz Aldrin walked on the surface")
    before = build.state()
    argument = build.contributor(scu__uid=2).id if operation == "move_contributor" else 2
    with pytest.raises(RuleBroken, match="already has a contributor from model A") as refused:
        build.do(operation, argument, 1)
    assert refused.value.fix is None
    assert "instead" not in refused.value.message
    assert build.state() == before


def test_add_part_makes_a_discontinuous_contributor_in_one_model(build):
    build.new_scu("C", "Apollo 11 was the first crewed mission to land on the Moon")
    contributor = build.contributor()
    summary, ranges = build.where("C", "in July 1969")
    build.do("add_part", contributor.id, summary, ranges)
    assert build.state()[0][2] == {
        "C": ["Apollo 11 was the first crewed mission to land on the Moon", "in July 1969"]
    }
    other, other_ranges = build.where("D", "In July 1969")
    with pytest.raises(RuleBroken, match="parts all lie in one model summary"):
        build.do("add_part", contributor.id, other, other_ranges)


def test_labels_and_comments(build):
    build.new_scu("A", "Apollo 11 landed on the Moon")
    build.do("set_label", 1, "  Apollo 11 landed in July 1969 ")
    assert build.state()[0][1] == "Apollo 11 landed in July 1969"
    with pytest.raises(RuleBroken, match="label cannot be empty"):
        build.do("set_label", 1, "   ")
    build.do("set_comment", 1, "check the date")
    assert SCU.objects.get(pyramid=build.pyramid).comment == "check the date"
    build.add(1, "B", "On July 20, 1969")
    build.do("set_label_from_contributor", build.contributor(summary__author="B").id)
    assert build.state()[0][1] == "On July 20, 1969"


def test_move_contributor_removes_an_emptied_scu_and_keeps_the_rule(build):
    build.new_scu("A", "Michael Collins orbited above")
    build.new_scu("C", "Collins stayed in lunar orbit")
    build.new_scu("A", "Armstrong was the first person")
    moved = build.contributor(scu__uid=2)
    result = build.do("move_contributor", moved.id, 1)
    assert "SCU 2 was left empty and removed" in result.description
    assert [uid for uid, *_ in build.state()] == [1, 3]
    with pytest.raises(RuleBroken, match="already has a contributor from model A"):
        build.do("move_contributor", build.contributor(scu__uid=3).id, 1)


def test_merge_and_split(build):
    build.new_scu("A", "Neil Armstrong and Buzz Aldrin walked on the surface")
    build.new_scu("B", "followed by Buzz Aldrin")
    build.new_scu("A", "Armstrong was the first person")
    build.do("merge_scus", 2, 1)
    assert [(uid, sorted(c)) for uid, _, c in build.state()] == [(1, ["A", "B"]), (3, ["A"])]
    with pytest.raises(RuleBroken, match="already has a contributor from model A"):
        build.do("merge_scus", 3, 1)
    build.do("split_contributor", build.contributor(scu__uid=1, summary__author="B").id)
    assert [(uid, label, sorted(c)) for uid, label, c in build.state()] == [
        (1, "Neil Armstrong and Buzz Aldrin walked on the surface", ["A"]),
        (4, "followed by Buzz Aldrin", ["B"]),
        (3, "Armstrong was the first person", ["A"]),
    ]
    with pytest.raises(RuleBroken, match="nothing to split"):
        build.do("split_contributor", build.contributor(scu__uid=4).id)


def test_reorder_and_ducview_order(build):
    build.new_scu("A", "The crew collected rock samples")
    build.new_scu("A", "Apollo 11 landed on the Moon")
    build.add(2, "B", "NASA's Apollo 11 mission")
    build.new_scu("B", "about two and a half hours")
    build.do("move_scu", 3, 0)
    assert [uid for uid, *_ in build.state()] == [3, 1, 2]
    build.do("order_scus")
    assert [uid for uid, *_ in build.state()] == [
        2,
        3,
        1,
    ]  # weight 2, then labels a-z ignoring case


def test_removing_parts_contributors_and_scus(build):
    build.new_scu("C", "Apollo 11 was the first crewed mission")
    contributor = build.contributor()
    summary, ranges = build.where("C", "in July 1969")
    build.do("add_part", contributor.id, summary, ranges)
    build.add(1, "A", "Apollo 11 landed on the Moon")
    build.do("remove_part", build.span(contributor=contributor, position=1).id)
    assert build.state()[0][2]["C"] == ["Apollo 11 was the first crewed mission"]
    build.do("remove_contributor", contributor.id)
    assert list(build.state()[0][2]) == ["A"]
    result = build.do("remove_part", build.span().id)  # the last part of the last contributor
    assert "the SCU, left empty, was removed" in result.description
    assert build.state() == []
    build.new_scu("A", "Apollo 11 landed on the Moon")
    build.do("remove_scu", 2)  # SCU 1's number is not given again (issue 32)
    assert build.state() == []


def test_an_scu_matched_by_peer_annotations_cannot_be_removed(build, demo):
    build.new_scu("A", "Apollo 11 landed on the Moon")
    annotation = demo["annotations"]["1"]
    # A peer annotation of this pyramid uses SCU 1.
    using = PeerAnnotation.objects.create(
        pyramid=build.pyramid, peer=annotation.peer, annotator_code="x"
    )
    PSE.objects.create(annotation=using, scu=SCU.objects.get(pyramid=build.pyramid))
    with pytest.raises(RuleBroken, match="matched by 1 PSE in peer annotations"):
        build.do("remove_scu", 1)
    PSE.objects.create(annotation=using, scu=SCU.objects.get(pyramid=build.pyramid))
    with pytest.raises(RuleBroken, match="matched by 2 PSEs in peer annotations"):
        build.do("remove_scu", 1)
    # Refused whole: the SCU and its contributor are still there.
    assert [(uid, sorted(models)) for uid, _, models in build.state()] == [(1, ["A"])]


def test_scus_are_removed_together_in_one_deletion_or_not_at_all(build, demo):
    """A consensus's decision replaces a group's SCUs in one deletion (issue 32: ten statements an
    SCU); refused whole, naming the SCUs that PSEs match."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    for phrase in ("Apollo 11 landed on the Moon", "Neil Armstrong", "Michael Collins", "July"):
        build.new_scu("A", phrase)
    *scus, alone = SCU.objects.filter(pyramid=build.pyramid).order_by("uid")
    using = PeerAnnotation.objects.create(
        pyramid=build.pyramid, peer=demo["annotations"]["1"].peer, annotator_code="x"
    )
    for scu in (scus[0], scus[2], scus[2]):
        PSE.objects.create(annotation=using, scu=scu)
    with pytest.raises(RuleBroken) as refused:
        editing.delete_scus(scus)
    assert refused.value.message == (
        "SCUs 1, 3 are matched by 3 PSEs in peer annotations; they cannot be removed while they "
        "use them."
    )
    assert SCU.objects.filter(pyramid=build.pyramid).count() == 4
    using.delete()
    with CaptureQueriesContext(connection) as one:
        editing.delete_scu(alone)
    with CaptureQueriesContext(connection) as three:
        editing.delete_scus(scus)
    assert len(three) == len(one)
    assert not SCU.objects.filter(pyramid=build.pyramid).exists()
    assert not Contributor.objects.filter(scu__pyramid=build.pyramid).exists()


def test_undo_and_redo_every_kind_of_edit(build):
    states = [build.state()]
    build.new_scu("A", "Neil Armstrong and Buzz Aldrin walked on the surface")
    states.append(build.state())
    build.add(1, "B", "followed by Buzz Aldrin")
    states.append(build.state())
    build.new_scu("C", "Aldrin joined him")
    states.append(build.state())
    build.do("merge_scus", 2, 1)
    states.append(build.state())
    build.do("set_label", 1, "Aldrin also walked on the Moon")
    states.append(build.state())
    build.do("split_contributor", build.contributor(summary__author="B").id)
    states.append(build.state())
    build.do("remove_scu", 1)
    states.append(build.state())
    for expected in reversed(states[:-1]):
        build.do("undo")
        assert build.state() == expected
    with pytest.raises(RuleBroken, match="nothing to undo"):
        build.do("undo")
    for expected in states[1:]:
        build.do("redo")
        assert build.state() == expected
    with pytest.raises(RuleBroken, match="nothing to redo"):
        build.do("redo")


def test_a_new_edit_ends_the_redo_chain(build):
    build.new_scu("A", "Apollo 11 landed on the Moon")
    build.do("undo")
    build.new_scu("A", "The crew collected rock samples")
    with pytest.raises(RuleBroken, match="nothing to redo"):
        build.do("redo")
    assert PyramidChange.objects.filter(pyramid=build.pyramid, state="discarded").count() == 1


def test_every_change_is_in_the_history(build):
    build.new_scu("A", "Apollo 11 landed on the Moon")
    build.do("set_label", 1, "Landing")
    build.do("undo")
    history = list(
        PyramidChange.objects.filter(pyramid=build.pyramid).values_list(
            "action", "user", "description"
        )
    )
    assert history == [
        ("new_scu", build.user.id, "New SCU 1 “Apollo 11 landed on the Moon”"),
        ("set_label", build.user.id, "Relabelled SCU 1 “Landing”"),
        ("undo", build.user.id, "Undid: Relabelled SCU 1 “Landing”"),
    ]


def test_a_stale_version_is_refused_and_changes_nothing(build):
    build.new_scu("A", "Apollo 11 landed on the Moon")
    stale = build.version - 1
    summary, ranges = build.where("B", "followed by Buzz Aldrin")
    with pytest.raises(StaleVersion) as refused:
        editing.add_contributor(build.pyramid.pk, build.user, stale, 1, summary, ranges)
    assert refused.value.current_version == build.version
    assert list(build.state()[0][2]) == ["A"]


def test_only_assigned_annotators_and_staff_may_edit(build, demo):
    summary, ranges = build.where("A", "Apollo 11")
    with pytest.raises(NotAllowed, match="not assigned"):
        editing.new_scu(build.pyramid.pk, demo["annotator"], build.version, summary, ranges)
    editing.new_scu(build.pyramid.pk, demo["admin"], build.version, summary, ranges)
    assert len(build.state()) == 1


def test_a_submitted_pyramid_is_read_only_until_an_administrator_reopens_it(build, demo):
    with pytest.raises(RuleBroken, match="at least one SCU"):
        build.do("submit")
    build.new_scu("A", "Apollo 11 landed on the Moon")
    build.do("submit")
    with pytest.raises(NotAllowed, match="submitted and read-only"):
        build.do("set_label", 1, "x")
    with pytest.raises(NotAllowed, match="Only an administrator"):
        build.do("reopen")
    editing.reopen(build.pyramid.pk, demo["admin"], build.version)
    build.do("set_label", 1, "Landing")
    assert build.state()[0][1] == "Landing"
    # Submitting and reopening are not edits that undo reverts.
    build.do("undo")
    assert build.state()[0][1] == "Apollo 11 landed on the Moon"


def test_editing_a_pyramid_flags_the_peer_annotations_made_against_it(build, demo):
    build.new_scu("A", "Apollo 11 landed on the Moon")
    build.new_scu("B", "Neil Armstrong stepped out first")
    annotation = PeerAnnotation.objects.create(
        pyramid=build.pyramid, peer=demo["annotations"]["1"].peer, annotator_code="x"
    )
    build.do("set_label", 2, "Armstrong first")
    annotation.refresh_from_db()
    assert annotation.scus_changed == [2]
    assert annotation.needs_review
    build.do("undo")  # undoing is a change too
    build.add(1, "C", "Apollo 11 was the first crewed mission")
    annotation.refresh_from_db()
    assert annotation.scus_changed == [1, 2]


def test_flagging_peer_annotations_takes_the_same_queries_however_many(build, demo):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from annotator.models import Summary

    build.new_scu("A", "Apollo 11 landed on the Moon")
    peers = list(Summary.objects.filter(docset=build.pyramid.docset, kind="peer"))
    PeerAnnotation.objects.create(pyramid=build.pyramid, peer=peers[0], annotator_code="one")
    with CaptureQueriesContext(connection) as one:
        build.do("set_label", 1, "Landing")
    for peer in peers[1:]:
        for code in ("two", "three"):
            PeerAnnotation.objects.create(pyramid=build.pyramid, peer=peer, annotator_code=code)
    with CaptureQueriesContext(connection) as five:
        build.do("set_label", 1, "The landing")
    assert len(five) == len(one)
    flagged = list(
        PeerAnnotation.objects.filter(pyramid=build.pyramid).values_list("scus_changed", flat=True)
    )
    assert flagged == [[1]] * 5


def test_flags_are_added_to_what_each_annotation_had(build, demo):
    """Each annotation keeps its own earlier flags; those sharing a list are written by one UPDATE,
    and one already flagged for the SCU is not written at all."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from annotator.models import Summary

    build.new_scu("A", "Apollo 11 landed on the Moon")
    build.new_scu("B", "Neil Armstrong stepped out first")
    peers = list(Summary.objects.filter(docset=build.pyramid.docset, kind="peer"))
    earlier = {"none": [], "same": [], "other": [2], "also": [2], "flagged": [1, 2]}
    made = {
        code: PeerAnnotation.objects.create(
            pyramid=build.pyramid, peer=peers[0], annotator_code=code, scus_changed=flags
        )
        for code, flags in earlier.items()
    }
    with CaptureQueriesContext(connection) as queries:
        build.do("set_label", 1, "Landing")
    flags = {code: PeerAnnotation.objects.get(pk=a.pk).scus_changed for code, a in made.items()}
    assert flags == {"none": [1], "same": [1], "other": [1, 2], "also": [1, 2], "flagged": [1, 2]}
    updates = [
        q["sql"] for q in queries if q["sql"].startswith('UPDATE "annotator_peerannotation"')
    ]
    assert len(updates) == 2  # [1] for two annotations, [1, 2] for two: none for "flagged"


def test_an_edit_looks_for_copies_only_in_a_pyramid_a_consensus_was_merged_from(build):
    """Copies (a consensus's provenance pointing here) exist only where a consensus was merged
    from the pyramid: otherwise an edit asks that once, not twice per snapshot (issue 32)."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    build.new_scu("A", "Apollo 11 landed on the Moon")
    summary, ranges = build.where("B", "Neil Armstrong stepped out first")
    with CaptureQueriesContext(connection) as queries:
        build.do("add_contributor", 1, summary, ranges)
    sql = [query["sql"] for query in queries]
    assert not [q for q in sql if '"source_id" IN' in q]
    assert len([q for q in sql if 'FROM "annotator_pyramidmerge"' in q]) == 1
    assert sorted(build.state()[0][2]) == ["A", "B"]  # the contributor was added


def test_undoing_a_new_scu_leaves_the_order_as_it_is(build):
    """Undoing a new SCU only removes it: the others already stand in order, so the restore
    neither reads the order again nor writes it (issue 32); undoing a removal still puts the SCU
    back in its place."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    build.new_scu("A", "Apollo 11 landed on the Moon")
    build.new_scu("B", "Neil Armstrong stepped out first")
    build.do("move_scu", 2, 0)
    build.new_scu("C", "Aldrin joined him")
    with CaptureQueriesContext(connection) as queries:
        build.do("undo")
    assert [uid for uid, _, _ in build.state()] == [2, 1]
    # The restore's own read of the positions (the snapshot's rows have them too)
    restore_reads = 'SELECT "annotator_scu"."id" AS "id", "annotator_scu"."uid" AS "uid", '
    order_reads = [q for q in queries if q["sql"].startswith(restore_reads)]
    assert order_reads == []
    assert not [q for q in queries if q["sql"].startswith('UPDATE "annotator_scu" SET "position"')]
    build.do("remove_scu", 2)
    build.do("undo")
    assert [uid for uid, _, _ in build.state()] == [2, 1]


def test_an_imported_pyramids_removed_number_is_not_given_again(build):
    """An imported pyramid's SCUs come with their numbers, not counted in last_uid: removing the
    highest and making a new SCU must not give that number again (found by a tester on NIST's
    D0601: "SCU 103" named two SCUs in the history)."""
    build.new_scu("A", "Apollo 11 landed on the Moon")
    build.new_scu("B", "Neil Armstrong stepped out first")
    # As an import leaves it: numbers up to 103, none of them counted in last_uid.
    SCU.objects.filter(pyramid=build.pyramid, uid=2).update(uid=103)
    build.pyramid.__class__.objects.filter(pk=build.pyramid.pk).update(last_uid=0)
    build.do("remove_scu", 103)
    build.new_scu("C", "Aldrin joined him")
    assert [uid for uid, _, _ in build.state()] == [1, 104]


def test_a_part_cannot_repeat_words_of_its_contributor(build):
    build.new_scu("A", "Apollo 11 landed on the Moon on July 20, 1969")
    summary, ranges = build.where("A", "Apollo 11 landed")
    with pytest.raises(RuleBroken, match="already part of this contributor of SCU 1"):
        build.do("add_part", build.contributor().id, summary, ranges)
    assert build.state()[0][2] == {"A": ["Apollo 11 landed on the Moon on July 20, 1969"]}


def test_new_scus_come_last_in_the_order_from_the_first(build):
    for phrase in [
        "Apollo 11 landed on the Moon",
        "Neil Armstrong and Buzz Aldrin",
        "Michael Collins orbited above",
    ]:
        build.new_scu("A", phrase)
    from annotator.models import SCU

    assert list(
        SCU.objects.filter(pyramid=build.pyramid).order_by("uid").values_list("position", flat=True)
    ) == [0, 1, 2]


def test_a_new_scu_goes_after_the_last_even_when_the_last_is_at_position_0(build):
    """The new position once took a last position of 0 for none (`(Max or -1) + 1`)."""
    assert editing.next_uid_and_position(build.pyramid)[1] == 0
    build.new_scu("A", "Apollo 11 landed on the Moon")
    assert editing.next_uid_and_position(build.pyramid)[1] == 1


def test_an_scu_number_is_never_given_twice(build):
    """Issue 32: after a merge, the next new SCU took the merged SCU's number, and "SCU 2" in the
    history named two SCUs. Numbers freed by a merge, a removal or an undo are not given again;
    a refused edit takes none; undo and redo bring back the numbers they had."""
    build.new_scu("A", "Neil Armstrong and Buzz Aldrin walked on the surface")
    build.new_scu("B", "followed by Buzz Aldrin")
    build.do("merge_scus", 2, 1)
    assert build.new_scu("A", "Armstrong was the first person").description.startswith("New SCU 3 ")
    build.do("remove_scu", 3)
    build.do("split_contributor", build.contributor(scu__uid=1, summary__author="B").id)
    assert [uid for uid, *_ in build.state()] == [1, 4]
    build.do("undo")  # the split: SCU 4 goes
    summary, _ = build.where("A", "Apollo")
    with pytest.raises(RuleBroken, match="holds no words"):
        build.do("new_scu", summary, [(45, 47)])
    assert build.new_scu("C", "Collins stayed in lunar orbit").description.startswith("New SCU 5 ")
    build.do("undo")
    build.do("redo")
    assert [uid for uid, *_ in build.state()] == [1, 5]
    assert build.pyramid.__class__.objects.get(pk=build.pyramid.pk).last_uid == 5


def test_undo_and_redo_keep_the_ids_of_contributors_and_their_parts(build):
    """Issue 32: undoing "remove contributor" brought the contributors back under new ids (as PSEs
    did before their fix): API clients and a consensus's provenance lost them. A contributor moved
    away and back, and the parts of a discontinuous one, keep theirs too."""
    from annotator.models import Contributor, Span

    def records():
        return sorted(
            Contributor.objects.filter(scu__pyramid=build.pyramid).values_list("id", "scu__uid")
        ), sorted(Span.objects.filter(contributor__scu__pyramid=build.pyramid).values_list("id"))

    build.new_scu("A", "Neil Armstrong and Buzz Aldrin walked on the surface")
    build.add(1, "B", "followed by Buzz Aldrin")
    build.new_scu("C", "Aldrin joined him")
    b = build.contributor(summary__author="B")
    summary, ranges = build.where("B", "NASA's Apollo 11 mission")
    build.do("add_part", b.id, summary, ranges)
    before = records()
    for operation, args in [
        ("remove_contributor", (b.id,)),
        ("move_contributor", (b.id, 2)),
        ("remove_scu", (1,)),
        ("merge_scus", (2, 1)),
    ]:
        build.do(operation, *args)
        build.do("undo")
        assert records() == before, operation
        build.do("redo")
        build.do("undo")
        assert records() == before, operation


def test_the_merge_pages_show_a_contributors_parts_in_text_order(build):
    """Issue 32: a two-part contributor showed on the merge pages in the order its parts were
    added ("open casinos…They can determine"), not as the model reads."""
    from annotator.adjudication.merging import scus_with_contributors

    build.new_scu("C", "in July 1969")
    summary, ranges = build.where("C", "Apollo 11 was the first crewed mission")
    build.do("add_part", build.contributor().id, summary, ranges)
    (scu,) = scus_with_contributors([build.pyramid.pk])
    assert scu.texts == [("C", "Apollo 11 was the first crewed mission…in July 1969")]


def test_the_merge_pages_show_a_contributor_without_parts_too(build):
    """A contributor read with its parts in one query (issue 32) is shown even with none (an
    imported file's oddity), between its neighbours, in their order."""
    from annotator.adjudication.merging import scus_with_contributors
    from annotator.models import Contributor

    build.new_scu("A", "Apollo 11 landed on the Moon")
    scu = build.pyramid.scus.get()
    Contributor.objects.create(scu=scu, summary=build.models["B"], position=1)
    build.do("add_contributor", 1, *build.where("C", "Apollo 11 was the first crewed mission"))
    (shown,) = scus_with_contributors([build.pyramid.pk])
    assert shown.texts == [
        ("A", "Apollo 11 landed on the Moon"),
        ("B", ""),
        ("C", "Apollo 11 was the first crewed mission"),
    ]
    assert shown.weight == 3


def test_the_merge_pages_read_each_model_text_once(build):
    """Issue 32: the SCU rows of the merge and comparison pages read each model's text with every
    contributor (a decision's answer carried each text dozens of times): once each now."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from annotator.adjudication.merging import scus_with_contributors

    build.new_scu("A", "Apollo 11 landed on the Moon")
    build.do("add_contributor", 1, *build.where("B", "NASA's Apollo 11 mission"))
    build.new_scu("A", "July 20, 1969")
    with CaptureQueriesContext(connection) as queries:
        first, second = scus_with_contributors([build.pyramid.pk])
    texts = [q["sql"] for q in queries if '"annotator_summary"."text"' in q["sql"]]
    assert len(texts) == 1
    # A row per summary: read from the summaries, not with each contributor.
    assert ' FROM "annotator_summary" WHERE' in texts[0]
    assert len(queries) == 3  # the contributors with their parts, the texts, the SCUs
    assert first.texts == [("A", "Apollo 11 landed on the Moon"), ("B", "NASA's Apollo 11 mission")]
    assert second.texts == [("A", "July 20, 1969")]
    assert (first.weight, second.weight) == (2, 1)


def test_an_undo_writes_no_positions_where_the_order_holds(build):
    """Issue 32: an undo after a removal (a gap in the positions) renumbered every SCU, some 40%
    of its CPU on a 94-SCU pyramid. The order already right, no position is written."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    build.new_scu("A", "Apollo 11 landed on the Moon")
    build.new_scu("B", "NASA's Apollo 11 mission")
    build.new_scu("C", "Collins stayed in lunar orbit")
    build.do("remove_scu", 2)  # positions 0 and 2 left
    build.do("set_label", 3, "Collins orbited")
    with CaptureQueriesContext(connection) as queries:
        build.do("undo")
    assert not [q["sql"] for q in queries if '"position" = CASE' in q["sql"]]
    assert [uid for uid, *_ in build.state()] == [1, 3]
    build.do("undo")  # the removal undone: SCU 2 back in its place, between the others
    positions = list(SCU.objects.filter(pyramid=build.pyramid).values_list("position", flat=True))
    assert (
        len(set(positions)) == 3
    )  # no two SCUs share a place (their order would be the database's)
    assert [uid for uid, *_ in build.state()] == [1, 2, 3]
