"""POST /unit-sets/<pk>/edit/<action>/: one edit of the units. htmx gets the units as they now are
(the focus marked); a plain form post goes back to the page. A stale version gets 409 with the
current units shown, judging started 403, a broken rule 422; only administrators edit."""

import pytest
from django.urls import reverse

from annotator.coverage import unit_sets
from annotator.models import Unit
from tests.coverage.unit_set_helpers import judged, see_of_model_a, texts_of, version_of

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def see(demo):
    return see_of_model_a(demo)


def url(unit_set, action):
    return reverse("unit-set-edit", args=[unit_set.pk, action])


def ids(unit_set):
    return list(unit_set.units.order_by("position").values_list("pk", flat=True))


def test_htmx_gets_the_units_as_they_now_are_the_focus_on_the_merged_unit(client, demo, see):
    client.force_login(demo["admin"])
    first, second, *_ = ids(see)
    response = client.post(url(see, "merge"), {"version": 1, "unit": first}, **HTMX)
    assert response.status_code == 200
    shown = response.content.decode()
    assert shown.startswith('<section id="unit-set"') or '<section id="unit-set"' in shown[:400]
    assert "<html" not in shown  # the list only
    assert "Merged units 1 and 2 into unit 1." in shown
    assert f'id="unit-text-{first}" name="text" value="Apollo 11 landed' in shown
    assert f'id="unit-text-{first}"' in shown.split("autofocus")[0].rsplit("<input", 1)[1]
    assert 'name="version" value="2"' in shown
    assert not Unit.objects.filter(pk=second).exists()
    assert texts_of(see)[0].startswith("Apollo 11 landed on the Moon on July 20, 1969. Neil")


def test_a_plain_post_goes_back_to_the_page_at_the_unit(client, demo, see):
    client.force_login(demo["admin"])
    first = ids(see)[0]
    response = client.post(url(see, "relabel"), {"version": 1, "unit": first, "text": "Landed"})
    assert response.status_code == 302
    assert response.url == reverse("unit-set-detail", args=[see.pk]) + f"#unit-{first}"
    assert texts_of(see)[0] == "Landed"
    assert "Saved the text of unit 1." in client.get(response.url).content.decode()


def test_each_edit_by_form(client, demo, see):
    client.force_login(demo["admin"])
    a, b, _, d = ids(see)
    post = lambda action, **values: client.post(  # noqa: E731
        url(see, action), {"version": version_of(see), **values}, **HTMX
    )
    assert (
        post(
            "split", unit=b, at=str(len("Neil Armstrong and Buzz Aldrin walked on the surface "))
        ).status_code
        == 200
    )
    assert texts_of(see)[1:3] == [
        "Neil Armstrong and Buzz Aldrin walked on the surface",
        "while Michael Collins orbited above in the command module",
    ]
    assert post("move", unit=d, position="1", direction="up").status_code == 200
    assert ids(see)[0] == d
    assert post("delete", unit=a).status_code == 200
    response = post("add", text="Kennedy's goal was met", position="")
    assert 'id="new-unit-text" name="text" required autofocus' in response.content.decode()
    assert texts_of(see) == [
        "The crew collected rock samples and returned safely to Earth on July 24",
        "Neil Armstrong and Buzz Aldrin walked on the surface",
        "while Michael Collins orbited above in the command module",
        "Armstrong was the first person to step onto the Moon",
        "Kennedy's goal was met",
    ]
    assert version_of(see) == 5


def test_a_move_keeps_the_focus_on_the_button_used_or_the_one_left(client, demo, see):
    client.force_login(demo["admin"])
    c = ids(see)[2]
    shown = client.post(
        url(see, "move"), {"version": 1, "unit": c, "position": 2, "direction": "up"}, **HTMX
    ).content.decode()
    assert shown.split(" autofocus>Move up")[0].endswith('class="secondary"')
    shown = client.post(
        url(see, "move"), {"version": 2, "unit": c, "position": 1, "direction": "up"}, **HTMX
    ).content.decode()
    assert 'autofocus>Move down<span class="visually-hidden"> unit 1</span>' in shown


def test_a_stale_version_gets_409_with_the_current_units(client, demo, see):
    client.force_login(demo["admin"])
    first = ids(see)[0]
    client.post(url(see, "relabel"), {"version": 1, "unit": first, "text": "Landed"}, **HTMX)
    response = client.post(
        url(see, "relabel"), {"version": 1, "unit": first, "text": "Other"}, **HTMX
    )
    assert response.status_code == 409
    shown = response.content.decode()
    assert "this unit set was changed elsewhere" in shown
    # The text typed kept in its box, to send again; the text as now stored shown beside it.
    assert f'id="unit-text-{first}" name="text" value="Other"' in shown
    assert "Its text as now stored: “Landed”." in shown
    assert 'name="version" value="2"' in shown
    # The focus in the box that holds the kept text (Enter there sends it again); the status
    # line, a live region, is read out, and describes the box.
    assert 'class="status conflict" role="status" tabindex="-1">' in shown
    box = shown.split(f'id="unit-text-{first}"')[1].split(">")[0]
    assert "autofocus" in box
    assert 'aria-describedby="unit-status"' in box
    assert shown.count("autofocus") == 1
    assert texts_of(see)[0] == "Landed"
    # Without htmx: the whole page, with the same status.
    response = client.post(url(see, "relabel"), {"version": 1, "unit": first, "text": "Other"})
    assert response.status_code == 409
    assert "<h1>Unit set SEE model A</h1>" in response.content.decode()
    # No version at all is stale too.
    assert client.post(url(see, "merge"), {"unit": first}, **HTMX).status_code == 409


def test_edits_are_refused_once_judging_has_started(client, demo, see):
    judged(see, demo)
    client.force_login(demo["admin"])
    response = client.post(url(see, "delete"), {"version": 1, "unit": ids(see)[1]}, **HTMX)
    assert response.status_code == 403
    shown = response.content.decode()
    assert "Judging has started on this unit set: its units can no longer be changed" in shown
    assert "/edit/" not in shown
    assert len(texts_of(see)) == 4


def test_a_broken_rule_gets_422_and_changes_nothing(client, demo, see):
    client.force_login(demo["admin"])
    last = ids(see)[-1]
    response = client.post(url(see, "merge"), {"version": 1, "unit": last}, **HTMX)
    assert response.status_code == 422
    assert "The last unit has no next unit to merge with." in response.content.decode()
    for values in ({"unit": "x"}, {"unit": "-1"}, {}):
        assert client.post(url(see, "merge"), {"version": 1, **values}).status_code == 422
    other = unit_sets.presence_by_hand(see.docset, "Other", ["Not of this set."])
    foreign = other.units.get().pk
    response = client.post(url(see, "delete"), {"version": 1, "unit": foreign}, **HTMX)
    assert response.status_code == 422
    assert other.units.exists()
    assert version_of(see) == 1


def test_an_unknown_action_is_404_and_a_get_is_405(client, demo, see):
    client.force_login(demo["admin"])
    assert client.post(url(see, "explode"), {"version": 1}).status_code == 404
    assert client.get(url(see, "merge")).status_code == 405


@pytest.mark.parametrize(
    ("who", "status"), [("organizer", 403), ("annotator", 403), ("outsider", 404)]
)
def test_only_administrators_edit(client, demo, see, who, status):
    client.force_login(demo[who])
    response = client.post(url(see, "relabel"), {"version": 1, "unit": ids(see)[0], "text": "X"})
    assert response.status_code == status
    assert texts_of(see)[0] == "Apollo 11 landed on the Moon on July 20, 1969"
    assert version_of(see) == 1


def test_a_nul_character_is_refused_as_bad_input(client, demo, see):
    from tests.helpers import NUL, refuses_nul

    client.force_login(demo["admin"])
    response = client.post(url(see, "relabel"), {"version": 1, "unit": ids(see)[0], "text": NUL})
    assert refuses_nul(response, "text")
    assert version_of(see) == 1


def test_a_stale_relabel_keeps_the_typed_text_in_the_unit_s_box_to_send_again(client, demo, see):
    """Another tab merged units 1 and 2; this one relabels unit 3 (now unit 2): 409, the units as
    they now are, the text typed kept in that unit's box, with the current version to send it."""
    client.force_login(demo["admin"])
    first, _, third, _ = ids(see)
    client.post(url(see, "merge"), {"version": 1, "unit": first}, **HTMX)
    typed = "Armstrong stepped onto the Moon first"
    response = client.post(
        url(see, "relabel"), {"version": 1, "unit": third, "text": typed}, **HTMX
    )
    assert response.status_code == 409
    shown = response.content.decode()
    assert f'id="unit-text-{third}" name="text" value="{typed}"' in shown
    assert (
        "Your text for this unit is kept in its box (now unit 2): press Enter in it to save it."
        in shown
    )
    assert 'name="version" value="2"' in shown
    assert texts_of(see)[1] == "Armstrong was the first person to step onto the Moon"
    # Sent again from the page as it now is: saved.
    response = client.post(
        url(see, "relabel"), {"version": 2, "unit": third, "text": typed}, **HTMX
    )
    assert response.status_code == 200
    assert texts_of(see)[1] == typed


def test_a_stale_relabel_of_a_unit_merged_away_shows_the_text_and_offers_it_to_add(
    client, demo, see
):
    client.force_login(demo["admin"])
    first, second, *_ = ids(see)
    client.post(url(see, "merge"), {"version": 1, "unit": first}, **HTMX)
    typed = "Collins orbited the Moon"
    response = client.post(
        url(see, "relabel"), {"version": 1, "unit": second, "text": typed}, **HTMX
    )
    assert response.status_code == 409
    shown = response.content.decode()
    assert (
        f"The unit you edited is no longer in this unit set. Your text, “{typed}”, is kept in "
        "the box to add a unit: press Enter in it to add it." in shown
    )
    assert f'id="new-unit-text" name="text" value="{typed}" required autofocus' in shown
    # A stale add keeps its text in the same box.
    response = client.post(url(see, "add"), {"version": 1, "text": "Kennedy's goal"}, **HTMX)
    assert response.status_code == 409
    assert 'id="new-unit-text" name="text" value="Kennedy&#x27;s goal" required' in (
        response.content.decode()
    )
    assert len(texts_of(see)) == 3
