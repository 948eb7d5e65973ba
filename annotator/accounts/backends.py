"""Signing in and permissions: Django's ModelBackend, with a user's permissions read in one query.

Every page asks whether its user reads or administers every collection (annotator.campaigns.access:
the site-wide groups "Organizers" and "Administrators" grant it as permissions). Django's backend
reads a user's own permissions and their groups' in two queries, once per request; each query
costs an action about a millisecond of server CPU (issue 32), so both come in one here. Superusers
are answered without a query, as Django does (User.has_perm).
"""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.contrib.auth.backends import ModelBackend
from django.contrib.auth.models import Group, Permission
from django.db.models import Q


class ModelBackendInOneQuery(ModelBackend):
    def get_all_permissions(self, user_obj, obj=None) -> set[str]:
        if not user_obj.is_active or user_obj.is_anonymous or obj is not None:
            return set()
        if user_obj.is_superuser:
            return super().get_all_permissions(user_obj, obj)
        if not hasattr(user_obj, "_perm_cache"):  # ModelBackend's own cache, for the request
            own = get_user_model().user_permissions.through.objects.filter(user=user_obj)
            of_groups = Group.permissions.through.objects.filter(group__user=user_obj)
            rows = (
                Permission.objects.filter(
                    Q(pk__in=own.values("permission_id"))
                    | Q(pk__in=of_groups.values("permission_id"))
                )
                .values_list("content_type__app_label", "codename")
                .order_by()
            )
            user_obj._perm_cache = {f"{app_label}.{codename}" for app_label, codename in rows}
        return user_obj._perm_cache
