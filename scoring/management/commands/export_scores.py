from pathlib import Path

from annotator.management.lookup import collection_and_docset
from annotator.text.plurals import counted
from scoring.exports import in_blocks, iter_score_rows, score_conventions
from scoring.formats import FORMATS, IN_PROGRESS_MARK, stream_rows
from scoring.management.reading import ReadingCommand
from scoring.records import collection_annotations, counted_annotations, work_counts


class Command(ReadingCommand):
    help = (
        "Export every submitted peer annotation's scores (modified, original, DUCView 1.5 "
        "quality/coverage/comprehensive, counts) with the collection's weight and X_a rounding "
        "conventions."
    )

    def add_arguments(self, parser):
        parser.add_argument("--collection", required=True)
        parser.add_argument("--docset", help="only this docset")
        parser.add_argument("--format", choices=sorted(FORMATS), default="csv")
        parser.add_argument("--out", type=Path, help="file to write (default: standard output)")
        parser.add_argument(
            "--adjudicated",
            action="store_true",
            help="where there is adjudicated work, only it: annotations against a docset's "
            "consensus pyramid, and a peer's complete consensus annotation instead of its sources",
        )
        parser.add_argument(
            "--include-in-progress",
            action="store_true",
            help="count annotations still in progress too, marked: the status column of csv and "
            f"json says in_progress; in duc their rows end with a field {IN_PROGRESS_MARK}",
        )

    def handle(self, *args, **options):
        collection = collection_and_docset(options["collection"], options["docset"])
        annotations = collection_annotations(collection, options["docset"])
        adjudicated, include = options["adjudicated"], options["include_in_progress"]
        counted_ones = counted_annotations(annotations, adjudicated, include_in_progress=include)
        # NIST's layout has no room for them, so every format also says its conventions here, and
        # what it counts.
        self.stderr.write(
            f"{collection.name}: SCU weight = {collection.weight_convention}, "
            f"X_a rounding = {collection.average_rounding}"
        )
        counts = work_counts(annotations, adjudicated, include)
        if include:
            self.stderr.write(
                f"{counted(counts.submitted, 'submitted annotation')} and {counts.in_progress} in "
                "progress (marked) counted"
            )
        else:
            self.stderr.write(
                f"{counted(counts.submitted, 'submitted annotation')} counted; "
                f"{counts.in_progress_left_out} in progress not counted (--include-in-progress "
                "counts them)"
            )
        # Streamed (issue 19): rows are scored a chunk at a time and written as they come, in
        # constant memory, the same bytes as the whole table at once (scoring.exports).
        fmt = options["format"]
        rows = iter_score_rows(counted_ones, "duc" if fmt == "duc" else "table")
        written = 0

        def counting(rows):
            nonlocal written
            for row in rows:
                written += 1
                yield row

        conventions = score_conventions(counted_ones) if fmt == "json" else ()
        blocks = in_blocks(stream_rows(fmt, counting(rows), conventions))
        if options["out"]:
            with Path(options["out"]).open("w", encoding="utf-8") as file:
                file.writelines(blocks)
            self.stderr.write(f"{counted(written, 'row')} written to {options['out']}")
        else:
            for block in blocks:
                self.stdout.write(block, ending="")
