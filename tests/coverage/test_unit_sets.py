"""annotator.coverage.unit_sets: making a docset's unit sets (SEE, presence from a pyramid,
written by hand), each whole or not at all."""

import pytest

from annotator.coverage import splitting, unit_sets
from annotator.coverage.unit_sets import UnitSetError
from annotator.models import Pyramid, Summary, Unit, UnitSet, WeightConvention

pytestmark = pytest.mark.django_db


def models(demo):
    return {s.author: s for s in demo["pyramid"].docset.summaries.filter(kind=Summary.Kind.MODEL)}


def stored(unit_set):
    return list(
        Unit.objects.filter(unit_set=unit_set)
        .order_by("position")
        .values_list("position", "text", "model__author", "start", "end", "scu__uid", "weight")
    )


def test_see_makes_one_unit_set_per_model_its_units_the_model_s_clauses(demo):
    docset = demo["pyramid"].docset
    by_author = models(demo)
    made = unit_sets.see_unit_sets(docset, [by_author["A"], by_author["C"]], "percent")
    assert [(u.name, u.method, u.scale, u.source) for u in made] == [
        ("SEE model A", "see", "percent", "models"),
        ("SEE model C", "see", "percent", "models"),
    ]
    for unit_set, author in zip(made, "AC"):
        text = by_author[author].text
        spans = splitting.units(text)
        assert stored(unit_set) == [
            (n, text[start:end], author, start, end, None, 1)
            for n, (start, end) in enumerate(spans, start=1)
        ]
    assert [text for _, text, *_ in stored(made[0])] == [
        "Apollo 11 landed on the Moon on July 20, 1969",
        "Neil Armstrong and Buzz Aldrin walked on the surface while Michael Collins orbited "
        "above in the command module",
        "Armstrong was the first person to step onto the Moon",
        "The crew collected rock samples and returned safely to Earth on July 24",
    ]


def test_see_is_all_or_nothing_when_a_name_is_taken(demo):
    docset = demo["pyramid"].docset
    by_author = models(demo)
    unit_sets.see_unit_sets(docset, [by_author["B"]], "five_point")
    with pytest.raises(UnitSetError, match="already has a unit set named “SEE model B”"):
        unit_sets.see_unit_sets(docset, list(by_author.values()), "five_point")
    assert list(UnitSet.objects.values_list("name", flat=True)) == ["SEE model B"]


def test_see_refuses_a_presence_scale_a_peer_and_no_model(demo):
    docset = demo["pyramid"].docset
    with pytest.raises(UnitSetError, match="five-point or the percent"):
        unit_sets.see_unit_sets(docset, [models(demo)["A"]], "present_absent")
    peer = demo["annotations"]["1"].peer
    with pytest.raises(UnitSetError, match="not a model summary"):
        unit_sets.see_unit_sets(docset, [peer], "five_point")
    with pytest.raises(UnitSetError, match="at least one model"):
        unit_sets.see_unit_sets(docset, [], "five_point")
    assert not UnitSet.objects.exists()


def weights_counted_here(pyramid, by_models: bool) -> dict[int, int]:
    """Each SCU's weight counted in Python: its contributors, or the distinct models of them."""
    weights = {}
    for scu in pyramid.scus.prefetch_related("contributors"):
        contributors = list(scu.contributors.all())
        weights[scu.uid] = (
            len({c.summary_id for c in contributors}) if by_models else len(contributors)
        )
    return weights


@pytest.mark.parametrize("convention", [WeightConvention.CONTRIBUTORS, WeightConvention.MODELS])
def test_presence_from_a_pyramid_a_unit_per_scu_with_its_label_and_weight(demo, convention):
    pyramid = demo["pyramid"]
    assert pyramid.status == Pyramid.Status.SUBMITTED
    # A second contributor of model A to the first SCU (as DUCView allows): the conventions differ.
    first = pyramid.scus.order_by("position", "id").first()
    first.contributors.create(summary=first.contributors.get(summary__author="A").summary)
    demo["collection"].weight_convention = convention
    demo["collection"].save()
    unit_set = unit_sets.presence_from_pyramid(pyramid.docset, pyramid, "  Lite Pyramid ")
    assert (unit_set.name, unit_set.method, unit_set.scale, unit_set.source) == (
        "Lite Pyramid",
        "presence",
        "present_absent",
        "pyramid",
    )
    assert unit_set.pyramid == pyramid
    weights = weights_counted_here(pyramid, convention == WeightConvention.MODELS)
    scus = list(pyramid.scus.order_by("position", "id"))
    assert stored(unit_set) == [
        (n, scu.label, None, None, None, scu.uid, weights[scu.uid])
        for n, scu in enumerate(scus, start=1)
    ]
    assert len(scus) > 3
    assert weights_counted_here(pyramid, True) != weights_counted_here(pyramid, False)


def test_presence_from_a_pyramid_needs_it_submitted_and_of_the_docset(demo):
    pyramid = demo["pyramid"]
    Pyramid.objects.filter(pk=pyramid.pk).update(status=Pyramid.Status.IN_PROGRESS)
    pyramid.refresh_from_db()
    with pytest.raises(UnitSetError, match="is not submitted"):
        unit_sets.presence_from_pyramid(pyramid.docset, pyramid, "Lite")
    other = pyramid.docset.collection.docsets.create(name="OTHER")
    with pytest.raises(UnitSetError, match="not of docset OTHER"):
        unit_sets.presence_from_pyramid(other, pyramid, "Lite")
    assert not UnitSet.objects.exists()


def test_presence_by_hand_one_unit_a_line(demo):
    docset = demo["pyramid"].docset
    model = models(demo)["D"]
    lines = unit_sets.hand_lines("  Apollo 11 landed in 1969.\r\n\n  Collins stayed in orbit. \n")
    unit_set = unit_sets.presence_by_hand(docset, "ACUs", lines, model)
    assert (unit_set.method, unit_set.scale, unit_set.source, unit_set.source_name) == (
        "presence",
        "present_absent",
        "hand",
        "written from model D",
    )
    assert stored(unit_set) == [
        (1, "Apollo 11 landed in 1969.", "D", None, None, None, 1),
        (2, "Collins stayed in orbit.", "D", None, None, None, 1),
    ]


def test_presence_by_hand_refuses_no_line_no_name_and_a_name_taken(demo):
    docset = demo["pyramid"].docset
    with pytest.raises(UnitSetError, match="at least one unit"):
        unit_sets.presence_by_hand(docset, "ACUs", ["  ", ""])
    with pytest.raises(UnitSetError, match="Name the unit set"):
        unit_sets.presence_by_hand(docset, " ", ["A unit."])
    unit_sets.presence_by_hand(docset, "ACUs", ["A unit."])
    with pytest.raises(UnitSetError, match="already has a unit set named “ACUs”"):
        unit_sets.presence_by_hand(docset, "ACUs", ["Another."])
    assert UnitSet.objects.count() == 1
    assert Unit.objects.count() == 1


def test_presence_by_hand_refuses_a_unit_written_twice_naming_it(demo):
    """The same line twice (spaces and case aside) would be judged twice and count twice in the
    score: refused, each repeated line named once, nothing stored."""
    docset = demo["pyramid"].docset
    lines = [
        "Apollo 11 landed.",
        "Collins orbited.",
        "apollo 11  landed.",
        "B.",
        "Collins orbited.",
    ]
    with pytest.raises(UnitSetError) as refused:
        unit_sets.presence_by_hand(docset, "ACUs", lines)
    assert refused.value.message == (
        "Write each unit once: these lines are there more than once: “Apollo 11 landed.”, "
        "“Collins orbited.”."
    )
    assert not UnitSet.objects.exists()
    assert not Unit.objects.exists()


def test_units_are_stored_in_one_bulk_insert(demo, django_assert_max_num_queries):
    docset = demo["pyramid"].docset
    lines = [f"Unit number {n}." for n in range(200)]
    with django_assert_max_num_queries(8):
        unit_sets.presence_by_hand(docset, "Many", lines)
    assert Unit.objects.filter(unit_set__name="Many").count() == 200
