"""GET /unit-sets/<pk>/: a unit set's units (SEE: each within its model's text), with the editing
forms for administrators before judging starts; and the unit sets on the docset's page."""

import pytest
from django.urls import reverse

from annotator.models import Membership, Role
from tests.coverage.unit_set_helpers import judged, see_of_model_a

pytestmark = pytest.mark.django_db


@pytest.fixture
def see(demo):
    return see_of_model_a(demo)


def page(client, user, unit_set):
    client.force_login(user)
    return client.get(reverse("unit-set-detail", args=[unit_set.pk])).content.decode()


def test_an_administrator_sees_each_unit_in_its_model_s_text_with_the_edits(client, demo, see):
    shown = page(client, demo["admin"], see)
    assert "<h1>Unit set SEE model A</h1>" in shown
    # The unit marked within its sentence of model A.
    assert (
        "<mark>Neil Armstrong and Buzz Aldrin walked on the surface while Michael Collins orbited "
        "above in the command module</mark>." in shown
    )
    # The model's text with the units numbered.
    assert "<sup>3</sup> Armstrong was the first person to step onto the Moon</mark>" in shown
    for action in ("relabel", "merge", "split", "move", "delete", "add"):
        assert reverse("unit-set-edit", args=[see.pk, action]) in shown
    assert shown.count('name="version" value="1"') >= 4 * 4
    assert "Merge units 3 and 4" in shown
    assert "Merge units 4 and 5" not in shown  # the last unit has no next
    assert "“Aldrin” (word 5)" in shown  # a place to split unit 2


@pytest.mark.parametrize("who", ["organizer", "adjudicator"])
def test_readers_see_the_units_without_the_edits(client, demo, see, django_user_model, who):
    if who == "adjudicator":
        user = django_user_model.objects.create_user("adjudicator", password="adj-pass-1")
        Membership.objects.create(collection=demo["collection"], user=user, role=Role.ADJUDICATOR)
    else:
        user = demo[who]
    shown = page(client, user, see)
    assert "<p>Armstrong was the first person to step onto the Moon</p>" in shown
    assert "unit-set-edit" not in shown
    assert "/edit/" not in shown


@pytest.mark.parametrize(("who", "status"), [("annotator", 403), ("outsider", 404)])
def test_annotators_and_outsiders_are_refused(client, demo, see, who, status):
    client.force_login(demo[who])
    assert client.get(reverse("unit-set-detail", args=[see.pk])).status_code == status


def test_once_judged_the_page_says_the_units_are_fixed(client, demo, see):
    judged(see, demo)
    shown = page(client, demo["admin"], see)
    assert "Judging has started on this unit set" in shown
    assert "(1 judgment given.)" in shown
    assert "/edit/" not in shown


def test_a_presence_unit_set_shows_weights_and_scus(client, demo):
    from annotator.coverage import unit_sets

    pyramid = demo["pyramid"]
    lite = unit_sets.presence_from_pyramid(pyramid.docset, pyramid, "Lite")
    shown = page(client, demo["organizer"], lite)
    first = lite.units.get(position=1)
    assert f'SCU {first.scu.uid}</span> <span class="muted">weight {first.weight}' in shown
    assert f'href="{reverse("pyramid-detail", args=[pyramid.pk])}"' in shown
    assert "its units numbered" not in shown  # no model text: SEE only


def test_the_docset_page_lists_unit_sets_and_offers_new_ones_to_administrators(client, demo, see):
    url = reverse("docset-detail", args=[demo["pyramid"].docset_id])
    client.force_login(demo["admin"])
    shown = client.get(url).content.decode()
    assert f'<a href="{reverse("unit-set-detail", args=[see.pk])}">SEE model A</a>' in shown
    assert reverse("unit-set-create", args=[demo["pyramid"].docset_id]) in shown
    client.force_login(demo["organizer"])
    shown = client.get(url).content.decode()
    assert reverse("unit-set-detail", args=[see.pk]) in shown
    assert reverse("unit-set-create", args=[demo["pyramid"].docset_id]) not in shown
