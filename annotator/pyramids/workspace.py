"""What the pyramid builder presents: the models shaded by SCU, the SCUs with their contributors
(each SCU's weight its number of contributors, SCUQuerySet.with_weight), the pyramid's problems,
and what Undo, Redo and Reopen may do.

Next to the services it presents (annotator.pyramids.editing changes the pyramid,
annotator.pyramids.problems finds what is wrong with it); the views only render it.
"""

from __future__ import annotations

from collections import defaultdict
from typing import TypedDict

from annotator.campaigns.access import can_edit_pyramid, can_reopen
from annotator.campaigns.models import WeightConvention
from annotator.editing import history
from annotator.editing.models import PyramidChange
from annotator.pyramids.models import Pyramid
from annotator.pyramids.parts import PyramidRows
from annotator.pyramids.problems import problem_links, pyramid_problems
from annotator.text.textmarks import coverage, marked_html, run_titles, runs


class PartEntry(TypedDict):
    """A contributor's part as the SCU list shows it."""

    id: int
    text: str


class ContributorEntry(TypedDict):
    """A contributor as the SCU list shows it (an SCU's `contributor_list`)."""

    id: int
    model: str  # the model summary's author ("?" if not a model of the pyramid)
    comment: str
    parts: list[PartEntry]


def workspace_context(
    pyramid: Pyramid,
    user,
    shade_only: set[int] | None = None,
    scu_uids: set[int] | None = None,
    with_problems: bool = True,
    may_edit: bool | None = None,
    recorded=None,
    rows: PyramidRows | None = None,
) -> dict:
    """Everything the workspace partial shows: shaded models, SCUs with contributors, problems.
    `may_edit`: whether the user may edit the pyramid, where the caller knows (an edit of theirs
    just went through: the check it passed is not asked again, issue 32's query per action);
    `recorded`: the change that edit recorded (the last one, and what Undo and Redo can do after
    it, without asking again); `rows`: the pyramid's parts and labels (annotator.pyramids.parts),
    where the caller reads them too.

    Loaded as plain values (the page's hot path): the models' texts once, then SCUs,
    contributors and spans as rows that point into them. `shade_only` limits the shaded texts
    built to those summaries, and `scu_uids` the SCUs loaded (an edit's answer sends no others).
    """
    links = pyramid.model_texts
    texts = {link.summary_id: link.summary.text for link in links}
    authors = {link.summary_id: link.summary.author for link in links}
    scu_rows = pyramid.scus.all() if scu_uids is None else pyramid.scus.filter(uid__in=scu_uids)
    # The builder's weight is its number of contributors, whatever the collection's convention: what
    # the builder edits (and the weight's title says), as in DUCView.
    scus = list(scu_rows.with_weight(WeightConvention.CONTRIBUTORS).order_by("position", "id"))
    # Every part of the pyramid, read once for the shading, the SCU list and the problems (and
    # the builder's help, where the caller asks for it with the same `rows`).
    rows = PyramidRows(pyramid.pk) if rows is None else rows
    listed = {scu.id for scu in scus}
    marks: defaultdict[int, list[tuple[int, int, int]]] = defaultdict(list)  # (start, end, uid)
    contributors: defaultdict[int, list[ContributorEntry]] = defaultdict(list)  # by SCU id
    by_contributor: dict[int, ContributorEntry] = {}
    labels: dict[int, str] = {}  # by SCU uid
    for part in rows.parts:
        marks[part.summary_id].append((part.start, part.end, part.scu_uid))
        labels[part.scu_uid] = part.scu_label
        if part.scu_id not in listed:
            continue
        if part.contributor_id not in by_contributor:
            by_contributor[part.contributor_id] = {
                "id": part.contributor_id,
                "model": authors.get(part.contributor_summary_id, "?"),
                "comment": part.contributor_comment,
                "parts": [],
            }
            contributors[part.scu_id].append(by_contributor[part.contributor_id])
        by_contributor[part.contributor_id]["parts"].append(
            {"id": part.id, "text": texts.get(part.summary_id, "")[part.start : part.end]}
        )
    for scu in scus:
        scu.contributor_list = contributors[scu.id]
    models = [
        {
            "summary": link.summary,
            "html": marked_html(runs(link.summary.text, marks[link.summary_id]), labels=labels),
            "coverage": coverage(link.summary.text, marks[link.summary_id]),
        }
        for link in links
        if shade_only is None or link.summary_id in shade_only
    ]
    editable = pyramid.status == Pyramid.Status.IN_PROGRESS and (
        can_edit_pyramid(user, pyramid) if may_edit is None else may_edit
    )
    known = history.stack_after(recorded) if recorded is not None else None
    if not editable:
        states: set[str] = set()
    else:
        states = known if known is not None else history.stack_states(pyramid.changes.all())
    problems = pyramid_problems(pyramid, rows.parts) if with_problems else None
    return {
        "pyramid": pyramid,
        "models": models,
        "scus": scus,
        "problems": problems,
        "problem_links": problem_links(problems) if problems else "",
        "scu_count": len(scus) if scu_uids is None else len(rows.labels),
        "editable": editable,
        "can_reopen": pyramid.status == Pyramid.Status.SUBMITTED and can_reopen(user, pyramid),
        "can_undo": PyramidChange.State.APPLIED in states,
        "can_redo": PyramidChange.State.UNDONE in states,
        "last_change": recorded
        if recorded is not None
        else pyramid.changes.order_by("-id").select_related("user").first(),
    }


def retitled_models(
    pyramid: Pyramid, rows: PyramidRows, relabelled: dict[int, set[int]], reshaded: set[int]
) -> dict[int, list[tuple[int, str]]]:
    """After a relabel (`relabelled`: EditResult.relabelled), the new tooltips of the runs in the
    relabelled SCUs, (start, title) by model summary, for the models not shaded again (those
    come whole, with their titles): the page sets them on the runs it has (issue 32: a relabel
    sent every model holding the SCU, which the page compared run by run)."""
    summaries = {s for held in relabelled.values() for s in held} - reshaded
    if not summaries:
        return {}
    marks: defaultdict[int, list[tuple[int, int, int]]] = defaultdict(list)
    for part in rows.parts:
        if part.summary_id in summaries:
            marks[part.summary_id].append((part.start, part.end, part.scu_uid))
    texts = {link.summary_id: link.summary.text for link in pyramid.model_texts}
    return {
        summary: run_titles(runs(texts[summary], marks[summary]), set(relabelled), rows.labels)
        for summary in sorted(summaries)
        if summary in texts
    }
