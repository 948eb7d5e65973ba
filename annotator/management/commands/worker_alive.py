"""`manage.py worker_alive [--worker-id ID]`: exit 0 when the worker beats (a container's health
check), 1 with the reason when it does not. The id defaults to $WORKER_ID; without one, any worker
alive will do."""

import os

from django.core.management.base import BaseCommand, CommandError
from django.utils import timezone

from annotator.transfer.models import WorkerBeat


class Command(BaseCommand):
    help = (
        "Exit 0 when the worker (--worker-id, default $WORKER_ID; else any worker) has beaten "
        "within a lease."
    )

    def add_arguments(self, parser):
        parser.add_argument("--worker-id", default=os.environ.get("WORKER_ID", ""))

    def handle(self, *args, worker_id, **options):
        beats = WorkerBeat.objects.all()
        if worker_id:
            beats = beats.filter(worker_id=worker_id)
        alive = beats.alive().order_by("-seen_at").first()
        if alive is None:
            last = beats.order_by("-seen_at").first()
            who = f"worker {worker_id}" if worker_id else "any worker"
            since = (
                f"; last seen {timezone.localtime(last.seen_at):%Y-%m-%d %H:%M:%S}"
                if last
                else "; never seen"
            )
            raise CommandError(f"no beat from {who} within the lease{since}")
        self.stdout.write(
            f"worker {alive.worker_id} alive (seen "
            f"{(timezone.now() - alive.seen_at).total_seconds():.0f} s ago)"
        )
