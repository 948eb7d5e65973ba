"""What the scoring commands share."""

from django.core.management.base import BaseCommand


class ReadingCommand(BaseCommand):
    """A command that reads the records and prints figures (export_scores, ranking, agreement,
    correlate, stability). It changes no record; `ranking` and `agreement` may write the stored
    scores they read (scoring.scores.score_table.current_stored_rows brings them up to date: a
    cache),
    so they need a database they can write to. Django's system checks, which load every URL
    module and the REST framework with them (half a second before any work, issue 19), are left
    to the commands that serve or change the site: `check`, `migrate`, `runserver`."""

    requires_system_checks: list[str] = []
