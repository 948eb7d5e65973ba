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


def test_ducview_scores_files_edited_through_the_api_as_we_do(client, tmp_path, shared_data):
    """D0640 (a .pyr without startDocumentRegEx), edited through the API as an organizer's team
    would: a new SCU in the pyramid, and in a peer annotation a PSE of it, a repetition (a second
    PSE of an SCU matched already), a PSE matching nothing, a PSE removed and a two-part PSE.
    DUCView scores every exported file as we do, the edited one as NIST's table does not."""
    from django.contrib.auth import get_user_model
    from django.db.models import Count

    from annotator.models import PSE, PeerAnnotation, Pyramid, Summary
    from tests.helpers import import_duc2006

    jar = ducview_jar(shared_data)
    collection = import_duc2006(shared_data, "D0640")
    client.force_login(get_user_model().objects.create_superuser("organizer"))
    pyramid = Pyramid.objects.get(docset__name="D0640")

    def act(kind, pk, action, **values):
        model = Pyramid if kind == "pyramids" else PeerAnnotation
        version = model.objects.get(pk=pk).version
        answer = client.post(
            f"/api/{kind}/{pk}/actions/{action}/",
            {"version": version, **values},
            content_type="application/json",
        )
        assert answer.status_code == 200, (action, answer.json())
        return answer.json()

    model_c = Summary.objects.get(docset=pyramid.docset, kind="model", author="C")
    words = "The 14,000-ton submarine settled 354 to 450 feet down"
    start = model_c.text.index(words)
    act("pyramids", pyramid.pk, "reopen")
    act("pyramids", pyramid.pk, "new_scu", summary=model_c.pk, ranges=[[start, start + len(words)]])
    act("pyramids", pyramid.pk, "submit")
    new_uid = pyramid.scus.order_by("-uid").values_list("uid", flat=True)[0]

    annotation = PeerAnnotation.objects.get(pyramid=pyramid, peer__author="1")
    act("peer-annotations", annotation.pk, "reopen")
    pses = list(
        PSE.objects.filter(annotation=annotation, scu__isnull=False)
        .annotate(weight=Count("scu__contributors", distinct=True))
        .order_by("-weight", "position")
    )
    alone = [p for p in pses if sum(other.scu_id == p.scu_id for other in pses) == 1]
    repeated_uid = alone[-1].scu.uid
    # The heaviest SCU matched once goes: the score drops.
    act("peer-annotations", annotation.pk, "remove_pse", pse=alone[0].pk)
    free = uncovered_phrases(annotation, 4)
    for (begin, end), scu in zip(free, (new_uid, repeated_uid, 0)):
        act("peer-annotations", annotation.pk, "assign", scu=scu, ranges=[[begin, end]])
    two_part = PSE.objects.filter(annotation=annotation).order_by("-id").first()
    act("peer-annotations", annotation.pk, "add_part", pse=two_part.pk, ranges=[list(free[3])])
    act("peer-annotations", annotation.pk, "complete")
    assert PSE.objects.get(pk=two_part.pk).spans.count() == 2

    run("export_ducview", collection=collection.name, out=str(tmp_path))
    ours = our_table(collection.name)
    scored = scored_by_ducview(jar, tmp_path / "allpans")
    assert sorted(scored) == sorted(ours)
    edited = ("D0640", "1", "116")
    assert float(ours[edited]) != float(nist_rows(shared_data, "duc2006-nist")[edited][0])
    for key, (name, modified) in scored.items():
        assert modified is not None, f"DUCView gave {name} no modified score"
        assert float(modified) == float(ours[key]), name


def uncovered_phrases(annotation, count: int) -> list[tuple[int, int]]:
    """`count` phrases of three words of the peer text in no PSE, apart from one another."""
    import re

    covered = set()
    for pse in annotation.pses.prefetch_related("spans"):
        for span in pse.spans.all():
            covered.update(range(span.start, span.end))
    phrases = []
    for match in re.finditer(r"\b\w+ \w+ \w+\b", annotation.peer.text):
        inside = covered.intersection(range(match.start(), match.end()))
        apart = all(match.start() > end + 1 for _, end in phrases)
        if not inside and apart:
            phrases.append((match.start(), match.end()))
    assert len(phrases) >= count, "the peer has too few words in no PSE"
    return phrases[:count]
