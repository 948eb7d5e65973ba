"""The score table cut into pages in the database (scoring.scores.score_table): the same order as
scoring.scores.tables.sorted_rows, stored scores kept current."""

import pytest
from django.core.management import CommandError
from django.db import connection
from django.test.utils import CaptureQueriesContext

from annotator.models import PSE, Collection, PeerAnnotation, Pyramid
from scoring.models import StoredScore
from scoring.scores.records import (
    collection_annotations,
    counted_annotations,
    in_score_order,
    score_annotations,
)
from scoring.scores.score_table import (
    STORED_COLUMNS,
    current_stored_rows,
    current_system_means,
    ordered_annotations,
    page_of_annotations,
    refresh_stored_scores,
    stale_annotations,
    stored_rows,
)
from scoring.scores.tables import SORTABLE, sorted_rows, system_means
from tests.helpers import import_files, means_equal

pytestmark = pytest.mark.django_db


@pytest.fixture
def duc2006(shared_data):
    """Two docsets of NIST's DUC 2006 files: peers "1".."35" and "A".."J", several annotators."""
    folder = shared_data / "duc2006-nist"
    files = [
        *(folder / "allpyramids" / f"{docset}.pyr" for docset in ("D0601", "D0640")),
        *sorted((folder / "allpans").glob("*.D0601.*.pan")),
        *sorted((folder / "allpans").glob("*.D0640.*.pan")),
    ]
    import_files(*files, collection="DUC 2006")
    return counted_annotations(collection_annotations(Collection.objects.get(name="DUC 2006")))


def test_every_sort_orders_the_database_as_the_table_sorts_its_rows(duc2006):
    refresh_stored_scores(duc2006)
    rows = score_annotations(duc2006)
    assert len(rows) > 20
    for column in SORTABLE:
        for descending in (False, True):
            expected = [row.annotation_id for row in sorted_rows(rows, column, descending)]
            ordered = ordered_annotations(duc2006, column, descending).values_list("pk", flat=True)
            assert list(ordered) == expected, (column, descending)


def test_with_no_column_a_collection_is_in_the_order_of_every_score_table(duc2006):
    expected = list(in_score_order(duc2006).values_list("pk", flat=True))
    assert list(ordered_annotations(duc2006, None).values_list("pk", flat=True)) == expected


def test_a_page_is_ordered_on_ids_and_its_annotations_loaded_in_that_order(duc2006, monkeypatch):
    monkeypatch.setattr("scoring.scores.score_table.PAGE_SIZE", 7)
    refresh_stored_scores(duc2006)
    ordered = ordered_annotations(duc2006, "modified", descending=True)
    expected = list(ordered.values_list("pk", flat=True))[7:14]
    total = duc2006.count()
    with CaptureQueriesContext(connection) as queries:
        page = page_of_annotations(ordered, "2", total)
        loaded = page.object_list
        names = [(a.pyramid.docset.name, a.peer.author, a.annotator_name) for a in loaded]
    assert [a.pk for a in loaded] == expected
    assert len(names) == 7
    assert len(queries) == 2  # the page's ids, then its annotations with what a row names
    assert (page.number, page.paginator.num_pages) == (2, -(-total // 7))


def test_stored_scores_know_their_collection(duc2006, shared_data):
    folder = shared_data / "duc2006-nist"
    import_files(
        folder / "allpyramids" / "D0640.pyr",
        *(folder / "allpans").glob("*.D0640.*.pan"),
        collection="Another",
    )
    other = counted_annotations(collection_annotations(Collection.objects.get(name="Another")))
    refresh_stored_scores(duc2006)
    refresh_stored_scores(other)
    for annotations, name in ((duc2006, "DUC 2006"), (other, "Another")):
        collections = StoredScore.objects.filter(annotation__in=annotations).values_list(
            "collection__name", flat=True
        )
        assert set(collections) == {name}
        # Sorted by a score, a collection's table holds its own annotations, each once.
        ordered = list(ordered_annotations(annotations, "modified").values_list("pk", flat=True))
        assert sorted(ordered) == sorted(annotations.values_list("pk", flat=True))


def test_stored_scores_are_those_the_records_give(duc2006):
    assert refresh_stored_scores(duc2006) == duc2006.count()
    stored = {s.annotation_id: s for s in StoredScore.objects.all()}
    for row in score_annotations(duc2006):
        for column in STORED_COLUMNS:
            assert getattr(stored[row.annotation_id], column) == getattr(row.scores, column)
    assert refresh_stored_scores(duc2006) == 0  # nothing changed: nothing scored again


def test_means_from_stored_scores_equal_the_means_of_fresh_scores(duc2006):
    refresh_stored_scores(duc2006)
    assert system_means(stored_rows(duc2006)) == system_means(score_annotations(duc2006))


def test_current_stored_rows_read_once_when_every_stored_score_is_current(duc2006):
    refresh_stored_scores(duc2006)
    with CaptureQueriesContext(connection) as queries:
        rows = current_stored_rows(duc2006)
    assert len(queries) == 1
    assert sorted(rows) == sorted(stored_rows(duc2006))
    assert system_means(rows) == system_means(score_annotations(duc2006))


def test_system_means_in_the_database_equal_those_of_fresh_scores_in_one_query(duc2006):
    """A peer annotated several times in a docset is averaged there first (D0601 and D0640 have
    several annotators); a row per system comes back."""
    refresh_stored_scores(duc2006)
    with CaptureQueriesContext(connection) as queries:
        means, by_status = current_system_means(duc2006)
    assert len(queries) == 1
    means_equal(means, system_means(score_annotations(duc2006)))
    assert len(means) == len({m.peer for m in means}) == 22
    submitted = {"submitted": duc2006.count()}
    assert by_status == {**dict.fromkeys(PeerAnnotation.Status.values, 0), **submitted}


def test_system_means_in_the_database_score_again_what_changed_and_count_work_in_progress(
    duc2006,
):
    refresh_stored_scores(duc2006)
    annotation = duc2006.filter(pses__scu__isnull=False).distinct().order_by("pk").first()
    PSE.objects.filter(annotation=annotation, scu__isnull=False).delete()
    annotation.status = PeerAnnotation.Status.IN_PROGRESS
    annotation.save()
    counted = counted_annotations(
        collection_annotations(Collection.objects.get(name="DUC 2006")), include_in_progress=True
    )
    means, by_status = current_system_means(counted)
    assert not stale_annotations(counted).exists()
    expected = system_means(score_annotations(counted))
    means_equal(means, expected)
    assert sum(m.in_progress for m in means) == 1
    assert by_status["in_progress"] == 1
    assert by_status["submitted"] == counted.count() - 1


def test_current_stored_rows_score_again_what_changed_or_was_never_stored(duc2006):
    refresh_stored_scores(duc2006)
    annotation = duc2006.filter(pses__scu__isnull=False).distinct().order_by("pk").first()
    PSE.objects.filter(annotation=annotation, scu__isnull=False).delete()
    annotation.save()  # as every edit does: its updated_at is raised
    StoredScore.objects.exclude(annotation=annotation).order_by("pk")[:1].get().delete()
    rows = current_stored_rows(duc2006)
    assert len(rows) == duc2006.count()
    assert not stale_annotations(duc2006).exists()
    assert system_means(rows) == system_means(score_annotations(duc2006))
    assert StoredScore.objects.get(annotation=annotation).modified == 0


def test_current_stored_rows_follow_a_change_of_convention(duc2006):
    refresh_stored_scores(duc2006)
    Collection.objects.filter(name="DUC 2006").update(average_rounding="floor")
    rows = current_stored_rows(duc2006)
    assert system_means(rows) == system_means(score_annotations(duc2006))


def test_an_edit_of_an_annotation_makes_its_stored_scores_out_of_date(duc2006):
    refresh_stored_scores(duc2006)
    annotation = duc2006.filter(pses__scu__isnull=False).distinct().order_by("pk").first()
    PSE.objects.filter(annotation=annotation, scu__isnull=False).delete()
    annotation.save()  # as every edit does: its updated_at is raised
    assert list(stale_annotations(duc2006).values_list("pk", flat=True)) == [annotation.pk]
    assert refresh_stored_scores(duc2006) == 1
    assert StoredScore.objects.get(annotation=annotation).modified == 0


def test_an_edit_of_a_pyramid_makes_the_scores_of_its_annotations_out_of_date(duc2006):
    refresh_stored_scores(duc2006)
    pyramid = Pyramid.objects.filter(docset__name="D0640").get()
    pyramid.save()
    stale = set(stale_annotations(duc2006).values_list("pk", flat=True))
    assert stale == set(PeerAnnotation.objects.filter(pyramid=pyramid).values_list("pk", flat=True))
    assert stale


def test_a_change_of_convention_makes_every_stored_score_out_of_date(duc2006):
    refresh_stored_scores(duc2006)
    before = dict(StoredScore.objects.values_list("annotation_id", "modified"))
    Collection.objects.filter(name="DUC 2006").update(average_rounding="floor")
    assert stale_annotations(duc2006).count() == duc2006.count()
    refresh_stored_scores(duc2006)
    after = dict(StoredScore.objects.values_list("annotation_id", "modified"))
    assert after != before  # X_a rounded down: some modified scores change
    rows = score_annotations(duc2006)
    assert all(after[r.annotation_id] == r.scores.modified for r in rows)


def test_refreshing_costs_a_constant_number_of_queries_per_batch(duc2006, monkeypatch):
    monkeypatch.setattr("scoring.scores.score_table.REFRESH_CHUNK", 10)
    total = duc2006.count()
    with CaptureQueriesContext(connection) as queries:
        refresh_stored_scores(duc2006)
    batches = -(-total // 10)
    # the stale ids; then per batch: the annotations, their weights, model counts, PSEs, upsert
    assert len(queries) <= 1 + batches * 5


def test_an_import_brings_the_collections_stored_scores_up_to_date(
    shared_data, django_capture_on_commit_callbacks
):
    folder = shared_data / "duc2006-nist"
    files = [folder / "allpyramids" / "D0640.pyr", *(folder / "allpans").glob("*.D0640.*.pan")]
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        import_files(*files, collection="Imported")
    assert len(callbacks) == 1  # one refresh for the import, not one a file
    annotations = collection_annotations(Collection.objects.get(name="Imported"))
    assert annotations.count() == 3
    assert not stale_annotations(annotations).exists()
    assert StoredScore.objects.filter(annotation__in=annotations).count() == 3


def test_an_import_that_stores_nothing_refreshes_nothing(
    shared_data, django_capture_on_commit_callbacks, tmp_path
):
    broken = tmp_path / "D0640.pyr"
    broken.write_text("<pyramid>")
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        with pytest.raises(CommandError):
            import_files(broken, collection="Nothing")
    assert callbacks == []
