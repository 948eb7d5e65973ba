"""The organizers' reports of a collection: each one tables (and the data of its plots), computed
from the records by the functions of this package, in the background, and kept until the records
change (`fingerprint`).

A report's result is JSON: {"tables": [{"title", "columns", "rows", "note"?}], "plots": [...]}.
"""

from __future__ import annotations

import hashlib
import json
import logging

from django.db.models import Count, Max, Q, Sum
from django.utils import timezone
from django_tasks import task

from annotator.campaigns.models import Collection, HumanJudgment
from annotator.coverage.models import Judgment
from annotator.peer_annotation.models import PeerAnnotation
from annotator.pyramids.models import Pyramid
from annotator.worktime.models import WorkTime
from scoring.models import Report
from scoring.reports.correlation import correlation_report
from scoring.reports.coverage import coverage_report
from scoring.reports.peer_agreement import peer_agreement_report
from scoring.reports.proposals import proposals_report
from scoring.reports.pyramid_agreement import pyramid_agreement_report
from scoring.reports.pyramids import pyramids_report
from scoring.reports.ranking import ranking_report
from scoring.reports.stability import stability_report
from scoring.reports.suggestions_taken import suggestions_taken_report
from scoring.reports.work_time import work_time_report

logger = logging.getLogger(__name__)


KINDS = {
    "peer-agreement": "Agreement on peer annotations",
    "pyramid-agreement": "Agreement on pyramids",
    "ranking": "Systems compared",
    "correlation": "Scores against human judgments",
    "stability": "Pyramid size and stability",
    "pyramids": "Pyramid shapes",
    "suggestions-taken": "Suggestions taken",
    "work-time": "Time on task",
    "proposals": "Proposals confirmed",
    "coverage": "Coverage judgments: agreement and variation",
}


# Raised when what a result holds changes (2: p-values kept to significant digits, "p_columns";
# 3: "empty", notes only of what is shown, work in progress said; 4: Time on task leaves out the
# pyramids in progress too, and says what it left out; 5: coverage judgments count in the state),
# so that reports computed before are computed again rather than shown the old way.
RESULT_FORMAT = 5


def fingerprint(collection: Collection, parameters: dict, kind: str = "") -> str:
    """Which state of the records a report comes from: the collection's conventions, how many
    pyramids, annotations and judgments there are and when any was last changed (every edit
    raises its record's `updated_at`), and the report's parameters."""
    pyramids = Pyramid.objects.filter(docset__collection=collection).aggregate(
        n=Count("id"), last=Max("updated_at")
    )
    annotations = PeerAnnotation.objects.filter(pyramid__docset__collection=collection).aggregate(
        n=Count("id"), last=Max("updated_at")
    )
    judgments = HumanJudgment.objects.filter(summary__docset__collection=collection).aggregate(
        n=Count("id"), total=Sum("value")
    )
    coverage = Judgment.objects.filter(task__unit_set__docset__collection=collection).aggregate(
        n=Count("id"), last=Max("updated_at"), tasks_last=Max("task__updated_at")
    )
    state = [
        collection.weight_convention,
        collection.average_rounding,
        pyramids,
        annotations,
        judgments,
        coverage,
        parameters,
        RESULT_FORMAT,
    ]
    if kind == "work-time":
        # Selections add active time without changing a record: the time report follows them
        # (the others do not, so that a selection does not make them computed again).
        state.append(
            WorkTime.objects.filter(
                Q(pyramid__docset__collection=collection)
                | Q(annotation__pyramid__docset__collection=collection)
            ).aggregate(n=Count("id"), last=Max("last_action_at"))
        )
    return hashlib.sha256(json.dumps(state, default=str, sort_keys=True).encode()).hexdigest()


COMPUTE = {
    "peer-agreement": peer_agreement_report,
    "pyramid-agreement": pyramid_agreement_report,
    "ranking": ranking_report,
    "correlation": correlation_report,
    "stability": stability_report,
    "pyramids": pyramids_report,
    "suggestions-taken": suggestions_taken_report,
    "work-time": work_time_report,
    "proposals": proposals_report,
    "coverage": coverage_report,
}


@task()
def compute_report(report_id: int) -> None:
    report = Report.objects.select_related("collection").get(pk=report_id)
    if report.status != Report.Status.QUEUED:
        return
    Report.objects.filter(pk=report.pk).update(status=Report.Status.RUNNING)
    try:
        result = COMPUTE[report.kind](report.collection, report.parameters)
    except (
        ValueError
    ) as problem:  # the data do not allow it (e.g. one system only): said on the page
        Report.objects.filter(pk=report.pk).update(
            status=Report.Status.FAILED, error=str(problem), finished_at=timezone.now()
        )
    except Exception:
        logger.exception("report %s failed", report.pk)
        Report.objects.filter(pk=report.pk).update(
            status=Report.Status.FAILED,
            finished_at=timezone.now(),
            error="The computation stopped on an unexpected error, which has been logged.",
        )
        raise
    else:
        Report.objects.filter(pk=report.pk).update(
            status=Report.Status.DONE, result=result, finished_at=timezone.now()
        )
