"""GET /collections/<pk>/units.zip?format=…&unit_set=…: the collection's unit sets as
`export_units` writes them, offered in the collection's downloads to those who read the whole
collection (administrators, organizers, adjudicators); annotators are refused."""

import io
import re
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


def test_a_hand_written_set_is_offered_on_its_docset_s_page_and_its_own_page(client, demo):
    """The tester made a set by hand and looked for its download where they made it: the docset's
    Downloads and the unit set's page offer it (that docset's set only)."""
    from html import unescape

    from annotator.coverage import unit_sets

    docset = demo["pyramid"].docset
    unit_set = unit_sets.presence_by_hand(docset, "ACUs & more", ["Apollo 11 landed.", "B."])
    client.force_login(demo["organizer"])
    base = reverse("collection-units", args=[demo["collection"].pk])
    wanted = {
        f"{base}?format={f}&unit_set=ACUs%20%26%20more&docset=DEMO01"
        for f in ("realsumm", "lite-pyramid")
    }
    for page in (
        reverse("docset-detail", args=[docset.pk]),
        reverse("unit-set-detail", args=[unit_set.pk]),
    ):
        html = client.get(page).content.decode()
        shown = {unescape(h) for h in re.findall(r'href="([^"]*units\.zip[^"]*)"', html)}
        assert shown == wanted, page
    for link in wanted:
        archive = zipfile.ZipFile(io.BytesIO(client.get(link).content))
        names = archive.namelist()
        assert "SCUs_list.csv" in names or "SCUs.txt" in names
        text = archive.read("SCUs_list.csv" if "SCUs_list.csv" in names else "SCUs.txt").decode()
        assert "Apollo 11 landed." in text


def test_only_presence_sets_are_exported_under_a_name_a_see_set_has_elsewhere(client, demo):
    from annotator.coverage import unit_sets
    from annotator.models import Docset, Summary
    from tests.coverage.unit_set_helpers import see_of_model_a

    see_of_model_a(demo)  # "SEE model A" of DEMO01, a SEE set
    other = Docset.objects.create(collection=demo["collection"], name="DEMO02")
    Summary.objects.create(docset=other, kind="peer", author="1", text="Apollo 11 landed.")
    unit_sets.presence_by_hand(other, "SEE model A", ["Apollo 11 landed."])
    files = export_units(demo["collection"], "lite-pyramid", "SEE model A").files
    assert files["SCUs.txt"] == "Apollo 11 landed.\n"
    assert files["ids.txt"] == "DEMO02\n"


def test_a_see_set_s_page_says_it_has_no_community_format(client, demo):
    from tests.coverage.unit_set_helpers import see_of_model_a

    see = see_of_model_a(demo)
    client.force_login(demo["organizer"])
    html = client.get(reverse("unit-set-detail", args=[see.pk])).content.decode()
    assert "units.zip" not in html
    assert "SEE unit sets have no file format the community shares" in html
