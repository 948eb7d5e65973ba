"""export_ducview: files DUCView 1.4 opens; import -> export -> import keeps everything."""

import pytest
from django.core.management import CommandError

from annotator.ducview.reader import read_peer_annotation, read_pyramid
from annotator.models import PSE, SCU, Collection, PeerAnnotation, Span
from scoring.scores.records import score_collection
from tests.conftest import PAN_FIXTURE, PYRAMID_FIXTURE
from tests.helpers import import_files, run

pytestmark = pytest.mark.django_db


def pyramid_content(collection: str) -> set:
    """Everything a pyramid holds, keyed by values that survive a round trip."""
    spans = Span.objects.filter(contributor__scu__pyramid__docset__collection__name=collection)
    return {
        (
            s.contributor.scu.pyramid.docset.name,
            s.contributor.scu.uid,
            s.contributor.scu.label,
            s.contributor.scu.comment,
            s.contributor.comment,
            s.contributor.summary.author,
            s.summary.author,
            s.start,
            s.end,
            s.position,
        )
        for s in spans.select_related(
            "contributor__scu__pyramid__docset", "contributor__summary", "summary"
        )
    }


def annotation_content(collection: str) -> set:
    pses = PSE.objects.filter(
        annotation__pyramid__docset__collection__name=collection
    ).select_related("annotation__peer", "annotation__pyramid__docset", "scu")
    return {
        (
            p.annotation.pyramid.docset.name,
            p.annotation.peer.author,
            p.annotation.annotator_code,
            p.scu.uid if p.scu else 0,
            p.comment,
            tuple(p.spans.values_list("start", "end")),
        )
        for p in pses
    }


def scores(collection: str) -> dict:
    return {
        (r.docset, r.peer, r.annotator): r.scores
        for r in score_collection(Collection.objects.get(name=collection))
    }


def round_trip(tmp_path, *sources, **import_options):
    import_files(*sources, collection="before", **import_options)
    out, _ = run("export_ducview", collection="before", out=str(tmp_path))
    import_files(tmp_path, collection="after")
    return out


def test_round_trip_keeps_every_record_and_score(tmp_path):
    out = round_trip(tmp_path, PYRAMID_FIXTURE, PAN_FIXTURE)
    assert "1 pyramid and 1 peer annotation written" in out
    assert pyramid_content("after") == pyramid_content("before") != set()
    assert annotation_content("after") == annotation_content("before") != set()
    assert scores("after") == scores("before")


def test_exported_files_have_ducviews_format(tmp_path):
    round_trip(tmp_path, PYRAMID_FIXTURE, PAN_FIXTURE)
    pyr = (tmp_path / "allpyramids" / "D9901.pyr").read_bytes()
    pan = (tmp_path / "allpans" / PAN_FIXTURE.name).read_bytes()
    assert b"<!DOCTYPE pyramid [" in pyr
    assert b"<!DOCTYPE peerAnnotation [" in pan
    # UTF-16 offsets: the part after the emoji is written exactly as DUCView wrote it.
    assert b'start="434" end="460"' in pyr
    assert read_pyramid(pyr).text == read_pyramid(PYRAMID_FIXTURE.read_bytes()).text
    labels = [line for line in pan.decode().splitlines() if "<peerscu" in line]
    assert labels[0].startswith(' <peerscu uid="11" label="(3) The tower was built')
    assert labels[-1] == ' <peerscu uid="0" label="All non-matching SCUs go here">'
    assert read_peer_annotation(pan).text == read_peer_annotation(PAN_FIXTURE.read_bytes()).text


def test_export_of_an_unknown_collection_is_an_error(tmp_path):
    with pytest.raises(CommandError, match="no collection"):
        run("export_ducview", collection="nope", out=str(tmp_path))


def test_exported_files_are_found_by_their_note_whatever_their_name(tmp_path):
    import_files(PAN_FIXTURE, collection="before")
    run("export_ducview", collection="before", out=str(tmp_path))
    exported = next((tmp_path / "allpans").iterdir())
    renamed = exported.rename(tmp_path / "renamed.pan")
    import_files(renamed, collection="after")
    annotation = PeerAnnotation.objects.get(pyramid__docset__collection__name="after")
    assert (annotation.pyramid.docset.name, annotation.peer.author, annotation.annotator_code) == (
        "D9901",
        "7",
        "100",
    )


@pytest.mark.shared_data
@pytest.mark.parametrize("folder", ["duc2006-nist", "duc2007-main-nist", "duc2007-update-nist"])
def test_round_trip_of_the_nist_files(tmp_path, shared_data, folder):
    round_trip(tmp_path, shared_data / folder)
    assert pyramid_content("after") == pyramid_content("before")
    assert annotation_content("after") == annotation_content("before")
    assert scores("after") == scores("before")
    assert (
        SCU.objects.filter(pyramid__docset__collection__name="after").count()
        == SCU.objects.filter(pyramid__docset__collection__name="before").count()
    )


@pytest.mark.shared_data
def test_exported_nist_files_match_the_originals_line_for_line(tmp_path, shared_data):
    source = shared_data / "duc2007-update-nist"
    import_files(source, collection="update")
    run("export_ducview", collection="update", out=str(tmp_path))
    for original in sorted(source.glob("all*/*")):
        exported = tmp_path / original.parent.name / original.name
        # The export adds one line: the note naming docset, peer and annotator.
        assert exported.read_text().splitlines()[2:] == original.read_text().splitlines()[1:], (
            original.name
        )


def test_app_built_work_exported_and_imported_back_into_its_collection_is_recognised_unchanged(
    tmp_path, demo
):
    from tests.helpers import record_counts

    collection = demo["collection"].name
    run("export_ducview", collection=collection, out=str(tmp_path))
    before = record_counts()
    out = import_files(tmp_path, collection=collection)
    assert (
        record_counts() == before
    )  # no second pyramid, no model summaries named after files, no copies
    assert "0 pyramids" in out
    assert "0 peer annotations" in out
    assert "Nothing changed" in out


def test_app_built_pyramids_carry_a_start_document_regex_that_finds_their_models(tmp_path, demo):
    from annotator.ducview.layout import split_models

    run("export_ducview", collection=demo["collection"].name, out=str(tmp_path))
    (path,) = (tmp_path / "allpyramids").glob("*.pyr")
    document = read_pyramid(path.read_bytes())
    assert document.start_document_regex == r"-{15,}\n[^\n]+\n-{15,}\n"
    layout = split_models(document.text, document.start_document_regex)
    assert layout.found_by == "startDocumentRegEx"
    assert [m.author for m in layout.models] == ["A", "B", "C", "D"]
    assert [m.text for m in layout.models] == [
        link.summary.text for link in demo["pyramid"].model_links.order_by("position")
    ]


def test_a_summary_with_carriage_returns_survives_export_and_import(tmp_path, demo):
    from annotator.models import Summary

    peer = demo["annotations"]["1"].peer
    # Stored before newlines were normalised on input: a raw CR inside the text.
    Summary.objects.filter(pk=peer.pk).update(text=peer.text.replace(" ", "\r\n", 1))
    text = Summary.objects.get(pk=peer.pk).text
    run("export_ducview", collection=demo["collection"].name, out=str(tmp_path))
    import_files(tmp_path, collection="after")
    assert (
        Summary.objects.get(docset__collection__name="after", kind="peer", author=peer.author).text
        == text
    )


def test_names_statuses_and_texts_of_app_work_survive_the_round_trip_and_say_nothing_false(
    tmp_path, demo
):
    from annotator.models import Pyramid, Summary
    from tests.helpers import empty_pyramid

    empty_pyramid(demo, name="DEMO01 (2)")  # an annotator's unfinished pyramid
    peer = demo["annotations"]["1"].peer
    Summary.objects.filter(pk=peer.pk).update(name="DEMO01.peer.01.txt")
    run("export_ducview", collection=demo["collection"].name, out=str(tmp_path))
    out = import_files(tmp_path, collection=demo["collection"].name)
    assert "Nothing changed" in out
    assert "0 warnings" in out
    assert "warning:" not in out
    assert (
        Summary.objects.get(pk=peer.pk).name == "DEMO01.peer.01.txt"
    )  # a name given in the app stays

    import_files(tmp_path, collection="after")

    def state(collection):
        return (
            sorted(
                Pyramid.objects.filter(docset__collection__name=collection).values_list(
                    "name", "status"
                )
            ),
            sorted(
                Summary.objects.filter(docset__collection__name=collection).values_list(
                    "kind", "author", "text"
                )
            ),
            sorted(
                PeerAnnotation.objects.filter(
                    pyramid__docset__collection__name=collection
                ).values_list("pyramid__name", "peer__author", "status")
            ),
        )

    assert state("after") == state(demo["collection"].name)
    assert ("DEMO01 (2)", "in_progress") in state("after")[0]
