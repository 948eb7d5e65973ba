"""Each system's means kept per collection and choice of what counts (scoring.scores.system_means):
read
in three queries while the collection is as it was, computed again after anything that changes
them."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from annotator.models import PSE, SCU, AverageRounding, PeerAnnotation
from scoring.models import StoredSystemMeans
from scoring.scores.records import collection_annotations, counted_annotations, score_annotations
from scoring.scores.system_means import keep_system_means, kept_system_means
from scoring.scores.tables import system_means
from tests.helpers import import_duc2006, means_equal

pytestmark = pytest.mark.django_db


@pytest.fixture
def collection(shared_data):
    """D0601 and D0640 of NIST's DUC 2006: 22 systems, peers annotated several times."""
    return import_duc2006(shared_data, "D0601", "D0640")


def fresh(collection, adjudicated=False, include_in_progress=False):
    """The system means scored afresh from the records (scoring.scores.tables.system_means)."""
    counted = counted_annotations(
        collection_annotations(collection), adjudicated, include_in_progress=include_in_progress
    )
    return system_means(score_annotations(counted))


def kept_again(collection, **choice):
    """The kept means, read twice: the second read must come from the kept row alone."""
    first = kept_system_means(collection, **choice)
    with CaptureQueriesContext(connection) as queries:
        second = kept_system_means(collection, **choice)
    assert len(queries) == 3, [q["sql"] for q in queries]  # the fingerprint (2), the kept row
    assert second == first
    return second


def test_the_means_kept_are_those_of_fresh_scores_and_read_in_three_queries(collection):
    means, by_status = kept_again(collection)
    means_equal(means, fresh(collection))
    assert len(means) == 22
    assert by_status["submitted"] == collection_annotations(collection).count()
    assert StoredSystemMeans.objects.get().means[0]["peer"] == means[0].peer


def test_the_task_an_import_queues_keeps_the_means_the_page_shows_first(collection):
    """The task an import queues (scoring.apps; tests/transfer/test_jobs.py) keeps the submitted,
    not adjudicated means; a collection deleted meanwhile is nothing."""
    assert keep_system_means.call(collection.pk) == 22
    kept = StoredSystemMeans.objects.get()
    assert (kept.adjudicated, kept.include_in_progress) == (False, False)
    with CaptureQueriesContext(connection) as queries:
        means, _ = kept_system_means(collection)
    assert len(queries) == 3
    means_equal(means, fresh(collection))
    assert keep_system_means.call(10**9) == 0


def test_each_choice_of_what_counts_is_kept_apart(collection):
    annotation = PeerAnnotation.objects.order_by("pk").first()
    PeerAnnotation.objects.filter(pk=annotation.pk).update(status=PeerAnnotation.Status.IN_PROGRESS)
    submitted = kept_again(collection)[0]
    with_work_in_progress = kept_again(collection, include_in_progress=True)[0]
    means_equal(with_work_in_progress, fresh(collection, include_in_progress=True))
    means_equal(submitted, fresh(collection))
    assert sum(m.in_progress for m in with_work_in_progress) == 1
    assert StoredSystemMeans.objects.count() == 2


def _annotation_edited(collection):
    """An annotation loses its matches, as an edit saves it (its version and time raised)."""
    annotation = (
        collection_annotations(collection).filter(pses__scu__isnull=False).distinct().first()
    )
    PSE.objects.filter(annotation=annotation, scu__isnull=False).delete()
    annotation.version += 1
    annotation.save()


def _submitted_no_more(collection):
    """An annotation put back in progress without its time raised (a bulk update)."""
    collection_annotations(collection).filter(
        pk__in=collection_annotations(collection).order_by("pk").values("pk")[:1]
    ).update(status=PeerAnnotation.Status.IN_PROGRESS)


def _pyramid_edited(collection):
    """An SCU of D0601's pyramid weighs one less, as the builder saves it."""
    scu = SCU.objects.filter(pyramid__docset__name="D0601").order_by("pk").first()
    scu.contributors.order_by("pk").first().delete()
    scu.pyramid.version += 1
    scu.pyramid.save()


def _annotation_deleted(collection):
    collection_annotations(collection).order_by("-pk").first().delete()


def _convention_changed(collection):
    """X_a not rounded (Passonneau 2009 eq. 2, as PyrEval v2): every modified score changes."""
    collection.average_rounding = AverageRounding.FRACTIONAL
    collection.save()


@pytest.mark.parametrize(
    "change",
    [
        _annotation_edited,
        _submitted_no_more,
        _pyramid_edited,
        _annotation_deleted,
        _convention_changed,
    ],
)
def test_what_changes_the_collection_computes_the_means_again(collection, change):
    before = kept_again(collection)[0]
    change(collection)
    collection.refresh_from_db()
    after = kept_again(collection)[0]
    expected = fresh(collection)
    means_equal(after, expected)
    assert after != before
    assert StoredSystemMeans.objects.count() == 1
