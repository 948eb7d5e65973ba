"""scoring.scores.score_table.current_stored_rows: each annotation's stored mean scores, kept
current, as
the analyses read them: the fresh scores, in the order of every score table, whatever state they
were left in."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from annotator.models import PSE
from scoring.models import StoredScore
from scoring.scores.records import collection_annotations, counted_annotations, score_annotations
from scoring.scores.score_table import current_stored_rows
from scoring.scores.tables import MEAN_SCORES
from tests.helpers import import_duc2006, spoil_stored_scores

pytestmark = pytest.mark.django_db


@pytest.fixture
def duc2006(shared_data):
    collection = import_duc2006(shared_data, "D0601", "D0631")
    return counted_annotations(collection_annotations(collection))


def read(rows) -> list[tuple]:
    """What the analyses read of a row (a stored one, or a fresh
    scoring.scores.records.PeerScoreRow)."""
    return [
        (
            row.annotation_id,
            row.docset,
            row.peer,
            row.annotator,
            row.status,
            *(getattr(row.scores, name) for name in MEAN_SCORES),
        )
        for row in rows
    ]


def fresh(annotations) -> list[tuple]:
    return read(score_annotations(annotations))


@pytest.mark.shared_data
def test_never_stored_then_current_then_stale_always_the_fresh_scores_in_order(duc2006):
    assert not StoredScore.objects.exists()  # the import's refresh is a task, not run here
    expected = fresh(duc2006)
    assert len(expected) > 60
    assert len({(docset, peer) for _, docset, peer, *_ in expected}) < len(expected)  # D0631: 2
    assert (
        read(current_stored_rows(duc2006, in_table_order=True)) == expected
    )  # every one scored and stored
    assert StoredScore.objects.count() == len(expected)
    with CaptureQueriesContext(connection) as queries:
        rows = current_stored_rows(duc2006, in_table_order=True)
    assert len(queries) == 1  # the rows, and whether each is current (all)
    assert read(rows) == expected
    # Stale: stored under an older edit, with other numbers; missing: deleted.
    spoil_stored_scores()
    assert read(current_stored_rows(duc2006, in_table_order=True)) == expected


@pytest.mark.shared_data
def test_an_edit_since_is_scored_again(duc2006):
    current_stored_rows(duc2006, in_table_order=True)
    annotation = duc2006.filter(pses__scu__isnull=False).distinct().order_by("pk").first()
    PSE.objects.filter(annotation=annotation, scu__isnull=False).delete()
    annotation.save()  # as every edit does: its updated_at is raised
    rows = current_stored_rows(duc2006, in_table_order=True)
    assert read(rows) == fresh(duc2006)
    assert next(row for row in rows if row.annotation_id == annotation.pk).modified == 0
