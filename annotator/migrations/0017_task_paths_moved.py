"""The background tasks moved with their modules (issue 18: annotator.jobs and
annotator.archive_jobs are now in annotator.transfer). A task queued before the upgrade names its
function by path: point the waiting ones at the new place, so a worker started after the upgrade
runs them rather than failing to import the old path. Nothing to do where the tasks run in the
request (no task table) or none waits."""

from django.db import migrations

MOVED = {
    "annotator.jobs.run_import_job": "annotator.transfer.jobs.run_import_job",
    "annotator.archive_jobs.run_archive_job": "annotator.transfer.archive_jobs.run_archive_job",
}
TABLE = "django_tasks_database_dbtaskresult"


def repoint(apps, schema_editor, moves):
    if TABLE not in schema_editor.connection.introspection.table_names():
        return
    with schema_editor.connection.cursor() as cursor:
        for old, new in moves.items():
            cursor.execute(f"UPDATE {TABLE} SET task_path = %s WHERE task_path = %s", [new, old])


def forwards(apps, schema_editor):
    repoint(apps, schema_editor, MOVED)


def backwards(apps, schema_editor):
    repoint(apps, schema_editor, {new: old for old, new in MOVED.items()})


class Migration(migrations.Migration):
    dependencies = [("annotator", "0016_verbose_names")]

    operations = [migrations.RunPython(forwards, backwards)]
