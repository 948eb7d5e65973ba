"""Giving out coverage judgments (issue 21): N judges per peer, round robin, as peers are given
out for annotation (annotator.campaigns.assignments).

A JudgmentTask is one judge's work on one peer against one unit set, and the answers it holds are
that judge's own: the judgments are never moved to another judge (agreement between judges would
mix two people). So withdrawing keeps the task and its answers (withdrawn=True, the judge no
longer sees it), and reassigning withdraws the task and gives the peer to the new judge, who starts
their own (or gets back a task withdrawn from them earlier, with their answers).

Assigning is done in bulk: the tasks there are are read in one query, what is missing is made in
one INSERT, the withdrawn tasks given back in one UPDATE, whatever the number of peers.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

from django.db import transaction
from django.utils import timezone

from annotator.campaigns.access import can_administer
from annotator.coverage.models import JudgmentTask
from annotator.editing.engine import NotAllowed, RuleBroken
from annotator.models import Membership, Role, Summary


@dataclass
class JudgingReport:
    created: list[JudgmentTask] = field(default_factory=list)  # new tasks, and tasks given back
    already: int = 0  # peers that already had their judges
    skipped: list[str] = field(default_factory=list)  # what could not be assigned, and why

    @property
    def summary(self) -> str:
        made = len(self.created)
        parts = [f"{made} judgment task{'s' if made != 1 else ''} made"]
        if self.already:
            parts.append(f"{self.already} peer{'s' if self.already != 1 else ''} already judged")
        if self.skipped:
            parts.append(f"{len(self.skipped)} skipped")
        return ", ".join(parts)


def _ensure_annotators(pairs: set[tuple[int, int]]) -> None:
    """Each (collection, user) an annotator member: an assigned user is one (access follows
    assignments). One query to read, one to add."""
    if not pairs:
        return
    users = {user for _, user in pairs}
    have = set(
        Membership.objects.filter(user_id__in=users, role=Role.ANNOTATOR).values_list(
            "collection_id", "user_id"
        )
    )
    Membership.objects.bulk_create(
        [
            Membership(collection_id=c, user_id=u, role=Role.ANNOTATOR)
            for c, u in sorted(pairs - have)
        ],
        ignore_conflicts=True,
    )


@transaction.atomic
def assign_judging(unit_sets, judges, by, per_peer: int = 1) -> JudgingReport:
    """Every peer of each unit set's docset to `per_peer` of `judges`, in turn.

    The turn goes on from peer to peer (and from unit set to unit set), so that the work is shared
    out evenly. A peer that has judges already (active tasks) only gets what it lacks, from judges
    it does not have yet: running it again adds what is missing and nothing twice. A task withdrawn
    from a judge the turn picks again is given back, with its answers.

    NotAllowed unless `by` administers every unit set's collection; RuleBroken for no judges or a
    number of judges per peer under 1."""
    unit_sets = list(unit_sets)
    judges = sorted(judges, key=lambda user: user.username)
    collections = {unit_set.docset.collection_id for unit_set in unit_sets}
    for collection_id in sorted(collections):
        if not can_administer(by, collection_id):
            raise NotAllowed("Only the collection's administrators give out its work.")
    if not judges:
        raise RuleBroken("Choose at least one judge.")
    if per_peer < 1:
        raise RuleBroken("Each peer needs at least one judge.")
    report = JudgingReport()
    if per_peer > len(judges):
        report.skipped.append(
            f"{per_peer} judges per peer were asked for and {len(judges)} chosen: "
            f"each peer gets {len(judges)}."
        )
    set_ids = [unit_set.pk for unit_set in unit_sets]
    docsets = {unit_set.docset_id for unit_set in unit_sets}
    peers: dict[int, list[int]] = defaultdict(list)
    for peer_id, docset_id in (
        Summary.objects.filter(docset_id__in=docsets, kind=Summary.Kind.PEER)
        .order_by("docset_id", "author", "pk")
        .values_list("pk", "docset_id")
    ):
        peers[docset_id].append(peer_id)
    existing: dict[tuple[int, int], dict[int, JudgmentTask]] = defaultdict(dict)
    for task in JudgmentTask.objects.filter(unit_set_id__in=set_ids, judge__isnull=False).only(
        "pk", "unit_set_id", "peer_id", "judge_id", "withdrawn"
    ):
        assert task.judge_id is not None
        existing[(task.unit_set_id, task.peer_id)][task.judge_id] = task
    wanted = min(per_peer, len(judges))
    turn = 0
    new: list[JudgmentTask] = []
    given_back: list[JudgmentTask] = []
    members: set[tuple[int, int]] = set()
    for unit_set in unit_sets:
        if not peers[unit_set.docset_id]:
            report.skipped.append(f"Docset {unit_set.docset.name} has no peer summaries.")
            continue
        for peer_id in peers[unit_set.docset_id]:
            tasks = existing[(unit_set.pk, peer_id)]
            active = {judge for judge, task in tasks.items() if not task.withdrawn}
            missing = wanted - len(active)
            if missing <= 0:
                report.already += 1
                continue
            # The next judges in turn who do not judge this peer yet.
            picked = [
                index
                for index in ((turn + step) % len(judges) for step in range(len(judges)))
                if judges[index].pk not in active
            ][:missing]
            for index in picked:
                judge = judges[index]
                members.add((unit_set.docset.collection_id, judge.pk))
                if judge.pk in tasks:  # withdrawn earlier: given back, answers and all
                    given_back.append(tasks[judge.pk])
                else:
                    new.append(
                        JudgmentTask(
                            unit_set=unit_set, peer_id=peer_id, judge=judge, assigned_by=by
                        )
                    )
            turn = (picked[-1] + 1) % len(judges)
    _ensure_annotators(members)
    report.created = JudgmentTask.objects.bulk_create(new)
    if given_back:
        JudgmentTask.objects.filter(pk__in=[task.pk for task in given_back]).update(
            withdrawn=False, assigned_by=by, updated_at=timezone.now()
        )
        report.created += given_back
    return report


@transaction.atomic
def withdraw_task(task: JudgmentTask, by) -> JudgmentTask:
    """Take the task back from its judge; the answers given stay."""
    if task.withdrawn:
        raise RuleBroken("That judgment task is already withdrawn.")
    task.withdrawn = True
    task.assigned_by = by
    task.version += 1  # an open page of the judge's answers 409 from now on
    task.save(update_fields=["withdrawn", "assigned_by", "version", "updated_at"])
    return task


@transaction.atomic
def reassign_task(task: JudgmentTask, to_user, by) -> JudgmentTask:
    """Give the peer to another judge: this task is withdrawn (its answers stay its judge's), and
    `to_user` gets a task of their own, or their own withdrawn one back."""
    if to_user.pk == task.judge_id:
        raise RuleBroken("That judgment task is already theirs.")
    theirs = JudgmentTask.objects.filter(
        unit_set_id=task.unit_set_id, peer_id=task.peer_id, judge=to_user
    ).first()
    if theirs is not None and not theirs.withdrawn:
        raise RuleBroken(f"{to_user.username} already judges this peer.")
    _ensure_annotators({(task.unit_set.docset.collection_id, to_user.pk)})
    if not task.withdrawn:
        withdraw_task(task, by)
    if theirs is not None:
        theirs.withdrawn = False
        theirs.assigned_by = by
        theirs.save(update_fields=["withdrawn", "assigned_by", "updated_at"])
        return theirs
    return JudgmentTask.objects.create(
        unit_set_id=task.unit_set_id, peer_id=task.peer_id, judge=to_user, assigned_by=by
    )


@transaction.atomic
def reopen_task(task: JudgmentTask, by) -> JudgmentTask:
    """A submitted task back in progress (an administrator's decision): the judge may change the
    answers again."""
    if task.status != JudgmentTask.Status.SUBMITTED:
        raise RuleBroken("That judgment task is not submitted.")
    task.status = JudgmentTask.Status.IN_PROGRESS
    task.version += 1
    task.save(update_fields=["status", "version", "updated_at"])
    return task
