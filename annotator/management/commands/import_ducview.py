from pathlib import Path

from django.core.management.base import BaseCommand, CommandError
from tqdm import tqdm

from annotator.ducview.names import FileIdentity
from annotator.text.plurals import counted
from annotator.transfer.batches import FileBatches
from annotator.transfer.importing import DucviewImporter, ducview_files
from annotator.transfer.uploads import DUCVIEW_MAX_BYTES


class Command(BaseCommand):
    help = (
        "Import DUCView .pyr and .pan files (or folders of them, recursively) into a collection. "
        "Each file is one transaction: a bad file is reported and nothing of it is stored."
    )

    def add_arguments(self, parser):
        parser.add_argument("paths", nargs="+", type=Path, help=".pyr/.pan files or folders")
        parser.add_argument("--collection", required=True, help='e.g. "DUC 2006" (created if new)')
        parser.add_argument("--docset", help="docset of every file (default: from the file names)")
        parser.add_argument(
            "--peer", help="peer id of every .pan file (default: from the file names)"
        )
        parser.add_argument(
            "--annotator", help="annotator id of every .pan file (default: from the file names)"
        )
        parser.add_argument(
            "--model-regex",
            help="regex that starts each model summary, for pyramids with neither a "
            "startDocumentRegEx nor DUC header lines",
        )
        parser.add_argument(
            "--max-file-mb",
            type=float,
            default=DUCVIEW_MAX_BYTES / (1024 * 1024),
            help="refuse a file larger than this, as the browser upload does (default: %(default)g "
            "MB)",
        )
        parser.add_argument("--no-progress", action="store_true", help="no progress bar")

    def handle(self, *args, **options):
        files = ducview_files(options["paths"])
        missing = [str(f) for f in files if not f.exists()]
        if missing:
            raise CommandError(f"no such file: {', '.join(missing)}")
        if not files:
            raise CommandError("no .pyr or .pan files found")
        overrides = FileIdentity(
            docset=options["docset"], peer=options["peer"], annotator=options["annotator"]
        )
        importer = DucviewImporter(options["collection"], model_regex=options["model_regex"])
        progress = tqdm(files, unit="file", disable=options["no_progress"], file=self.stderr._out)
        # About a second of files a transaction, each file in a savepoint of its own: a bad file
        # stores nothing, the others are kept (annotator.transfer.batches).
        with FileBatches() as batches:
            for path in progress:
                progress.set_postfix_str(path.name, refresh=False)
                importer.import_file(
                    path, overrides, max_bytes=int(options["max_file_mb"] * 1024 * 1024)
                )
                if batches.due():
                    batches.commit()
        importer.finish()
        report = importer.report
        for warning in report.warnings:
            self.stdout.write(self.style.WARNING(f"warning: {warning}"))
        for failure in report.failures:
            self.stderr.write(self.style.ERROR(f"error: {failure}"))
        self.stdout.write(report.summary_line())
        if report.unchanged == report.files and not report.failures:
            self.stdout.write("Nothing changed: every file was already imported.")
        if report.failures:
            raise CommandError(
                f"{len(report.failures)} of {counted(report.files, 'file')} failed; the others "
                "were imported"
            )
