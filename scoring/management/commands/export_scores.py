from pathlib import Path

from django.core.management.base import CommandError

from annotator.management.lookup import collection_and_docset
from annotator.text.plurals import counted
from scoring.coverage.records import score_coverage
from scoring.coverage.tables import coverage_system_means, task_counts
from scoring.management.reading import ReadingCommand
from scoring.scores.exports import (
    in_blocks,
    iter_score_rows,
    score_conventions,
    streamed_system_means,
)
from scoring.scores.formats import (
    COVERAGE_FORMATS,
    FORMATS,
    IN_PROGRESS_MARK,
    stream_rows,
    stream_systems_csv,
    stream_systems_json,
)
from scoring.scores.records import collection_annotations, counted_annotations, work_counts
from scoring.scores.tables import PER_DOCSET, SYSTEM_MEAN_PER


class Command(ReadingCommand):
    help = (
        "Export every submitted peer annotation's scores (modified, original, DUCView 1.5 "
        "quality/coverage/comprehensive, counts) with the collection's weight and X_a rounding "
        "conventions; or with --scores coverage-judgments, the coverage judgments' scores "
        "(presence, presence_weighted, see_coverage: issue 21); --systems for each system's means "
        "over the docsets."
    )

    def add_arguments(self, parser):
        parser.add_argument("--collection", required=True)
        parser.add_argument("--docset", help="only this docset")
        parser.add_argument(
            "--scores",
            choices=["pyramid", "coverage-judgments"],
            default="pyramid",
            help="pyramid (the default): each peer annotation's pyramid scores; "
            "coverage-judgments: each peer's presence and SEE coverage against each unit set it "
            "was judged on (csv or json)",
        )
        parser.add_argument(
            "--systems",
            action="store_true",
            help="each system's means over the docsets instead of the rows, as the scores page's "
            "systems view (csv or json)",
        )
        parser.add_argument(
            "--per",
            choices=SYSTEM_MEAN_PER,
            default=PER_DOCSET,
            help="with --systems, what a system's mean counts: each docset once (the default: a "
            "docset annotated twice is averaged first) or every annotation (it counts twice, as "
            "Passonneau 2009 Tables 6-9 count D0631)",
        )
        parser.add_argument(
            "--format",
            choices=sorted(FORMATS),
            default="csv",
            help="csv, json, or duc (NIST's layout: pyramid rows only)",
        )
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
        fmt = options["format"]
        if options["per"] != PER_DOCSET and not options["systems"]:
            raise CommandError("--per says what a system's mean counts: give it with --systems")
        if fmt == "duc" and (options["systems"] or options["scores"] != "pyramid"):
            raise CommandError("NIST's layout (duc) holds pyramid rows only: use csv or json")
        if options["scores"] == "coverage-judgments":
            if options["adjudicated"]:
                raise CommandError(
                    "--adjudicated is for pyramid scores: judgments have no consensus"
                )
            self._coverage(collection, options)
            return
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
        # constant memory, the same bytes as the whole table at once (scoring.scores.exports).
        if options["systems"]:
            # The means from the rows streamed (scoring.scores.exports.system_download's)
            per = options["per"]
            self.stderr.write(f"Each system's mean: {SYSTEM_MEAN_PER[per]}")
            means = streamed_system_means(iter_score_rows(counted_ones, "systems"), per)
            stream = stream_systems_csv if fmt == "csv" else stream_systems_json
            blocks = in_blocks(stream(means, score_conventions(counted_ones), per))
            self._write(blocks, options, means)
            return
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

    def _write(self, blocks, options, items) -> None:
        """The blocks to --out (saying how many `items` were written) or standard output."""
        if options["out"]:
            with Path(options["out"]).open("w", encoding="utf-8") as file:
                file.writelines(blocks)
            what = "system" if options["systems"] else "row"
            self.stderr.write(f"{counted(len(items), what)} written to {options['out']}")
        else:
            for block in blocks:
                self.stdout.write(block, ending="")

    def _coverage(self, collection, options) -> None:
        """The coverage judgments' rows or system means (scoring.coverage.tables), as csv or json;
        the tasks counted said on standard error, as the annotations are."""
        include, docset = options["include_in_progress"], options["docset"]
        tasks = task_counts(collection, docset)
        if include:
            self.stderr.write(
                f"{collection.name}: {counted(tasks.submitted, 'submitted judgment task')} and "
                f"{tasks.in_progress} in progress counted"
            )
        else:
            self.stderr.write(
                f"{collection.name}: {counted(tasks.submitted, 'submitted judgment task')} "
                f"counted; {tasks.in_progress} in progress not counted (--include-in-progress "
                "counts them)"
            )
        rows = score_coverage(collection, docset, include)
        items: list = coverage_system_means(rows) if options["systems"] else rows
        text = COVERAGE_FORMATS[(options["format"], options["systems"])](items, collection.name)
        self._write([text], options, items)
