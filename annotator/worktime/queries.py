"""Active time as the pages read it: SQL expressions over the WorkTime rows, so that a page of work
rows, their sort and their totals take a constant number of queries; and how a time is shown."""

from __future__ import annotations

from django.db.models import Exists, F, FloatField, OuterRef, Q, QuerySet, Subquery, Sum

from annotator.campaigns.models import Assignment
from annotator.worktime.models import WorkTime

BUILD, PEER = Assignment.Task.BUILD_PYRAMID, Assignment.Task.ANNOTATE_PEER


def _seconds(rows: QuerySet[WorkTime]) -> Subquery:
    return Subquery(rows.values("active_seconds")[:1], output_field=FloatField())


def pyramid_seconds() -> Subquery:
    """For an assignment row: its user's active time on the pyramid (None if they did nothing)."""
    return _seconds(
        WorkTime.objects.filter(user_id=OuterRef("user_id"), pyramid_id=OuterRef("pyramid_id"))
    )


def annotation_seconds() -> Subquery:
    """For an assignment row to annotate a peer: its user's active time on their own annotation of
    that peer against that pyramid (one at most: the annotation's unique constraint)."""
    return _seconds(
        WorkTime.objects.filter(
            user_id=OuterRef("user_id"),
            annotation__annotator_id=OuterRef("user_id"),
            annotation__pyramid_id=OuterRef("pyramid_id"),
            annotation__peer_id=OuterRef("peer_id"),
        )
    )


def assignments_seconds(assignments: QuerySet[Assignment]) -> float:
    """The active time of all `assignments`, added up as the rows show it (the user's time on the
    pyramid built, on their own annotation of the peer): one query."""
    build = assignments.filter(
        task=BUILD, pyramid_id=OuterRef("pyramid_id"), user_id=OuterRef("user_id")
    )
    annotate = assignments.filter(
        task=PEER,
        pyramid_id=OuterRef("annotation__pyramid_id"),
        peer_id=OuterRef("annotation__peer_id"),
        user_id=OuterRef("user_id"),
    )
    found = WorkTime.objects.filter(
        Q(Exists(build)) | Q(Exists(annotate), annotation__annotator_id=F("user_id"))
    ).aggregate(seconds=Sum("active_seconds"))
    return found["seconds"] or 0.0


def whole_seconds(seconds: float | None) -> int | None:
    """A time as the API and the CSV give it: whole seconds (round(): a half to the even second),
    None for none. A running total of float additions carries noise (754.3000000000001): no one
    needs tenths of a second of time on task, and a campaign's budget sums whole seconds."""
    return None if seconds is None else round(seconds)


def shown(seconds: float | None) -> str:
    """A time as the pages show it: "—" for none, "0 min", "< 1 min", "12 min", "3 h 05 min"."""
    if seconds is None:
        return "—"
    if seconds == 0:  # a single action, or no work yet in a total
        return "0 min"
    minutes = round(seconds / 60)
    if minutes < 1:
        return "< 1 min"
    if minutes < 60:
        return f"{minutes} min"
    return f"{minutes // 60} h {minutes % 60:02d} min"


def annotation_times(annotations: QuerySet) -> list[tuple[str, str, str, str, float]]:
    """(docset, peer, pyramid, annotator, active seconds) of each of `annotations` (PeerAnnotation
    rows) that its own annotator worked on in the tool (an imported annotation has no time): the
    names as scoring.agreement.records.peer_agreement gives them (the annotator: their code, else
    their user name). One query."""
    rows = WorkTime.objects.filter(
        annotation__in=annotations, user_id=F("annotation__annotator_id")
    ).values_list(
        "annotation__pyramid__docset__name",
        "annotation__peer__author",
        "annotation__pyramid__name",
        "annotation__annotator_code",
        "user__username",
        "active_seconds",
    )
    return [
        (docset, peer, pyramid, code or username, seconds)
        for docset, peer, pyramid, code, username, seconds in rows
    ]


def pyramid_times(pyramids: QuerySet) -> list[tuple[int, str, float]]:
    """(pyramid id, builder's user name, active seconds) on each of `pyramids` (Pyramid rows), for
    the users assigned to build it: one query."""
    return list(
        WorkTime.objects.filter(
            Exists(
                Assignment.objects.filter(
                    task=BUILD, pyramid_id=OuterRef("pyramid_id"), user_id=OuterRef("user_id")
                )
            ),
            pyramid__in=pyramids,
        ).values_list("pyramid_id", "user__username", "active_seconds")
    )
