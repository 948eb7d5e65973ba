import json
from dataclasses import asdict

from annotator.coverage.models import JudgmentTask
from annotator.management.lookup import collection_and_docset
from annotator.text.plurals import counted
from scoring.coverage.analysis import analyses
from scoring.coverage.records import collection_tasks, counted_tasks
from scoring.management.reading import ReadingCommand
from scoring.numbers import json_ready, number, p_value


class Command(ReadingCommand):
    help = (
        "Agreement and variation in coverage judgments (issue 21): Krippendorff's alpha over the "
        "judges per method (nominal for presence, interval for SEE), the average absolute "
        "coverage difference per docset between models and between judges (Harman & Over 2004 "
        "Figs. 3, 6, 9), Pearson's r of system means between judgment sets (Figs. 5, 7, 10) and "
        "the ANOVA with judge, system and docset and their two-way interactions (Table 1)."
    )

    def add_arguments(self, parser):
        parser.add_argument("--collection", required=True)
        parser.add_argument("--docset", help="only this docset")
        parser.add_argument("--format", choices=["table", "json"], default="table")
        parser.add_argument(
            "--include-in-progress",
            action="store_true",
            help="count judgment tasks still in progress too; without it, submitted tasks only, "
            "as in every score",
        )

    def handle(self, *args, **options):
        collection = collection_and_docset(options["collection"], options["docset"])
        every = collection_tasks(collection, options["docset"])
        include = options["include_in_progress"]
        # The same tasks the scores and the report "coverage" count (scoring.coverage.records).
        found = analyses(counted_tasks(every, include))
        left_out = 0 if include else every.exclude(status=JudgmentTask.Status.SUBMITTED).count()
        if options["format"] == "json":
            document = {
                "agreement": [asdict(a) for a in found["agreement"]],
                **{
                    f"differences_between_{between}": {
                        docset: asdict(d)
                        for docset, d in sorted(found[f"differences_between_{between}"].items())
                    }
                    for between in ("models", "judges")
                },
                "correlations_between_models": [
                    asdict(c) for c in found["correlations_between_models"]
                ],
                "correlations_between_judges": [
                    asdict(c) for c in found["correlations_between_judges"]
                ],
                "anova": [asdict(row) for row in found["anova"]],
                "tasks_in_progress_left_out": left_out,
            }
            self.stdout.write(json.dumps(json_ready(document), indent=2))
            return
        self._table(found)
        if left_out:
            self.stderr.write(
                f"{counted(left_out, 'judgment task')} in progress left out "
                "(--include-in-progress counts them)"
            )

    def _table(self, found: dict) -> None:
        write = self.stdout.write
        write("method\tmetric\talpha\titems judged twice or more\tjudges")
        for a in found["agreement"]:
            write(f"{a.method}\t{a.metric}\t{number(a.alpha)}\t{a.items}\t{a.judges}")
        if not found["agreement"]:
            self.stderr.write("No judgment task to compare.")
            return
        write("")
        write("between\tdocset\tpeers\taverage difference\tshare of the highest")
        differences = [
            (between, docset, d)
            for between in ("models", "judges")
            for docset, d in sorted(found[f"differences_between_{between}"].items())
        ]
        for between, docset, d in differences:
            write(f"{between}\t{docset}\t{d.peers}\t{number(d.average)}\t{number(d.relative)}")
        if not differences:
            write("(no peer has two SEE coverages to compare)")
        write("")
        write("sets\tfirst\tsecond\tsystems\tpearson_r\tp")
        correlations = [
            (grouping, c)
            for grouping, key in (("unit set", "models"), ("judge", "judges"))
            for c in found[f"correlations_between_{key}"]
        ]
        for grouping, c in correlations:
            write(f"{grouping}\t{c.first}\t{c.second}\t{c.systems}\t{number(c.r)}\t{p_value(c.p)}")
        if not correlations:
            write("(fewer than two judgment sets of SEE coverage)")
        write("")
        write("ANOVA: coverage = judge + system + docset + two-way interactions")
        write("source\tdf\tSS\tMS\tF\tp")
        for row in found["anova"]:
            # The residual has no F and no p: blank, as in Harman & Over's Table 1.
            f = "" if row.source == "resid" else number(row.f)
            p = "" if row.source == "resid" else p_value(row.p)
            write(f"{row.source}\t{row.df}\t{number(row.ss)}\t{number(row.ms)}\t{f}\t{p}")
        if not found["anova"]:
            write("(too few SEE judgments to leave a residual to test against)")
