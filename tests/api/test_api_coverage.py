"""Coverage judgments in the API (issue 21): /api/unit-sets/, /api/units/, /api/judgment-tasks/
and /api/coverage-judgments/, read-only with the judging page's permissions; a judge's answers and
submission (POST /api/judgment-tasks/<id>/answer/ and …/submit/) through the page's service, with
its rules and versions."""

import json

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from annotator.coverage import unit_editing
from annotator.coverage.models import Judgment, JudgmentTask, Unit, UnitSet
from annotator.models import Collection, Docset, Membership, Role, Summary
from tests.coverage import judging_records as records

pytestmark = pytest.mark.django_db


def get(client, path, status=200):
    response = client.get(path)
    assert response.status_code == status, response.content[:300]
    return response.json()


def post(client, path, body):
    return client.post(path, body, content_type="application/json")


def answer(client, task, unit, value, version=None, units_version=None, **more):
    body = {
        "version": task.version if version is None else version,
        "units_version": task.unit_set.version if units_version is None else units_version,
        "unit": unit.pk,
        "value": value,
        **more,
    }
    return post(client, f"/api/judgment-tasks/{task.pk}/answer/", body)


def stored(task):
    return {
        j.unit.position: (j.value, j.sentences, j.seconds)
        for j in Judgment.objects.filter(task=task).select_related("unit")
    }


@pytest.fixture
def judged(demo):
    """A presence set (the demo pyramid's SCUs) and a SEE set on the demo docset; the annotator
    judges peer 1 against both, other_annotator peer 2 against the presence set (one answer)."""
    presence, see = records.presence_set(demo), records.see_set(demo)
    mine = records.task(presence, records.peer(demo, "1"), demo["annotator"])
    see_task = records.task(see, records.peer(demo, "1"), demo["annotator"])
    theirs = records.task(presence, records.peer(demo, "2"), demo["other_annotator"])
    first = presence.units.order_by("position").first()
    Judgment.objects.create(task=theirs, unit=first, value=1.0, seconds=4.0)
    return {"presence": presence, "see": see, "mine": mine, "see_task": see_task, "theirs": theirs}


def test_the_records_with_their_fields_named_as_the_models(client, demo, judged):
    client.force_login(demo["organizer"])
    presence, theirs = judged["presence"], judged["theirs"]
    docset, collection = demo["pyramid"].docset_id, demo["collection"].pk
    unit_sets = get(client, "/api/unit-sets/")["results"]
    assert [(s["name"], s["method"]) for s in unit_sets] == [
        ("Lite Pyramid", "presence"),
        ("SEE model A", "see"),
    ]
    assert unit_sets[0] == {
        "id": presence.pk,
        "collection": collection,
        "docset": docset,
        "name": "Lite Pyramid",
        "method": "presence",
        "scale": "present_absent",
        "answers": [1.0, 0.0],
        "source": "pyramid",
        "pyramid": demo["pyramid"].pk,
        "source_name": "",
        "version": 1,
        "created_at": unit_sets[0]["created_at"],
    }
    assert unit_sets[1]["answers"] == [4.0, 3.0, 2.0, 1.0, 0.0]
    units = get(client, f"/api/units/?unit_set={judged['see'].pk}")["results"]
    model_a = Summary.objects.get(docset_id=docset, kind="model", author="A")
    assert [u["text"] for u in units] == records.SEE_CLAUSES
    assert units[0] == {
        "id": units[0]["id"],
        "unit_set": judged["see"].pk,
        "position": 0,
        "text": records.SEE_CLAUSES[0],
        "model": model_a.pk,
        "start": model_a.text.index(records.SEE_CLAUSES[0]),
        "end": model_a.text.index(records.SEE_CLAUSES[0]) + len(records.SEE_CLAUSES[0]),
        "scu": None,
        "weight": 1,
        "external_id": "",
    }
    task = get(client, f"/api/judgment-tasks/{theirs.pk}/")
    assert task == {
        "id": theirs.pk,
        "collection": collection,
        "docset": docset,
        "unit_set": presence.pk,
        "peer": records.peer(demo, "2").pk,
        "judge": "other_annotator",
        "judge_code": "",
        "status": "in_progress",
        "withdrawn": False,
        "assigned_by": None,
        "version": 1,
        "units_version": 1,
        "answered": 1,
        "total": presence.units.count(),
        "created_at": task["created_at"],
        "updated_at": task["updated_at"],
    }
    assert get(client, "/api/judgment-tasks/")["count"] == 3
    judgment = Judgment.objects.get(task=theirs)
    assert get(client, "/api/coverage-judgments/")["results"] == [
        {
            "id": judgment.pk,
            "task": theirs.pk,
            "unit_set": presence.pk,
            "unit": judgment.unit_id,
            "value": 1.0,
            "sentences": [],
            "seconds": 4.0,
            "updated_at": get(client, f"/api/coverage-judgments/{judgment.pk}/")["updated_at"],
        }
    ]


def test_filters(client, demo, judged):
    other = Docset.objects.create(collection=Collection.objects.create(name="Other"), name="D0002")
    peer = Summary.objects.create(docset=other, kind="peer", author="9", text="A peer. Of two.")
    elsewhere = UnitSet.objects.create(
        docset=other, name="Hand", method="presence", scale="present_absent", source="hand"
    )
    unit = Unit.objects.create(unit_set=elsewhere, position=0, text="A fact.")
    far = JudgmentTask.objects.create(unit_set=elsewhere, peer=peer, judge_code="crowd 1")
    Judgment.objects.create(task=far, unit=unit, value=0.0)
    client.force_login(demo["admin"])  # reads both collections

    def ids(path):
        return sorted(row["id"] for row in get(client, path)["results"])

    presence, see, mine = judged["presence"], judged["see"], judged["mine"]
    demo_collection, demo_docset = demo["collection"].pk, demo["pyramid"].docset_id
    assert ids("/api/unit-sets/") == sorted([presence.pk, see.pk, elsewhere.pk])
    assert ids(f"/api/unit-sets/?collection={demo_collection}") == sorted([presence.pk, see.pk])
    assert ids(f"/api/unit-sets/?docset={other.pk}") == [elsewhere.pk]
    assert ids(f"/api/unit-sets/?docset={demo_docset}&method=see") == [see.pk]
    assert ids(f"/api/units/?unit_set={elsewhere.pk}") == [unit.pk]
    assert len(ids(f"/api/units/?unit_set={see.pk}")) == 3

    assert len(ids("/api/judgment-tasks/")) == 4
    assert ids(f"/api/judgment-tasks/?collection={other.collection_id}") == [far.pk]
    assert ids(f"/api/judgment-tasks/?docset={demo_docset}&unit_set={see.pk}") == [
        judged["see_task"].pk
    ]
    assert ids(f"/api/judgment-tasks/?peer={records.peer(demo, '2').pk}") == [judged["theirs"].pk]
    assert ids("/api/judgment-tasks/?judge__username=annotator") == sorted(
        [mine.pk, judged["see_task"].pk]
    )
    JudgmentTask.objects.filter(pk=mine.pk).update(status="submitted")
    assert ids("/api/judgment-tasks/?status=submitted") == [mine.pk]

    assert len(ids("/api/coverage-judgments/")) == 2
    assert ids(f"/api/coverage-judgments/?collection={other.collection_id}") == [
        Judgment.objects.get(task=far).pk
    ]
    assert ids(f"/api/coverage-judgments/?unit_set={presence.pk}") == [
        Judgment.objects.get(task=judged["theirs"]).pk
    ]
    assert ids(f"/api/coverage-judgments/?task={mine.pk}") == []
    for refused in (
        "/api/unit-sets/?collection=999999",
        "/api/unit-sets/?method=rouge",
        "/api/judgment-tasks/?status=done",
        "/api/coverage-judgments/?unit_set=999999",
    ):
        assert client.get(refused).status_code == 400, refused


@pytest.mark.parametrize(
    ("who", "tasks", "unit_sets", "judgments"),
    [
        ("admin", ["mine", "see_task", "theirs"], 2, 1),
        ("organizer", ["mine", "see_task", "theirs"], 2, 1),
        ("adjudicator", ["mine", "see_task", "theirs"], 2, 1),
        ("annotator", ["mine", "see_task"], 2, 0),  # their own, and the sets they are judged on
        ("other_annotator", ["theirs"], 1, 1),
        ("outsider", [], 0, 0),
    ],
)
def test_who_reads_which_records(
    client, demo, judged, django_user_model, who, tasks, unit_sets, judgments
):
    """The judging page's permissions: readers of the collection everything in it; a judge their
    own tasks, with their answers, unit sets and units; anyone else nothing (404 for a record)."""
    adjudicator = django_user_model.objects.create_user("adjudicator")
    Membership.objects.create(
        collection=demo["collection"], user=adjudicator, role=Role.ADJUDICATOR
    )
    client.force_login({**demo, "adjudicator": adjudicator}[who])
    listed = {t["id"] for t in get(client, "/api/judgment-tasks/")["results"]}
    assert listed == {judged[name].pk for name in tasks}
    assert get(client, "/api/unit-sets/")["count"] == unit_sets
    assert get(client, "/api/coverage-judgments/")["count"] == judgments
    theirs = judged["theirs"]
    readable = "theirs" in tasks
    get(client, f"/api/judgment-tasks/{theirs.pk}/", 200 if readable else 404)
    judgment = Judgment.objects.get(task=theirs)
    get(client, f"/api/coverage-judgments/{judgment.pk}/", 200 if readable else 404)
    # The presence set is judged by both annotators: everyone but the outsider reads it.
    on_presence = 404 if who == "outsider" else 200
    get(client, f"/api/unit-sets/{theirs.unit_set_id}/", on_presence)
    get(client, f"/api/units/{judgment.unit_id}/", on_presence)
    see_units = get(client, f"/api/units/?unit_set={judged['see'].pk}")["count"]
    assert see_units == (3 if "see_task" in tasks else 0)


def test_a_withdrawn_task_is_gone_for_its_judge(client, demo, judged):
    mine = judged["mine"]
    JudgmentTask.objects.filter(pk__in=[mine.pk, judged["see_task"].pk]).update(withdrawn=True)
    client.force_login(demo["annotator"])
    assert get(client, "/api/judgment-tasks/")["count"] == 0
    assert get(client, "/api/unit-sets/")["count"] == 0
    get(client, f"/api/judgment-tasks/{mine.pk}/", 404)
    unit = mine.unit_set.units.first()
    assert answer(client, mine, unit, 1.0).status_code == 404
    assert not Judgment.objects.filter(task=mine).exists()


def test_anonymous_callers_are_refused_and_nothing_is_written(client, demo, judged):
    for path in ("unit-sets", "units", "judgment-tasks", "coverage-judgments"):
        assert client.get(f"/api/{path}/").status_code == 401
    mine = judged["mine"]
    assert answer(client, mine, mine.unit_set.units.first(), 1.0).status_code == 401
    client.force_login(demo["admin"])
    for path in ("unit-sets", "units", "judgment-tasks", "coverage-judgments"):
        assert post(client, f"/api/{path}/", {}).status_code == 405
    assert client.delete(f"/api/judgment-tasks/{mine.pk}/").status_code == 405
    assert client.patch(f"/api/unit-sets/{mine.unit_set_id}/", {"name": "x"}).status_code == 405


def test_an_answer_through_the_api_is_stored_as_the_pages(client, demo):
    """Two SEE tasks of the judge, one answered on the page, the other through the API with the
    same answer: the same judgment, the same version after."""
    page_set = records.see_set(demo, name="SEE on the page")
    api_set = records.see_set(demo, name="SEE through the API")
    peer = records.peer(demo, "1")
    on_page, through_api = (records.task(s, peer, demo["annotator"]) for s in (page_set, api_set))
    sentence = records.span(records.PEER_1[1])
    client.force_login(demo["annotator"])
    page_unit = page_set.units.get(position=1)
    response = client.post(
        reverse("judging-answer", args=[on_page.pk]),
        {
            "version": 1,
            "units_version": 1,
            "unit": page_unit.pk,
            "value": "3",
            "sentences": json.dumps([sentence]),
            "seconds": "7.5",
        },
    )
    assert response.status_code == 200
    api_unit = api_set.units.get(position=1)
    response = answer(client, through_api, api_unit, 3, sentences=[sentence], seconds=7.5)
    assert response.status_code == 200, response.content
    assert response.json() == {
        "version": 2,
        "answered": 1,
        "total": 3,
        "status": "in_progress",
        "sentences_cleared": False,
    }
    assert stored(through_api) == stored(on_page) == {1: (3.0, [sentence], 7.5)}
    on_page.refresh_from_db()
    through_api.refresh_from_db()
    assert through_api.version == on_page.version == 2
    # The answer is read back as the page stored it.
    listed = get(client, f"/api/coverage-judgments/?task={through_api.pk}")["results"]
    assert [(j["unit"], j["value"], j["sentences"]) for j in listed] == [
        (api_unit.pk, 3.0, [sentence])
    ]
    # "None" stores no sentences, and says so; null takes the answer back.
    response = answer(client, through_api, api_unit, 0, version=2, sentences=[sentence])
    assert response.json()["sentences_cleared"] is True
    assert stored(through_api) == {1: (0.0, [], 7.5)}
    response = answer(client, through_api, api_unit, None, version=3)
    assert response.json()["answered"] == 0
    assert stored(through_api) == {}


def test_stale_versions_are_409_with_the_current_ones_and_nothing_stored(client, demo, judged):
    mine = judged["mine"]
    units = list(mine.unit_set.units.order_by("position"))
    client.force_login(demo["annotator"])
    assert answer(client, mine, units[0], 1.0).status_code == 200  # another tab: version 2
    stale = answer(client, mine, units[1], 0.0, version=1)
    assert stale.status_code == 409
    said = stale.json()
    assert "changed elsewhere" in said["detail"]
    assert (said["current_version"], said["current_units_version"]) == (2, 1)
    assert stored(mine) == {0: (1.0, [], None)}
    # An administrator changes the units: an answer on the units read before is refused.
    see_task = judged["see_task"]
    shown = see_task.unit_set.version
    first = see_task.unit_set.units.get(position=0)
    unit_editing.relabel(see_task.unit_set_id, demo["admin"], shown, first.pk, "A new clause.")
    stale = answer(client, see_task, first, 4.0, units_version=shown)
    assert stale.status_code == 409
    said = stale.json()
    assert "units were changed by an administrator" in said["detail"]
    assert (said["current_version"], said["current_units_version"]) == (1, shown + 1)
    assert not Judgment.objects.filter(task=see_task).exists()
    assert answer(client, see_task, first, 4.0, units_version=shown + 1).status_code == 200
    # A stale submission too.
    stale = post(client, f"/api/judgment-tasks/{mine.pk}/submit/", {"version": 1})
    assert stale.status_code == 409
    assert stale.json()["current_version"] == 2


@pytest.mark.parametrize(
    ("body", "status"),
    [
        ({"value": 0.5}, 422),  # not on the scale
        ({"value": 1.0, "sentences": [[0, 42]]}, 422),  # sentences: SEE only
        ({"value": "present"}, 400),
        ({"value": 1.0, "units_version": None}, 400),
        ({"value": 1.0, "sentences": [[0]]}, 400),
        ({"value": 1.0, "seconds": "soon"}, 400),
    ],
)
def test_broken_rules_are_422_and_bad_bodies_400(client, demo, judged, body, status):
    mine = judged["mine"]
    client.force_login(demo["annotator"])
    unit = mine.unit_set.units.first()
    full = {"version": 1, "units_version": 1, "unit": unit.pk, **body}
    full = {key: value for key, value in full.items() if value is not None}
    response = post(client, f"/api/judgment-tasks/{mine.pk}/answer/", full)
    assert response.status_code == status, response.content
    assert "detail" in response.json() or status == 400
    assert not Judgment.objects.filter(task=mine).exists()
    assert JudgmentTask.objects.get(pk=mine.pk).version == 1


def test_a_unit_of_another_unit_set_is_refused(client, demo, judged):
    mine = judged["mine"]
    client.force_login(demo["annotator"])
    foreign = judged["see"].units.first()
    response = answer(client, mine, foreign, 1.0)
    assert response.status_code == 422
    assert "not one of this task's units" in response.json()["detail"]
    assert post(client, f"/api/judgment-tasks/{mine.pk}/answer/", [1]).status_code == 400


@pytest.mark.parametrize(
    ("who", "status"),
    [("admin", 403), ("organizer", 403), ("other_annotator", 404), ("outsider", 404)],
)
def test_only_the_judge_answers_and_submits(client, demo, judged, who, status):
    """Readers of the collection see the task but do not answer it (403); others do not see it
    (404). Nothing is stored."""
    mine = judged["mine"]
    client.force_login(demo[who])
    assert answer(client, mine, mine.unit_set.units.first(), 1.0).status_code == status
    submitted = post(client, f"/api/judgment-tasks/{mine.pk}/submit/", {"version": 1})
    assert submitted.status_code == status
    if status == 403:
        assert "Only the judge" in submitted.json()["detail"]
    task = JudgmentTask.objects.get(pk=mine.pk)
    assert (task.version, task.status) == (1, "in_progress")
    assert not Judgment.objects.filter(task=mine).exists()


def test_submitting_needs_every_unit_and_makes_the_task_read_only(client, demo, judged):
    mine = judged["mine"]
    units = list(mine.unit_set.units.order_by("position"))
    client.force_login(demo["annotator"])
    early = post(client, f"/api/judgment-tasks/{mine.pk}/submit/", {"version": 1})
    assert early.status_code == 422
    assert f"{len(units)} of the {len(units)} units are not answered" in early.json()["detail"]
    for version, unit in enumerate(units, start=1):
        assert answer(client, mine, unit, 1.0, version=version).status_code == 200
    done = post(client, f"/api/judgment-tasks/{mine.pk}/submit/", {"version": len(units) + 1})
    assert done.status_code == 200
    assert done.json()["status"] == "submitted"
    assert JudgmentTask.objects.get(pk=mine.pk).status == "submitted"
    assert get(client, f"/api/judgment-tasks/{mine.pk}/")["status"] == "submitted"
    late = answer(client, mine, units[0], 0.0, version=len(units) + 2)
    assert late.status_code == 403
    assert "submitted" in late.json()["detail"]
    assert stored(mine)[0][0] == 1.0


@pytest.mark.parametrize("who", ["organizer", "annotator"])
def test_the_same_queries_whatever_the_number_of_records(
    client, demo, judged, who, django_assert_max_num_queries
):
    # A row in every list before (an empty list spares the query of its rows).
    Judgment.objects.create(
        task=judged["mine"], unit=judged["mine"].unit_set.units.first(), value=0
    )
    client.force_login(demo[who])
    paths = ["/api/unit-sets/", "/api/units/", "/api/judgment-tasks/", "/api/coverage-judgments/"]

    def counts():
        found = {}
        for path in paths:
            with CaptureQueriesContext(connection) as captured, django_assert_max_num_queries(6):
                assert client.get(path).status_code == 200
            found[path] = len(captured)
        return found

    few = counts()
    for n in range(3):
        unit_set = records.presence_set(demo, count=5, name=f"More {n}")
        for author in ("1", "2", "3"):
            task = records.task(unit_set, records.peer(demo, author), demo["annotator"])
            Judgment.objects.bulk_create(
                Judgment(task=task, unit=unit, value=1.0) for unit in unit_set.units.all()
            )
    assert get(client, "/api/judgment-tasks/")["count"] >= 11
    assert counts() == few


def test_listed_at_the_root_and_documented_in_the_schema(client, demo, judged):
    client.force_login(demo["admin"])
    root = get(client, "/api/")
    schema = client.get("/api/schema/?format=json").json()
    for name in ("unit-sets", "units", "judgment-tasks", "coverage-judgments"):
        assert root[name] == f"http://testserver/api/{name}/"
        assert set(schema["paths"][f"/api/{name}/{{id}}/"]) == {"get"}  # read-only
    tasks = schema["paths"]["/api/judgment-tasks/"]["get"]
    assert {p["name"] for p in tasks["parameters"]} >= {
        "collection",
        "docset",
        "unit_set",
        "peer",
        "judge__username",
        "status",
        "page",
    }
    answering = schema["paths"]["/api/judgment-tasks/{id}/answer/"]["post"]
    assert {"200", "400", "403", "404", "409", "422"} <= set(answering["responses"])
    conflict = answering["responses"]["409"]["content"]["application/json"]["schema"]["$ref"]
    assert conflict.endswith("JudgingConflict")
    body = schema["components"]["schemas"]["JudgingAnswerRequest"]
    assert set(body["required"]) == {"version", "units_version", "unit", "value"}
    assert "/api/judgment-tasks/{id}/submit/" in schema["paths"]
    judgments = schema["paths"]["/api/coverage-judgments/"]["get"]
    assert {p["name"] for p in judgments["parameters"]} >= {"task", "unit_set", "collection"}
    # The browsable API names them (not "Judgments", the human judgments' name).
    headings = {
        "unit-sets": "Unit sets",
        "units": "Units",
        "judgment-tasks": "Judgment tasks",
        "coverage-judgments": "Coverage judgments",
    }
    for name, heading in headings.items():
        page = client.get(f"/api/{name}/", HTTP_ACCEPT="text/html").content.decode()
        assert f"<h1>{heading}</h1>" in page, name
    task = client.get(f"/api/judgment-tasks/{judged['mine'].pk}/", HTTP_ACCEPT="text/html")
    assert "<h1>Judgment task</h1>" in task.content.decode()
