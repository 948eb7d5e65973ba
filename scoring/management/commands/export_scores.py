from pathlib import Path

from django.core.management.base import BaseCommand

from scoring.formats import FORMATS
from scoring.management.lookup import collection_and_docset
from scoring.records import score_collection


class Command(BaseCommand):
    help = (
        "Export every peer annotation's scores (modified, original, DUCView 1.5 quality/coverage/"
        "comprehensive, counts) with the collection's weight and X_a rounding conventions."
    )

    def add_arguments(self, parser):
        parser.add_argument("--collection", required=True)
        parser.add_argument("--docset", help="only this docset")
        parser.add_argument("--format", choices=sorted(FORMATS), default="csv")
        parser.add_argument("--out", type=Path, help="file to write (default: standard output)")
        parser.add_argument("--adjudicated", action="store_true",
                            help="where there is adjudicated work, only it: annotations against a docset's consensus "
                                 "pyramid, and a peer's complete consensus annotation instead of its sources")

    def handle(self, *args, **options):
        collection = collection_and_docset(options["collection"], options["docset"])
        rows = score_collection(collection, options["docset"], adjudicated=options["adjudicated"])
        text = FORMATS[options["format"]](rows)
        # NIST's layout has no room for them, so every format also says its conventions here.
        self.stderr.write(
            f"{collection.name}: SCU weight = {collection.weight_convention}, "
            f"X_a rounding = {collection.average_rounding}"
        )
        if options["out"]:
            Path(options["out"]).write_text(text, encoding="utf-8")
            self.stderr.write(f"{len(rows)} rows written to {options['out']}")
        else:
            self.stdout.write(text, ending="")
