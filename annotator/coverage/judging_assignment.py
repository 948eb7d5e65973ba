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

from collections import Counter, defaultdict
from dataclasses import dataclass, field

from django.db import transaction
from django.utils import timezone

from annotator.campaigns.access import can_administer
from annotator.campaigns.models import Membership, Role, Summary
from annotator.coverage.models import JudgmentTask
from annotator.editing.errors import NotAllowed, RuleBroken


def _counted(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


@dataclass
class JudgingReport:
    per_peer: int = 1
    peers: int = 0  # the peers of the unit sets chosen (a peer counts once per unit set)
    created: list[JudgmentTask] = field(default_factory=list)  # new tasks, and tasks given back
    already: int = 0  # peers that already had `per_peer` judges: nothing added
    # Each judge chosen -> the peers needing judges that they judge already (so not given again).
    judging_already: Counter[str] = field(default_factory=Counter)
    short: Counter[int] = field(default_factory=Counter)  # judges now -> peers left with fewer
    skipped: list[str] = field(default_factory=list)  # what could not be assigned, and why

    @property
    def summary(self) -> str:
        """What was made, and why not more: "No judgment task made: ann already judges all 6
        peers"."""
        made = len(self.created)
        said = f"{_counted(made, 'judgment task')} made" if made else "No judgment task made"
        why = []
        if self.already:
            why.append(
                f"{_counted(self.already, 'peer')} already "
                f"{'has' if self.already == 1 else 'have'} {_counted(self.per_peer, 'judge')}"
            )
        judges = [
            f"all {_counted(n, 'peer')}" if n == self.peers else f"{n} of the {self.peers} peers"
            for n in self.judging_already.values()
        ]
        if judges:
            names = list(self.judging_already)
            why.append(
                ", ".join(
                    f"{name} already judges {what}" if i == 0 else f"{name} {what}"
                    for i, (name, what) in enumerate(zip(names, judges))
                )
            )
        return said + ((": " if not made else "; ") + "; ".join(why) if why else "")

    def note_short(self) -> None:
        """Peers left with fewer judges than asked for: every judge chosen judges them now, so only
        more judges give them the rest."""
        if not self.short:
            return
        have = ", ".join(
            f"{peers} {'has' if peers == 1 else 'have'} {_counted(judges, 'judge')}"
            for judges, peers in sorted(self.short.items())
        )
        self.skipped.append(
            f"{_counted(sum(self.short.values()), 'peer')} "
            f"{'has' if sum(self.short.values()) == 1 else 'have'} fewer than "
            f"{self.per_peer} judges, as every judge chosen judges them now: {have}. "
            f"Choose more judges to give each peer {self.per_peer}."
        )


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
    report = JudgingReport(per_peer=per_peer)
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
    turn = 0
    new: list[JudgmentTask] = []
    given_back: list[JudgmentTask] = []
    members: set[tuple[int, int]] = set()
    for unit_set in unit_sets:
        if not peers[unit_set.docset_id]:
            report.skipped.append(f"Docset {unit_set.docset.name} has no peer summaries.")
            continue
        for peer_id in peers[unit_set.docset_id]:
            report.peers += 1
            tasks = existing[(unit_set.pk, peer_id)]
            active = {judge for judge, task in tasks.items() if not task.withdrawn}
            missing = per_peer - len(active)
            if missing <= 0:
                report.already += 1
                continue
            for judge in judges:
                if judge.pk in active:
                    report.judging_already[judge.username] += 1
            # The next judges in turn who do not judge this peer yet.
            picked = [
                index
                for index in ((turn + step) % len(judges) for step in range(len(judges)))
                if judges[index].pk not in active
            ][:missing]
            if len(picked) < missing:
                report.short[len(active) + len(picked)] += 1
            if not picked:
                continue
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
    report.note_short()
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
