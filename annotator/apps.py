from django.apps import AppConfig
from django.db.models.signals import post_migrate

# The site-wide roles (annotator.campaigns.access) as Django groups, and the permissions each one
# holds ("app.*": every permission of that app). Administrators also get what the Django admin
# needs to manage accounts and every record.
ROLE_GROUPS = {
    "Administrators": [
        "annotator.*",
        "auth.view_user",
        "auth.add_user",
        "auth.change_user",
        "auth.view_group",
    ],
    "Organizers": ["annotator.read_all_collections"],
}


def ensure_role_groups(sender=None, apps=None, using="default", **kwargs) -> None:
    """Create the role groups with their permissions where missing. Runs after every migrate and
    flush (post_migrate), after Django has made the permissions, so a new database has them."""
    from django.apps import apps as global_apps

    apps = apps or global_apps
    try:
        Group = apps.get_model("auth", "Group")
        Permission = apps.get_model("auth", "Permission")
    except LookupError:
        return
    from django.db.models import Q

    for name, permissions in ROLE_GROUPS.items():
        wanted = Q(pk__in=[])
        for permission in permissions:
            app_label, codename = permission.split(".")
            wanted |= Q(content_type__app_label=app_label) & (
                Q() if codename == "*" else Q(codename=codename)
            )
        group, _ = Group.objects.using(using).get_or_create(name=name)
        group.permissions.add(*Permission.objects.using(using).filter(wanted))


class AnnotatorConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "annotator"
    verbose_name = "Pyramid annotation"

    def ready(self):
        # After the auth app's own handler, which makes this app's permissions (auth is ready
        # first).
        post_migrate.connect(
            ensure_role_groups, sender=self, dispatch_uid="annotator.ensure_role_groups"
        )
