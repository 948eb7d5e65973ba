from pathlib import Path

from django.core.management.base import BaseCommand, CommandError
from tqdm import tqdm

from annotator.coverage.formats.records import FormatError
from annotator.coverage.importing import (
    DEFAULT_UNIT_SET,
    FORMATS,
    UnitImportRefused,
    files_from_paths,
    import_units,
    read_files,
)


class Command(BaseCommand):
    help = (
        "Import unit sets for presence judgments (issue 21) into a collection: REALSumm's "
        "SCUs_list.csv and crowd batch CSVs, or a Lite²/Lite³Pyramid folder (ids.txt, SCUs.txt, "
        "references.txt, summaries/*.summary, labels/*.label). One transaction: a conflict with "
        "what is stored is refused and nothing is stored; importing again changes nothing."
    )

    def add_arguments(self, parser):
        parser.add_argument("paths", nargs="+", type=Path, help="files, folders or zips")
        parser.add_argument("--format", required=True, choices=sorted(FORMATS))
        parser.add_argument("--collection", required=True, help="created if new")
        parser.add_argument(
            "--unit-set",
            help="the unit sets' name (default: "
            + ", ".join(f'"{v}" for {k}' for k, v in DEFAULT_UNIT_SET.items())
            + ")",
        )
        parser.add_argument("--no-progress", action="store_true", help="no progress bar")

    def handle(self, *args, **options):
        missing = [str(p) for p in options["paths"] if not p.exists()]
        if missing:
            raise CommandError(f"no such file: {', '.join(missing)}")
        try:
            source = read_files(options["format"], files_from_paths(options["paths"]))
        except FormatError as error:
            raise CommandError("\n".join(error.problems)) from None
        progress = tqdm(
            total=len(source.documents),
            unit="document",
            disable=options["no_progress"],
            file=self.stderr._out,
        )
        try:
            with progress:
                report = import_units(
                    options["collection"], source, options["unit_set"], progress.update
                )
        except UnitImportRefused as refused:
            for problem in refused.problems:
                self.stderr.write(self.style.ERROR(f"error: {problem}"))
            raise CommandError(
                f"refused ({len(refused.problems)} conflicting with what is stored); nothing was "
                "stored"
            ) from None
        for line in report.lines():
            if line.startswith("warning: "):
                self.stdout.write(self.style.WARNING(line))
            else:
                self.stdout.write(line)
