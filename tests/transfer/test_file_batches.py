"""annotator.transfer.batches: files imported about a second's worth a transaction, each in a
savepoint of its own (issue 33): a bad file still stores nothing, the others stay."""

import pytest
from django.db import connection

from annotator.ducview.names import FileIdentity
from annotator.models import PeerAnnotation, Pyramid
from annotator.transfer.batches import FileBatches
from annotator.transfer.importing import DucviewImporter
from tests.conftest import PAN_FIXTURE, PYRAMID_FIXTURE

pytestmark = pytest.mark.django_db(transaction=True)  # as an import runs: commits are real


def test_a_file_the_database_refuses_within_a_batch_stores_nothing_and_the_others_stay():
    importer = DucviewImporter("Test")
    too_long = "x" * 300 + ".pan"  # longer than PeerAnnotation.source_name takes
    with FileBatches(seconds=3600) as batches:  # one batch for the three files
        assert importer.import_file(PYRAMID_FIXTURE)
        assert not importer.import_data(
            too_long, PAN_FIXTURE.read_bytes(), FileIdentity(docset="D9901", peer="8")
        )
        assert importer.import_data("100.D9901.M.100.A.9.pan", PAN_FIXTURE.read_bytes())
        assert not batches.due()
        assert connection.in_atomic_block  # nothing committed yet
    assert "the database refused it: value too long" in importer.report.failures[0]
    assert Pyramid.objects.count() == 1
    assert list(PeerAnnotation.objects.values_list("peer__author", flat=True)) == ["9"]


def test_a_batch_commits_when_asked_and_an_error_rolls_back_only_the_batch_under_way():
    importer = DucviewImporter("Test")

    def stopped_after_a_commit():
        with FileBatches(seconds=0) as batches:
            assert importer.import_file(PYRAMID_FIXTURE)
            assert batches.due()
            batches.commit()  # the pyramid is in
            assert importer.import_file(PAN_FIXTURE)
            raise RuntimeError("the worker stops (a lost lease, a lost connection)")

    with pytest.raises(RuntimeError):
        stopped_after_a_commit()
    assert Pyramid.objects.count() == 1
    assert not PeerAnnotation.objects.exists()  # the batch under way went
