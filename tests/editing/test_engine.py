"""annotator.editing.engine: lock → check → apply → record, undo and redo, for any Editor."""

import ast
import dataclasses
from pathlib import Path

import pytest

from annotator.editing import engine
from annotator.editing.errors import NotAllowed, RuleBroken, StaleVersion
from annotator.models import Pyramid
from annotator.pyramids import editing
from tests.helpers import Builder

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[2]
EDITING = ["annotator.pyramids.editing", "annotator.peer_annotation.editing"]
CONSENSUS = [
    "annotator.adjudication.pyramid_consensus",
    "annotator.adjudication.annotation_consensus",
]


def imports(module: str) -> tuple[set[str], set[str]]:
    """The annotator modules a module imports at its top level, and those imported in functions."""
    tree = ast.parse((ROOT / (module.replace(".", "/") + ".py")).read_text())
    top, inner = set(), set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module:
            names = {node.module} | {f"{node.module}.{alias.name}" for alias in node.names}
        elif isinstance(node, ast.Import):
            names = {alias.name for alias in node.names}
        else:
            continue
        (top if node in tree.body else inner).update(n for n in names if n.startswith("annotator"))
    return top, inner


def test_the_editing_modules_never_import_the_consensus_that_builds_on_them():
    for module in EDITING:
        top, inner = imports(module)
        assert not (top | inner) & set(CONSENSUS), module
    for module in [*EDITING, *CONSENSUS, "annotator.editing.engine"]:
        assert imports(module)[1] == set(), module  # no import inside a function


def test_the_engine_knows_no_domain():
    top, _ = imports("annotator.editing.engine")
    modules = {name for name in top if name.rsplit(".", 1)[-1][:1].islower()}  # not the classes
    assert modules == {"annotator.editing", "annotator.editing.errors", "annotator.editing.history"}


@pytest.fixture
def build(demo):
    return Builder(demo)


@pytest.fixture
def watched(monkeypatch):
    """The pyramids' Editor, its hooks noting each call by name."""
    calls = []
    editor = dataclasses.replace(
        editing.EDITOR,
        after_change=lambda pyramid, before, after: calls.append("after_change"),
        after_edit=lambda pyramid, user: calls.append("after_edit"),
    )
    monkeypatch.setattr(editing, "EDITOR", editor)
    return calls


def test_a_new_edit_runs_both_hooks_undo_and_redo_only_after_change(build, watched):
    build.new_scu("A", "Apollo 11 landed on the Moon")
    assert watched == ["after_change", "after_edit"]
    watched.clear()
    build.do("undo")
    build.do("redo")
    assert watched == ["after_change", "after_change"]


def test_an_edit_off_the_undo_stack_runs_no_hook_and_ends_no_redo_chain(build, watched):
    build.new_scu("A", "Apollo 11 landed on the Moon")
    build.do("undo")
    watched.clear()
    result = editing.run_edit(
        build.pyramid.pk, build.user, build.version, "submit", lambda pyramid: ([], lambda: "noted")
    )
    assert watched == []
    assert (result.version, result.change.action, result.change.description) == (
        4,
        "submit",
        "noted",
    )
    assert build.do("redo").description.startswith("Redid: New SCU 1")


def test_a_refused_plan_changes_nothing(build):
    build.new_scu("A", "Apollo 11 landed on the Moon")

    def refused(pyramid):
        raise RuleBroken("no")

    with pytest.raises(RuleBroken, match="no"):
        editing.run_edit(build.pyramid.pk, build.user, build.version, "set_label", refused)
    assert build.version == 2
    assert Pyramid.objects.get(pk=build.pyramid.pk).changes.count() == 1


def test_the_version_is_checked_after_who_may_edit(build, demo):
    """A stale version (409) is said only to whom may edit (else 403), as both editors did."""
    with pytest.raises(NotAllowed):
        editing.set_label(build.pyramid.pk, demo["annotator"], 0, 1, "x")
    with pytest.raises(StaleVersion, match="this pyramid was changed elsewhere"):
        editing.set_label(build.pyramid.pk, build.user, 0, 1, "x")
    with pytest.raises(RuleBroken, match="There is no such pyramid."):
        editing.set_label(0, build.user, 0, 1, "x")


def test_quoted_cuts_to_the_limit():
    assert engine.quoted("Apollo") == "“Apollo”"
    assert engine.quoted("Apollo 11 landed", limit=8) == "“Apollo …”"


def test_a_change_row_holds_what_the_editor_keeps_of_the_snapshots(build, monkeypatch):
    """An Editor's `kept` decides what a row stores of the snapshots around an edit or an undo
    (a peer annotation keeps only the PSEs that differ); by default, all of both."""
    seen = []

    def kept(before, after):
        seen.append((before, after))
        return before, after

    first = build.new_scu("A", "Apollo 11 landed on the Moon").change
    assert first.before["scus"] == {"1": None}
    assert first.after["scus"]["1"]["label"] == "Apollo 11 landed on the Moon"
    monkeypatch.setattr(editing, "EDITOR", dataclasses.replace(editing.EDITOR, kept=kept))
    build.do("undo")
    assert seen == [(first.after, first.before)]  # what undo found, and what it restored
    seen.clear()

    def shortened(before, after):
        return {"short": True}, {"short": True}

    monkeypatch.setattr(editing, "EDITOR", dataclasses.replace(editing.EDITOR, kept=shortened))
    change = build.new_scu("B", "Neil Armstrong stepped out first").change
    assert Pyramid.objects.get(pk=build.pyramid.pk).changes.get(pk=change.pk).after == {
        "short": True
    }
