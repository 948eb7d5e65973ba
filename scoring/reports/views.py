"""The organizers' reports: a page per report, computed in the background on first view and kept
until the records change; every table downloadable as CSV, the whole result as JSON."""

from __future__ import annotations

import csv
import io
import json

from django.contrib.auth.decorators import login_required
from django.db import transaction
from django.db.models import Count
from django.http import Http404, HttpResponse, HttpResponseBadRequest
from django.shortcuts import render
from django.utils.safestring import mark_safe

from annotator.campaigns.guards import collection_for
from annotator.campaigns.models import HumanJudgment
from annotator.peer_annotation.models import PeerAnnotation
from annotator.pyramids.models import Pyramid
from scoring.coverage.records import COVERAGE_SCORES
from scoring.models import Report
from scoring.numbers import shown_rows
from scoring.reports import plots
from scoring.reports.compute import KINDS, compute_report, fingerprint
from scoring.scores.records import IN_PROGRESS_VALUE, INCLUDE_PARAMETER, counted_annotations
from scoring.scores.tables import PER_ANNOTATION, PER_DOCSET
from scoring.scores.variants import RECALL_REFERENCES, TAC2008_RECALLS

SCORES = ["modified", "original", "coverage", "comprehensive", *COVERAGE_SCORES]
# The reports that may count work in progress (?include=in-progress, as on the scores page): only
# submitted work by default, as everywhere; their page has the checkbox.
COUNT_IN_PROGRESS = ("peer-agreement", "pyramid-agreement", "work-time", "coverage")
EXPORTS = ("csv", "json")  # ?format=: a table as CSV, the whole result as JSON; none, the page


def _parameters(collection, kind: str, query) -> dict:
    """A report's parameters from the query string, checked (unknown values fall back to
    defaults)."""
    if kind == "ranking":
        return {
            "score": query.get("score") if query.get("score") in SCORES else "modified",
            "docset_factor": query.get("docset_factor") == "1",
            "adjudicated": query.get("adjudicated") == "1",
            "per": PER_ANNOTATION if query.get("per") == PER_ANNOTATION else PER_DOCSET,
        }
    if kind == "correlation":
        criteria = _criteria(collection)
        try:
            alpha = float(query.get("alpha", "1"))
        except ValueError:
            alpha = 1.0
        chosen = (
            query.get("criterion")
            if query.get("criterion") in criteria
            else (criteria[0] if criteria else "")
        )
        recall = (
            query.get("tac_recall")
            if query.get("tac_recall") in TAC2008_RECALLS
            else RECALL_REFERENCES
        )
        return {"criterion": chosen, "alpha": alpha, "tac_recall": recall}
    if kind == "stability":
        pyramids = _pyramids(collection)
        wanted = query.get("pyramid", "")
        chosen = next((p.pk for p in pyramids if str(p.pk) == wanted), _default_pyramid(pyramids))
        return {
            "pyramid": chosen,
            "score": query.get("score")
            if query.get("score") in ("modified", "original")
            else "modified",
        }
    if kind in COUNT_IN_PROGRESS:
        return {"include_in_progress": query.get(INCLUDE_PARAMETER) == IN_PROGRESS_VALUE}
    return {}


def _criteria(collection) -> list[str]:
    return sorted(
        set(
            HumanJudgment.objects.filter(summary__docset__collection=collection).values_list(
                "criterion", flat=True
            )
        )
    )


def _pyramids(collection) -> list[Pyramid]:
    """The pyramids the stability report may be asked of: submitted ones first, then those in
    progress; each with `annotations`, how many peer annotations it would score (two queries)."""
    annotated = dict(
        counted_annotations(
            PeerAnnotation.objects.filter(pyramid__docset__collection=collection), scored=False
        )
        .order_by()
        .values("pyramid_id")
        .annotate(n=Count("pk"))
        .values_list("pyramid_id", "n")
    )
    pyramids = list(
        Pyramid.objects.filter(docset__collection=collection)
        .select_related("docset")
        .order_by("docset__name", "name")
    )
    for pyramid in pyramids:
        # Read by the template and by _default_pyramid: not a field of the model.
        pyramid.annotations = annotated.get(pyramid.pk, 0)  # type: ignore[attr-defined]
    return sorted(pyramids, key=lambda p: p.status != Pyramid.Status.SUBMITTED)


def _default_pyramid(pyramids: list[Pyramid]) -> int | None:
    """The first submitted pyramid with peer annotations to score; else the first submitted one;
    else the first one."""
    submitted = [p for p in pyramids if p.status == Pyramid.Status.SUBMITTED]
    chosen = next(
        (p for p in submitted if p.annotations),  # type: ignore[attr-defined]  # set by _pyramids
        submitted[0] if submitted else None,
    )
    chosen = chosen or (pyramids[0] if pyramids else None)
    return chosen.pk if chosen else None


@login_required
def reports_index(request, pk):
    collection = collection_for(request, pk)
    pyramids = _pyramids(collection)
    return render(
        request,
        "scoring/reports/reports.html",
        {
            "collection": collection,
            "kinds": KINDS,
            "criteria": _criteria(collection),
            "scores": SCORES,
            "tac_recalls": TAC2008_RECALLS,
            "default_pyramid": _default_pyramid(pyramids),
            "submitted_pyramids": [p for p in pyramids if p.status == Pyramid.Status.SUBMITTED],
            "pyramids_in_progress": [p for p in pyramids if p.status != Pyramid.Status.SUBMITTED],
            "include": INCLUDE_PARAMETER,
            "in_progress": IN_PROGRESS_VALUE,
        },
    )


def _current(collection, kind, parameters, user) -> Report:
    """The report for the records as they are now: the one computed already, or a new one queued."""
    stamp = fingerprint(collection, parameters, kind)
    report = (
        Report.objects.filter(collection=collection, kind=kind, fingerprint=stamp)
        .exclude(status=Report.Status.FAILED, error__startswith="The computation stopped")
        .first()
    )
    if report is None:
        report = Report.objects.create(
            collection=collection,
            kind=kind,
            parameters=parameters,
            fingerprint=stamp,
            requested_by=user,
        )
        transaction.on_commit(lambda: compute_report.enqueue(report.pk))
    return report


@login_required
def report_detail(request, pk, kind):
    collection = collection_for(request, pk)
    if kind not in KINDS:
        raise Http404("no such report")
    export = request.GET.get("format")
    # Refused before any report is queued, as the units download refuses an unknown format
    # (annotator.transfer.views.downloads): answering the page would look like a download.
    if export and export not in EXPORTS:
        return HttpResponseBadRequest(f"format: one of {', '.join(EXPORTS)}")
    parameters = _parameters(collection, kind, request.GET)
    report = _current(collection, kind, parameters, request.user)
    report.refresh_from_db()  # an immediate backend has computed it by now
    if report.status == Report.Status.DONE and export == "json":
        response = HttpResponse(
            json.dumps(report.result, indent=2), content_type="application/json; charset=utf-8"
        )
        response["Content-Disposition"] = f'attachment; filename="{kind}.json"'
        return response
    if report.status == Report.Status.DONE and export == "csv":
        try:
            table = report.result["tables"][int(request.GET.get("table", "0"))]
        except (ValueError, IndexError):
            raise Http404("no such table") from None
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(table["columns"])
        writer.writerows(["" if v is None else v for v in row] for row in table["rows"])
        response = HttpResponse(out.getvalue(), content_type="text/csv; charset=utf-8")
        response["Content-Disposition"] = (
            f'attachment; filename="{kind}-{request.GET.get("table", "0")}.csv"'
        )
        return response
    svgs = [mark_safe(plots.render(plot)) for plot in (report.result or {}).get("plots", [])]  # noqa: S308 - labels are escaped
    tables = [
        table | {"shown": shown_rows(table["rows"], table.get("p_columns", ()))}
        for table in (report.result or {}).get("tables", [])
    ]
    context = {
        "collection": collection,
        "report": report,
        "kind": kind,
        "title": KINDS[kind],
        "svgs": svgs,
        "tables": tables,
        "query": request.GET.urlencode(),
        "parameters": parameters,
        "count_in_progress": kind in COUNT_IN_PROGRESS,
        "include": INCLUDE_PARAMETER,
        "in_progress": IN_PROGRESS_VALUE,
    }
    template = "scoring/reports/report_body.html" if request.htmx else "scoring/reports/report.html"
    return render(request, template, context)
