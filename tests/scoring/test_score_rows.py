"""scoring.scores.records' scorer (issue 19): the annotations read as plain values, and what the
annotations of one pyramid share computed once (PyramidScorer), to the last bit the numbers of
scoring.scores.pyramid.score_peer, and the same rows whether read as values or as model
instances."""

import random
from dataclasses import asdict

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from annotator.models import PSE, SCU, Collection, PeerAnnotation, WeightConvention
from scoring.scores.pyramid import ROUNDINGS, score_peer
from scoring.scores.records import (
    PyramidScorer,
    collection_annotations,
    counted_annotations,
    in_score_order,
    score_annotations,
    score_collection,
    score_loaded_annotations,
)
from tests.helpers import import_duc2006

CRYPTO = dict(enumerate([5, 4, 4, 3, 3, 3] + [2] * 7 + [1] * 13))  # PyrEval v2's: X_a = 9.8
PYRAMIDS = [
    {},  # no SCU at all
    {1: 4, 2: 4, 3: 3, 4: 2, 5: 1},
    {1: 0, 2: 3, 3: 1, 4: 1},  # an SCU without contributors weighs 0
    CRYPTO,
]


def exact(scores) -> str:
    """Every number as repr writes it: equal strings are equal to the last bit (and in type)."""
    return repr(sorted((name, type(v).__name__, v) for name, v in asdict(scores).items()))


def pses_of(generator: random.Random, weights: dict) -> list:
    """A peer's PSEs: SCUs of the pyramid (repeated at times) and zero-weight ones (None)."""
    choices = [*weights, None]
    return [generator.choice(choices) for _ in range(generator.randrange(0, 2 * len(weights) + 3))]


def test_the_scorer_gives_score_peers_numbers_to_the_last_bit():
    generator = random.Random(19)
    compared = 0
    for weights in PYRAMIDS:
        for model_count in (1, 3, 4, 5, 7):
            for rounding in ROUNDINGS:
                scorer = PyramidScorer(weights, model_count, rounding)
                fixed = [[], [None], [None, None], list(weights), [*weights, *weights, None]]
                drawn = [pses_of(generator, weights) for _ in range(20)]
                for pses in fixed + drawn:
                    expected = score_peer(pses, weights, model_count, rounding)
                    assert exact(scorer.score(pses)) == exact(expected), (weights, pses, rounding)
                    compared += 1
    assert compared == len(PYRAMIDS) * 5 * len(ROUNDINGS) * 25


def test_the_scorer_refuses_what_score_peer_refuses():
    with pytest.raises(ValueError, match=r"PSEs name SCUs the pyramid does not have: \[9\]"):
        PyramidScorer({1: 2}, 2, "half_up").score([1, 9, 9])
    with pytest.raises(ValueError, match="at least one model summary"):
        score_peer([1], {1: 2}, 0)
    with pytest.raises(ValueError, match="at least one model summary"):
        PyramidScorer({1: 2}, 0, "half_up")


@pytest.fixture
def duc2006(shared_data):
    return import_duc2006(shared_data, "D0601", "D0640")


def scored_one_by_one(annotations) -> dict[int, str]:
    """Each annotation scored by score_peer from its own records, query by query."""
    found = {}
    for annotation in annotations.select_related("pyramid__docset__collection"):
        collection = annotation.pyramid.docset.collection
        weights = dict(
            SCU.objects.filter(pyramid=annotation.pyramid)
            .with_weight(collection.weight_convention)
            .values_list("id", "weight")
        )
        pses = list(PSE.objects.filter(annotation=annotation).values_list("scu_id", flat=True))
        models = annotation.pyramid.model_links.count()
        found[annotation.pk] = exact(score_peer(pses, weights, models, collection.average_rounding))
    return found


@pytest.mark.django_db
@pytest.mark.shared_data
@pytest.mark.parametrize("convention", [WeightConvention.CONTRIBUTORS, WeightConvention.MODELS])
@pytest.mark.parametrize("rounding", ROUNDINGS)
def test_rows_read_as_values_are_the_rows_of_instances_and_score_peers(
    duc2006, convention, rounding
):
    Collection.objects.filter(pk=duc2006.pk).update(
        weight_convention=convention, average_rounding=rounding
    )
    annotations = counted_annotations(collection_annotations(duc2006))
    with CaptureQueriesContext(connection) as queries:
        rows = score_annotations(annotations)
    assert len(queries) == 4  # the rows, SCU weights, model counts, PSEs: whatever their number
    assert len(rows) == annotations.count() > 20
    instances = score_loaded_annotations(list(in_score_order(annotations)))
    assert [row.as_dict() for row in rows] == [row.as_dict() for row in instances]
    assert [exact(row.scores) for row in rows] == [exact(row.scores) for row in instances]
    expected = scored_one_by_one(annotations)
    assert {row.annotation_id: exact(row.scores) for row in rows} == expected
    assert {row.weight_convention for row in rows} == {convention}
    assert rows == score_collection(duc2006)


@pytest.mark.django_db
def test_a_rows_annotator_is_its_code_else_its_users_name_else_nothing(demo):
    annotations = PeerAnnotation.objects.filter(pyramid__docset__collection=demo["collection"])
    first, second, *_ = annotations.order_by("pk")
    PeerAnnotation.objects.filter(pk=first.pk).update(annotator_code="", annotator=demo["admin"])
    PeerAnnotation.objects.filter(pk=second.pk).update(annotator_code="", annotator=None)
    names = {row.annotation_id: row.annotator for row in score_annotations(annotations)}
    expected = {a.pk: a.annotator_name for a in in_score_order(annotations)}
    assert names == expected
    assert (names[first.pk], names[second.pk]) == ("admin", "")
