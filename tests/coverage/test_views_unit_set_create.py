"""GET/POST /docsets/<pk>/unit-sets/new/: an administrator makes unit sets of the three kinds."""

import pytest
from django.urls import reverse

from annotator.models import Membership, Pyramid, Role, Summary, Unit, UnitSet

pytestmark = pytest.mark.django_db


def url(demo):
    return reverse("unit-set-create", args=[demo["pyramid"].docset_id])


def model_ids(demo, *authors):
    return [
        str(pk)
        for pk in Summary.objects.filter(kind="model", author__in=authors)
        .order_by("author")
        .values_list("pk", flat=True)
    ]


def test_the_page_offers_the_three_kinds_with_every_model_ticked(client, demo):
    client.force_login(demo["admin"])
    page = client.get(url(demo)).content.decode()
    assert page.count('name="kind"') == 3
    for pk in model_ids(demo, "A", "B", "C", "D"):
        assert f'value="{pk}"' in page
    assert page.count("checked") >= 5  # the four models and the five-point scale
    # The docset's one submitted pyramid, offered chosen.
    assert f'<option value="{demo["pyramid"].pk}" selected>{demo["pyramid"].name}</option>' in page


def test_see_for_several_models_returns_to_the_docset_page(client, demo):
    client.force_login(demo["admin"])
    response = client.post(
        url(demo), {"kind": "see", "see-models": model_ids(demo, "A", "B"), "see-scale": "percent"}
    )
    assert response.status_code == 302
    assert response.url == reverse("docset-detail", args=[demo["pyramid"].docset_id]) + "#unit-sets"
    assert list(UnitSet.objects.values_list("name", "method", "scale")) == [
        ("SEE model A", "see", "percent"),
        ("SEE model B", "see", "percent"),
    ]
    assert Unit.objects.filter(unit_set__name="SEE model A").count() == 4
    page = client.get(response.url).content.decode()
    assert "Made the unit sets SEE model A, SEE model B." in page
    for unit_set in UnitSet.objects.all():
        assert reverse("unit-set-detail", args=[unit_set.pk]) in page


def test_one_unit_set_made_opens_its_page(client, demo):
    client.force_login(demo["admin"])
    response = client.post(
        url(demo),
        {"kind": "pyramid", "pyramid-pyramid": demo["pyramid"].pk, "pyramid-name": "Lite"},
    )
    unit_set = UnitSet.objects.get()
    assert response.url == reverse("unit-set-detail", args=[unit_set.pk])
    assert (unit_set.name, unit_set.source, unit_set.pyramid) == (
        "Lite",
        "pyramid",
        demo["pyramid"],
    )
    assert Unit.objects.filter(unit_set=unit_set).count() == demo["pyramid"].scus.count()


def test_units_written_by_hand(client, demo):
    client.force_login(demo["admin"])
    model_d = model_ids(demo, "D")[0]
    client.post(
        url(demo),
        {
            "kind": "hand",
            "hand-name": "ACUs",
            "hand-lines": "Apollo 11 landed in 1969.\r\n\r\nCollins stayed in orbit.\r\n",
            "hand-model": model_d,
        },
    )
    unit_set = UnitSet.objects.get()
    assert list(unit_set.units.values_list("position", "text", "model_id")) == [
        (1, "Apollo 11 landed in 1969.", int(model_d)),
        (2, "Collins stayed in orbit.", int(model_d)),
    ]


def test_a_refusal_is_shown_on_the_form_and_nothing_is_stored(client, demo):
    client.force_login(demo["admin"])
    UnitSet.objects.create(
        docset=demo["pyramid"].docset,
        name="SEE model A",
        method="see",
        scale="percent",
        source="models",
    )
    response = client.post(
        url(demo), {"kind": "see", "see-models": model_ids(demo, "A", "B"), "see-scale": "percent"}
    )
    assert response.status_code == 422
    assert "Docset DEMO01 already has a unit set named “SEE model A”." in response.content.decode()
    assert UnitSet.objects.count() == 1
    response = client.post(url(demo), {"kind": "hand", "hand-name": "X", "hand-lines": " \r\n "})
    assert response.status_code == 422
    assert UnitSet.objects.count() == 1


def test_a_line_written_twice_is_refused_by_name_and_the_lines_kept(client, demo):
    client.force_login(demo["admin"])
    lines = (
        "Apollo 11 landed in 1969.\r\n\r\nCollins stayed in orbit.\r\nApollo 11 landed in 1969.\r\n"
    )
    response = client.post(url(demo), {"kind": "hand", "hand-name": "ACUs", "hand-lines": lines})
    assert response.status_code == 422
    shown = response.content.decode()
    assert (
        "Write each unit once: these lines are there more than once: “Apollo 11 landed in 1969.”."
        in shown
    )
    assert "Collins stayed in orbit." in shown  # the lines are still in the box, to correct
    assert not UnitSet.objects.exists()


def test_a_pyramid_in_progress_is_not_offered(client, demo):
    Pyramid.objects.update(status=Pyramid.Status.IN_PROGRESS)
    client.force_login(demo["admin"])
    page = client.get(url(demo)).content.decode()
    assert "No submitted pyramid in this docset yet." in page
    response = client.post(
        url(demo), {"kind": "pyramid", "pyramid-pyramid": demo["pyramid"].pk, "pyramid-name": "L"}
    )
    assert response.status_code == 422
    assert not UnitSet.objects.exists()


def test_an_unknown_kind_is_404(client, demo):
    client.force_login(demo["admin"])
    assert client.post(url(demo), {"kind": "other"}).status_code == 404


@pytest.mark.parametrize(
    ("who", "status"),
    [("organizer", 403), ("adjudicator", 403), ("annotator", 403), ("outsider", 404)],
)
def test_only_administrators_make_unit_sets(client, demo, django_user_model, who, status):
    if who == "adjudicator":
        user = django_user_model.objects.create_user("adjudicator", password="adj-pass-1")
        Membership.objects.create(collection=demo["collection"], user=user, role=Role.ADJUDICATOR)
    else:
        user = demo[who]
    client.force_login(user)
    assert client.get(url(demo)).status_code == status
    response = client.post(url(demo), {"kind": "hand", "hand-name": "X", "hand-lines": "A unit."})
    assert response.status_code == status
    assert not UnitSet.objects.exists()


def test_a_collection_administrator_by_membership_makes_them(client, demo, django_user_model):
    user = django_user_model.objects.create_user("coll-admin", password="admin-pass-2")
    Membership.objects.create(collection=demo["collection"], user=user, role=Role.ADMINISTRATOR)
    client.force_login(user)
    client.post(url(demo), {"kind": "hand", "hand-name": "X", "hand-lines": "A unit."})
    assert UnitSet.objects.get().name == "X"


def test_signed_out_goes_to_the_login(client, demo):
    response = client.get(url(demo))
    assert response.status_code == 302
    assert "/login/" in response.url or "login" in response.url
