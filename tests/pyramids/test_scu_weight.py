"""SCUQuerySet.with_weight: the one definition of an SCU's weight, under either convention.

SCU 1 of the demo pyramid has four contributors, one in each model. A fifth contributor in a model
that already contributes makes the conventions differ: five contributors, four models.
"""

import pytest

from annotator.models import SCU, Contributor, PeerAnnotation, WeightConvention
from annotator.peer_annotation.suggestions import suggest
from annotator.peer_annotation.workspace import annotation_context
from annotator.pyramids.workspace import workspace_context
from scoring.scores.records import scu_weights

pytestmark = pytest.mark.django_db


@pytest.fixture
def twice(demo):
    """SCU 1 with a second contributor in one of its models."""
    scu = SCU.objects.get(pyramid=demo["pyramid"], uid=1)
    first = scu.contributors.order_by("position", "id").first()
    Contributor.objects.create(scu=scu, summary_id=first.summary_id, position=99)
    return scu


def weighed(scu, convention=None) -> int:
    return SCU.objects.filter(pk=scu.pk).with_weight(convention).get().weight


def set_convention(demo, convention) -> None:
    demo["collection"].weight_convention = convention
    demo["collection"].save()


def test_the_conventions_agree_when_each_model_contributes_once(demo):
    scu = SCU.objects.get(pyramid=demo["pyramid"], uid=1)
    assert weighed(scu, WeightConvention.CONTRIBUTORS) == weighed(scu, WeightConvention.MODELS) == 4


def test_contributors_count_every_contributor_models_each_model_once(twice):
    assert weighed(twice, WeightConvention.CONTRIBUTORS) == 5
    assert weighed(twice, WeightConvention.MODELS) == 4


def test_without_a_convention_each_scu_follows_its_collection(demo, twice):
    assert weighed(twice) == 5  # the demo collection counts contributors
    set_convention(demo, WeightConvention.MODELS)
    assert weighed(twice) == 4


def test_an_scu_without_contributors_weighs_nothing_under_either_convention(demo):
    scu = SCU.objects.create(pyramid=demo["pyramid"], uid=999, label="Nobody said this")
    for convention in [WeightConvention.CONTRIBUTORS, WeightConvention.MODELS, None]:
        assert weighed(scu, convention) == 0


def test_an_unknown_convention_is_refused():
    with pytest.raises(ValueError, match="no weight convention"):
        SCU.objects.with_weight("votes")


def test_weights_of_a_whole_pyramid_in_one_query(demo, twice, django_assert_num_queries):
    with django_assert_num_queries(1):
        weights = dict(
            SCU.objects.filter(pyramid=demo["pyramid"]).with_weight().values_list("uid", "weight")
        )
    assert weights[1] == 5
    assert len(weights) == demo["pyramid"].scus.count()


def test_scores_follow_the_collection_convention(demo, twice):
    pyramid = demo["pyramid"]
    for convention, expected in [(WeightConvention.CONTRIBUTORS, 5), (WeightConvention.MODELS, 4)]:
        assert scu_weights([pyramid.pk], convention)[pyramid.pk][twice.pk] == expected


def test_the_builder_counts_contributors_whatever_the_convention(demo, twice):
    set_convention(demo, WeightConvention.MODELS)
    pyramid = demo["pyramid"]
    pyramid.refresh_from_db()
    scus = workspace_context(pyramid, demo["admin"], with_problems=False)["scus"]
    assert next(s for s in scus if s.uid == 1).weight == 5


@pytest.mark.parametrize(
    ("convention", "expected"),
    [(WeightConvention.CONTRIBUTORS, 5), (WeightConvention.MODELS, 4)],
)
def test_the_annotation_page_and_its_suggestions_follow_the_convention(
    demo, twice, convention, expected
):
    """The suggestions counted contributors while the page's tiers beside them followed the
    collection's convention: under "models", an SCU could show two weights on one page."""
    set_convention(demo, convention)
    annotation = PeerAnnotation.objects.select_related("pyramid__docset__collection", "peer").get(
        peer__author="1", annotator_code="demo"
    )
    context = annotation_context(annotation, demo["admin"], with_models=False)
    tiered = {scu.uid: scu.weight for tier in context["tiers"] for scu in tier["scus"]}
    assert tiered[1] == expected
    text = annotation.peer.text
    start = text.index("Apollo 11")
    suggested = {s.uid: s.weight for s in suggest(annotation, start, start + 6)}
    assert suggested[1] == expected


@pytest.mark.parametrize(
    ("convention", "expected"),
    [(WeightConvention.CONTRIBUTORS, 5), (WeightConvention.MODELS, 4)],
)
def test_the_api_gives_the_weight_under_the_collection_convention(
    client, demo, twice, convention, expected
):
    set_convention(demo, convention)
    client.force_login(demo["organizer"])
    scus = client.get(f"/api/scus/?pyramid={demo['pyramid'].pk}").json()["results"]
    assert next(s for s in scus if s["uid"] == 1)["weight"] == expected
    one = client.get(f"/api/scus/{twice.pk}/").json()
    assert one["weight"] == expected
