"""The table of Django's database cache (settings.CACHES on PostgreSQL: the suggestions' prepared
indexes, shared by every app server), made with the other tables by `migrate`: in release.sh, the
stack, the tests and the demo alike. Nothing where the cache is not the database's."""

from django.core.management import call_command
from django.db import migrations


def make_cache_table(apps, schema_editor):
    call_command("createcachetable", database=schema_editor.connection.alias, verbosity=0)


class Migration(migrations.Migration):
    dependencies = [("annotator", "0021_pyramid_last_uid")]

    operations = [migrations.RunPython(make_cache_table, migrations.RunPython.noop)]
