"""GET /api/collections/<id>/ducview/: the collection's DUCView files as a zip, as the collection
page's download and `export_ducview` give them."""

import io
import zipfile

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.authtoken.models import Token

from annotator.ducview.reader import read_any
from annotator.models import Docset, Membership, Role
from tests.conftest import PAN_FIXTURE, PYRAMID_FIXTURE
from tests.helpers import import_files, run

pytestmark = pytest.mark.django_db


def path(demo, query=""):
    return f"/api/collections/{demo['collection'].pk}/ducview/{query}"


def files(response) -> dict[str, bytes]:
    assert response.status_code == 200, response.content[:300]
    assert response["Content-Type"] == "application/zip"
    assert "attachment" in response["Content-Disposition"]
    archive = zipfile.ZipFile(io.BytesIO(b"".join(response.streaming_content)))
    return {name: archive.read(name) for name in archive.namelist() if not name.endswith("/")}


def test_the_zip_through_the_api_is_the_pages_and_the_commands(client, demo, tmp_path):
    token = Token.objects.create(user=demo["organizer"])
    by_token = files(client.get(path(demo), HTTP_AUTHORIZATION=f"Token {token.key}"))
    client.force_login(demo["organizer"])
    assert by_token == files(client.get(f"/collections/{demo['collection'].pk}/ducview.zip"))
    run("export_ducview", collection=demo["collection"].name, out=str(tmp_path))
    assert by_token == {
        p.relative_to(tmp_path).as_posix(): p.read_bytes()
        for p in tmp_path.rglob("*")
        if p.is_file()
    }
    assert all(read_any(data) for data in by_token.values())
    assert len(by_token) == 4


@pytest.mark.parametrize("accept", ["*/*", "application/zip", "application/json"])
def test_whatever_the_client_accepts(client, demo, accept):
    client.force_login(demo["admin"])
    assert "allpyramids/DEMO01.pyr" in files(client.get(path(demo), HTTP_ACCEPT=accept))


def test_one_docset(client, demo):
    import_files(PYRAMID_FIXTURE, PAN_FIXTURE, collection=demo["collection"].name)
    client.force_login(demo["admin"])
    assert sorted(files(client.get(path(demo, "?docset=D9901")))) == [
        "allpans/100.D9901.M.100.A.7.pan",
        "allpyramids/D9901.pyr",
    ]
    # By id, as every other endpoint filters (issue 15), or by name; the same files.
    docset = Docset.objects.get(collection=demo["collection"], name="D9901")
    assert sorted(files(client.get(path(demo, f"?docset={docset.pk}")))) == sorted(
        files(client.get(path(demo, "?docset=D9901")))
    )
    # A docset the collection does not hold: 400, naming the parameter.
    for unknown in (
        "D0000",
        "999999",
        str(
            Docset.objects.exclude(collection=demo["collection"])
            .values_list("pk", flat=True)
            .first()
            or 999998
        ),
    ):
        missing = client.get(path(demo, f"?docset={unknown}"))
        assert missing.status_code == 400, unknown
        assert missing["Content-Type"] == "application/json", unknown
        assert "docset" in missing.json()


@pytest.mark.parametrize("accept", ["*/*", "application/zip"])
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
def test_who_downloads_it(client, demo, django_user_model, who, status, accept):
    if who == "adjudicator":
        demo[who] = django_user_model.objects.create_user("adjudicator")
        Membership.objects.create(
            collection=demo["collection"], user=demo[who], role=Role.ADJUDICATOR
        )
    client.force_login(demo[who])
    response = client.get(path(demo), HTTP_ACCEPT=accept)
    assert response.status_code == status
    if status != 200:  # a refusal says why, in JSON, whatever was asked for
        assert response["Content-Type"] == "application/json"
        assert "detail" in response.json()


def test_anonymous_callers_and_unknown_collections(client, demo):
    assert client.get(path(demo)).status_code == 401
    client.force_login(demo["admin"])
    assert client.get("/api/collections/999999/ducview/").status_code == 404
    assert client.post(path(demo)).status_code == 405


def test_the_same_queries_whatever_the_number_of_files(client, demo, django_assert_max_num_queries):
    client.force_login(demo["organizer"])

    def count():
        with CaptureQueriesContext(connection) as captured, django_assert_max_num_queries(16):
            files(client.get(path(demo)))
        return len(captured)

    few = count()
    import_files(PYRAMID_FIXTURE, PAN_FIXTURE, collection=demo["collection"].name)
    assert count() == few


def test_documented_in_the_schema(client, demo):
    client.force_login(demo["admin"])
    operation = client.get("/api/schema/?format=json").json()["paths"][
        "/api/collections/{id}/ducview/"
    ]["get"]
    assert operation["responses"]["200"]["content"]["application/zip"]["schema"] == {
        "type": "string",
        "format": "binary",
    }
    assert "docset" in {p["name"] for p in operation["parameters"]}
