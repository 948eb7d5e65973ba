"""The same records and the same scores by every path: the shared NIST DUC folders imported with
`import_ducview`, uploaded through the browser's background job (one zip), and fed to the importer
file by file in forward and reverse order."""

import io
import zipfile

import pytest

from annotator.models import (
    PSE,
    SCU,
    Collection,
    Contributor,
    ImportJob,
    PeerAnnotation,
    PeerSCUComment,
    PSESpan,
    Pyramid,
    PyramidModel,
    Span,
    Summary,
)
from annotator.transfer import jobs
from annotator.transfer.importing import DucviewImporter, ducview_files
from scoring.scores.records import score_collection
from tests.helpers import import_files, planner_statistics_current, stored_job

pytestmark = [pytest.mark.django_db, pytest.mark.shared_data]

FOLDERS = ["duc2006-nist", "duc2007-main-nist", "duc2007-update-nist"]


def collection_records(name: str) -> dict:
    """Everything an import stores in a collection, without database ids."""
    planner_statistics_current()
    where = {"docset__collection__name": name}
    pyramid_where = {"pyramid__docset__collection__name": name}
    return {
        "summaries": sorted(
            Summary.objects.filter(**where).values_list(
                "docset__name", "kind", "author", "name", "text"
            )
        ),
        "pyramids": sorted(
            Pyramid.objects.filter(**where).values_list(
                "docset__name",
                "name",
                "source_name",
                "start_document_regex",
                "status",
                "fingerprint",
            )
        ),
        "models": sorted(
            PyramidModel.objects.filter(**pyramid_where).values_list(
                "pyramid__name", "summary__author", "position"
            )
        ),
        "scus": sorted(
            SCU.objects.filter(**pyramid_where).values_list(
                "pyramid__name", "uid", "label", "comment", "position"
            )
        ),
        "contributors": sorted(
            Contributor.objects.filter(scu__pyramid__docset__collection__name=name).values_list(
                "scu__pyramid__name", "scu__uid", "summary__author", "comment", "position"
            )
        ),
        "spans": sorted(
            Span.objects.filter(summary__docset__collection__name=name).values_list(
                "contributor__scu__pyramid__name",
                "contributor__scu__uid",
                "contributor__position",
                "summary__author",
                "start",
                "end",
                "position",
            )
        ),
        "annotations": sorted(
            PeerAnnotation.objects.filter(**pyramid_where).values_list(
                "pyramid__name",
                "peer__author",
                "annotator_code",
                "source_name",
                "status",
                "fingerprint",
            )
        ),
        "pses": sorted(
            (a, p, c, uid or 0, comment, position)
            for a, p, c, uid, comment, position in PSE.objects.filter(
                annotation__pyramid__docset__collection__name=name
            ).values_list(
                "annotation__pyramid__name",
                "annotation__peer__author",
                "annotation__annotator_code",
                "scu__uid",
                "comment",
                "position",
            )
        ),
        "pse_spans": sorted(
            PSESpan.objects.filter(
                pse__annotation__pyramid__docset__collection__name=name
            ).values_list(
                "pse__annotation__peer__author",
                "pse__annotation__annotator_code",
                "pse__position",
                "start",
                "end",
                "position",
            )
        ),
        "comments": sorted(
            (p, c, uid or 0, text)
            for p, c, uid, text in PeerSCUComment.objects.filter(
                annotation__pyramid__docset__collection__name=name
            ).values_list(
                "annotation__peer__author", "annotation__annotator_code", "scu__uid", "comment"
            )
        ),
    }


def score_rows(name: str) -> list:
    return sorted(
        (row.docset, row.peer, row.annotator, row.pyramid, row.scores)
        for row in score_collection(Collection.objects.get(name=name))
    )


@pytest.fixture
def shared_files(shared_data):
    return ducview_files([shared_data / folder for folder in FOLDERS])


def api_score_rows(client, name: str) -> list:
    """The same rows from /api/scores/, its pages walked (`next`) as a client must."""
    url, rows = f"/api/scores/?collection={Collection.objects.get(name=name).pk}", []
    while url:
        page = client.get(url).json()
        rows += page["results"]
        url = page["next"]
    return rows


def test_the_command_the_browser_and_any_order_store_the_same_records_and_scores(
    shared_files, shared_data, demo, client
):
    import_files(*[shared_data / folder for folder in FOLDERS], collection="by command")

    for name, order in (("forward", shared_files), ("reverse", shared_files[::-1])):
        importer = DucviewImporter(name)
        for path in order:
            importer.import_file(path)
        assert importer.report.failures == []

    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for path in shared_files[::-1]:
            archive.writestr(str(path.relative_to(shared_data)), path.read_bytes())
    collection = Collection.objects.create(name="by browser")
    job = stored_job(
        ImportJob,
        content=buffer.getvalue(),
        collection=collection,
        kind="ducview",
        file_name="duc.zip",
        created_by=demo["admin"],
    )
    jobs.run_import_job.call(job.pk)
    job.refresh_from_db()
    assert job.status == "done"
    assert job.done == job.total == len(shared_files) == 161
    assert job.report_sections["refused"] == []

    expected = collection_records("by command")
    assert len(expected["annotations"]) == 154
    assert len(expected["pyramids"]) == 7
    expected_scores = score_rows("by command")
    for name in ("forward", "reverse", "by browser"):
        assert collection_records(name) == expected, name
        assert score_rows(name) == expected_scores, name
    client.force_login(demo["admin"])
    api_rows = api_score_rows(client, "by browser")  # 154 rows: two pages of at most 100
    assert api_rows == [
        row.as_dict() for row in score_collection(Collection.objects.get(name="by browser"))
    ]
    assert sorted((r["docset"], r["peer"], r["annotator"], r["pyramid"]) for r in api_rows) == [
        row[:4] for row in expected_scores
    ]
