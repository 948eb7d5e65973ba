"""`manage.py worker_alive`: a worker container's health check."""

from datetime import timedelta

import pytest
from django.core.management import CommandError, call_command
from django.utils import timezone

from annotator.models import WorkerBeat

pytestmark = pytest.mark.django_db


def beat(worker_id, seconds_ago):
    now = timezone.now()
    WorkerBeat.objects.create(
        worker_id=worker_id, started_at=now, seen_at=now - timedelta(seconds=seconds_ago)
    )


def test_a_worker_that_beats_is_alive(capsys):
    beat("w1", 5)
    call_command("worker_alive", worker_id="w1")
    assert "worker w1 alive" in capsys.readouterr().out


def test_a_worker_whose_beat_is_old_or_missing_is_not(monkeypatch):
    beat("w1", 600)
    with pytest.raises(CommandError, match="no beat from worker w1 within the lease; last seen"):
        call_command("worker_alive", worker_id="w1")
    with pytest.raises(CommandError, match="no beat from worker w2 within the lease; never seen"):
        call_command("worker_alive", worker_id="w2")


def test_without_an_id_any_worker_alive_will_do(monkeypatch):
    monkeypatch.delenv("WORKER_ID", raising=False)
    beat("w1", 600)
    with pytest.raises(CommandError, match="no beat from any worker"):
        call_command("worker_alive", worker_id="")
    beat("w2", 1)
    call_command("worker_alive", worker_id="")
