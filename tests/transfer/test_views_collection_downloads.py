"""GET /collections/<pk>/ducview.zip and the Downloads of the collection and docset pages: the
DUCView files `export_ducview` writes, as one zip, and every score table `export_scores` prints."""

import csv
import io
import json
import re
import zipfile
from html import unescape
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from annotator.ducview.reader import PeerAnnotationDocument, PyramidDocument, read_any
from annotator.models import Collection, Membership, PeerAnnotation, Pyramid, Role
from scoring.scores.formats import systems_to_csv
from scoring.scores.records import score_collection
from scoring.scores.tables import system_means
from tests.conftest import PAN_FIXTURE, PYRAMID_FIXTURE
from tests.helpers import body, complete_consensus_of_peer_1, import_files, run
from tests.transfer.test_export_ducview_command import annotation_content, pyramid_content, scores

pytestmark = pytest.mark.django_db


def zip_url(collection, docset=""):
    return reverse("collection-ducview", args=[collection.pk]) + (
        f"?docset={docset}" if docset else ""
    )


def download(client, url) -> zipfile.ZipFile:
    response = client.get(url)
    assert response.status_code == 200, body(response)[:200]
    assert response["Content-Type"] == "application/zip"
    assert "attachment" in response["Content-Disposition"]
    return zipfile.ZipFile(io.BytesIO(b"".join(response.streaming_content)))


def files_of(archive: zipfile.ZipFile) -> dict[str, bytes]:
    return {name: archive.read(name) for name in archive.namelist() if not name.endswith("/")}


def written_by_the_command(tmp_path: Path, collection: str, **options) -> dict[str, bytes]:
    run("export_ducview", collection=collection, out=str(tmp_path), **options)
    return {
        p.relative_to(tmp_path).as_posix(): p.read_bytes()
        for p in tmp_path.rglob("*")
        if p.is_file()
    }


# -- the zip ---------------------------------------------------------------------------------------


def test_the_zip_holds_the_bytes_export_ducview_writes(client, demo, tmp_path):
    client.force_login(demo["organizer"])
    archive = download(client, zip_url(demo["collection"]))
    files = files_of(archive)
    assert files == written_by_the_command(tmp_path, demo["collection"].name)
    assert {"allpyramids/", "allpans/"} <= set(archive.namelist())  # NIST's package layout
    assert sorted(files) == [
        "allpans/DEMO01.1.pan",
        "allpans/DEMO01.2.pan",
        "allpans/DEMO01.3.pan",
        "allpyramids/DEMO01.pyr",
    ]


def test_every_file_parses_back(client, demo):
    client.force_login(demo["admin"])
    files = files_of(download(client, zip_url(demo["collection"])))
    documents = {name: read_any(data) for name, data in files.items()}
    assert all(
        isinstance(d, PyramidDocument) for n, d in documents.items() if n.startswith("allpyramids/")
    )
    pans = {n: d for n, d in documents.items() if n.startswith("allpans/")}
    assert len(pans) == 3
    assert all(isinstance(d, PeerAnnotationDocument) for d in pans.values())
    peer_1 = demo["annotations"]["1"].peer.text
    assert pans["allpans/DEMO01.1.pan"].text == peer_1 + "\n"
    assert len(documents["allpyramids/DEMO01.pyr"].scus) == demo["pyramid"].scus.count()


def test_the_zip_imports_through_the_import_page_to_the_same_records(
    client, demo, django_capture_on_commit_callbacks
):
    """DUCView files imported into one collection, downloaded as a zip, uploaded to another
    collection's import page: the same SCUs, contributors, spans, PSEs and scores."""
    import_files(PYRAMID_FIXTURE, PAN_FIXTURE, collection="before")
    Collection.objects.create(name="after")
    client.force_login(demo["admin"])
    data = b"".join(client.get(zip_url(Collection.objects.get(name="before"))).streaming_content)
    after = Collection.objects.get(name="after")
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(
            reverse("ducview-import", args=[after.pk]),
            {"files": SimpleUploadedFile("before-ducview.zip", data)},
        )
    assert response.status_code == 302
    assert pyramid_content("after") == pyramid_content("before") != set()
    assert annotation_content("after") == annotation_content("before") != set()
    assert scores("after") == scores("before")


def test_the_unpacked_zip_imports_with_import_ducview(client, demo, tmp_path):
    import_files(PYRAMID_FIXTURE, PAN_FIXTURE, collection="before")
    client.force_login(demo["admin"])
    download(client, zip_url(Collection.objects.get(name="before"))).extractall(tmp_path)
    import_files(tmp_path, collection="after")
    assert annotation_content("after") == annotation_content("before") != set()
    assert scores("after") == scores("before")


def test_one_docsets_files(client, demo, tmp_path):
    import_files(PYRAMID_FIXTURE, PAN_FIXTURE, collection=demo["collection"].name)
    client.force_login(demo["organizer"])
    everything = files_of(download(client, zip_url(demo["collection"])))
    one = files_of(download(client, zip_url(demo["collection"], "D9901")))
    assert sorted(one) == ["allpans/100.D9901.M.100.A.7.pan", "allpyramids/D9901.pyr"]
    assert one == {name: data for name, data in everything.items() if "D9901" in name}
    assert one == written_by_the_command(tmp_path, demo["collection"].name, docset="D9901")
    assert (
        "D9901-ducview.zip"
        in client.get(zip_url(demo["collection"], "D9901"))["Content-Disposition"]
    )
    assert client.get(zip_url(demo["collection"], "D0000")).status_code == 404


def test_an_empty_collection_gives_the_empty_folders(client, demo):
    collection = Collection.objects.create(name="Empty")
    client.force_login(demo["admin"])
    archive = download(client, zip_url(collection))
    assert archive.namelist() == ["allpyramids/", "allpans/"]


def test_a_consensus_and_an_annotation_made_in_the_app_are_exported_too(client, demo):
    consensus = complete_consensus_of_peer_1(demo)
    client.force_login(demo["organizer"])
    files = files_of(download(client, zip_url(demo["collection"])))
    assert (
        len([n for n in files if n.startswith("allpans/")]) == PeerAnnotation.objects.count() == 5
    )
    peer_1 = sorted(n for n in files if n.startswith("allpans/DEMO01.1"))
    assert len(peer_1) == 3
    assert "allpans/DEMO01.1.pan" in peer_1
    ids = {a.pk for a in PeerAnnotation.objects.filter(peer__author="1")}
    assert {int(re.search(r"-(\d+)\.pan$", n)[1]) for n in peer_1 if "-" in n} < ids
    assert consensus.pk in ids
    notes = b" ".join(files[n] for n in peer_1)
    assert b'annotator="annotator"' in notes
    assert b'annotator="demo"' in notes


@pytest.mark.parametrize(
    ("who", "status"),
    [
        ("admin", 200),
        ("organizer", 200),
        ("adjudicator", 200),
        ("annotator", 403),
        ("other_annotator", 403),
        ("outsider", 404),
    ],
)
def test_who_downloads_the_zip(client, demo, django_user_model, who, status):
    if who == "adjudicator":
        demo["adjudicator"] = django_user_model.objects.create_user("adjudicator")
        Membership.objects.create(
            collection=demo["collection"], user=demo["adjudicator"], role=Role.ADJUDICATOR
        )
    client.force_login(demo[who])
    assert client.get(zip_url(demo["collection"])).status_code == status
    assert client.get(zip_url(demo["collection"], "DEMO01")).status_code == status


def test_a_member_organizing_another_collection_reads_only_that_one(
    client, demo, django_user_model
):
    other = Collection.objects.create(name="Other")
    elsewhere = django_user_model.objects.create_user("elsewhere")
    Membership.objects.create(collection=other, user=elsewhere, role=Role.ORGANIZER)
    client.force_login(elsewhere)
    assert client.get(zip_url(other)).status_code == 200
    assert client.get(zip_url(demo["collection"])).status_code == 404


def test_anonymous_visitors_log_in_and_unknown_collections_are_404(client, demo):
    response = client.get(zip_url(demo["collection"]))
    assert response.status_code == 302
    assert response.url.startswith(reverse("login"))
    client.force_login(demo["admin"])
    assert client.get(reverse("collection-ducview", args=[999999])).status_code == 404


def count_queries(client, url) -> int:
    with CaptureQueriesContext(connection) as queries:
        response = client.get(url)
        if response.streaming:
            b"".join(response.streaming_content)
    assert response.status_code == 200
    return len(queries)


def test_the_zip_takes_the_same_queries_whatever_the_number_of_files(
    client, demo, django_assert_max_num_queries
):
    client.force_login(demo["organizer"])
    with django_assert_max_num_queries(16):
        b"".join(client.get(zip_url(demo["collection"])).streaming_content)
    few = count_queries(client, zip_url(demo["collection"]))
    import_files(PYRAMID_FIXTURE, PAN_FIXTURE, collection=demo["collection"].name)
    complete_consensus_of_peer_1(demo)
    assert Pyramid.objects.count() == 2
    assert PeerAnnotation.objects.count() == 6
    assert count_queries(client, zip_url(demo["collection"])) == few


# -- the score tables ------------------------------------------------------------------------------


def scores_url(demo, query):
    return reverse("collection-scores", args=[demo["collection"].pk]) + query


@pytest.mark.parametrize("fmt", ["csv", "json", "duc"])
@pytest.mark.parametrize("docset", [None, "DEMO01"])
@pytest.mark.parametrize("adjudicated", [False, True])
def test_each_score_table_is_what_export_scores_prints(client, demo, fmt, docset, adjudicated):
    complete_consensus_of_peer_1(demo)
    client.force_login(demo["organizer"])
    query = (
        f"?format={fmt}"
        + (f"&docset={docset}" if docset else "")
        + ("&adjudicated=1" if adjudicated else "")
    )
    response = client.get(scores_url(demo, query))
    assert response.status_code == 200
    assert "attachment" in response["Content-Disposition"]
    options = {"docset": docset} if docset else {}
    printed, _ = run(
        "export_scores",
        collection=demo["collection"].name,
        format=fmt,
        adjudicated=adjudicated,
        **options,
    )
    assert body(response).decode() == printed != ""


def test_the_scores_follow_the_collections_conventions(client, demo):
    collection = demo["collection"]
    collection.weight_convention, collection.average_rounding = "models", "ceil"
    collection.save()
    client.force_login(demo["organizer"])
    rows = list(
        csv.DictReader(io.StringIO(body(client.get(scores_url(demo, "?format=csv"))).decode()))
    )
    assert {(r["weight_convention"], r["average_rounding"]) for r in rows} == {("models", "ceil")}
    assert (
        body(client.get(scores_url(demo, "?format=csv"))).decode()
        == run("export_scores", collection=collection.name, format="csv")[0]
    )


@pytest.mark.parametrize("adjudicated", [False, True])
def test_each_systems_mean_as_csv_and_json(client, demo, adjudicated):
    complete_consensus_of_peer_1(demo)
    client.force_login(demo["organizer"])
    flag = "&adjudicated=1" if adjudicated else ""
    rows = score_collection(demo["collection"], adjudicated=adjudicated)
    means = system_means(rows)
    csv_text = body(client.get(scores_url(demo, f"?view=systems&format=csv{flag}"))).decode()
    assert csv_text == systems_to_csv(means, rows)
    assert {
        (r["weight_convention"], r["average_rounding"])
        for r in csv.DictReader(io.StringIO(csv_text))
    } == {("contributors", "half_up")}  # the conventions the means were computed under
    response = client.get(scores_url(demo, f"?view=systems&format=json{flag}"))
    assert response["Content-Type"].startswith("application/json")
    assert "attachment" in response["Content-Disposition"]
    document = json.loads(body(response))
    assert document["conventions"] == [{"weight": "contributors", "average_rounding": "half_up"}]
    assert [(s["peer"], s["docsets"]) for s in document["systems"]] == [
        (m.peer, m.docsets) for m in means
    ]
    assert [s["modified"] for s in document["systems"]] == pytest.approx(
        [m.modified for m in means]
    )


@pytest.mark.parametrize(
    ("who", "status"), [("organizer", 200), ("annotator", 403), ("outsider", 404)]
)
def test_who_downloads_the_systems_json(client, demo, who, status):
    client.force_login(demo[who])
    assert client.get(scores_url(demo, "?view=systems&format=json")).status_code == status


def test_score_downloads_take_the_same_queries_whatever_the_number_of_rows(
    client, demo, django_assert_max_num_queries
):
    client.force_login(demo["organizer"])
    queries = {}
    for fmt in ("format=csv", "format=json", "format=duc", "view=systems&format=json"):
        with django_assert_max_num_queries(16):
            client.get(scores_url(demo, "?" + fmt))
        queries[fmt] = count_queries(client, scores_url(demo, "?" + fmt))
    import_files(PYRAMID_FIXTURE, PAN_FIXTURE, collection=demo["collection"].name)
    complete_consensus_of_peer_1(demo)
    for fmt, before in queries.items():
        assert count_queries(client, scores_url(demo, "?" + fmt)) == before, fmt


# -- the pages' Downloads --------------------------------------------------------------------------


def downloads_of(page: str) -> dict[str, str]:
    """{data-download: href} of the page's download links."""
    return {
        kind: unescape(href)
        for kind, href in re.findall(r'<a data-download="([\w-]+)" href="([^"]+)"', page)
    }


def test_the_collection_page_offers_every_download(client, demo):
    complete_consensus_of_peer_1(
        demo
    )  # the annotator's own annotation of peer 1 is still in progress
    client.force_login(demo["organizer"])
    page = body(client.get(reverse("collection-detail", args=[demo["collection"].pk]))).decode()
    links = downloads_of(page)
    assert set(links) == {
        "ducview",
        "scores-csv",
        "scores-json",
        "scores-duc",
        "adjudicated-scores-csv",
        "adjudicated-scores-json",
        "adjudicated-scores-duc",
        "in-progress-scores-csv",
        "in-progress-scores-json",
        "in-progress-scores-duc",
        "systems-csv",
        "systems-json",
        "adjudicated-systems-csv",
        "adjudicated-systems-json",
        "in-progress-systems-csv",
        "in-progress-systems-json",
    }
    assert links["ducview"] == zip_url(demo["collection"])
    name = demo["collection"].name
    for kind, href in links.items():
        response = client.get(href)
        assert response.status_code == 200, kind
        assert "attachment" in response["Content-Disposition"], kind
        if kind.endswith("scores-" + kind.rpartition("-")[2]):
            fmt = kind.rpartition("-")[2]
            printed, _ = run(
                "export_scores",
                collection=name,
                format=fmt,
                adjudicated=kind.startswith("adjudicated"),
                include_in_progress=kind.startswith("in-progress"),
            )
            assert body(response).decode() == printed, kind
    # Submitted work by default; the in-progress tables hold the annotator's annotation too, marked.
    rows = list(csv.DictReader(io.StringIO(body(client.get(links["scores-csv"])).decode())))
    assert [(r["peer"], r["annotator"], r["status"]) for r in rows] == [
        (p, "demo", "submitted") for p in "123"
    ]
    marked = [
        line
        for line in body(client.get(links["in-progress-scores-duc"])).decode().splitlines()
        if line.endswith("\t#in_progress")
    ]
    assert marked == ["DEMO01\t1\t0\t0\t0\tannotator\t#in_progress"]
    systems = json.loads(body(client.get(links["in-progress-systems-json"])))["systems"]
    assert {s["peer"]: s["in_progress"] for s in systems} == {"1": 1, "2": 0, "3": 0}
    assert 'id="downloads"' in page
    assert "Number of contributors" in page
    assert "work in progress too" in page


def test_the_docset_page_offers_its_own_downloads(client, demo):
    import_files(PYRAMID_FIXTURE, PAN_FIXTURE, collection=demo["collection"].name)
    client.force_login(demo["admin"])
    docset = demo["pyramid"].docset
    links = downloads_of(body(client.get(reverse("docset-detail", args=[docset.pk]))).decode())
    assert "systems-csv" not in links
    assert links["ducview"] == zip_url(demo["collection"], "DEMO01")
    assert sorted(files_of(download(client, links["ducview"]))) == [
        "allpans/DEMO01.1.pan",
        "allpans/DEMO01.2.pan",
        "allpans/DEMO01.3.pan",
        "allpyramids/DEMO01.pyr",
    ]
    printed, _ = run(
        "export_scores", collection=demo["collection"].name, docset="DEMO01", format="duc"
    )
    assert body(client.get(links["scores-duc"])).decode() == printed
    assert len(printed.splitlines()) == 3


def test_annotators_never_see_the_downloads(client, demo):
    client.force_login(demo["annotator"])
    assert client.get(reverse("collection-detail", args=[demo["collection"].pk])).status_code == 403
    assert client.get(reverse("docset-detail", args=[demo["pyramid"].docset.pk])).status_code == 403


def judged_presence(demo):
    """A hand-written presence unit set of DEMO01, peer 1 judged by the annotator, submitted."""
    from annotator.coverage import unit_sets
    from annotator.models import Judgment, JudgmentTask

    unit_set = unit_sets.presence_by_hand(
        demo["pyramid"].docset, "ACUs", ["Apollo 11 landed.", "Collins orbited."]
    )
    task = JudgmentTask.objects.create(
        unit_set=unit_set,
        peer=demo["annotations"]["1"].peer,
        judge=demo["annotator"],
        status=JudgmentTask.Status.SUBMITTED,
    )
    first, second = unit_set.units.order_by("position")
    Judgment.objects.create(task=task, unit=first, value=1)
    Judgment.objects.create(task=task, unit=second, value=0)
    return unit_set


@pytest.mark.parametrize("page_of", ["collection", "docset"])
def test_the_coverage_scores_are_offered_once_there_are_judgment_tasks(client, demo, page_of):
    client.force_login(demo["organizer"])
    page_url = (
        reverse("collection-detail", args=[demo["collection"].pk])
        if page_of == "collection"
        else reverse("docset-detail", args=[demo["pyramid"].docset.pk])
    )
    assert not any("coverage" in k for k in downloads_of(body(client.get(page_url)).decode()))
    judged_presence(demo)
    links = downloads_of(body(client.get(page_url)).decode())
    coverage = {k for k in links if "coverage" in k}
    expected = {"coverage-csv", "coverage-json"}
    if page_of == "collection":
        expected |= {"coverage-systems-csv", "coverage-systems-json"}
    assert coverage == expected
    for kind in coverage:
        assert "table=coverage" in links[kind]
        response = client.get(links[kind])
        assert response.status_code == 200, kind
        assert "attachment" in response["Content-Disposition"], kind
    rows = list(csv.DictReader(io.StringIO(body(client.get(links["coverage-csv"])).decode())))
    assert [(r["peer"], r["unit_set"], float(r["presence"])) for r in rows] == [("1", "ACUs", 0.5)]
    printed, _ = run(
        "export_scores",
        collection=demo["collection"].name,
        format="json",
        scores="coverage-judgments",
        systems=True,
    )
    if page_of == "collection":
        assert body(client.get(links["coverage-systems-json"])).decode() == printed
