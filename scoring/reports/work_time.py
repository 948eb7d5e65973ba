"""The report "Time on task" (issue 20): active time per annotation and pyramid, and against
agreement."""

from __future__ import annotations

import math
from collections import defaultdict
from statistics import fmean, median

from annotator.campaigns.models import Collection
from annotator.peer_annotation.models import PeerAnnotation
from annotator.pyramids.models import Pyramid
from annotator.text.plurals import counted
from annotator.worktime import queries as worktime
from annotator.worktime.models import WorkTime
from scoring.agreement.records import (
    peer_agreement,
)
from scoring.reports.results import NOT_TWICE, joined_sentences, result_table
from scoring.scores.records import (
    counted_annotations,
)


def _minutes(seconds: list[float]) -> list:
    """Median, mean and total of active times: minutes, minutes, hours."""
    return [median(seconds) / 60, fmean(seconds) / 60, sum(seconds) / 3600]


def _work_in_progress(include: bool, in_progress: int, work: str) -> str:
    """What a table of time says of the timed work in progress, in the agreement reports' words:
    how much it counts, or how much it left out."""
    if include:
        return f"Work in progress counted too: {counted(in_progress, work)} in progress."
    if in_progress:
        them = "it" if in_progress == 1 else "them"
        return (
            f"{counted(in_progress, work)} in progress left out "
            f"(count work in progress to include {them})."
        )
    return ""


def work_time_report(collection: Collection, parameters: dict) -> dict:
    """Active time on task (issue 20): per annotator, on the peer annotations and the pyramids they
    worked on in the tool; and against agreement: the annotators' mean time on the peers that two
    or more annotated, beside those peers' alpha, to see whether a fast annotator agrees less.

    Submitted work only, as every report counts it, unless `include_in_progress`: the time of work
    still going on is on the progress page; the tables say how much timed work in progress they
    leave out (found by a tester: it was left out silently, and pyramids in progress counted)."""
    include = bool(parameters.get("include_in_progress"))

    def counted_work(in_progress: bool):
        return counted_annotations(
            PeerAnnotation.objects.filter(pyramid__docset__collection=collection),
            scored=False,
            include_in_progress=in_progress,
        )

    annotations, every = counted_work(include), counted_work(True)
    times = worktime.annotation_times(annotations)
    # Those with time only: an annotation in progress never worked on would add no row.
    annotations_in_progress = len(
        worktime.annotation_times(every.exclude(status=PeerAnnotation.Status.SUBMITTED))
    )
    per_annotator: defaultdict[str, list[float]] = defaultdict(list)
    for *_, annotator, seconds in times:
        per_annotator[annotator].append(seconds)
    pyramids = Pyramid.objects.filter(docset__collection=collection)
    building: defaultdict[str, list[float]] = defaultdict(list)
    for _, builder, seconds in worktime.pyramid_times(
        pyramids if include else pyramids.filter(status=Pyramid.Status.SUBMITTED)
    ):
        building[builder].append(seconds)
    pyramids_in_progress = len(
        {pk for pk, *_ in worktime.pyramid_times(pyramids.exclude(status=Pyramid.Status.SUBMITTED))}
    )
    # Time against agreement: each annotator's peers compared with another annotator's.
    peers, _ = peer_agreement(collection, include_in_progress=include)
    time_of = {(d, p, y, a): seconds for d, p, y, a, seconds in times}
    compared: defaultdict[str, list[tuple[float | None, float]]] = defaultdict(list)
    for p in peers:
        for annotator in p.annotators:
            compared[annotator].append(
                (time_of.get((p.docset, p.peer, p.pyramid, annotator)), p.alpha["dice"])
            )
    against = []
    for annotator, pairs in sorted(compared.items()):
        timed = [s for s, _ in pairs if s is not None]
        alphas = [a for _, a in pairs if not math.isnan(a)]
        against.append(
            [
                annotator,
                len(pairs),
                len(timed),
                fmean(timed) / 60 if timed else None,
                fmean(alphas) if alphas else None,
            ]
        )
    untimed = annotations.count() - len(times)
    gap = int(WorkTime.ACTIVE_GAP.total_seconds() // 60)
    rule = (
        f"Active time: the time between an annotator's actions on the work (edits, selections), "
        f"each pause over {gap} minutes left out."
    )
    return {
        "tables": [
            result_table(
                "Active time per peer annotation, by annotator",
                ["annotator", "annotations", "median (min)", "mean (min)", "total (h)"],
                [[a, len(s), *_minutes(s)] for a, s in sorted(per_annotator.items())],
                joined_sentences(
                    rule,
                    f"{counted(untimed, 'peer annotation')} with no time recorded (imported, or "
                    "not worked on in the tool) left out."
                    if untimed
                    else "",
                    _work_in_progress(include, annotations_in_progress, "peer annotation"),
                ),
            ),
            result_table(
                "Active time per pyramid built, by annotator",
                ["annotator", "pyramids", "median (min)", "mean (min)", "total (h)"],
                [[a, len(s), *_minutes(s)] for a, s in sorted(building.items())],
                joined_sentences(
                    rule if building else "",
                    _work_in_progress(include, pyramids_in_progress, "pyramid"),
                ),
            ),
            result_table(
                "Active time against agreement, by annotator",
                [
                    "annotator",
                    "peers compared",
                    "of them timed",
                    "mean time on them (min)",
                    "mean alpha dice of them",
                ],
                against,
                "The peers two or more annotators annotated (as in the agreement report): each "
                "annotator's mean active time on them, and the mean Krippendorff's alpha (with "
                "1 - Dice) of those peers among all their annotators."
                if against
                else "",
                empty=NOT_TWICE,
            ),
        ],
        "plots": [],
    }
