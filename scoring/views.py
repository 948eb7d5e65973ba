"""Score tables for organizers and administrators: per peer annotation or per system, sorted by any
column, for the collection or one docset; downloadable as CSV, JSON or NIST's layout. Submitted
work only, unless ?include=in-progress (then each row says its status, and the page says how much
of each it holds). Where the collection has coverage judgments (issue 21), their table too: each
peer's scores against each unit set, or each system's means (scoring.coverage_tables)."""

from urllib.parse import urlencode

from django.contrib.auth.decorators import login_required
from django.shortcuts import render

from annotator.campaigns.guards import collection_for
from scoring.coverage_records import score_coverage
from scoring.coverage_tables import (
    COVERAGE_SORTABLE,
    COVERAGE_SYSTEM_SORTABLE,
    coverage_system_means,
    sorted_coverage_means,
    sorted_coverage_rows,
    task_counts,
)
from scoring.exports import coverage_download, rows_download, system_download
from scoring.formats import FORMATS
from scoring.records import (
    IN_PROGRESS_VALUE,
    INCLUDE_PARAMETER,
    collection_annotations,
    counted_annotations,
    score_loaded_annotations,
    work_counts,
)
from scoring.score_table import (
    STORED_COLUMNS,
    current_system_means,
    ordered_annotations,
    page_of_annotations,
    refresh_stored_scores,
)
from scoring.system_means import kept_system_means
from scoring.tables import (
    PER_ANNOTATION,
    PER_DOCSET,
    SORTABLE,
    SYSTEM_MEAN_PER,
    SYSTEM_SORTABLE,
    sorted_means,
)


@login_required
def collection_scores(request, pk):
    collection = collection_for(request, pk)
    docset = request.GET.get("docset") or None
    docset_record = collection.docsets.filter(name=docset).first() if docset else None
    if docset and docset_record is None:
        return render(
            request,
            "400.html",
            {"message": f"The collection {collection.name} has no docset {docset}."},
            status=400,
        )
    adjudicated = request.GET.get("adjudicated") == "1"
    include_in_progress = request.GET.get(INCLUDE_PARAMETER) == IN_PROGRESS_VALUE
    annotations = collection_annotations(collection, docset)
    counted = counted_annotations(annotations, adjudicated, include_in_progress=include_in_progress)
    by_system = request.GET.get("view") == "systems"
    # A system's mean counts each docset once, or with ?per=annotation every annotation (issue 33)
    per = PER_ANNOTATION if request.GET.get("per") == PER_ANNOTATION else PER_DOCSET
    export = request.GET.get("format")
    name = (
        f"{collection.name}{'-' + docset if docset else ''}-{'system-' if by_system else ''}scores"
        + ("-per-annotation" if by_system and per == PER_ANNOTATION else "")
    )
    if request.GET.get("table") == "coverage" and export in ("csv", "json"):
        judged = score_coverage(collection, docset, include_in_progress)
        return coverage_download(
            coverage_system_means(judged) if by_system else judged,
            export,
            name.removesuffix("scores") + "coverage",
            collection.name,
            systems=by_system,
        )
    # Downloads hold every row, streamed as they are scored (constant memory, the first bytes at
    # once): scoring.exports.
    if by_system and export in ("csv", "json"):
        return system_download(counted, export, name, per=per)
    if not by_system and export in FORMATS:
        return rows_download(counted, export, name)
    coverage = _coverage(collection, docset, include_in_progress, by_system)
    sort = request.GET.get("sort", "")
    descending = sort.startswith("-")
    column = sort.lstrip("-")
    # One sort for both tables: a column of either sorts the table that has it (docset and peer
    # sort both).
    if by_system and column in COVERAGE_SYSTEM_SORTABLE:
        coverage["means"] = sorted_coverage_means(coverage["means"], column, descending)
    elif not by_system and column in COVERAGE_SORTABLE:
        coverage["rows"] = sorted_coverage_rows(coverage["rows"], column, descending)
    page, rows, means = None, [], []
    if by_system:
        # Every annotation's scores, from the stored ones: a mean is over the whole collection (or
        # docset); the whole collection's means are kept until it changes.
        means, by_status = (
            current_system_means(counted, per)
            if docset or per != PER_DOCSET  # (the whole collection's are kept per docset)
            else kept_system_means(collection, adjudicated, include_in_progress)
        )
        if column in SYSTEM_SORTABLE:
            means = sorted_means(means, column, descending)
        counts = work_counts(
            annotations, adjudicated, include_in_progress, counted_by_status=by_status
        )
    else:
        counts = work_counts(annotations, adjudicated, include_in_progress)
        if column in STORED_COLUMNS:
            refresh_stored_scores(counted)
        ordered = ordered_annotations(counted, column if column in SORTABLE else None, descending)
        page = page_of_annotations(
            ordered, request.GET.get("page"), counts.submitted + counts.in_progress
        )
        rows = score_loaded_annotations(page.object_list)
    # What every link of the page keeps (the downloads, the sorting, the other modes): the choices
    # made.
    choices = {"docset": docset or ""}
    if by_system:
        choices["view"] = "systems"
        if per != PER_DOCSET:
            choices["per"] = per
    if adjudicated:
        choices["adjudicated"] = "1"
    if include_in_progress:
        choices[INCLUDE_PARAMETER] = IN_PROGRESS_VALUE

    def query(**changes) -> str:
        return "?" + urlencode({k: v for k, v in {**choices, **changes}.items() if v is not None})

    return render(
        request,
        "scoring/collection_scores.html",
        {
            "collection": collection,
            "rows": rows,
            "page": page,
            "page_query": query(sort=sort or None).removeprefix("?"),
            "by_system": by_system,
            "means": means,
            "per": per,
            "mean_per": SYSTEM_MEAN_PER[per],
            "other_per": query(per=PER_ANNOTATION if per == PER_DOCSET else None),
            "adjudicated": adjudicated,
            "include_in_progress": include_in_progress,
            "counts": counts,
            "docset": docset or "",
            "docset_record": docset_record,
            "coverage": coverage,
            "docset_names": collection.docsets.order_by("name").values_list("name", flat=True),
            "sort": sort,
            "query": query(),
            "sort_query": query(),
            # The links that change what is counted keep the sort (a new count starts at page 1).
            "with_in_progress": query(**{INCLUDE_PARAMETER: IN_PROGRESS_VALUE}, sort=sort or None),
            "submitted_only": query(**{INCLUDE_PARAMETER: None}, sort=sort or None),
            "with_adjudicated": query(adjudicated="1", sort=sort or None),
            "system_columns": [
                ("peer", "Peer"),
                ("docsets", "Docsets"),
                *([("in_progress", "In progress")] if include_in_progress else []),
                ("modified", "Modified"),
                ("original", "Original"),
                ("coverage", "Coverage"),
                ("comprehensive", "Comprehensive"),
            ],
            "columns": [
                ("docset", "Docset"),
                ("peer", "Peer"),
                ("annotator", "Annotator"),
                ("status", "Status"),
                ("pyramid", "Pyramid"),
                ("modified", "Modified"),
                ("original", "Original"),
                ("coverage", "Coverage"),
                ("comprehensive", "Comprehensive"),
                ("unique_scus", "SCUs"),
                ("repetitions", "Repetitions"),
                ("non_matching", "Non-matching"),
            ],
        },
    )


def _coverage(collection, docset, include_in_progress: bool, by_system: bool) -> dict:
    """The coverage judgments' table: its task counts, and its rows or system means (four
    queries; one where the collection has no judgment task)."""
    counts = task_counts(collection, docset)
    rows = score_coverage(collection, docset, include_in_progress) if counts.total else []
    columns = [
        ("docset", "Docset"),
        ("unit_set", "Unit set"),
        ("method", "Method"),
        ("peer", "Peer"),
        ("judges", "Judges"),
        ("units", "Units"),
        *([("in_progress", "In progress")] if include_in_progress else []),
        ("presence", "Presence"),
        ("presence_weighted", "Presence (weighted)"),
        ("see_coverage", "SEE coverage"),
    ]
    return {
        "counts": counts,
        "rows": rows,
        "means": coverage_system_means(rows) if by_system else [],
        "columns": columns,
        "system_columns": [
            ("peer", "Peer"),
            ("docsets", "Docsets"),
            *([("in_progress", "In progress")] if include_in_progress else []),
            ("presence", "Presence"),
            ("presence_weighted", "Presence (weighted)"),
            ("see_coverage", "SEE coverage"),
        ],
    }
