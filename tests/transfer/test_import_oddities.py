"""import_ducview on what real NIST packages hold and DUCView 1.4 opens: kept, reported, never
fatal, and the same records whatever the order of the files. Each case is a small fixture of our
own, made from tests/fixtures/ducview by the change the real file has."""

import pytest
from django.core.management import CommandError
from django.db.models import F
from django.urls import reverse

from annotator.ducview.reader import NON_MATCHING_UID, PeerAnnotationDocument, Scu, read_pyramid
from annotator.ducview.writer import write_peer_annotation
from annotator.models import PSE, Contributor, PeerAnnotation, PSESpan, Pyramid, Span, Summary
from annotator.pyramids.problems import collection_problems
from annotator.transfer.importing import DucviewImporter
from scoring.scores.records import score_collection
from tests.conftest import PAN_FIXTURE, PYRAMID_FIXTURE
from tests.helpers import import_files, planner_statistics_current, record_counts, write

pytestmark = pytest.mark.django_db

PYR = PYRAMID_FIXTURE.read_bytes()
PAN = PAN_FIXTURE.read_bytes()
PAN_NAME = PAN_FIXTURE.name  # 100.D9901.M.100.A.7.pan


def stored_records() -> dict:
    """What an import stored, without database ids: enough to tell two imports apart."""
    planner_statistics_current()
    return {
        "summaries": sorted(Summary.objects.values_list("docset__name", "kind", "author", "text")),
        "pyramids": sorted(
            Pyramid.objects.values_list("docset__name", "name", "start_document_regex")
        ),
        "spans": sorted(
            Span.objects.values_list(
                "contributor__scu__pyramid__name",
                "contributor__scu__uid",
                "summary__author",
                "start",
                "end",
            )
        ),
        "pses": sorted(
            (peer, annotator, uid or 0, start, end)
            for peer, annotator, uid, start, end in PSESpan.objects.values_list(
                "pse__annotation__peer__author",
                "pse__annotation__annotator_code",
                "pse__scu__uid",
                "start",
                "end",
            )
        ),
    }


def scores() -> list:
    return sorted(
        (r.docset, r.peer, r.annotator, r.pyramid, r.scores)
        for r in score_collection(Pyramid.objects.first().docset.collection)
    )


# -- an empty peer summary ------------------------------------------------------------------------


def empty_peer_pan() -> bytes:
    pyramid = read_pyramid(PYR)
    document = PeerAnnotationDocument(
        pyramid=pyramid,
        text="\n",
        peer_scus=[
            *(Scu(uid=s.uid, label=s.label, comment=None) for s in pyramid.scus),
            Scu(uid=NON_MATCHING_UID, label="", comment=None),
        ],
    )
    return write_peer_annotation(document, {s.uid: len(s.contributors) for s in pyramid.scus})


def test_an_empty_peer_summary_is_imported_scored_zero_and_listed_for_review(tmp_path):
    out = import_files(
        PYRAMID_FIXTURE, write(tmp_path, "100.D9901.M.100.A.31.pan", empty_peer_pan())
    )
    assert "1 peer annotation (0 PSEs)" in out
    assert "1 empty peer summary (scored 0)" in out
    assert (
        "the peer summary of 31 is empty (the system produced nothing): imported, it scores 0"
        in out
    )
    annotation = PeerAnnotation.objects.get()
    assert annotation.peer.text == ""
    assert annotation.pses.count() == 0
    (row,) = score_collection(annotation.pyramid.docset.collection)
    assert (row.scores.modified, row.scores.unique_scus, row.scores.repetitions) == (
        0.0,
        0,
        0,
    )  # NIST: 0 0 0
    assert row.scores.original == 0.0
    assert row.scores.comprehensive == 0.0
    (problem,) = collection_problems(annotation.pyramid.docset.collection)
    assert problem.message == "D9901: peer 31 is empty (the system produced nothing); it scores 0"
    assert problem.url == reverse("annotation-detail", args=[annotation.pk])


# -- a part whose end lies before its start --------------------------------------------------------


def test_an_inverted_part_whose_label_is_near_is_re_anchored_by_it(tmp_path):
    # NIST: start="368" end="367"; here SCU 11's first part "completed in 1889 for the World's Fair"
    # (75-113).
    data = PYR.replace(b'start="75" end="113"', b'start="113" end="112"')
    out = import_files(write(tmp_path, "D9901.pyr", data), PAN_FIXTURE)
    assert "0 refused" in out
    assert "ends before it starts (113-112): re-anchored by its label" in out
    span = Span.objects.get(contributor__scu__uid=11, summary__author="A")
    assert span.summary.text[span.start : span.end] == "completed in 1889 for the World's Fair"
    assert PeerAnnotation.objects.count() == 1  # its peers are not refused with it


def test_an_inverted_part_whose_label_is_nowhere_is_kept_empty_and_the_contributor_still_counts(
    tmp_path,
):
    data = PYR.replace(
        b'label="completed in 1889 for the World\'s Fair" start="75" end="113"',
        b'label="a word that is not there" start="113" end="112"',
    )
    assert data != PYR
    out = import_files(write(tmp_path, "D9901.pyr", data), PAN_FIXTURE)
    assert "0 refused" in out
    assert "1 part kept empty" in out
    assert "kept as an empty part, listed among the problems to review" in out
    contributors = Contributor.objects.filter(scu__uid=11, scu__pyramid__source_name="D9901.pyr")
    assert contributors.count() == 3  # SCU 11 keeps its weight: DUCView counts contributors
    empty = Span.objects.get(start=F("end"))
    assert (empty.contributor.scu.uid, empty.summary.author) == (11, "A")
    problems = collection_problems(Pyramid.objects.first().docset.collection)
    assert [p.kind for p in problems] == ["empty part"]
    assert "SCU 11: a part in model A holds no word" in problems[0].message
    # A DUCView file of it opens again, and re-importing the export changes nothing.
    assert "1 unchanged" in import_files(write(tmp_path, "again/D9901.pyr", data))


def test_an_empty_part_survives_export_and_import_and_is_described_as_it_is(tmp_path):
    from tests.helpers import run

    data = PYR.replace(
        b'label="completed in 1889 for the World\'s Fair" start="75" end="113"',
        b'label="a word that is not there" start="113" end="112"',
    )
    import_files(write(tmp_path, "in/D9901.pyr", data), collection="before")
    run("export_ducview", collection="before", out=str(tmp_path / "out"))
    out = import_files(tmp_path / "out", collection="after")
    assert "a part of SCU 11 holds no word (" in out
    assert "it has no label to place it by: kept as an empty part" in out
    assert "ends before it starts" not in out
    empty = Span.objects.get(summary__docset__collection__name="after", start=F("end"))
    assert (empty.contributor.scu.uid, empty.summary.author) == (11, "A")


def test_an_inverted_pse_part_is_re_anchored_in_the_peer_text(tmp_path):
    annotation = PAN.decode()
    marker = 'start="'
    # The non-matching PSE "Tourists climb it every day": its offsets turned round.
    label = 'label="Tourists climb it every day" start="'
    at = annotation.rindex(label) + len(label)
    start = int(annotation[at : annotation.index('"', at)])
    end_at = annotation.index('end="', at) + len('end="')
    end = int(annotation[end_at : annotation.index('"', end_at)])
    assert marker
    assert end > start
    broken = (
        annotation[:at]
        + str(end)
        + annotation[annotation.index('"', at) : end_at]
        + str(end - 1)
        + annotation[annotation.index('"', end_at) :]
    )
    out = import_files(PYRAMID_FIXTURE, write(tmp_path, PAN_NAME, broken.encode()))
    assert "0 refused" in out
    assert "re-anchored by its label 'Tourists climb it every day'" in out
    span = PSESpan.objects.get(pse__scu__isnull=True)
    assert span.pse.annotation.peer.text[span.start : span.end] == "Tourists climb it every day"


# -- two copies of one model summary that differ ---------------------------------------------------


def lost_character_copies() -> tuple[bytes, bytes]:
    """The .pyr with "?" where its pans have U+FFFD (a character lost to an encoding)."""
    pyr = PYR.replace(b"in Paris.</line>", b"in Par?s.</line>")
    pan = PAN.replace(b"in Paris.</line>", "in Par\ufffds.</line>".encode())
    assert pyr != PYR
    assert pan != PAN
    return pyr, pan


@pytest.mark.parametrize("order", ["pyramid first", "pans first"])
def test_copies_differing_by_a_lost_character_are_one_summary_and_one_pyramid(tmp_path, order):
    pyr, pan = lost_character_copies()
    files = [write(tmp_path, "D9901.pyr", pyr), write(tmp_path, PAN_NAME, pan)]
    out = import_files(*(files if order == "pyramid first" else files[::-1]))
    assert "0 refused" in out
    assert "differs from the one stored by encoding artefacts" in out
    assert Pyramid.objects.count() == 1
    assert Summary.objects.filter(kind="model").count() == 3
    assert Pyramid.objects.get().name == "D9901"
    assert Pyramid.objects.get().source_name == "D9901.pyr"
    # The copy kept is the same whichever came first: the one that lost nothing to U+FFFD.
    assert Summary.objects.get(kind="model", author="A").text.endswith(
        "World's Fair in Par?s.\n"
        "It is 330 metres tall and was the tallest "
        "structure in the world until 1930."
    )
    assert PeerAnnotation.objects.get().pyramid == Pyramid.objects.get()


def test_the_stored_copy_does_not_depend_on_the_order(tmp_path):
    pyr, pan = lost_character_copies()
    files = [write(tmp_path, "D9901.pyr", pyr), write(tmp_path, PAN_NAME, pan)]
    import_files(*files, collection="forward")
    forward = stored_records(), scores()
    for model in (PSE, PeerAnnotation, Pyramid, Summary):
        model.objects.all().delete()
    import_files(*files[::-1], collection="reverse")
    assert (stored_records(), scores()) == forward


def pans_cut_after_the_dashes() -> tuple[bytes, bytes]:
    """A .pyr with no startDocumentRegEx (models found by their DUC header lines) and a .pan whose
    regex matches only the summary's name: its models start with the header's dash line."""
    pyr = PYR.replace(
        PYR[PYR.index(b"<startDocumentRegEx>") : PYR.index(b"</startDocumentRegEx>") + 21], b""
    )
    pan = PAN.replace(
        rb"<![CDATA[[-]*\nD[0-9]*\.M\.100\.[A-Z]\.[A-Z]\n[-]*\n]]>",
        rb"<![CDATA[D[0-9]*\.M\.100\.[A-Z]\.[A-Z]\n]]>",
    )
    assert b"startDocumentRegEx" not in pyr.split(b"]>", 1)[1]
    assert pan != PAN
    return pyr, pan


@pytest.mark.parametrize("order", ["pyramid first", "pans first"])
def test_copies_cut_differently_where_the_models_start_are_one_pyramid(tmp_path, order):
    pyr, pan = pans_cut_after_the_dashes()
    files = [write(tmp_path, "D9901.pyr", pyr), write(tmp_path, PAN_NAME, pan)]
    out = import_files(*(files if order == "pyramid first" else files[::-1]))
    assert "0 refused" in out
    assert Pyramid.objects.count() == 1
    assert Summary.objects.filter(kind="model").count() == 3
    pyramid = Pyramid.objects.get()
    # The .pyr has no startDocumentRegEx: the pyramid keeps the .pan's (issue 33: DUCView needs
    # one to score an exported file), and the import says so.
    assert pyramid.start_document_regex == r"D[0-9]*\.M\.100\.[A-Z]\.[A-Z]\n"
    assert "pyramid D9901 had no startDocumentRegEx: it keeps the one" in out
    assert pyramid.source_name == "D9901.pyr"
    assert not any(
        s.text.startswith("-") or s.text.endswith("-") for s in Summary.objects.filter(kind="model")
    )
    for span in Span.objects.select_related("summary"):
        assert span.summary.text[span.start : span.end].strip()


def test_a_model_copy_that_differs_in_words_is_refused_naming_where(tmp_path):
    import_files(PYRAMID_FIXTURE)
    changed = PAN.replace(b"in Paris.</line>", b"in Lyon.</line>")
    with pytest.raises(CommandError, match="1 of 1 file failed"):
        import_files(write(tmp_path, PAN_NAME, changed))
    assert PeerAnnotation.objects.count() == 0


# -- system ids written two ways -------------------------------------------------------------------


def test_a_system_id_written_with_a_leading_zero_is_the_same_system(tmp_path):
    out = import_files(
        PYRAMID_FIXTURE,
        write(tmp_path, "100.D9901.M.100.A.07.pan", PAN),
        write(tmp_path, "101.D9901.M.100.A.7.pan", PAN),
    )
    assert "peer ids read as numbers: 07 as 7" in out
    assert list(Summary.objects.filter(kind="peer").values_list("author", flat=True)) == ["7"]
    assert sorted(PeerAnnotation.objects.values_list("annotator_code", "source_name")) == [
        ("100", "100.D9901.M.100.A.07.pan"),
        ("101", "101.D9901.M.100.A.7.pan"),  # written as they were
    ]


# -- two pyramids of one docset --------------------------------------------------------------------


def test_two_different_pyramids_of_a_docset_get_different_names(tmp_path):
    other = PYR.replace(b'label="The tower is 330 metres tall"', b'label="The tower is 330 m tall"')
    import_files(PYRAMID_FIXTURE, write(tmp_path, "second/D9901.pyr", other))
    assert sorted(Pyramid.objects.values_list("name", flat=True)) == ["D9901", "D9901 (2)"]


# -- encodings -------------------------------------------------------------------------------------


def test_an_undeclared_latin_1_pyramid_is_refused_as_an_encoding_problem(tmp_path):
    latin = PYR.replace(b"in Paris.</line>", "in Pari\u00e9.</line>".encode("latin-1"))
    with pytest.raises(CommandError, match="1 of 1 file failed"):
        import_files(write(tmp_path, "D9901.pyr", latin))
    assert Pyramid.objects.count() == 0


def test_an_undeclared_latin_1_pyramid_names_the_encoding_in_its_error(tmp_path):
    latin = PYR.replace(b"in Paris.</line>", "in Pari\u00e9.</line>".encode("latin-1"))
    importer = DucviewImporter("Test")
    assert importer.import_file(write(tmp_path, "D9901.pyr", latin)) is False
    (failure,) = importer.report.failures
    assert failure.endswith(
        "D9901.pyr: line 31, column 76: encoding problem: byte 0xE9 is not UTF-8 and the file "
        "declares no other encoding (it looks like Latin-1 or Windows-1252); save it as UTF-8, "
        'or add <?xml version="1.0" encoding="ISO-8859-1"?> as its first line'
    )
    assert "invalid token" not in failure


def test_a_utf_16_pyramid_with_a_byte_order_mark_gives_the_same_records(tmp_path):
    text = PYR.decode("utf-8").replace(
        '<?xml version="1.0"?>', '<?xml version="1.0" encoding="UTF-16"?>'
    )
    import_files(
        write(tmp_path, "D9901.pyr", text.encode("utf-16")), PAN_FIXTURE, collection="utf16"
    )
    utf16 = stored_records()
    assert record_counts()["Pyramid"] == 1
    for model in (PSE, PeerAnnotation, Pyramid, Summary):
        model.objects.all().delete()
    import_files(PYRAMID_FIXTURE, PAN_FIXTURE, collection="utf8")
    assert stored_records() == utf16
