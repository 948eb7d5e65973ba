"""The judging page and its answers (issue 21): what is stored, stale versions, undo, submitting,
who may see and answer, and the queries an answer costs."""

import json

import pytest
from django.urls import reverse

from annotator.coverage import unit_editing
from annotator.coverage.models import Judgment, JudgmentTask, UnitSet
from tests.coverage import judging_records as records


@pytest.fixture
def presence(demo):
    unit_set = records.presence_set(demo)
    task = records.task(unit_set, records.peer(demo, "1"), demo["annotator"])
    return task, list(unit_set.units.order_by("position"))


@pytest.fixture
def see(demo):
    unit_set = records.see_set(demo)
    task = records.task(unit_set, records.peer(demo, "1"), demo["annotator"])
    return task, list(unit_set.units.order_by("position"))


def post_answer(
    client, task, unit, value, version=None, sentences=(), seconds=3.5, units_version=None
):
    if units_version is None:
        units_version = UnitSet.objects.get(pk=task.unit_set_id).version
    return client.post(
        reverse("judging-answer", args=[task.pk]),
        {
            "version": task.version if version is None else version,
            "units_version": units_version,
            "unit": unit.pk,
            "value": "" if value is None else value,
            "sentences": json.dumps([list(s) for s in sentences]),
            "seconds": "" if seconds is None else seconds,
        },
    )


def stored(task):
    return {
        j.unit.position: (j.value, j.sentences)
        for j in Judgment.objects.filter(task=task).select_related("unit")
    }


def test_the_page_shows_the_peer_the_units_and_the_keys(client, demo, presence):
    task, units = presence
    client.force_login(demo["annotator"])
    page = client.get(reverse("judging-task", args=[task.pk])).content.decode()
    assert "Neil Armstrong was the first man to walk on the Moon" in page  # the peer
    assert units[0].text in page
    assert '<kbd class="key">p</kbd> Present' in page
    assert '<kbd class="key">n</kbd> Absent' in page
    # A unit from a pyramid comes with its SCU's contributors.
    assert "The SCU's contributors in the models" in page
    assert "Apollo 11 landed on the Moon on July 20, 1969</li>" in page  # model A's
    data = json.loads(page.split('id="judging-data" type="application/json">')[1].split("<")[0])
    assert data["editable"] is True
    assert [u["id"] for u in data["units"]] == [u.pk for u in units]
    assert data["unitsVersion"] == task.unit_set.version


def test_a_see_page_shows_the_model_sentence_and_lettered_sentences(client, demo, see):
    task, _ = see
    client.force_login(demo["annotator"])
    page = client.get(reverse("judging-task", args=[task.pk])).content.decode()
    assert (
        "<mark>Neil Armstrong and Buzz Aldrin walked on the surface</mark> while Michael Collins"
        in page
    )
    assert '<kbd class="key">a</kbd> Apollo 11 landed on the Moon in July 1969.</button>' in page
    assert '<kbd class="key">4</kbd> All' in page


def test_a_percent_scale_has_the_keys_0_to_5(client, demo):
    unit_set = records.see_set(demo, scale="percent")
    task = records.task(unit_set, records.peer(demo, "1"), demo["annotator"])
    client.force_login(demo["annotator"])
    page = client.get(reverse("judging-task", args=[task.pk])).content.decode()
    assert '<kbd class="key">5</kbd> 100 %' in page
    assert '<kbd class="key">1</kbd> 20 %' in page
    assert '<kbd class="key">0</kbd> 0 %' in page


def test_an_answer_is_stored_with_its_time_and_raises_the_version(client, demo, presence):
    task, units = presence
    client.force_login(demo["annotator"])
    response = post_answer(client, task, units[0], 1, seconds=4.25)
    assert response.status_code == 200
    assert response.json() == {
        "version": 2,
        "answered": 1,
        "total": len(units),
        "status": "in_progress",
        "sentencesCleared": False,
    }
    judgment = Judgment.objects.get(task=task)
    assert (judgment.unit_id, judgment.value, judgment.sentences) == (units[0].pk, 1.0, [])
    assert judgment.seconds == pytest.approx(4.25)
    task.refresh_from_db()
    assert task.version == 2
    # Changed later: the value replaced, the time added; a time away from the page is capped.
    assert post_answer(client, task, units[0], 0, seconds=10_000).status_code == 200
    judgment.refresh_from_db()
    assert judgment.value == 0.0
    assert judgment.seconds == pytest.approx(4.25 + 300)


def test_see_answers_store_the_sentences_marked(client, demo, see):
    task, units = see
    client.force_login(demo["annotator"])
    both = [records.span(records.PEER_1[1]), records.span(records.PEER_1[2])]
    assert post_answer(client, task, units[1], 3, sentences=both).status_code == 200
    assert stored(task) == {1: (3.0, sorted(both))}
    # Words that are not one of the peer's sentences are refused, and nothing changes.
    response = post_answer(client, task, units[2], 2, version=2, sentences=[(0, 5)])
    assert response.status_code == 422
    assert stored(task) == {1: (3.0, sorted(both))}


@pytest.mark.parametrize(
    ("value", "sentences"),
    [(2, ()), (0.5, ()), (1, [(0, 42)])],  # off the scale; off the scale; sentences in presence
)
def test_answers_that_do_not_fit_are_refused(client, demo, presence, value, sentences):
    task, units = presence
    client.force_login(demo["annotator"])
    response = post_answer(client, task, units[0], value, sentences=sentences)
    assert response.status_code == 422
    assert "error" in response.json()
    assert not Judgment.objects.exists()


def test_garbage_is_a_bad_request(client, demo, presence):
    task, _ = presence
    client.force_login(demo["annotator"])
    url = reverse("judging-answer", args=[task.pk])
    assert client.post(url, {"version": "x", "unit": "1", "value": "1"}).status_code == 400
    assert client.post(url, {"version": "1", "unit": "1", "value": "nan"}).status_code == 400
    assert not Judgment.objects.exists()


def test_a_unit_of_another_unit_set_is_refused(client, demo, presence, see):
    task, _ = presence
    _, see_units = see
    client.force_login(demo["annotator"])
    assert post_answer(client, task, see_units[0], 1).status_code == 422
    assert not Judgment.objects.filter(task=task).exists()


def test_a_stale_version_is_409_with_the_task_as_it_now_is(client, demo, presence):
    task, units = presence
    client.force_login(demo["annotator"])
    assert post_answer(client, task, units[0], 1).status_code == 200  # another tab: now version 2
    response = post_answer(client, task, units[1], 0, version=1)
    assert response.status_code == 409
    said = response.json()
    assert "changed elsewhere" in said["error"]
    assert said["state"] == {
        "version": 2,
        "unitsVersion": 1,
        "status": "in_progress",
        "judgments": {str(units[0].pk): {"value": 1.0, "sentences": []}},
    }
    assert stored(task) == {0: (1.0, [])}


def test_answers_for_units_changed_since_the_page_was_opened_are_409(client, demo, presence):
    """The page carries the unit set's version as it showed it: once an administrator has changed
    the units (relabelled, merged, deleted), its answers are refused, nothing stored, and the 409
    brings the units as they now are, for the page to show them."""
    task, units = presence
    shown = task.unit_set.version
    unit_editing.relabel(task.unit_set_id, demo["admin"], shown, units[0].pk, "A new label.")
    unit_editing.merge(task.unit_set_id, demo["admin"], shown + 1, units[1].pk)
    client.force_login(demo["annotator"])
    for unit in units[:3]:  # relabelled, merged, merged away
        response = post_answer(client, task, unit, 1, units_version=shown)
        assert response.status_code == 409
        said = response.json()
        assert "units were changed by an administrator" in said["error"]
        assert said["state"]["unitsVersion"] == shown + 2
        now = list(UnitSet.objects.get(pk=task.unit_set_id).units.order_by("position"))
        assert [u["id"] for u in said["state"]["units"]] == [u.pk for u in now]
        assert "A new label." in said["state"]["unitsHtml"]
        assert 'id="unit-1"' in said["state"]["unitsHtml"]
    assert not Judgment.objects.exists()
    assert JudgmentTask.objects.get(pk=task.pk).version == 1
    # On the units as they now are, the answer is stored.
    assert post_answer(client, task, units[0], 1, units_version=shown + 2).status_code == 200
    judgment = Judgment.objects.select_related("unit").get(task=task)
    assert (judgment.unit.text, judgment.value) == ("A new label.", 1.0)


def test_an_answer_without_the_units_version_is_a_bad_request(client, demo, presence):
    task, units = presence
    client.force_login(demo["annotator"])
    url = reverse("judging-answer", args=[task.pk])
    answer = {"version": 1, "unit": units[0].pk, "value": "1"}
    assert client.post(url, answer).status_code == 400
    assert not Judgment.objects.exists()


@pytest.mark.parametrize("scale", ["five_point", "percent"])
def test_none_stores_no_sentences(client, demo, scale):
    """SEE's "none" (0, 0 %): no sentence expresses the unit, so none is kept with it."""
    unit_set = records.see_set(demo, scale=scale)
    task = records.task(unit_set, records.peer(demo, "1"), demo["annotator"])
    unit = unit_set.units.order_by("position").first()
    client.force_login(demo["annotator"])
    marked = [records.span(records.PEER_1[0])]
    response = post_answer(client, task, unit, 0, sentences=marked)
    assert response.status_code == 200
    assert response.json()["sentencesCleared"] is True
    assert stored(task) == {0: (0.0, [])}
    response = post_answer(
        client, task, unit, 1 if scale == "five_point" else 20, version=2, sentences=marked
    )
    assert response.json()["sentencesCleared"] is False
    assert stored(task)[0][1] == marked


def test_the_page_names_the_unit_set_and_a_short_method(client, demo, presence):
    task, _ = presence
    client.force_login(demo["annotator"])
    page = client.get(reverse("judging-task", args=[task.pk])).content.decode()
    assert "Unit presence (Lite Pyramid" not in page
    assert "Judge peer 1 against Lite Pyramid" in page
    assert "presence · Present (p) or absent (n)" in page
    home = client.get(reverse("home")).content.decode()
    assert "Unit presence (Lite Pyramid" not in home
    assert 'Judge peer 1 against Lite Pyramid <span class="muted">(presence)</span>' in home
    client.force_login(demo["admin"])
    progress = client.get(reverse("collection-progress", args=[demo["collection"].pk]))
    assert "Unit presence (Lite Pyramid" not in progress.content.decode()
    assert "(presence)" in progress.content.decode()


def test_undo_restores_the_answer_before_and_saves_it(client, demo, presence):
    """The page's undo sends the answer it replaced: a value, or none (the unit open again)."""
    task, units = presence
    client.force_login(demo["annotator"])
    post_answer(client, task, units[0], 1)
    post_answer(client, task, units[0], 0, version=2)
    assert stored(task) == {0: (0.0, [])}
    assert post_answer(client, task, units[0], 1, version=3, seconds=None).status_code == 200
    assert stored(task) == {0: (1.0, [])}
    assert post_answer(client, task, units[0], None, version=4, seconds=None).status_code == 200
    assert stored(task) == {}
    assert JudgmentTask.objects.get(pk=task.pk).version == 5


def test_submitting_needs_every_unit_and_makes_the_task_read_only(client, demo, presence):
    task, units = presence
    client.force_login(demo["annotator"])
    url = reverse("judging-submit", args=[task.pk])
    for i, unit in enumerate(units[:-1]):
        post_answer(client, task, unit, 1, version=1 + i)
    version = len(units)
    response = client.post(url, {"version": version})
    assert response.status_code == 422
    assert "1 of the" in response.json()["error"]
    post_answer(client, task, units[-1], 0, version=version)
    assert client.post(url, {"version": version}).status_code == 409  # stale
    response = client.post(url, {"version": version + 1})
    assert response.status_code == 200
    task.refresh_from_db()
    assert task.status == "submitted"
    assert len(stored(task)) == len(units)
    # Submitted: no more answers, and the page is read-only with the answers listed.
    assert post_answer(client, task, units[0], 0, version=task.version).status_code == 403
    page = client.get(reverse("judging-task", args=[task.pk])).content.decode()
    assert 'id="answers-table"' in page
    assert '"editable": false' in page


def test_an_administrator_reopens_a_submitted_task(client, demo, presence):
    task, _ = presence
    JudgmentTask.objects.filter(pk=task.pk).update(status="submitted")
    client.force_login(demo["annotator"])
    assert client.post(reverse("judging-reopen", args=[task.pk])).status_code in (403, 404)
    client.force_login(demo["admin"])
    assert (
        "Reopen for the judge"
        in client.get(reverse("judging-task", args=[task.pk])).content.decode()
    )
    client.post(reverse("judging-reopen", args=[task.pk]))
    task.refresh_from_db()
    assert (task.status, task.version) == ("in_progress", 2)


@pytest.mark.parametrize(
    ("who", "page", "answer"),
    [
        ("annotator", 200, 200),  # the judge
        ("admin", 200, 403),  # views, does not answer
        ("organizer", 200, 403),  # reads
        ("other_annotator", 404, 404),  # another judge
        ("outsider", 404, 404),
    ],
)
def test_only_the_judge_answers(client, demo, presence, who, page, answer):
    task, units = presence
    client.force_login(demo[who])
    response = client.get(reverse("judging-task", args=[task.pk]))
    assert response.status_code == page
    if page == 200:
        editable = '"editable": true' in response.content.decode()
        assert editable == (who == "annotator")
    assert post_answer(client, task, units[0], 1).status_code == answer
    submitted = client.post(
        reverse("judging-submit", args=[task.pk]), {"version": 1 + (answer == 200)}
    )
    assert submitted.status_code == (422 if answer == 200 else answer)  # the judge: units open
    assert Judgment.objects.filter(task=task).exists() == (who == "annotator")


def test_a_withdrawn_task_is_gone_for_its_judge(client, demo, presence):
    task, units = presence
    JudgmentTask.objects.filter(pk=task.pk).update(withdrawn=True)
    client.force_login(demo["annotator"])
    assert client.get(reverse("judging-task", args=[task.pk])).status_code == 404
    assert post_answer(client, task, units[0], 1).status_code == 404
    assert not Judgment.objects.exists()


def test_anonymous_users_are_sent_to_log_in(client, presence):
    task, _ = presence
    response = client.get(reverse("judging-task", args=[task.pk]))
    assert response.status_code == 302
    assert "login" in response["Location"]


def test_an_answer_costs_a_few_queries_whatever_the_units(
    client, demo, django_assert_max_num_queries
):
    unit_set = records.presence_set(demo, count=40, name="Forty")
    task = records.task(unit_set, records.peer(demo, "1"), demo["annotator"])
    units = list(unit_set.units.order_by("position"))
    client.force_login(demo["annotator"])
    post_answer(client, task, units[0], 1)
    # The session, the user, the task locked, the progress with the unit checked, the judgment
    # updated, the version raised (and the test's savepoint and its release).
    with django_assert_max_num_queries(8):
        assert post_answer(client, task, units[0], 0, version=2, units_version=1).status_code == 200
    with django_assert_max_num_queries(9):  # a first answer: an insert after the update
        assert post_answer(client, task, units[1], 0, version=3, units_version=1).status_code == 200


def test_the_page_costs_the_same_queries_whatever_the_units(
    client, demo, django_assert_max_num_queries
):
    small = records.presence_set(demo)
    large = records.presence_set(demo, count=40, name="Forty")
    tasks = [records.task(s, records.peer(demo, "1"), demo["annotator"]) for s in (small, large)]
    client.force_login(demo["annotator"])
    with django_assert_max_num_queries(16) as few:
        client.get(reverse("judging-task", args=[tasks[0].pk]))
    with django_assert_max_num_queries(len(few.captured_queries)):
        page = client.get(reverse("judging-task", args=[tasks[1].pk])).content.decode()
    assert "Unit 40 of 40" in page
