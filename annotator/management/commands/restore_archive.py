from pathlib import Path

from django.core.management.base import BaseCommand, CommandError
from tqdm import tqdm

from annotator.transfer import archive


class Command(BaseCommand):
    help = (
        "Restore a collection archive (export_archive's file) as a new collection, in one "
        "transaction: a name in use, an unknown format version or a malformed archive is refused "
        "and nothing is stored."
    )

    def add_arguments(self, parser):
        parser.add_argument("file", type=Path, help="the archive (.zip)")
        parser.add_argument("--name", help="the new collection's name (default: the archive's)")
        parser.add_argument("--no-progress", action="store_true", help="no progress bar")

    def handle(self, *args, **options):
        path = options["file"]
        if not path.is_file():
            raise CommandError(f"no such file: {path}")
        with tqdm(unit="record", disable=options["no_progress"], file=self.stderr._out) as bar:

            def progress(done, total):
                bar.total = total
                bar.update(done - bar.n)

            try:
                _, report = archive.restore(path, options["name"], progress)
            except archive.ArchiveError as problem:
                raise CommandError(
                    f"{path}: {str(problem).rstrip('.')}. Nothing was stored."
                ) from None
        for line in report:
            self.stdout.write(line)
