"""annotator.coverage.unit_editing: relabel, merge, split, delete, add and move units, each on the
unit set's current version, and none once judging has started."""

import pytest

from annotator.coverage import unit_editing
from annotator.editing.errors import NotAllowed, RuleBroken, StaleVersion
from annotator.models import Unit, UnitSet
from tests.coverage.unit_set_helpers import judged, see_of_model_a, texts_of, units_of, version_of

pytestmark = pytest.mark.django_db

A1 = "Apollo 11 landed on the Moon on July 20, 1969"
A2 = (
    "Neil Armstrong and Buzz Aldrin walked on the surface while Michael Collins orbited above "
    "in the command module"
)
A3 = "Armstrong was the first person to step onto the Moon"
A4 = "The crew collected rock samples and returned safely to Earth on July 24"


@pytest.fixture
def see(demo):
    return see_of_model_a(demo)


def unit_ids(unit_set) -> list[int]:
    return list(
        Unit.objects.filter(unit_set=unit_set).order_by("position").values_list("pk", flat=True)
    )


def do(demo, unit_set, edit, *args, user="admin"):
    return getattr(unit_editing, edit)(unit_set.pk, demo[user], version_of(unit_set), *args)


def test_relabel_changes_the_text_only_and_raises_the_version(demo, see):
    first = unit_ids(see)[0]
    before = units_of(see)
    edited = do(demo, see, "relabel", first, "  Apollo 11 landed\n in July 1969 ")
    assert edited.message == "Saved the text of unit 1."
    assert units_of(see)[0] == (1, "Apollo 11 landed in July 1969", before[0][2], before[0][3])
    assert units_of(see)[1:] == before[1:]
    assert version_of(see) == 2


def test_merging_two_units_of_the_model_spans_both_with_the_model_s_words(demo, see):
    model_text = see.units.first().model.text
    ids = unit_ids(see)
    edited = do(demo, see, "merge", ids[1])
    assert edited.unit_id == ids[1]
    start, end = model_text.index(A2), model_text.index(A3) + len(A3)
    assert units_of(see) == [
        (1, A1, 0, len(A1)),
        (2, model_text[start:end], start, end),  # "... module. Armstrong was ..."
        (3, A4, model_text.index(A4), model_text.index(A4) + len(A4)),
    ]
    assert model_text[start:end].startswith(A2 + ". ")
    assert unit_ids(see) == [ids[0], ids[1], ids[3]]


def test_merging_an_edited_unit_joins_the_texts(demo, see):
    ids = unit_ids(see)
    do(demo, see, "relabel", ids[0], "Apollo 11 landed")
    do(demo, see, "merge", ids[0])
    model_text = see.units.first().model.text
    assert units_of(see)[0] == (1, f"Apollo 11 landed {A2}", 0, model_text.index(A2) + len(A2))


def test_merging_the_last_unit_is_refused(demo, see):
    with pytest.raises(RuleBroken, match="no next unit"):
        do(demo, see, "merge", unit_ids(see)[-1])
    assert version_of(see) == 1


def test_splitting_a_unit_of_the_model_cuts_its_span_too(demo, see):
    ids = unit_ids(see)
    model_text = see.units.first().model.text
    at = A2.index("while")
    edited = do(demo, see, "split", ids[1], at + 2)  # inside "while": before it
    assert edited.message == "Split unit 2 into units 2 and 3."
    base = model_text.index(A2)
    head = "Neil Armstrong and Buzz Aldrin walked on the surface"
    assert units_of(see)[1:3] == [
        (2, head, base, base + len(head)),
        (3, A2[at:], base + at, base + len(A2)),
    ]
    assert [text for _, text, _, _ in units_of(see)] == [A1, head, A2[at:], A3, A4]
    assert edited.unit_id == unit_ids(see)[2]


def test_splitting_an_edited_unit_keeps_the_passage_on_both_parts(demo, see):
    first = unit_ids(see)[0]
    do(demo, see, "relabel", first, "Apollo 11 landed, in July 1969")
    do(demo, see, "split", first, len("Apollo 11 landed, "))
    assert units_of(see)[:2] == [
        (1, "Apollo 11 landed,", 0, len(A1)),
        (2, "in July 1969", 0, len(A1)),
    ]


def test_splitting_before_the_first_word_is_refused(demo, see):
    with pytest.raises(RuleBroken, match="other than its first"):
        do(demo, see, "split", unit_ids(see)[0], 0)


def test_delete_add_and_move_keep_positions_one_to_n(demo, see):
    ids = unit_ids(see)
    do(demo, see, "delete", ids[0])
    assert texts_of(see) == [A2, A3, A4]
    do(demo, see, "add", "The mission met Kennedy's goal", 1)
    do(demo, see, "add", "Hundreds of millions watched", None)
    assert texts_of(see) == [
        "The mission met Kennedy's goal",
        A2,
        A3,
        A4,
        "Hundreds of millions watched",
    ]
    added = Unit.objects.get(unit_set=see, text="Hundreds of millions watched")
    assert (added.model.author, added.start, added.end) == ("A", None, None)  # written from A
    do(demo, see, "move", ids[3], 1)
    do(demo, see, "move", added.pk, 3)
    assert units_of(see) == [
        (n, text, *rest) for n, (_, text, *rest) in enumerate(units_of(see), start=1)
    ]
    assert texts_of(see) == [
        A4,
        "The mission met Kennedy's goal",
        "Hundreds of millions watched",
        A2,
        A3,
    ]
    assert version_of(see) == 6


def test_the_last_unit_is_not_deleted_and_a_bad_place_is_refused(demo):
    from annotator.coverage import unit_sets

    lone = unit_sets.presence_by_hand(demo["pyramid"].docset, "One", ["Only unit."])
    (only,) = unit_ids(lone)
    with pytest.raises(RuleBroken, match="at least one unit"):
        do(demo, lone, "delete", only)
    with pytest.raises(RuleBroken, match="numbered 1 to 1"):
        do(demo, lone, "move", only, 2)
    with pytest.raises(RuleBroken, match="needs some text"):
        do(demo, lone, "relabel", only, " \n ")
    assert texts_of(lone) == ["Only unit."]
    assert version_of(lone) == 1


def test_merging_units_of_two_scus_adds_their_weights_and_drops_the_scu(demo):
    from annotator.coverage import unit_sets

    pyramid = demo["pyramid"]
    lite = unit_sets.presence_from_pyramid(pyramid.docset, pyramid, "Lite")
    first, second = Unit.objects.filter(unit_set=lite).order_by("position")[:2]
    total = sum(Unit.objects.filter(unit_set=lite).values_list("weight", flat=True))
    do(demo, lite, "merge", first.pk)
    merged = Unit.objects.get(pk=first.pk)
    assert (merged.text, merged.scu, merged.weight) == (
        f"{first.text} {second.text}",
        None,
        first.weight + second.weight,
    )
    assert sum(Unit.objects.filter(unit_set=lite).values_list("weight", flat=True)) == total
    do(demo, lite, "split", merged.pk, len(first.text) + 1)
    assert texts_of(lite)[:2] == [first.text, second.text]


def test_a_stale_version_is_refused_with_the_current_one(demo, see):
    first = unit_ids(see)[0]
    unit_editing.relabel(see.pk, demo["admin"], 1, first, "One")
    with pytest.raises(StaleVersion) as refused:
        unit_editing.relabel(see.pk, demo["admin"], 1, first, "Two")
    assert refused.value.current_version == 2
    assert "this unit set was changed elsewhere" in refused.value.message
    assert texts_of(see)[0] == "One"


def test_no_edit_once_a_judgment_exists(demo, see):
    judged(see, demo)
    for edit, args in [
        ("relabel", (unit_ids(see)[0], "New")),
        ("merge", (unit_ids(see)[0],)),
        ("split", (unit_ids(see)[0], 10)),
        ("delete", (unit_ids(see)[1],)),
        ("add", ("New", None)),
        ("move", (unit_ids(see)[1], 1)),
    ]:
        with pytest.raises(NotAllowed, match="Judging has started"):
            do(demo, see, edit, *args)
    assert texts_of(see) == [A1, A2, A3, A4]
    assert version_of(see) == 1


@pytest.mark.parametrize("who", ["organizer", "annotator"])
def test_only_administrators_edit(demo, see, who):
    with pytest.raises(NotAllowed, match="Only an administrator"):
        do(demo, see, "relabel", unit_ids(see)[0], "New", user=who)
    assert texts_of(see)[0] == A1


def test_a_collection_administrator_by_membership_edits(demo, see, django_user_model):
    from annotator.models import Membership, Role

    member = django_user_model.objects.create_user("collection-admin", password="x-pass-1")
    Membership.objects.create(collection=demo["collection"], user=member, role=Role.ADMINISTRATOR)
    unit_editing.relabel(see.pk, member, 1, unit_ids(see)[0], "By a member")
    assert texts_of(see)[0] == "By a member"
    assert UnitSet.objects.get(pk=see.pk).version == 2
