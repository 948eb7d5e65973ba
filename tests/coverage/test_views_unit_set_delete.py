"""GET/POST /unit-sets/<pk>/delete/: an administrator deletes a unit set after a confirmation
step, while no judgment is given against it (its judgment tasks not yet answered go with it);
once judged it is refused, saying why. Only administrators; outsiders get 404."""

from html import unescape

import pytest
from django.urls import reverse

from annotator.models import JudgmentTask, Unit, UnitSet
from tests.coverage.unit_set_helpers import judged, see_of_model_a

pytestmark = pytest.mark.django_db


@pytest.fixture
def see(demo):
    return see_of_model_a(demo)


def url(unit_set):
    return reverse("unit-set-delete", args=[unit_set.pk])


def test_the_unit_set_page_offers_it_to_administrators_only(client, demo, see):
    client.force_login(demo["admin"])
    shown = client.get(reverse("unit-set-detail", args=[see.pk])).content.decode()
    assert f'<a href="{url(see)}">Delete unit set</a>' in shown
    client.force_login(demo["organizer"])
    shown = client.get(reverse("unit-set-detail", args=[see.pk])).content.decode()
    assert url(see) not in shown


def test_the_confirmation_says_what_goes_and_the_post_deletes_it_all(client, demo, see):
    JudgmentTask.objects.create(
        unit_set=see, peer=demo["annotations"]["1"].peer, judge=demo["annotator"]
    )
    client.force_login(demo["admin"])
    response = client.get(url(see))
    assert response.status_code == 200
    shown = response.content.decode()
    assert "<h1>Delete unit set SEE model A?</h1>" in shown
    assert "Its 4 units and its 1 judgment task (none answered yet) are deleted with it." in shown
    assert f'<form method="post" action="{url(see)}"' in shown
    assert '<button type="submit">Delete unit set SEE model A</button>' in shown
    assert UnitSet.objects.filter(pk=see.pk).exists()  # a GET deletes nothing

    response = client.post(url(see))
    docset = see.docset
    assert response.status_code == 302
    assert response.url == reverse("docset-detail", args=[docset.pk]) + "#unit-sets"
    assert not UnitSet.objects.filter(pk=see.pk).exists()
    assert not Unit.objects.filter(unit_set_id=see.pk).exists()
    assert not JudgmentTask.objects.exists()
    shown = client.get(response.url).content.decode()
    assert "Deleted the unit set “SEE model A” (4 units, 1 judgment task)." in shown


def test_once_judged_it_is_refused_saying_why(client, demo, see):
    judged(see, demo)
    client.force_login(demo["admin"])
    shown = unescape(client.get(url(see)).content.decode())
    # The heading says what the page is: no question it cannot answer yes to.
    assert "<h1>Unit set SEE model A cannot be deleted</h1>" in shown
    assert "Delete unit set SEE model A?" not in shown
    assert (
        "Judging has started on this unit set (1 judgment given): it can no longer be deleted, "
        "or the judges' work would be lost." in shown
    )
    assert "<form" not in shown.split("<main", 1)[1].split("</main>")[0]
    response = client.post(url(see))
    assert response.status_code == 403
    assert "it can no longer be deleted" in response.content.decode()
    assert "<h1>Unit set SEE model A cannot be deleted</h1>" in response.content.decode()
    assert Unit.objects.filter(unit_set=see).count() == 4
    assert JudgmentTask.objects.count() == 1


@pytest.mark.parametrize(
    ("who", "status"), [("organizer", 403), ("annotator", 403), ("outsider", 404)]
)
def test_only_administrators_delete(client, demo, see, who, status):
    client.force_login(demo[who])
    assert client.get(url(see)).status_code == status
    assert client.post(url(see)).status_code == status
    assert UnitSet.objects.filter(pk=see.pk).exists()


def test_signed_out_goes_to_the_login(client, demo, see):
    assert client.post(url(see)).status_code == 302
    assert UnitSet.objects.filter(pk=see.pk).exists()
