"""GET /collections/<pk>/units.zip?format=…&unit_set=…: the collection's unit sets as
`export_units` writes them, offered in the collection's downloads to those who read the whole
collection (administrators, organizers, adjudicators); annotators are refused."""

import io
import zipfile

import pytest
from django.urls import reverse

from annotator.coverage.importing import export_units
from annotator.models import Membership, Role
from tests.coverage.unit_files import write_realsumm
from tests.helpers import run

pytestmark = pytest.mark.django_db


@pytest.fixture
def imported(demo, tmp_path):
    run(
        "import_units",
        *map(str, write_realsumm(tmp_path)),
        format="realsumm",
        collection=demo["collection"].name,
        no_progress=True,
    )
    return demo


def url(demo, format_name="realsumm", unit_set="REALSumm"):
    base = reverse("collection-units", args=[demo["collection"].pk])
    return f"{base}?format={format_name}&unit_set={unit_set}"


@pytest.mark.parametrize("format_name", ["realsumm", "lite-pyramid"])
def test_the_zip_holds_what_the_command_writes(client, imported, format_name):
    client.force_login(imported["admin"])
    response = client.get(url(imported, format_name))
    assert response.status_code == 200
    assert response["Content-Type"] == "application/zip"
    assert (
        f'attachment; filename="Demo_Apollo_11-units-{format_name}.zip"'
        == response["Content-Disposition"]
    )
    archive = zipfile.ZipFile(io.BytesIO(response.content))
    files = export_units(imported["collection"], format_name, "REALSumm").files
    assert {n: archive.read(n).decode() for n in archive.namelist()} == files


def test_the_collection_page_offers_each_format(client, imported):
    client.force_login(imported["organizer"])
    page = client.get(reverse("collection-detail", args=[imported["collection"].pk]))
    html = page.content.decode()
    assert "Unit sets “REALSumm” (presence judgments)" in html
    assert url(imported).replace("&", "&amp;") in html
    assert url(imported, "lite-pyramid").replace("&", "&amp;") in html


def test_no_unit_sets_no_offer(client, demo):
    client.force_login(demo["admin"])
    page = client.get(reverse("collection-detail", args=[demo["collection"].pk]))
    assert "units.zip" not in page.content.decode()
    assert client.get(url(demo)).status_code == 404


def test_organizers_and_adjudicators_download(client, imported, django_user_model):
    adjudicator = django_user_model.objects.create_user("adj", password="adj-pass-1")
    Membership.objects.create(
        collection=imported["collection"], user=adjudicator, role=Role.ADJUDICATOR
    )
    for user in (imported["organizer"], adjudicator):
        client.force_login(user)
        assert client.get(url(imported)).status_code == 200


def test_annotators_are_refused_outsiders_see_nothing(client, imported):
    client.force_login(imported["annotator"])
    assert client.get(url(imported)).status_code == 403
    page = client.get(reverse("collection-detail", args=[imported["collection"].pk]))
    assert "units.zip" not in page.content.decode()
    client.force_login(imported["outsider"])
    assert client.get(url(imported)).status_code == 404
    client.logout()
    assert client.get(url(imported)).status_code == 302


def test_a_bad_format_or_unit_set(client, imported):
    client.force_login(imported["admin"])
    assert client.get(url(imported, "csv")).status_code == 400
    assert client.get(url(imported, unit_set="Nope")).status_code == 404
