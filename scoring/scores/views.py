"""Score tables for organizers and administrators: per peer annotation or per system, sorted by any
column, for the collection or one docset; downloadable as CSV, JSON or NIST's layout. Submitted
work only, unless ?include=in-progress (then each row says its status, and the page says how much
of each it holds). Where the collection has coverage judgments (issue 21), their table too: each
peer's scores against each unit set, or each system's means (scoring.coverage.tables)."""

from dataclasses import dataclass
from urllib.parse import urlencode

from django.contrib.auth.decorators import login_required
from django.shortcuts import render

from annotator.campaigns.guards import collection_for
from scoring.coverage.records import score_coverage
from scoring.coverage.tables import (
    COVERAGE_SORTABLE,
    COVERAGE_SYSTEM_SORTABLE,
    coverage_system_means,
    sorted_coverage_means,
    sorted_coverage_rows,
    task_counts,
)
from scoring.scores.exports import coverage_download, rows_download, system_download
from scoring.scores.formats import FORMATS
from scoring.scores.records import (
    IN_PROGRESS_VALUE,
    INCLUDE_PARAMETER,
    collection_annotations,
    counted_annotations,
    score_loaded_annotations,
    work_counts,
)
from scoring.scores.score_table import (
    STORED_COLUMNS,
    current_system_means,
    ordered_annotations,
    page_of_annotations,
    refresh_stored_scores,
)
from scoring.scores.system_means import kept_system_means
from scoring.scores.tables import (
    PER_ANNOTATION,
    PER_DOCSET,
    SORTABLE,
    SYSTEM_MEAN_PER,
    SYSTEM_SORTABLE,
    sorted_means,
)


@dataclass(frozen=True)
class ScoreChoices:
    """What the scores page was asked for, from its query string."""

    docset: str | None
    adjudicated: bool
    include_in_progress: bool
    by_system: bool
    per: str  # a system's mean counts each docset once, or every annotation (issue 33)
    export: str | None
    table: str  # "coverage": the download is the coverage judgments' table
    sort: str

    @classmethod
    def from_query(cls, query) -> "ScoreChoices":
        return cls(
            docset=query.get("docset") or None,
            adjudicated=query.get("adjudicated") == "1",
            include_in_progress=query.get(INCLUDE_PARAMETER) == IN_PROGRESS_VALUE,
            by_system=query.get("view") == "systems",
            per=PER_ANNOTATION if query.get("per") == PER_ANNOTATION else PER_DOCSET,
            export=query.get("format"),
            table=query.get("table", ""),
            sort=query.get("sort", ""),
        )

    @property
    def column(self) -> str:
        return self.sort.lstrip("-")

    @property
    def descending(self) -> bool:
        return self.sort.startswith("-")

    def file_name(self, collection) -> str:
        docset = "-" + self.docset if self.docset else ""
        system = "system-" if self.by_system else ""
        per = "-per-annotation" if self.by_system and self.per == PER_ANNOTATION else ""
        return f"{collection.name}{docset}-{system}scores{per}"

    def kept(self) -> dict[str, str]:
        """What every link of the page keeps (the downloads, the sorting, the other modes)."""
        choices = {"docset": self.docset or ""}
        if self.by_system:
            choices["view"] = "systems"
            if self.per != PER_DOCSET:
                choices["per"] = self.per
        if self.adjudicated:
            choices["adjudicated"] = "1"
        if self.include_in_progress:
            choices[INCLUDE_PARAMETER] = IN_PROGRESS_VALUE
        return choices


@login_required
def collection_scores(request, pk):
    collection = collection_for(request, pk)
    choices = ScoreChoices.from_query(request.GET)
    docset_record = (
        collection.docsets.filter(name=choices.docset).first() if choices.docset else None
    )
    if choices.docset and docset_record is None:
        return render(
            request,
            "400.html",
            {"message": f"The collection {collection.name} has no docset {choices.docset}."},
            status=400,
        )
    annotations = collection_annotations(collection, choices.docset)
    counted = counted_annotations(
        annotations, choices.adjudicated, include_in_progress=choices.include_in_progress
    )
    download = _download(collection, choices, counted)
    if download is not None:
        return download
    if choices.by_system:
        table = _system_table(collection, choices, annotations, counted)
    else:
        table = _annotation_table(choices, annotations, counted, request.GET.get("page"))
    context = {
        "collection": collection,
        "docset_record": docset_record,
        "docset_names": collection.docsets.order_by("name").values_list("name", flat=True),
        "coverage": _coverage(collection, choices),
        **table,
        **_links(choices),
    }
    return render(request, "scoring/scores/collection_scores.html", context)


def _download(collection, choices: ScoreChoices, counted):
    """The file asked for (?format=): every row, streamed as it is scored (constant memory, the
    first bytes at once: scoring.scores.exports); None for the page."""
    name = choices.file_name(collection)
    if choices.table == "coverage" and choices.export in ("csv", "json"):
        judged = score_coverage(collection, choices.docset, choices.include_in_progress)
        return coverage_download(
            coverage_system_means(judged) if choices.by_system else judged,
            choices.export,
            name.removesuffix("scores") + "coverage",
            collection.name,
            systems=choices.by_system,
        )
    if choices.by_system and choices.export in ("csv", "json"):
        return system_download(counted, choices.export, name, per=choices.per)
    if not choices.by_system and choices.export in FORMATS:
        return rows_download(counted, choices.export, name)
    return None


def _system_table(collection, choices: ScoreChoices, annotations, counted) -> dict:
    """Each system's mean over the docsets (or every annotation), from the stored scores; the whole
    collection's means are kept until it changes (scoring.scores.system_means)."""
    means, by_status = (
        current_system_means(counted, choices.per)
        if choices.docset or choices.per != PER_DOCSET  # (the whole collection's kept per docset)
        else kept_system_means(collection, choices.adjudicated, choices.include_in_progress)
    )
    if choices.column in SYSTEM_SORTABLE:
        means = sorted_means(means, choices.column, choices.descending)
    counts = work_counts(
        annotations, choices.adjudicated, choices.include_in_progress, counted_by_status=by_status
    )
    return {"rows": [], "page": None, "means": means, "counts": counts}


def _annotation_table(choices: ScoreChoices, annotations, counted, page_number) -> dict:
    """A page of the annotations' scores, sorted in the database (a sort by a score reads the
    stored scores, refreshed first where their records changed); the rows shown scored afresh."""
    counts = work_counts(annotations, choices.adjudicated, choices.include_in_progress)
    if choices.column in STORED_COLUMNS:
        refresh_stored_scores(counted)
    ordered = ordered_annotations(
        counted, choices.column if choices.column in SORTABLE else None, choices.descending
    )
    page = page_of_annotations(ordered, page_number, counts.submitted + counts.in_progress)
    rows = score_loaded_annotations(list(page.object_list))
    return {"rows": rows, "page": page, "means": [], "counts": counts}


def _links(choices: ScoreChoices) -> dict:
    """The page's choices and the links that change them, each keeping the others."""
    kept = choices.kept()
    sort = choices.sort or None

    def query(**changes) -> str:
        return "?" + urlencode({k: v for k, v in {**kept, **changes}.items() if v is not None})

    in_progress_column = [("in_progress", "In progress")] if choices.include_in_progress else []
    return {
        "by_system": choices.by_system,
        "per": choices.per,
        "mean_per": SYSTEM_MEAN_PER[choices.per],
        "other_per": query(per=PER_ANNOTATION if choices.per == PER_DOCSET else None),
        "adjudicated": choices.adjudicated,
        "include_in_progress": choices.include_in_progress,
        "docset": choices.docset or "",
        "sort": choices.sort,
        "page_query": query(sort=sort).removeprefix("?"),
        "query": query(),
        "sort_query": query(),
        # The links that change what is counted keep the sort (a new count starts at page 1).
        "with_in_progress": query(**{INCLUDE_PARAMETER: IN_PROGRESS_VALUE}, sort=sort),
        "submitted_only": query(**{INCLUDE_PARAMETER: None}, sort=sort),
        "with_adjudicated": query(adjudicated="1", sort=sort),
        "system_columns": [
            ("peer", "Peer"),
            ("docsets", "Docsets"),
            *in_progress_column,
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
    }


def _coverage(collection, choices: ScoreChoices) -> dict:
    """The coverage judgments' table: its task counts, and its rows or system means (four
    queries; one where the collection has no judgment task). The page's one sort sorts it too
    where the column is its own (docset and peer sort both tables)."""
    docset, include_in_progress = choices.docset, choices.include_in_progress
    counts = task_counts(collection, docset)
    rows = score_coverage(collection, docset, include_in_progress) if counts.total else []
    means = coverage_system_means(rows) if choices.by_system else []
    if choices.by_system and choices.column in COVERAGE_SYSTEM_SORTABLE:
        means = sorted_coverage_means(means, choices.column, choices.descending)
    elif not choices.by_system and choices.column in COVERAGE_SORTABLE:
        rows = sorted_coverage_rows(rows, choices.column, choices.descending)
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
        "means": means,
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
