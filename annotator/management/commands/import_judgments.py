from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from annotator.management.lookup import collection_and_docset
from annotator.transfer.judgments import JudgmentsError, import_judgments, read_csv, read_nist_table


class Command(BaseCommand):
    help = (
        "Import human judgments of peer summaries: NIST's score tables (content responsiveness and "
        "linguistic quality columns of 2006_modified_scores.txt, 2007_modified_scores.txt) or a "
        "CSV with the header docset,peer,criterion,value[,judge]. One transaction: a bad line "
        "stores nothing."
    )

    def add_arguments(self, parser):
        parser.add_argument("file", type=Path)
        parser.add_argument("--collection", required=True)
        parser.add_argument(
            "--format", choices=["nist", "csv"], help="default: csv for .csv files, nist otherwise"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        path: Path = options["file"]
        collection = collection_and_docset(options["collection"])
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as problem:
            raise CommandError(f"{path}: {problem}") from None
        fmt = options["format"] or ("csv" if path.suffix.lower() == ".csv" else "nist")
        try:
            rows = (read_csv if fmt == "csv" else read_nist_table)(path.name, text)
            report = import_judgments(collection, rows)
        except JudgmentsError as problem:
            raise CommandError(f"{problem}; nothing was stored") from None
        self.stdout.write(report.summary_line())
