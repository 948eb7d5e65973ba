from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from annotator.campaigns.models import Collection
from annotator.coverage.importing import FORMATS, UnitExportError, export_units


class Command(BaseCommand):
    help = (
        "Write a collection's presence unit sets (issue 21) in REALSumm's or Lite Pyramid's "
        "files, as import_units reads them: into a folder, or a zip if OUTPUT ends in .zip."
    )

    def add_arguments(self, parser):
        parser.add_argument("output", type=Path, help="a folder (made if absent) or a .zip")
        parser.add_argument("--format", required=True, choices=sorted(FORMATS))
        parser.add_argument("--collection", required=True)
        parser.add_argument(
            "--unit-set", help="the unit sets' name (default: the collection's only one)"
        )

    def handle(self, *args, **options):
        collection = Collection.objects.filter(name=options["collection"]).first()
        if collection is None:
            raise CommandError(f"no collection {options['collection']!r}")
        try:
            export = export_units(collection, options["format"], options["unit_set"])
        except UnitExportError as error:
            raise CommandError(str(error)) from None
        output: Path = options["output"]
        if output.suffix.lower() == ".zip":
            output.parent.mkdir(parents=True, exist_ok=True)
            output.write_bytes(export.zip_bytes())
        else:
            for name, text in export.files.items():
                path = output / name
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_text(text, encoding="utf-8")
        for note in export.notes:
            self.stdout.write(self.style.WARNING(f"note: {note}"))
        self.stdout.write(f"Wrote {len(export.files)} files to {output}: {', '.join(export.files)}")
