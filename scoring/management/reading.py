"""What the scoring commands share."""

from django.core.management.base import BaseCommand


class ReadingCommand(BaseCommand):
    """A command that reads the records and prints figures (export_scores, ranking, agreement,
    correlate, stability). Django's system checks, which load every URL module and the REST
    framework with them (half a second before any work, issue 19), are left to the commands that
    serve or change the site: `check`, `migrate`, `runserver`."""

    requires_system_checks: list[str] = []
