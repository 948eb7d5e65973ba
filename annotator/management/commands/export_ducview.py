from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from annotator.campaigns.models import Collection
from annotator.text.plurals import counted
from annotator.transfer.exporting import export_collection


class Command(BaseCommand):
    help = "Write a collection's pyramids (.pyr) and peer annotations (.pan) as DUCView 1.4 files."

    def add_arguments(self, parser):
        parser.add_argument("--collection", required=True)
        parser.add_argument(
            "--out", type=Path, required=True, help="folder for allpyramids/ and allpans/"
        )
        parser.add_argument("--docset", help="only this docset")

    def handle(self, *args, **options):
        try:
            collection = Collection.objects.get(name=options["collection"])
        except Collection.DoesNotExist:
            raise CommandError(f"no collection {options['collection']!r}") from None
        report = export_collection(collection, Path(options["out"]), options["docset"])
        self.stdout.write(
            f"{counted(report.pyramids, 'pyramid')} and "
            f"{counted(report.peer_annotations, 'peer annotation')} written to {options['out']}"
        )
