"""What the judging page shows (annotator.coverage.views.judging): the peer's text in sentences,
each unit with its context, the task's answers, and the data its script works from
(static/js/judging.js). A constant number of queries, whatever the number of units."""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db.models import Prefetch
from django.template.loader import render_to_string
from django.urls import reverse

from annotator.assist.lexical import sentence_around
from annotator.campaigns.access import can_administer
from annotator.coverage.judging import (
    CHOICES,
    SENTENCE_KEYS,
    may_answer,
    next_task,
    peer_sentences,
    short_method,
)
from annotator.coverage.models import Judgment, JudgmentTask, Unit, UnitSet
from annotator.pyramids.models import Contributor


@dataclass
class Sentence:
    number: int
    start: int
    end: int
    text: str
    key: str  # the letter that toggles it ("" past the letters: Tab and Space)


@dataclass
class ShownUnit:
    unit: Unit
    number: int  # 1-based, as the page counts
    # SEE: the model sentence holding the unit, in three parts, the unit's own words in the middle.
    before: str = ""
    marked: str = ""
    after: str = ""
    model_author: str = ""
    # From a pyramid: the SCU's contributors, (model author, words).
    contributors: list[tuple[str, str]] = field(default_factory=list)
    value: float | None = None
    sentences: list[list[int]] = field(default_factory=list)
    answer_label: str = ""  # the answer as the buttons name it
    sentence_numbers: list[int] = field(default_factory=list)  # the sentences marked, numbered


def _contributor_text(contributor: Contributor) -> str:
    text = contributor.summary.text
    return " … ".join(text[span.start : span.end] for span in contributor.spans.all())


def _shown(unit: Unit, number: int) -> ShownUnit:
    shown = ShownUnit(unit=unit, number=number)
    model = unit.model
    if model is not None:
        shown.model_author = model.author
        if unit.start is not None and unit.end is not None and unit.end <= len(model.text):
            first, last = sentence_around(model.text, unit.start, unit.end)
            shown.before = model.text[first : unit.start].lstrip()
            shown.marked = model.text[unit.start : unit.end]
            shown.after = model.text[unit.end : last].rstrip()
    if unit.scu is not None:
        shown.contributors = [
            (c.summary.author, _contributor_text(c)) for c in unit.scu.contributors.all()
        ]
    return shown


def task_for_page(tasks, pk: int) -> JudgmentTask:
    """The task `pk` among `tasks` (those the user may see), with what the page reads of it."""
    return tasks.select_related(
        "unit_set__docset__collection", "peer", "judge", "unit_set__pyramid"
    ).get(pk=pk)


def shown_units(task: JudgmentTask) -> tuple[list[ShownUnit], list[tuple[int, int]]]:
    """The task's units as the page shows them, each with its answer, and the peer's sentences.
    Three queries and their prefetches, whatever the number of units."""
    unit_set = task.unit_set
    units = list(
        Unit.objects.filter(unit_set=unit_set)
        .select_related("model", "scu")
        .prefetch_related(
            Prefetch(
                "scu__contributors",
                queryset=Contributor.objects.select_related("summary").prefetch_related("spans"),
            )
        )
        .order_by("position")
    )
    judgments = {
        j.unit_id: j
        for j in Judgment.objects.filter(task=task).only("unit_id", "value", "sentences")
    }
    labels = {value: label for value, label, _ in CHOICES[unit_set.scale]}
    spans = peer_sentences(task.peer.text)
    numbers = {span: n for n, span in enumerate(spans, start=1)}
    shown = []
    for number, unit in enumerate(units, start=1):
        item = _shown(unit, number)
        if unit.pk in judgments:
            item.value = judgments[unit.pk].value
            item.sentences = judgments[unit.pk].sentences
            item.answer_label = labels.get(item.value, f"{item.value:g}")
            item.sentence_numbers = sorted(
                numbers.get((start, end), 0) for start, end in item.sentences
            )
        shown.append(item)
    return shown, spans


def _units_data(shown: list[ShownUnit]) -> list[dict]:
    return [
        {"id": item.unit.pk, "value": item.value, "sentences": item.sentences} for item in shown
    ]


def units_state(task: JudgmentTask) -> dict:
    """The units as they now are, for a page that showed older ones (a 409 UnitsChanged): their
    data and their articles, rendered as the page renders them."""
    shown, _ = shown_units(task)
    return {
        "units": _units_data(shown),
        "unitsHtml": render_to_string("coverage/judging_units.html", {"units": shown}),
    }


def page_context(task: JudgmentTask, user) -> dict:
    unit_set = task.unit_set
    choices = CHOICES[unit_set.scale]
    shown, spans = shown_units(task)
    see = unit_set.method == UnitSet.Method.SEE
    sentences = [
        Sentence(
            number=n,
            start=start,
            end=end,
            text=task.peer.text[start:end],
            key=SENTENCE_KEYS[n - 1] if see and n <= len(SENTENCE_KEYS) else "",
        )
        for n, (start, end) in enumerate(spans, start=1)
    ]
    editable = may_answer(task, user)
    following = next_task(task) if task.judge_id == user.pk else None
    first_open = next((item.number for item in shown if item.value is None), 1)
    data = {
        "version": task.version,
        "unitsVersion": unit_set.version,
        "editable": editable,
        "see": see,
        "status": task.status,
        "answerUrl": reverse("judging-answer", args=[task.pk]),
        "submitUrl": reverse("judging-submit", args=[task.pk]),
        "nextUrl": reverse("judging-task", args=[following]) if following else reverse("home"),
        "choices": [{"value": v, "label": label, "key": key} for v, label, key in choices],
        "units": _units_data(shown),
        "start": first_open,
    }
    return {
        "task": task,
        "unit_set": unit_set,
        "docset": unit_set.docset,
        "collection": unit_set.docset.collection,
        "units": shown,
        "answered": sum(1 for item in shown if item.value is not None),
        "method": short_method(unit_set.method),
        "sentences": sentences,
        "choices": choices,
        "see": see,
        "editable": editable,
        "next_task": following,
        "can_reopen": task.status == JudgmentTask.Status.SUBMITTED
        and can_administer(user, unit_set.docset.collection_id),
        "data": data,
    }
