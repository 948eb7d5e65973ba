"""The judging assignment page, and withdrawing and reassigning from the progress page."""

from django.urls import reverse

from annotator.coverage.models import JudgmentTask
from annotator.models import Summary
from tests.coverage import judging_records as records


def url(demo):
    return reverse("judging-assign", args=[demo["collection"].pk])


def test_an_administrator_assigns_every_unit_set_of_a_method(client, demo):
    presence = records.presence_set(demo)
    records.see_set(demo)
    client.force_login(demo["admin"])
    page = client.get(url(demo)).content.decode()
    assert "DEMO01: Lite Pyramid (presence)" in page
    response = client.post(
        url(demo),
        {
            "method": "presence",
            "per_peer": 1,
            "judges": [demo["annotator"].pk, demo["other_annotator"].pk],
        },
    )
    assert response.status_code == 302
    assert response["Location"] == reverse("collection-progress", args=[demo["collection"].pk])
    stored = sorted(
        (t.unit_set_id, t.peer.author, t.judge.username)
        for t in JudgmentTask.objects.select_related("peer", "judge")
    )
    assert stored == [
        (presence.pk, "1", "annotator"),
        (presence.pk, "2", "other_annotator"),
        (presence.pk, "3", "annotator"),
    ]
    # Again: nothing twice.
    client.post(
        url(demo), {"unit_sets": [presence.pk], "per_peer": 1, "judges": [demo["annotator"].pk]}
    )
    assert JudgmentTask.objects.count() == 3


def test_the_form_needs_unit_sets_or_a_method(client, demo):
    client.force_login(demo["admin"])
    page = client.post(url(demo), {"per_peer": 1, "judges": [demo["annotator"].pk]})
    assert page.status_code == 200
    assert "Choose unit sets, or a method for all of them." in page.content.decode()


def test_only_administrators_open_it(client, demo):
    client.force_login(demo["organizer"])
    assert client.get(url(demo)).status_code == 403
    client.force_login(demo["outsider"])
    assert client.get(url(demo)).status_code == 404


def test_progress_shows_judgment_tasks_withdraw_and_reassign(client, demo):
    unit_set = records.presence_set(demo)
    task = records.task(unit_set, records.peer(demo, "2"), demo["other_annotator"])
    client.force_login(demo["admin"])
    progress = reverse("collection-progress", args=[demo["collection"].pk])
    page = client.get(progress).content.decode()
    assert f'id="judgment-task-{task.pk}"' in page
    assert f"0 / {unit_set.units.count()}" in page
    assert reverse("judging-withdraw", args=[task.pk]) in page
    client.post(reverse("judging-reassign", args=[task.pk]), {"to": "annotator"})
    assert sorted(JudgmentTask.objects.values_list("judge__username", "withdrawn")) == [
        ("annotator", False),
        ("other_annotator", True),
    ]
    moved = JudgmentTask.objects.get(withdrawn=False)
    client.post(reverse("judging-withdraw", args=[moved.pk]))
    assert not JudgmentTask.objects.filter(withdrawn=False).exists()
    # Organizers read the rows, without the controls; and may not withdraw.
    client.force_login(demo["organizer"])
    page = client.get(progress + "?task=judge&status=withdrawn").content.decode()
    assert f'id="judgment-task-{moved.pk}"' in page
    assert ">Withdraw</button>" not in page
    assert client.post(reverse("judging-withdraw", args=[moved.pk])).status_code == 403


def test_progress_costs_the_same_queries_whatever_the_tasks(
    client, demo, django_user_model, django_assert_max_num_queries
):
    unit_set = records.presence_set(demo)
    records.task(unit_set, records.peer(demo, "1"), demo["annotator"])
    client.force_login(demo["organizer"])
    progress = reverse("collection-progress", args=[demo["collection"].pk])
    with django_assert_max_num_queries(18) as few:
        client.get(progress)
    peers = Summary.objects.bulk_create(
        Summary(docset=unit_set.docset, kind=Summary.Kind.PEER, author=str(n), text="A peer.")
        for n in range(10, 30)
    )
    judges = [django_user_model.objects.create_user(f"judge{n}") for n in range(3)]
    JudgmentTask.objects.bulk_create(
        JudgmentTask(unit_set=unit_set, peer=p, judge=j) for p in peers for j in judges
    )
    with django_assert_max_num_queries(len(few.captured_queries)):
        page = client.get(progress).content.decode()
    assert page.count('id="judgment-task-') == 1 + 20 * 3


def test_the_dashboard_lists_the_judges_tasks(client, demo, django_assert_max_num_queries):
    unit_set = records.presence_set(demo)
    task = records.task(unit_set, records.peer(demo, "1"), demo["annotator"])
    withdrawn = records.task(unit_set, records.peer(demo, "2"), demo["annotator"])
    withdrawn.withdrawn = True
    withdrawn.save()
    client.force_login(demo["annotator"])
    with django_assert_max_num_queries(15):
        page = client.get(reverse("home")).content.decode()
    assert f'href="{reverse("judging-task", args=[task.pk])}"' in page
    assert "Judge peer 1 against Lite Pyramid" in page
    assert reverse("judging-task", args=[withdrawn.pk]) not in page
    assert f"0 / {unit_set.units.count()}" in page


def test_the_page_says_plainly_what_could_not_be_assigned(client, demo):
    """5 judges per peer, only a judge who judges every peer already: no "3 peers already
    judged, 1 skipped", but what happened and what to do."""
    unit_set = records.presence_set(demo)
    for author in ("1", "2", "3"):
        records.task(unit_set, records.peer(demo, author), demo["annotator"])
    client.force_login(demo["admin"])
    response = client.post(
        url(demo),
        {"unit_sets": [unit_set.pk], "per_peer": 5, "judges": [demo["annotator"].pk]},
        follow=True,
    )
    page = response.content.decode()
    assert "No judgment task made: annotator already judges all 3 peers." in page
    assert (
        "3 peers have fewer than 5 judges, as every judge chosen judges them now: 3 have 1 judge."
        " Choose more judges to give each peer 5." in page
    )
    assert "skipped" not in page
    assert JudgmentTask.objects.count() == 3
