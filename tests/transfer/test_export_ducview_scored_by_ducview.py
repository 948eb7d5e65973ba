"""export_ducview's files scored by the real DUCView 1.4 (issue 33): every exported .pan, scored
one docset a run as a user opens them, gets the modified score NIST's table and our scores give,
and every exported .pyr opens as NIST's own do. Files NIST wrote without a startDocumentRegEx
(D0640 here) are exported with one: without it DUCView counts no models and scores nothing."""

import pytest

from annotator.ducview.names import identity_from_note, system_id
from tests.ducview_jar import ducview_jar, run_ducview
from tests.helpers import NIST_TABLES, import_files, nist_rows, run

pytestmark = [pytest.mark.django_db, pytest.mark.shared_data]


def our_table(collection: str) -> dict[tuple[str, str, str], str]:
    """{(docset, peer, annotator or ""): modified score} as `export_scores --format duc` writes
    it (NIST's table's form)."""
    out, _ = run("export_scores", collection=collection, format="duc")
    rows = {}
    for line in out.splitlines():
        setid, peer, score, _scus, _repetitions, *annotator = line.split("\t")
        rows[(setid, peer, annotator[0] if annotator else "")] = score
    return rows


def scored_by_ducview(jar, folder, with_annotator: bool = True) -> dict[tuple, tuple[str, str]]:
    """{(docset, peer, annotator or ""): (file name, DUCView's modified score or None)} of the
    exported .pan files in `folder`, each docset scored in a run of its own."""
    by_docset: dict[str, list] = {}
    for path in sorted(folder.glob("*.pan")):
        by_docset.setdefault(identity_from_note(path.read_bytes()).docset, []).append(path)
    scored = {}
    for paths in by_docset.values():
        blocks = run_ducview(jar, paths)
        for path in paths:
            who = identity_from_note(path.read_bytes())
            annotator = who.annotator or "" if with_annotator else ""
            scored[(who.docset, system_id(who.peer), annotator)] = (
                path.name,
                blocks[path.name].nist_score,
            )
    return scored


def test_ducview_scores_every_exported_nist_file_as_nist_and_we_do(tmp_path, shared_data):
    jar = ducview_jar(shared_data)
    checked = 0
    for folder in NIST_TABLES:
        import_files(shared_data / folder, collection=folder)
        run("export_ducview", collection=folder, out=str(tmp_path / folder))
        nist, ours = nist_rows(shared_data, folder), our_table(folder)
        scored = scored_by_ducview(
            jar, tmp_path / folder / "allpans", with_annotator=folder != "duc2007-main-nist"
        )
        assert sorted(scored) == sorted(ours), folder
        assert set(scored) <= set(nist), folder  # the table has all of NIST's; here, a subset
        for key, (name, modified) in scored.items():
            assert modified is not None, f"DUCView gave {name} no modified score"
            assert float(modified) == float(nist[key][0]) == float(ours[key]), name
            checked += 1
    assert checked == 154


def test_ducview_opens_every_exported_pyramid_as_it_opens_nists(tmp_path, shared_data):
    """DUCView's batch mode loads a .pyr's pyramid, then stops at its missing peer annotation: our
    exported .pyr files must get exactly as far as NIST's own (a file it cannot read stops at the
    XML parse, a part outside the text as the pyramid loads)."""
    jar = ducview_jar(shared_data)
    opened = 0
    for folder in NIST_TABLES:
        import_files(shared_data / folder, collection=folder)
        run("export_ducview", collection=folder, out=str(tmp_path / folder))
        originals = sorted((shared_data / folder / "allpyramids").glob("*.pyr"))
        exported = sorted((tmp_path / folder / "allpyramids").glob("*.pyr"))
        assert [p.name for p in exported] == [p.name for p in originals]
        theirs, ours = run_ducview(jar, originals), run_ducview(jar, exported)
        for name, block in ours.items():
            assert "XML Parsing error" not in block.output, name
            assert "loadTree" in block.output, name  # the pyramid loaded; then no annotation
            assert block.output == theirs[name].output, name
            opened += 1
    assert opened == 7
