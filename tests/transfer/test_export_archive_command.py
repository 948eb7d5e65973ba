"""export_archive: a collection written to one file, which restore_archive brings back whole."""

import json
import zipfile

import pytest
from django.core.management import CommandError

from annotator.models import Collection
from tests.archives import assert_same_records, rich_collection, score_rows
from tests.helpers import run

pytestmark = pytest.mark.django_db


def test_the_file_written_restores_every_record_and_score(pair, tmp_path):
    rich = rich_collection(pair)
    path = tmp_path / "apollo.zip"
    out, _ = run("export_archive", rich["collection"].name, "-o", str(path), no_progress=True)
    assert out.startswith(
        f"Wrote {rich['collection'].name} to {path}: 1 docset, 7 summaries, 4 pyramids"
    )
    assert json.loads(zipfile.ZipFile(path).read("archive.json"))["version"] == 6
    out, _ = run("restore_archive", str(path), name="Apollo restored", no_progress=True)
    assert out.startswith("Restored Apollo restored: 1 docset, 7 summaries, 4 pyramids")
    restored = Collection.objects.get(name="Apollo restored")
    ids = assert_same_records(rich["collection"], restored)
    assert score_rows(restored) == score_rows(rich["collection"], ids)


def test_the_progress_bar_counts_records(demo, tmp_path):
    _, err = run("export_archive", demo["collection"].name, "-o", str(tmp_path / "a.zip"))
    assert "record" in err
    assert "100%" in err


def test_an_unknown_collection_is_an_error(db, tmp_path):
    with pytest.raises(CommandError, match="no collection 'Nowhere'"):
        run("export_archive", "Nowhere", "-o", str(tmp_path / "a.zip"))
    assert not (tmp_path / "a.zip").exists()
