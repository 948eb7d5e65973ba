"""GET /pyramids/<pk>/builder-help/?scu=<uid>: the phrases for the selected SCU, only for who may
edit the pyramid."""

import json

import pytest
from django.urls import reverse

from annotator.models import Pyramid
from tests.helpers import Builder

pytestmark = pytest.mark.django_db


@pytest.fixture
def built(demo):
    """SCU 1 with a contributor of model A: B, C and D have none."""
    build = Builder(demo, name="helped", user="outsider")
    build.new_scu("A", "Neil Armstrong and Buzz Aldrin walked on the surface")
    return build


def get(client, pyramid, scu="1"):
    return client.get(reverse("builder-help", args=[pyramid.pk]), {"scu": scu})


def test_the_models_lacking_a_contributor_show_their_phrases(client, demo, built):
    client.force_login(demo["outsider"])
    response = get(client, built.pyramid)
    page = response.content.decode()
    assert response.status_code == 200
    assert "Model A" not in page
    for author in "BCD":
        assert f"Model {author} <span" in page
    d = built.models["D"]
    phrase = "Astronauts Neil Armstrong and Buzz Aldrin walked on the Moon"
    start = d.text.index(phrase)
    assert (
        f'data-uid="1" data-summary="{d.pk}" data-start="{start}" data-end="{start + len(phrase)}"'
    ) in page
    assert 'data-key="1" aria-keyshortcuts="1"' in page


def test_a_phrase_in_another_scu_says_so(client, demo, built):
    built.new_scu("D", "Neil Armstrong and Buzz Aldrin walked on the Moon")  # SCU 2
    client.force_login(demo["outsider"])
    assert "already in SCU 2" in get(client, built.pyramid).content.decode()


def test_only_who_may_edit_the_pyramid(client, demo, built):
    assert get(client, built.pyramid).status_code == 302  # signed out: to the login page
    client.force_login(demo["organizer"])  # reads the collection, edits nothing
    assert get(client, built.pyramid).status_code == 403
    client.force_login(demo["annotator"])  # not assigned to this pyramid: does not see it
    assert get(client, built.pyramid).status_code == 404
    client.force_login(demo["admin"])  # the collection's administrators may edit it
    assert get(client, built.pyramid).status_code == 200
    Pyramid.objects.filter(pk=built.pyramid.pk).update(status=Pyramid.Status.SUBMITTED)
    client.force_login(demo["outsider"])  # assigned, but the pyramid is submitted: read-only
    assert get(client, built.pyramid).status_code == 403


def test_an_unknown_pyramid_or_scu_is_404(client, demo, built):
    client.force_login(demo["outsider"])
    assert get(client, built.pyramid, scu="99").status_code == 404
    assert get(client, built.pyramid, scu="x").status_code == 404
    assert client.get(reverse("builder-help", args=[built.pyramid.pk])).status_code == 404
    assert client.post(reverse("builder-help", args=[built.pyramid.pk])).status_code == 405


def test_a_pyramid_the_user_cannot_see_is_404(client, django_user_model, built):
    stranger = django_user_model.objects.create_user("stranger", password="stranger-pass-1")
    client.force_login(stranger)
    assert get(client, built.pyramid).status_code == 404


def test_the_builder_page_has_the_panel_for_its_editor_only(client, demo, built):
    client.force_login(demo["outsider"])
    page = client.get(reverse("pyramid-detail", args=[built.pyramid.pk])).content.decode()
    assert 'id="builder-help"' in page
    assert reverse("builder-help", args=[built.pyramid.pk]) in page
    assert "<th>1 … 9</th>" in page  # the key, in the page's key help
    client.force_login(demo["organizer"])  # reads it, may not edit it
    response = client.get(reverse("pyramid-detail", args=[built.pyramid.pk]))
    assert response.status_code == 200
    assert 'id="builder-help"' not in response.content.decode()


def test_each_phrase_shows_its_key_and_the_words_it_shares_as_written(client, demo, built):
    """Found by a tester: "1. 3 while Michael Collins…" (the list's number beside the key) and
    "shares collin," (folded words)."""
    client.force_login(demo["outsider"])
    page = get(client, built.pyramid).content.decode()
    assert '<ol class="builder-help-phrases" role="list">' in page  # unnumbered, still a list
    assert "<kbd>1</kbd>" in page
    d = built.models["D"]
    phrase = "Astronauts Neil Armstrong and Buzz Aldrin walked on the Moon"
    start = d.text.index(phrase)
    item = page[page.index(f'data-start="{start}"') :]
    item = item[: item.index("</li>")]
    assert "shares Neil, Armstrong, Buzz, Aldrin, walked</span>" in item


def edit(client, built, action, **values):
    version = Pyramid.objects.get(pk=built.pyramid.pk).version
    return client.post(
        reverse("pyramid-edit", args=[built.pyramid.pk, action]),
        {"version": version, **values},
        HTTP_HX_REQUEST="true",
    ).content.decode()


def test_an_edit_answers_with_the_help_of_the_scu_selected_after_it(client, demo, built):
    """Issue 32: one request per action. The edit's answer brings the help (out of band) for the
    SCU the page will have selected: the one the edit made (new SCU, split) or merged into, else
    the one the page says it has selected (help_for); the same list the help's own view gives."""
    client.force_login(demo["outsider"])
    summary, ranges = built.where("B", "NASA's Apollo 11 mission")
    page = edit(client, built, "new_scu", summary=summary, ranges=json.dumps(ranges), help_for="1")
    version = Pyramid.objects.get(pk=built.pyramid.pk).version
    assert f'id="builder-help-list" aria-live="polite" data-uid="2" data-version="{version}"' in (
        page
    )
    assert 'hx-swap-oob="true"' in page.split('id="builder-help-list"')[1].split(">")[0]
    assert "Model B" not in page.split('id="builder-help-list"')[1]  # B has SCU 2's contributor
    # A relabel keeps SCU 1 selected: its help, as the view gives it.
    page = edit(client, built, "set_label", scu="1", label="Walked on the surface", help_for="1")
    own = get(client, built.pyramid).content.decode()
    assert own.split('<div id="builder-help-list"')[1].split(">", 1)[1] in page
    # No SCU selected (no help_for): no help in the answer.
    page = edit(client, built, "set_label", scu="1", label="Walked on the Moon")
    assert "builder-help-list" not in page


def test_an_edit_that_removes_the_scu_selected_answers_with_the_panels_invitation(
    client, demo, built
):
    """The SCU selected gone (removed, an undo of its making): the answer brings the panel's "select
    an SCU" at once, so that the page does not change it a moment later."""
    client.force_login(demo["outsider"])
    page = edit(client, built, "remove_scu", scu="1", help_for="1")
    panel = page.split('id="builder-help-list"')[1]
    assert 'hx-swap-oob="true"' in panel.split(">")[0]
    assert "Select an SCU: the models with no contributor in it" in panel
