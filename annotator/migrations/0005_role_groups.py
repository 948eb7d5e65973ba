"""The site-wide role groups: Administrators (manage every collection) and Organizers (read and
export every collection). Staff users, who were administrators before roles existed, join
Administrators so that nobody loses what they could do."""

from django.db import migrations

GROUPS = {
    "Administrators": ["administer_all_collections", "read_all_collections"],
    "Organizers": ["read_all_collections"],
}


def create_groups(apps, schema_editor):
    from django.contrib.auth.management import create_permissions

    # Permissions are made after migrations; this one needs them now.
    for app_config in apps.get_app_configs():
        app_config.models_module = True
        create_permissions(app_config, apps=apps, verbosity=0)
        app_config.models_module = None
    Group = apps.get_model("auth", "Group")
    Permission = apps.get_model("auth", "Permission")
    User = apps.get_model("auth", "User")
    for name, codenames in GROUPS.items():
        group, _ = Group.objects.get_or_create(name=name)
        group.permissions.add(
            *Permission.objects.filter(content_type__app_label="annotator", codename__in=codenames)
        )
    administrators = Group.objects.get(name="Administrators")
    for user in User.objects.filter(is_staff=True, is_superuser=False):
        user.groups.add(administrators)


def remove_groups(apps, schema_editor):
    apps.get_model("auth", "Group").objects.filter(name__in=GROUPS).delete()


class Migration(migrations.Migration):
    dependencies = [
        ("annotator", "0004_roles_and_import_jobs"),
        ("auth", "0012_alter_user_first_name_max_length"),
        ("contenttypes", "0002_remove_content_type_name"),
    ]

    operations = [migrations.RunPython(create_groups, remove_groups)]
