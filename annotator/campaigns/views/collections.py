"""Collections, their docsets and summaries, and their members: the administrators' pages.

Readers (administrators and organizers of a collection) see them; only administrators change them.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.db.models import Count, Q
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_POST

from annotator.adjudication import queue as adjudication_queue
from annotator.campaigns import assignments, summaries
from annotator.campaigns.access import (
    administered_collections,
    can_adjudicate,
    can_administer,
    can_read_collection,
    is_site_administrator,
    readable_collections,
    visible_collections,
    visible_summaries,
)
from annotator.campaigns.forms import CollectionForm, DocsetForm, MemberForm, SummaryForm
from annotator.campaigns.guards import ADMINISTER, collection_for, docset_for
from annotator.campaigns.models import Assignment, Docset, Membership, Role, Summary
from annotator.coverage.importing import presence_unit_set_names
from annotator.coverage.models import JudgmentTask
from annotator.editing.errors import EditError
from annotator.peer_annotation.models import PeerAnnotation
from annotator.pyramids.models import Pyramid
from annotator.pyramids.problems import collection_problems


@login_required
def collection_list(request):
    readable = set(readable_collections(request.user).values_list("pk", flat=True))
    administered = set(administered_collections(request.user).values_list("pk", flat=True))
    # The user's role in each collection: the highest of their memberships (a site-wide group
    # makes them administrator or organizer of every collection).
    rank = {Role.ADMINISTRATOR: 0, Role.ADJUDICATOR: 1, Role.ORGANIZER: 2, Role.ANNOTATOR: 3}
    roles = {}
    for collection_id, role in Membership.objects.filter(user=request.user).values_list(
        "collection_id", "role"
    ):
        if collection_id not in roles or rank.get(role, 9) < rank.get(roles[collection_id], 9):
            roles[collection_id] = role
    collections = list(
        visible_collections(request.user)
        .annotate(
            docset_count=Count("docsets", distinct=True),
        )
        .order_by("name")
    )
    for collection in collections:
        if collection.pk in administered:
            collection.role = Role.ADMINISTRATOR.label
        elif roles.get(collection.pk) == Role.ADJUDICATOR:
            collection.role = Role.ADJUDICATOR.label
        elif collection.pk in readable:
            collection.role = Role.ORGANIZER.label
        else:
            collection.role = Role.ANNOTATOR.label
    return render(
        request,
        "campaigns/collection_list.html",
        {
            "collections": collections,
            "readable": readable,
            "administered": administered,
            "can_create": is_site_administrator(request.user),
        },
    )


@login_required
def collection_create(request):
    if not is_site_administrator(request.user):
        raise PermissionDenied("Only site administrators create collections.")
    form = CollectionForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        collection = form.save()
        messages.success(
            request, f"Created collection {collection.name}. Add its docsets and summaries next."
        )
        return redirect("collection-detail", pk=collection.pk)
    return render(
        request,
        "campaigns/form.html",
        {"form": form, "title": "New collection", "submit": "Create"},
    )


def docset_table(collection) -> list[Docset]:
    """The collection's docsets with their counts, in four queries whatever their number."""
    docsets = list(
        collection.docsets.annotate(
            models=Count("summaries", filter=Q(summaries__kind=Summary.Kind.MODEL)),
            peers=Count("summaries", filter=Q(summaries__kind=Summary.Kind.PEER)),
        ).order_by("name")
    )
    pyramids: dict[int, dict[str, int]] = {}
    for docset_id, status, n in (
        Pyramid.objects.filter(docset__collection=collection)
        .values_list("docset_id", "status")
        .annotate(n=Count("id"))
        .order_by()
    ):
        pyramids.setdefault(docset_id, {})[status] = n
    annotations = dict(
        PeerAnnotation.objects.filter(pyramid__docset__collection=collection)
        .values_list("pyramid__docset_id")
        .annotate(n=Count("id"))
        .order_by()
    )
    work: dict[int, dict[str, int]] = {}
    for docset_id, status, n in (
        Assignment.objects.filter(pyramid__docset__collection=collection)
        .values_list("pyramid__docset_id", "status")
        .annotate(n=Count("id"))
        .order_by()
    ):
        work.setdefault(docset_id, {})[status] = n
    for docset in docsets:
        counts = pyramids.get(docset.pk, {})
        docset.pyramids_submitted = counts.get(Pyramid.Status.SUBMITTED, 0)
        docset.pyramids_in_progress = counts.get(Pyramid.Status.IN_PROGRESS, 0)
        docset.annotation_count = annotations.get(docset.pk, 0)
        statuses = work.get(docset.pk, {})
        docset.assignments_open = statuses.get(Assignment.Status.ASSIGNED, 0) + statuses.get(
            Assignment.Status.IN_PROGRESS, 0
        )
        docset.assignments_done = statuses.get(Assignment.Status.DONE, 0)
    return docsets


@login_required
def collection_detail(request, pk):
    collection = collection_for(request, pk)
    readable = can_read_collection(request.user, collection)
    return render(
        request,
        "campaigns/collection_detail.html",
        {
            "collection": collection,
            "docsets": docset_table(collection),
            "can_administer": can_administer(request.user, collection),
            "jobs": collection.import_jobs.select_related("created_by")[:5],
            "archives": collection.archive_jobs.filter(kind="export").select_related("created_by")[
                :5
            ],
            # Readers of the whole collection (organizers, administrators) review what imports kept.
            "problems": collection_problems(collection) if readable else [],
            # Offered in the downloads to those who may read them (the download checks it too).
            "unit_set_names": presence_unit_set_names(collection) if readable else [],
            # The coverage scores' downloads, once there is something to score (issue 21).
            "judgment_tasks": readable
            and JudgmentTask.objects.filter(unit_set__docset__collection=collection).exists(),
        },
    )


@login_required
def collection_settings(request, pk):
    collection = collection_for(request, pk, ADMINISTER)
    form = CollectionForm(request.POST or None, instance=collection)
    if request.method == "POST" and form.is_valid():
        form.save()
        messages.success(request, "Saved the collection's settings.")
        return redirect("collection-detail", pk=collection.pk)
    return render(
        request,
        "campaigns/form.html",
        {
            "form": form,
            "title": f"Settings of {collection.name}",
            "submit": "Save",
            "collection": collection,
            "note": (
                "The weight convention and the rounding of Xa change every score of the collection."
            ),
        },
    )


@login_required
def collection_members(request, pk):
    collection = collection_for(request, pk, ADMINISTER)
    form = MemberForm(request.POST or None, collection=collection)
    if request.method == "POST" and form.is_valid():
        Membership.objects.create(
            collection=collection, user=form.cleaned_data["user"], role=form.cleaned_data["role"]
        )
        messages.success(
            request,
            f"{form.cleaned_data['user'].username} is now {form.cleaned_data['role']} "
            f"of {collection.name}.",
        )
        return redirect("collection-members", pk=collection.pk)
    return render(
        request,
        "campaigns/members.html",
        {
            "collection": collection,
            "form": form,
            "members": collection.memberships.select_related("user").order_by(
                "role", "user__username"
            ),
        },
    )


@require_POST
@login_required
def member_remove(request, pk, member_pk):
    collection = collection_for(request, pk, ADMINISTER)
    membership = get_object_or_404(collection.memberships.select_related("user"), pk=member_pk)
    with transaction.atomic():
        if membership.role == Role.ANNOTATOR:  # their work stays; they no longer see it
            assignments.withdraw_all(membership.user, collection, request.user)
        membership.delete()
    messages.success(
        request, f"{membership.user.username} is no longer {membership.role} of {collection.name}."
    )
    return redirect("collection-members", pk=collection.pk)


@login_required
def docset_create(request, pk):
    collection = collection_for(request, pk, ADMINISTER)
    form = DocsetForm(request.POST or None, collection=collection)
    if request.method == "POST" and form.is_valid():
        docset = form.save()
        messages.success(request, f"Created docset {docset.name}.")
        return redirect("docset-detail", pk=docset.pk)
    return render(
        request,
        "campaigns/form.html",
        {
            "form": form,
            "title": f"New docset in {collection.name}",
            "submit": "Create",
            "collection": collection,
        },
    )


@login_required
def docset_detail(request, pk):
    docset = docset_for(request, pk)
    pyramids = (
        docset.pyramids.select_related("created_by")
        .annotate(
            scu_count=Count("scus", distinct=True),
            annotation_count=Count("peer_annotations", distinct=True),
        )
        .order_by("name")
    )
    adjudicates = can_adjudicate(request.user, docset.collection)
    queue = adjudication_queue.queue(docset.pyramids.all()) if adjudicates else None
    return render(
        request,
        "campaigns/docset_detail.html",
        {
            "docset": docset,
            "collection": docset.collection,
            "summaries": docset.summaries.order_by("kind", "author"),
            "pyramids": pyramids,
            # Each unit set with its units counted: one query, however many sets (issue 21).
            "unit_sets": docset.unit_sets.annotate(unit_count=Count("units")).order_by("name"),
            "annotations": PeerAnnotation.objects.filter(pyramid__docset=docset)
            .select_related("peer", "pyramid", "annotator")
            .order_by("peer__author", "annotator_code"),
            "can_administer": can_administer(request.user, docset.collection),
            "can_adjudicate": adjudicates,
            "queue": queue,
            "queue_counts": adjudication_queue.counts(queue) if queue is not None else None,
            # Its downloads: its presence unit sets, and the coverage scores once there are tasks.
            "unit_set_names": presence_unit_set_names(docset.collection, docset.name),
            "judgment_tasks": JudgmentTask.objects.filter(unit_set__docset=docset).exists(),
        },
    )


@login_required
def summary_create(request, pk):
    docset = docset_for(request, pk, ADMINISTER)
    form = SummaryForm(request.POST or None, docset=docset)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            summary = summaries.create_summary(
                docset, request.user, data["kind"], data["author"], data["text"], data["name"]
            )
        except EditError as refused:
            form.add_error(getattr(refused, "field", None), refused.message)
        else:
            messages.success(
                request, f"Added the {summary.kind} summary by {summary.author} to {docset.name}."
            )
            return redirect("docset-detail", pk=docset.pk)
    return render(
        request,
        "campaigns/form.html",
        {
            "form": form,
            "title": f"Paste a summary into {docset.name}",
            "submit": "Add",
            "collection": docset.collection,
            "docset": docset,
        },
    )


@login_required
def summary_detail(request, pk):
    # Whoever may read the summary reads its page, as the API serves it (visible_summaries): the
    # collection's readers every summary, an annotator the models of the docsets they work in and
    # the peers assigned to them. Anyone else gets 404, as if it did not exist.
    summary = get_object_or_404(
        visible_summaries(request.user).select_related("docset__collection"), pk=pk
    )
    return render(
        request,
        "campaigns/summary_detail.html",
        {
            "summary": summary,
            "docset": summary.docset,
            "collection": summary.docset.collection,
            # The collection's and docset's pages are for its readers; an annotator's way back is
            # their work.
            "reader": can_read_collection(request.user, summary.docset.collection_id),
        },
    )
