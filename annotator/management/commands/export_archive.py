from pathlib import Path

from django.core.management.base import BaseCommand, CommandError
from tqdm import tqdm

from annotator.campaigns.models import Collection
from annotator.transfer import archive


class Command(BaseCommand):
    help = (
        "Write everything of a collection (records, history, assignments, memberships, judgments) "
        "to one archive file, which restore_archive reads back (annotator.transfer.archive "
        "describes the format)."
    )

    def add_arguments(self, parser):
        parser.add_argument("collection", help='the collection\'s name, e.g. "DUC 2006"')
        parser.add_argument(
            "-o", "--output", type=Path, required=True, help="the archive to write (.zip)"
        )
        parser.add_argument("--no-progress", action="store_true", help="no progress bar")

    def handle(self, *args, **options):
        collection = Collection.objects.filter(name=options["collection"]).first()
        if collection is None:
            raise CommandError(f"no collection {options['collection']!r}")
        path = options["output"]
        with tqdm(unit="record", disable=options["no_progress"], file=self.stderr._out) as bar:

            def progress(done, total):
                bar.total = total
                bar.update(done - bar.n)

            try:
                counts = archive.export(collection, path, progress)
            except BaseException:
                path.unlink(missing_ok=True)  # no half-written archive left behind
                raise
        self.stdout.write(f"Wrote {collection.name} to {path}: {archive.describe(counts)}.")
