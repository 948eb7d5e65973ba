"""POST /pyramids/<pk>/edit/<action>/: one editing action, answered with the current workspace."""

import json
import re

import pytest
from django.test import Client
from django.urls import reverse
from django.utils.html import escape

from annotator.models import SCU, Assignment, Pyramid, PyramidChange
from tests.helpers import NUL, empty_pyramid, refuses_nul, undo_and_redo_after

pytestmark = pytest.mark.django_db


@pytest.fixture
def pyramid(demo):
    return empty_pyramid(demo)


def post(client, pyramid, action, **values):
    if "version" not in values:  # (setdefault would read it even when given)
        values["version"] = Pyramid.objects.get(pk=pyramid.pk).version
    return client.post(reverse("pyramid-edit", args=[pyramid.pk, action]), values)


def selection(pyramid, author, phrase):
    summary = pyramid.models_used.get(author=author)
    start = summary.text.index(phrase)
    return {"summary": summary.pk, "ranges": json.dumps([[start, start + len(phrase)]])}


def test_an_action_answers_with_the_pieces_it_changed(client, demo, pyramid):
    client.force_login(demo["outsider"])
    response = post(
        client, pyramid, "new_scu", **selection(pyramid, "A", "Apollo 11 landed on the Moon")
    )
    page = response.content.decode()
    assert response.status_code == 200
    assert response["HX-Reswap"] == "none"
    assert '<span id="pyramid-version" data-version="2" hidden hx-swap-oob="true">' in page
    assert "New SCU 1 “Apollo 11 landed on the Moon” · saved" in page
    assert '<ol hx-swap-oob="beforeend:#scu-list"><li class="scu" id="scu-1"' in page  # appended
    a, b = (pyramid.models_used.get(author=x).pk for x in "AB")
    assert f'id="model-{a}" hx-swap-oob="true"' in page
    assert f'id="model-{b}"' not in page
    assert SCU.objects.filter(pyramid=pyramid).count() == 1


def test_an_action_and_its_answer_read_the_models_once(client, demo, pyramid):
    """The rules, the shaded models and the help in the answer share one read of the models'
    texts (issue 32: three to five reads an action), and the answer does not ask again whether
    the user may edit."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    client.force_login(demo["outsider"])
    post(client, pyramid, "new_scu", **selection(pyramid, "A", "Apollo 11 landed on the Moon"))
    version = Pyramid.objects.get(pk=pyramid.pk).version
    with CaptureQueriesContext(connection) as queries:
        response = post(
            client,
            pyramid,
            "add_contributor",
            version=version,
            scu=1,
            help_for=1,
            **selection(pyramid, "B", "Neil Armstrong stepped out first"),
        )
    assert response.status_code == 200
    assert 'id="builder-help-list" aria-live="polite" data-uid="1"' in response.content.decode()
    reads = [q["sql"] for q in queries if 'FROM "annotator_pyramidmodel"' in q["sql"]]
    assert len(reads) == 1
    # Who may edit: asked by the edit (the builder's assignment, with its status), not again by
    # its answer; the assignment already under way is not written.
    checks = [
        q
        for q in queries
        if q["sql"].startswith("SELECT") and 'FROM "annotator_assignment"' in q["sql"]
    ]
    assert len(checks) == 1
    assert not [q for q in queries if q["sql"].startswith('UPDATE "annotator_assignment"')]
    # What Undo and Redo can do, and the last change: known from the change just recorded.
    history = [
        q
        for q in queries
        if q["sql"].startswith("SELECT") and "annotator_pyramidchange" in q["sql"]
    ]
    assert history == []
    # The pyramid is read once, by the edit (locked), with what the answer shows of it; a
    # builder's permissions are never asked (issue 32: queries per action).
    reads = [q["sql"] for q in queries if 'FROM "annotator_pyramid" ' in q["sql"]]
    assert len(reads) == 1
    if connection.features.has_select_for_update_of:  # PostgreSQL (SQLite locks the whole file)
        assert reads[0].endswith('FOR UPDATE OF "annotator_pyramid"')
    assert not [q for q in queries if "auth_permission" in q["sql"]]
    page = response.content.decode()
    assert '<button type="button" data-act="undo"' in page
    assert SCU.objects.get(pyramid=pyramid, uid=1).contributors.count() == 2


def test_a_relabel_answers_with_that_scu_only(client, demo, pyramid):
    client.force_login(demo["outsider"])
    post(client, pyramid, "new_scu", **selection(pyramid, "A", "Apollo 11 landed on the Moon"))
    post(client, pyramid, "new_scu", **selection(pyramid, "B", "Neil Armstrong stepped out first"))
    response = post(client, pyramid, "set_label", scu=2, label="Armstrong first")
    page = response.content.decode()
    assert (
        '<li class="scu" id="scu-2" data-uid="2" data-key="scu-2" role="treeitem" aria-level="1" '
        'aria-expanded="false" tabindex="-1" hx-swap-oob="true"'
    ) in page
    assert 'id="scu-1"' not in page
    # No model again (issue 32): its shading is the same; the tooltips naming SCU 2 come apart.
    assert 'id="model-' not in page
    b = pyramid.models_used.get(author="B").pk
    titles = json.loads(response["HX-Trigger"])["pyramid:titles"]["models"]
    assert titles == {str(b): [[b_start(pyramid), "SCU 2: Armstrong first"]]}


def b_start(pyramid):
    return pyramid.models_used.get(author="B").text.index("Neil Armstrong stepped out first")


def test_a_removal_deletes_the_item_and_a_reorder_sends_the_order_only(client, demo, pyramid):
    client.force_login(demo["outsider"])
    post(client, pyramid, "new_scu", **selection(pyramid, "A", "Apollo 11 landed on the Moon"))
    post(client, pyramid, "new_scu", **selection(pyramid, "B", "Neil Armstrong stepped out first"))
    page = post(client, pyramid, "move_scu", scu=2, position=0).content.decode()
    assert '<span id="scu-order" hidden data-order="2 1" hx-swap-oob="true"></span>' in page
    assert 'id="scu-list"' not in page
    assert 'class="scu"' not in page
    assert len(page) < 2000
    page = post(client, pyramid, "order_scus").content.decode()
    assert 'data-order="1 2"' in page
    assert 'class="scu"' not in page
    page = post(client, pyramid, "remove_scu", scu=1).content.decode()
    assert '<li id="scu-1" hx-swap-oob="delete"></li>' in page


def test_a_broken_rule_is_422_with_the_message_and_the_fix(client, demo, pyramid):
    client.force_login(demo["outsider"])
    created = post(
        client, pyramid, "new_scu", **selection(pyramid, "A", "Apollo 11 landed on the Moon")
    )
    assert json.loads(created["HX-Trigger"]) == {"pyramid:select": {"uid": 1}}  # select the new SCU
    response = post(
        client, pyramid, "add_contributor", scu=1, **selection(pyramid, "A", "The crew collected")
    )
    page = response.content.decode()
    assert response.status_code == 422
    assert "already has a contributor from model A" in page
    # Only the status line comes back (out of band): the page was current, and keeps the rest.
    assert response["HX-Reswap"] == "none"
    assert 'id="status" hx-swap-oob="true"' in page
    assert 'id="scu-list"' not in page
    contributor = SCU.objects.get(pyramid=pyramid, uid=1).contributors.get()
    summary, words = (
        selection(pyramid, "A", "The crew collected")["summary"],
        selection(pyramid, "A", "The crew collected")["ranges"],
    )
    fix = {
        "contributor": contributor.pk,
        "summary": summary,
        "ranges": json.dumps(json.loads(words)),
    }
    assert f'data-act="fix" data-action="add_part" data-values="{escape(json.dumps(fix))}"' in page


def test_a_stale_version_is_409_with_the_current_state(client, demo, pyramid):
    client.force_login(demo["outsider"])
    post(client, pyramid, "new_scu", **selection(pyramid, "A", "Apollo 11 landed on the Moon"))
    response = post(client, pyramid, "set_label", version=1, scu=1, label="from an old tab")
    page = response.content.decode()
    assert response.status_code == 409
    assert "changed elsewhere" in page
    assert 'data-version="2"' in page
    assert page.startswith('<div id="workspace"')  # the whole current state
    assert SCU.objects.get(pyramid=pyramid).label == "Apollo 11 landed on the Moon"


def test_a_missing_version_is_never_taken_as_current(client, demo, pyramid):
    client.force_login(demo["outsider"])
    response = client.post(reverse("pyramid-edit", args=[pyramid.pk, "order_scus"]), {})
    assert response.status_code == 409


def test_bad_fields_are_422(client, demo, pyramid):
    client.force_login(demo["outsider"])
    assert post(client, pyramid, "new_scu", summary="x", ranges="[[0, 5]]").status_code == 422
    assert post(client, pyramid, "new_scu", summary=1, ranges="not json").status_code == 422
    assert post(client, pyramid, "set_label", scu=1).status_code == 422


def stored(pyramid):
    """What the pyramid holds: its version, its SCUs' labels and comments, its history's length."""
    return (
        Pyramid.objects.get(pk=pyramid.pk).version,
        list(SCU.objects.filter(pyramid=pyramid).order_by("uid").values_list("label", "comment")),
        PyramidChange.objects.filter(pyramid=pyramid).count(),
    )


@pytest.mark.parametrize(
    ("action", "field", "values"),
    [
        ("set_label", "label", {"scu": 1, "label": f"The{NUL}landing"}),
        ("set_comment", "comment", {"scu": 1, "comment": f"Check this{NUL}"}),
        (
            "new_scu",
            "label",
            {"label": f"{NUL}Armstrong", "selected": ("B", "Neil Armstrong stepped out first")},
        ),
        (
            "set_label",
            "scu",
            {"scu": f"1{NUL}", "label": "The landing"},
        ),  # not a text, refused all the same
        (
            "set_label",
            f"x{NUL}",
            {"scu": 1, "label": "The landing", f"x{NUL}": "1"},
        ),  # in a name the action does not read
    ],
)
def test_a_nul_character_is_a_broken_rule_said_in_the_status_line_and_nothing_is_stored(
    client, demo, pyramid, action, field, values
):
    """PostgreSQL text cannot hold a NUL: it was a 500 (issue 16). Refused as any bad input of an
    edit is (422, the status line only, so the page keeps what the annotator was doing)."""
    client.force_login(demo["outsider"])
    post(client, pyramid, "new_scu", **selection(pyramid, "A", "Apollo 11 landed on the Moon"))
    before = stored(pyramid)
    values = dict(values)  # the parameters are shared: not changed in place
    if "selected" in values:
        values |= selection(pyramid, *values.pop("selected"))
    response = post(client, pyramid, action, **values)
    assert refuses_nul(response, field.replace(NUL, "\\0"), status=422)
    assert response["HX-Reswap"] == "none"
    assert 'id="status" hx-swap-oob="true"' in response.content.decode()
    assert stored(pyramid) == before


def test_unknown_actions_are_404_and_reading_is_405(client, demo, pyramid):
    client.force_login(demo["outsider"])
    assert post(client, pyramid, "drop_tables").status_code == 404
    assert client.get(reverse("pyramid-edit", args=[pyramid.pk, "undo"])).status_code == 405


def test_who_may_edit(client, demo, pyramid):
    summary = selection(pyramid, "A", "Apollo 11")
    assert post(client, pyramid, "new_scu", **summary).status_code == 302  # anonymous: log in
    client.force_login(demo["annotator"])  # may not even see this pyramid
    assert post(client, pyramid, "new_scu", **summary).status_code == 404
    # Peers to annotate against a pyramid still being built do not show it either.
    Assignment.objects.create(
        user=demo["annotator"], task="peer", pyramid=pyramid, peer=demo["annotations"]["1"].peer
    )
    assert post(client, pyramid, "new_scu", **summary).status_code == 404
    client.force_login(demo["organizer"])  # reads every pyramid of the collection, edits none
    response = post(client, pyramid, "new_scu", **summary)
    assert response.status_code == 403
    assert "not assigned" in response.content.decode()
    assert not SCU.objects.filter(pyramid=pyramid).exists()


def test_submitted_pyramids_are_read_only_until_reopened(client, demo, pyramid):
    client.force_login(demo["outsider"])
    post(client, pyramid, "new_scu", **selection(pyramid, "A", "Apollo 11"))
    assert post(client, pyramid, "submit").status_code == 200
    response = post(client, pyramid, "undo")
    assert response.status_code == 403
    assert "read-only" in response.content.decode()
    assert post(client, pyramid, "reopen").status_code == 403
    client.force_login(demo["admin"])
    assert post(client, pyramid, "reopen").status_code == 200
    assert Pyramid.objects.get(pk=pyramid.pk).status == Pyramid.Status.IN_PROGRESS


def test_csrf_is_required(demo, pyramid):
    client = Client(enforce_csrf_checks=True)
    client.force_login(demo["outsider"])
    assert post(client, pyramid, "order_scus").status_code == 403


def test_the_page_is_editable_only_for_editors(client, demo, pyramid):
    client.force_login(demo["outsider"])
    page = client.get(reverse("pyramid-detail", args=[pyramid.pk])).content.decode()
    assert 'data-editable="true"' in page
    assert 'contenteditable="true"' in page
    client.force_login(demo["admin"])
    page = client.get(reverse("pyramid-detail", args=[demo["pyramid"].pk])).content.decode()
    assert 'data-editable="false"' in page
    assert "contenteditable" not in page
    assert "Reopen for editing" in page


def test_undo_and_redo_answer_what_undo_and_redo_can_do_next_without_asking(client, demo, pyramid):
    """After an undo or a redo the toolbar's Undo and Redo are right, known from the step itself
    (issue 32: the stack was asked again in a query of its own)."""
    client.force_login(demo["outsider"])
    post(client, pyramid, "new_scu", **selection(pyramid, "A", "Apollo 11 landed on the Moon"))
    post(client, pyramid, "new_scu", **selection(pyramid, "B", "Neil Armstrong stepped out"))

    def buttons(action):
        version = Pyramid.objects.get(pk=pyramid.pk).version
        return undo_and_redo_after(lambda: post(client, pyramid, action, version=version))

    # (Undo enabled, Redo enabled) after each step.
    assert buttons("undo") == (True, True)
    assert buttons("undo") == (False, True)
    assert buttons("redo") == (True, True)
    assert buttons("redo") == (True, False)
    assert SCU.objects.filter(pyramid=pyramid).count() == 2


def test_removing_an_scu_answers_without_reading_it_again(client, demo, pyramid):
    """The answer to a removal takes the SCU out of the list; it reads no SCU row for it (issue
    32: a query per action that found nothing)."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    client.force_login(demo["outsider"])
    post(client, pyramid, "new_scu", **selection(pyramid, "A", "Apollo 11 landed on the Moon"))
    version = Pyramid.objects.get(pk=pyramid.pk).version
    with CaptureQueriesContext(connection) as queries:
        page = post(client, pyramid, "remove_scu", version=version, scu=1).content.decode()
    assert '<li id="scu-1" hx-swap-oob="delete"></li>' in page
    weights = [q for q in queries if 'COUNT(DISTINCT "annotator_contributor"."id")' in q["sql"]]
    assert weights == []
    assert not SCU.objects.filter(pyramid=pyramid).exists()


def test_adding_a_contributor_reshades_only_its_own_model(client, demo, pyramid):
    """The shading of the SCU's other models does not change when a contributor joins it: the
    answer sends only the new contributor's model (issue 32: render only what changed)."""
    client.force_login(demo["outsider"])
    post(client, pyramid, "new_scu", **selection(pyramid, "A", "Apollo 11 landed on the Moon"))
    page = post(
        client, pyramid, "add_contributor", scu=1, **selection(pyramid, "B", "Neil Armstrong")
    ).content.decode()
    a, b = (pyramid.models_used.get(author=x).pk for x in "AB")
    assert f'id="model-{b}" hx-swap-oob="true"' in page
    assert f'id="model-{a}"' not in page
    assert sorted(
        SCU.objects.get(pyramid=pyramid, uid=1).contributors.values_list(
            "summary__author", flat=True
        )
    ) == ["A", "B"]


def test_relabelling_renames_the_scu_in_every_model_it_shades(client, demo, pyramid):
    """Found by a tester: after a relabel the shaded words' tooltips kept the SCU's old name in
    every model until a reload. The answer gives the new tooltips of the runs in the SCU, in every
    model holding its parts, as the page would render them."""
    client.force_login(demo["outsider"])
    post(client, pyramid, "new_scu", **selection(pyramid, "A", "Apollo 11 landed on the Moon"))
    post(client, pyramid, "add_contributor", scu=1, **selection(pyramid, "B", "Neil Armstrong"))
    post(client, pyramid, "new_scu", **selection(pyramid, "B", "Neil Armstrong stepped"))
    response = post(client, pyramid, "set_label", scu=1, label='The "landing"')
    a, b, c = (pyramid.models_used.get(author=x).pk for x in "ABC")
    titles = json.loads(response["HX-Trigger"])["pyramid:titles"]["models"]
    assert set(titles) == {str(a), str(b)}  # no part of SCU 1 in C
    assert SCU.objects.get(pyramid=pyramid, uid=1).label == 'The "landing"'
    # The same tooltips as the page shows once loaded again (the overlap of SCUs 1 and 2 too).
    page = client.get(reverse("pyramid-detail", args=[pyramid.pk])).content.decode()
    for summary, runs in titles.items():
        for start, title in runs:
            shown = f'data-start="{start}" [^>]*title="{re.escape(escape(title))}"'
            assert re.search(rf'id="model-{summary}".*?{shown}', page, re.S), (start, title)
    assert any("overlapping contributors" in title for _, title in titles[str(b)])
    # Relabelled again: the runs in SCU 2, alone or with SCU 1, in B only.
    response = post(client, pyramid, "set_label", scu=2, label="Armstrong")
    first = pyramid.models_used.get(author="B").text.index("Neil Armstrong")
    assert json.loads(response["HX-Trigger"])["pyramid:titles"]["models"] == {
        str(b): [
            [first, 'In SCU 1: The "landing"; SCU 2: Armstrong (overlapping contributors)'],
            [first + len("Neil Armstrong"), "SCU 2: Armstrong"],
        ]
    }


def test_a_model_shaded_again_brings_its_tooltips_itself(demo, pyramid):
    """retitled_models leaves out the models an edit shades again: they come whole."""
    from annotator.pyramids.parts import PyramidRows
    from annotator.pyramids.workspace import retitled_models

    client = Client()
    client.force_login(demo["outsider"])
    post(client, pyramid, "new_scu", **selection(pyramid, "A", "Apollo 11 landed on the Moon"))
    post(client, pyramid, "add_contributor", scu=1, **selection(pyramid, "B", "Neil Armstrong"))
    a, b = (pyramid.models_used.get(author=x).pk for x in "AB")
    rows = PyramidRows(pyramid.pk)
    assert set(retitled_models(pyramid, rows, {1: {a, b}}, set())) == {a, b}
    assert set(retitled_models(pyramid, rows, {1: {a, b}}, {b})) == {a}
    assert retitled_models(pyramid, rows, {}, set()) == {}
