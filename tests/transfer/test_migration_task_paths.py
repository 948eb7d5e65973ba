"""Migration 0017 on a queue filled before the upgrade: tasks waiting under the old module paths
(annotator.jobs, annotator.archive_jobs) point at their new home and a worker can run them."""

import pytest
from django.utils import timezone
from django.utils.module_loading import import_string
from django_tasks_db.models import DBTaskResult

from tests.helpers import latest_migrations, migrate

pytestmark = pytest.mark.django_db(transaction=True)

BEFORE = [("annotator", "0016_verbose_names")]


def waiting(task_path):
    return DBTaskResult.objects.create(
        task_path=task_path,
        args_kwargs={"args": [1], "kwargs": {}},
        backend_name="default",
        run_after=timezone.now(),
    )


def test_tasks_queued_before_the_move_run_from_their_new_home():
    migrate(BEFORE)
    try:
        imports = waiting("annotator.jobs.run_import_job")
        archives = waiting("annotator.archive_jobs.run_archive_job")
        other = waiting("somewhere.else.task")
    finally:
        migrate(latest_migrations())
    imports.refresh_from_db()
    archives.refresh_from_db()
    other.refresh_from_db()
    assert imports.task_path == "annotator.transfer.jobs.run_import_job"
    assert archives.task_path == "annotator.transfer.archive_jobs.run_archive_job"
    assert other.task_path == "somewhere.else.task"
    # What a worker does with the row: import the task by its path.
    assert import_string(imports.task_path).name == "run_import_job"
    assert import_string(archives.task_path).name == "run_archive_job"


def test_going_back_restores_the_old_paths():
    moved = waiting("annotator.transfer.jobs.run_import_job")
    try:
        migrate(BEFORE)
        moved.refresh_from_db()
        assert moved.task_path == "annotator.jobs.run_import_job"
    finally:
        migrate(latest_migrations())
    moved.refresh_from_db()
    assert moved.task_path == "annotator.transfer.jobs.run_import_job"
