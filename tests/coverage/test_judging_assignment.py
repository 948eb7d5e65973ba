"""Giving out judgment tasks (annotator.coverage.judging_assignment): round robin, N judges per
peer, in bulk; withdrawing and reassigning keep every judge's answers their own."""

import pytest

from annotator.coverage import judging_assignment as service
from annotator.coverage.models import Judgment, JudgmentTask
from annotator.editing.errors import NotAllowed, RuleBroken
from annotator.models import Membership, Role, Summary
from tests.coverage import judging_records as records


@pytest.fixture
def judges(django_user_model):
    return [django_user_model.objects.create_user(name) for name in ("ann", "bob", "cat")]


def given(unit_set=None):
    tasks = JudgmentTask.objects.filter(withdrawn=False)
    if unit_set is not None:
        tasks = tasks.filter(unit_set=unit_set)
    return sorted((t.peer.author, t.judge.username) for t in tasks.select_related("peer", "judge"))


def test_round_robin_one_judge_per_peer(demo, judges):
    unit_set = records.presence_set(demo)
    report = service.assign_judging([unit_set], judges[:2], demo["admin"], per_peer=1)
    assert len(report.created) == 3
    assert given() == [("1", "ann"), ("2", "bob"), ("3", "ann")]
    # Judges become annotators of the collection (access follows assignments).
    assert (
        Membership.objects.filter(
            collection=demo["collection"], user__in=judges[:2], role=Role.ANNOTATOR
        ).count()
        == 2
    )


def test_two_judges_per_peer_in_turn(demo, judges):
    unit_set = records.presence_set(demo)
    service.assign_judging([unit_set], judges, demo["admin"], per_peer=2)
    assert given() == [
        ("1", "ann"),
        ("1", "bob"),
        ("2", "ann"),
        ("2", "cat"),
        ("3", "bob"),
        ("3", "cat"),
    ]


def test_running_again_adds_only_what_is_missing(demo, judges):
    unit_set = records.presence_set(demo)
    service.assign_judging([unit_set], judges[:1], demo["admin"], per_peer=1)
    again = service.assign_judging([unit_set], judges, demo["admin"], per_peer=1)
    assert (len(again.created), again.already) == (0, 3)
    more = service.assign_judging([unit_set], judges, demo["admin"], per_peer=2)
    assert len(more.created) == 3  # one more judge each, never ann twice
    assert [judge for peer, judge in given() if judge == "ann"] == ["ann"] * 3
    assert JudgmentTask.objects.count() == 6


def test_every_unit_set_of_several_docsets_in_bulk(demo, judges, django_assert_max_num_queries):
    """The queries do not grow with the peers: the tasks there are read once, the new ones made
    in one INSERT."""
    from annotator.models import Docset

    sets = [records.presence_set(demo), records.see_set(demo)]
    for n in range(3):
        docset = Docset.objects.create(collection=demo["collection"], name=f"D{n}")
        Summary.objects.bulk_create(
            Summary(docset=docset, kind=Summary.Kind.PEER, author=str(a), text="A peer.")
            for a in range(10)
        )
        sets.append(records.presence_set({"pyramid": _Stub(docset)}, count=2, name="Units"))
    for unit_set in sets:
        unit_set.docset  # noqa: B018  # loaded, as the form's queryset loads them
    # The permission check (2), the peers, the tasks, the memberships read and added, the tasks
    # added, and the transaction's savepoint and its release.
    with django_assert_max_num_queries(9):
        report = service.assign_judging(sets, judges, demo["admin"], per_peer=2)
    assert len(report.created) == 2 * (3 + 3 + 3 * 10)


class _Stub:
    """Enough of a pyramid for records.presence_set with `count` units: its docset."""

    def __init__(self, docset):
        self.docset = docset


def test_a_withdrawn_task_given_back_keeps_its_answers(demo, judges):
    unit_set = records.presence_set(demo)
    service.assign_judging([unit_set], judges[:1], demo["admin"])
    task = JudgmentTask.objects.get(peer__author="1")
    Judgment.objects.create(task=task, unit=unit_set.units.first(), value=1)
    service.withdraw_task(task, demo["admin"])
    task.refresh_from_db()
    assert task.withdrawn
    assert task.version == 2  # an open page of the judge's answers is stale from now on
    with pytest.raises(RuleBroken):
        service.withdraw_task(task, demo["admin"])
    report = service.assign_judging([unit_set], judges[:1], demo["admin"])
    assert [t.pk for t in report.created] == [task.pk]
    task.refresh_from_db()
    assert not task.withdrawn
    assert task.judgments.count() == 1


def test_reassigning_gives_the_new_judge_a_task_of_their_own(demo, judges):
    unit_set = records.presence_set(demo)
    peer = records.peer(demo, "1")
    task = records.task(unit_set, peer, judges[0])
    Judgment.objects.create(task=task, unit=unit_set.units.first(), value=1)
    moved = service.reassign_task(task, judges[1], demo["admin"])
    assert moved.pk != task.pk
    assert (moved.judge, moved.judgments.count()) == (judges[1], 0)
    task.refresh_from_db()
    assert task.withdrawn
    assert task.judgments.count() == 1  # ann's answers stay ann's
    with pytest.raises(RuleBroken):
        service.reassign_task(moved, judges[1], demo["admin"])
    # Back to ann: her own task, with her answers.
    back = service.reassign_task(moved, judges[0], demo["admin"])
    assert back.pk == task.pk
    assert back.judgments.count() == 1


def test_only_administrators_assign(demo, judges):
    unit_set = records.presence_set(demo)
    with pytest.raises(NotAllowed):
        service.assign_judging([unit_set], judges, demo["organizer"])
    with pytest.raises(RuleBroken):
        service.assign_judging([unit_set], [], demo["admin"])
    assert not JudgmentTask.objects.exists()


def test_more_judges_asked_for_than_chosen_is_said(demo, judges):
    unit_set = records.presence_set(demo)
    report = service.assign_judging([unit_set], judges[:2], demo["admin"], per_peer=3)
    assert len(report.created) == 6
    assert report.skipped == [
        "3 peers have fewer than 3 judges, as every judge chosen judges them now: 3 have 2 judges."
        " Choose more judges to give each peer 3."
    ]


def test_what_could_not_be_given_is_said_plainly(demo, judges):
    """5 judges per peer asked for, one judge chosen who judges every peer already: nothing is
    made, and the report says why and what to do (not "3 peers already judged, 1 skipped")."""
    unit_set = records.presence_set(demo)
    service.assign_judging([unit_set], judges[:1], demo["admin"])
    service.assign_judging([unit_set], judges[1:2], demo["admin"], per_peer=2)
    report = service.assign_judging([unit_set], judges[:1], demo["admin"], per_peer=5)
    assert report.created == []
    assert report.summary == "No judgment task made: ann already judges all 3 peers"
    assert report.skipped == [
        "3 peers have fewer than 5 judges, as every judge chosen judges them now: 3 have 2 judges."
        " Choose more judges to give each peer 5."
    ]
    more = service.assign_judging([unit_set], judges, demo["admin"], per_peer=3)
    assert len(more.created) == 3
    assert more.summary == (
        "3 judgment tasks made; ann already judges all 3 peers, bob all 3 peers"
    )
    assert more.skipped == []
    again = service.assign_judging([unit_set], judges, demo["admin"], per_peer=3)
    assert again.summary == "No judgment task made: 3 peers already have 3 judges"
