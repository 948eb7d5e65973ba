"""restore_archive: an archive becomes a new collection in one transaction, or is refused with
what is wrong, and nothing is stored."""

import json
import zipfile

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError

from annotator.models import Collection
from tests.archives import with_version, written
from tests.helpers import record_counts, run

pytestmark = pytest.mark.django_db


@pytest.fixture
def archive_file(demo, tmp_path):
    path = tmp_path / "demo.zip"
    path.write_bytes(written(demo["collection"]))
    return path


def test_the_archive_is_restored_under_its_own_name_when_it_is_free(demo, archive_file):
    name = demo["collection"].name
    Collection.objects.filter(pk=demo["collection"].pk).update(name="Renamed meanwhile")
    out, err = run("restore_archive", str(archive_file))
    assert out.startswith(f"Restored {name}: 1 docset, 7 summaries, 1 pyramid")
    assert "100%" in err
    assert Collection.objects.get(name=name).docsets.get().summaries.count() == 7


def test_a_name_in_use_is_refused_and_nothing_is_stored(demo, archive_file):
    before = record_counts()
    with pytest.raises(
        CommandError,
        match=f"{archive_file}: A collection named '{demo['collection'].name}' exists "
        "already: restore this archive under another name. Nothing was stored.",
    ):
        run("restore_archive", str(archive_file), no_progress=True)
    assert record_counts() == before


def test_an_unknown_version_is_refused(demo, archive_file, tmp_path):
    newer = tmp_path / "newer.zip"
    newer.write_bytes(with_version(archive_file, 7))
    with pytest.raises(
        CommandError, match="unknown format version 7; this instance reads versions 1 to 6"
    ):
        run("restore_archive", str(newer), name="Newer", no_progress=True)
    assert not Collection.objects.filter(name="Newer").exists()


def test_a_malformed_line_is_named_and_nothing_is_stored(demo, archive_file, tmp_path):
    source, broken = zipfile.ZipFile(archive_file), tmp_path / "broken.zip"
    with zipfile.ZipFile(broken, "w") as target:
        for name in source.namelist():
            data = source.read(name)
            if name == "contributors.jsonl":
                lines = data.decode().splitlines()
                lines[4] = json.dumps({**json.loads(lines[4]), "summary": "A"})
                data = ("\n".join(lines) + "\n").encode()
            target.writestr(name, data)
    before = record_counts()
    with pytest.raises(
        CommandError, match="contributors.jsonl line 5: field 'summary' should be a record's id"
    ):
        run("restore_archive", str(broken), name="Broken", no_progress=True)
    assert record_counts() == before


def test_users_missing_here_are_created_inactive_and_named(demo, archive_file):
    get_user_model().objects.filter(username="organizer").update(username="organizer-2")
    out, _ = run("restore_archive", str(archive_file), name="Elsewhere", no_progress=True)
    assert (
        "Created 1 inactive account, without a password, for users this instance did not have: "
        "organizer." in out
    )
    assert not get_user_model().objects.get(username="organizer").is_active


def test_a_missing_file_is_an_error(db, tmp_path):
    with pytest.raises(CommandError, match="no such file"):
        run("restore_archive", str(tmp_path / "nothing.zip"))
    (tmp_path / "text.zip").write_text("hello")
    with pytest.raises(CommandError, match="not a zip file"):
        run("restore_archive", str(tmp_path / "text.zip"))
