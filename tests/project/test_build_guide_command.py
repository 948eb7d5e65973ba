"""build_guide: the guide built strictly into GUIDE_ROOT, again only when its sources changed
(--if-changed), and a guide that does not build leaves the one in place as it was."""

import io
import shutil
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from annotator.management.commands import build_guide

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def sources(tmp_path, monkeypatch):
    """A copy of mkdocs.yml and docs/ that a test may break, the command pointed at it."""
    copy = tmp_path / "project"
    shutil.copytree(ROOT / "docs", copy / "docs", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(ROOT / "mkdocs.yml", copy / "mkdocs.yml")
    monkeypatch.setattr(build_guide, "CONFIG", copy / "mkdocs.yml")
    return copy


def build(*arguments) -> str:
    out = io.StringIO()
    call_command("build_guide", *arguments, stdout=out)
    return out.getvalue()


def test_it_builds_every_page_of_the_navigation_and_then_only_when_the_sources_change(
    sources, settings, tmp_path
):
    settings.GUIDE_ROOT = tmp_path / "site"
    assert "built" in build()
    for page in [
        "index.html",
        "getting-started/index.html",
        "annotator/builder/index.html",
        "annotator/peer/index.html",
        "annotator/judging/index.html",
        "organizer/commands/index.html",
        "operator/backups/index.html",
        "api/index.html",
        "developer/tests/index.html",
        "search/search_index.json",
    ]:
        assert (settings.GUIDE_ROOT / page).is_file(), page
    # Offline: the theme asks no font service or CDN for anything.
    home = (settings.GUIDE_ROOT / "index.html").read_text(encoding="utf-8")
    assert "fonts.googleapis.com" not in home
    assert "fonts.gstatic.com" not in home
    built = (settings.GUIDE_ROOT / "index.html").stat().st_mtime_ns

    assert "up to date" in build("--if-changed")
    assert (settings.GUIDE_ROOT / "index.html").stat().st_mtime_ns == built

    page = sources / "docs" / "annotator" / "judging.md"
    page.write_text(page.read_text() + "\nA line added.\n")
    assert "built" in build("--if-changed")
    assert "A line added." in (settings.GUIDE_ROOT / "annotator/judging/index.html").read_text()


def test_a_broken_link_fails_the_build_and_leaves_the_guide_in_place(sources, settings, tmp_path):
    settings.GUIDE_ROOT = tmp_path / "site"
    build()
    before = sorted(p.relative_to(settings.GUIDE_ROOT) for p in settings.GUIDE_ROOT.rglob("*"))
    page = sources / "docs" / "annotator" / "peer.md"
    page.write_text(page.read_text() + "\nSee [the missing page](missing.md).\n")
    with pytest.raises(CommandError, match="missing.md"):
        build()
    after = sorted(p.relative_to(settings.GUIDE_ROOT) for p in settings.GUIDE_ROOT.rglob("*"))
    assert after == before
    assert "the missing page" not in (settings.GUIDE_ROOT / "annotator/peer/index.html").read_text()
    # No half-built folder is left beside it.
    assert sorted(p.name for p in settings.GUIDE_ROOT.parent.iterdir()) == [
        "project",
        "site",
        "site.lock",
    ]
