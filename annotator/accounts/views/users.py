"""Accounts, for site administrators: who exists, their roles, and new accounts."""

from __future__ import annotations

from collections import defaultdict

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.shortcuts import redirect, render

from annotator.accounts.forms import NewUserForm
from annotator.campaigns.access import is_site_administrator
from annotator.campaigns.models import Membership


def _site_administrator(request) -> None:
    if not is_site_administrator(request.user):
        raise PermissionDenied("Only site administrators manage accounts.")


@login_required
def user_list(request):
    _site_administrator(request)
    users = list(get_user_model().objects.prefetch_related("groups").order_by("username"))
    roles = defaultdict(list)
    for user_id, collection, role in Membership.objects.values_list(
        "user_id", "collection__name", "role"
    ):
        roles[user_id].append(f"{role} of {collection}")
    for user in users:
        user.site_roles = [group.name for group in user.groups.all()] + (
            ["superuser"] if user.is_superuser else []
        )
        user.collection_roles = roles[user.pk]
    return render(request, "accounts/users.html", {"users": users})


@login_required
def user_create(request):
    _site_administrator(request)
    form = NewUserForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        messages.success(
            request,
            f"Created the account {user.username}. Give them a role in a collection, or assign "
            "them work.",
        )
        return redirect("user-list")
    return render(
        request,
        "campaigns/form.html",
        {"form": form, "title": "New account", "submit": "Create", "accounts": True},
    )
