import json
import math
from dataclasses import asdict
from statistics import fmean

from django.core.management.base import CommandError

from annotator.management.lookup import collection_and_docset
from scoring.coverage.records import COVERAGE_SCORES, score_coverage, system_mean
from scoring.management.reading import ReadingCommand
from scoring.numbers import json_ready, number, p_value
from scoring.scores.records import collection_annotations, counted_annotations
from scoring.scores.score_table import current_stored_rows
from scoring.scores.tables import PER_ANNOTATION, PER_DOCSET, SYSTEM_MEAN_PER
from scoring.statistics.ranking import rank_systems, what_is_observed

# The pyramid scores, then the coverage judgments' (issue 21: scoring.coverage.records).
SCORES = ["modified", "original", "coverage", "comprehensive", *COVERAGE_SCORES]


class Command(ReadingCommand):
    help = (
        "Compare the systems of a collection (Passonneau 2009 §4.2, §5.2): each system's mean "
        "score, the ANOVA with the system as the factor, Tukey's HSD with the significantly "
        "distinct groups (as the paper's Tables 7-9), and the number of docsets the ANOVA power "
        "test asks for."
    )

    def add_arguments(self, parser):
        parser.add_argument("--collection", required=True)
        parser.add_argument("--score", choices=SCORES, default="modified")
        parser.add_argument("--format", choices=["table", "json"], default="table")
        parser.add_argument(
            "--docset-factor",
            action="store_true",
            help="the docset as a second factor of the ANOVA",
        )
        parser.add_argument(
            "--significance", type=float, default=0.05, help="Tukey's HSD level (default 0.05)"
        )
        parser.add_argument(
            "--power", type=float, default=0.99, help="the power test's power (default 0.99)"
        )
        parser.add_argument(
            "--power-level",
            type=float,
            default=0.01,
            help="the power test's significance (default 0.01)",
        )
        parser.add_argument(
            "--pairwise-p-values",
            action="store_true",
            help="each pair of systems with its Tukey-adjusted p-value (one integration of the "
            "studentized range per pair: seconds with many systems; the groups need none)",
        )
        parser.add_argument(
            "--per",
            choices=SYSTEM_MEAN_PER,
            default=PER_DOCSET,
            help="one observation per system and docset (default: a docset annotated twice is "
            "averaged first, as every system mean here), or per annotation (it counts twice, as "
            "Passonneau 2009 Tables 6-9 count D0631); coverage judgments: each judged row",
        )
        parser.add_argument(
            "--adjudicated",
            action="store_true",
            help="where there is adjudicated work, only it (as export_scores --adjudicated)",
        )

    def handle(self, *args, **options):
        collection = collection_and_docset(options["collection"])
        try:
            # The mean scores alone, as stored and kept current (issue 19: at 50x a DUC year,
            # 0.2 s where scoring the collection afresh took 6 s); the same values in the same
            # order as scoring.scores.records.score_collection's rows.
            per = options["per"]
            if options["score"] in COVERAGE_SCORES:
                # A peer's score against each unit set it was judged on, from submitted tasks:
                # each row an observation, the means as published (scoring.coverage.records).
                rows: list = score_coverage(collection)
                per = PER_ANNOTATION
            else:
                rows = current_stored_rows(
                    counted_annotations(collection_annotations(collection), options["adjudicated"]),
                    in_table_order=True,
                )
            ranking = rank_systems(
                rows,
                options["score"],
                options["docset_factor"],
                options["significance"],
                options["power"],
                options["power_level"],
                p_values=options["pairwise_p_values"],
                mean=system_mean if options["score"] in COVERAGE_SCORES else fmean,
                per=per,
            )
        except ValueError as problem:
            raise CommandError(str(problem)) from None
        if options["format"] == "json":
            self.stdout.write(
                json.dumps(json_ready(asdict(ranking)), indent=2)
            )  # NaN (undefined) and p-values not asked for: null
            return
        write = self.stdout.write
        write(f"# {what_is_observed(ranking.per, options['score'] in COVERAGE_SCORES)}")
        write(f"system\tobservations\tmean {ranking.score}")
        for system, n, mean in ranking.means:
            write(f"{system}\t{n}\t{mean:.4f}")
        a = ranking.anova
        write("")
        write(
            f"ANOVA, system as factor{' (and docset)' if options['docset_factor'] else ''}: "
            f"F({a.df_factor}, {a.df_residual}) = {number(a.f)}, p = {p_value(a.p)}"
        )
        if math.isnan(ranking.hsd):
            write("Tukey's HSD: — (one score per system: no error term to test with)")
        else:
            write(f"Tukey's HSD ({options['significance']}): {ranking.hsd:.4f}")
        write("peers\tmean\tbetter than\tmean")
        for group in ranking.groups:
            write(
                f"{', '.join(group.better)}\t{group.better_mean:.4f}\t"
                f"{', '.join(group.worse)}\t{group.worse_mean:.4f}"
            )
        if not ranking.groups:
            write("(no two systems differ significantly)")
        if options["pairwise_p_values"] and ranking.pairs:
            write("")
            write("better\tworse\tdifference\tp (Tukey)\tsignificant")
            for pair in ranking.pairs:
                write(
                    f"{pair.better}\t{pair.worse}\t{pair.difference:.4f}\t{p_value(pair.p)}\t"
                    f"{'yes' if pair.significant else 'no'}"
                )
        # what the power test counts: observations per system, docsets or annotations
        unit = "judged row" if options["score"] in COVERAGE_SCORES else ranking.per
        if ranking.docsets_needed is not None:
            write("")
            write(
                f"Power test (power {options['power']}, level {options['power_level']}): "
                f"{ranking.docsets_needed:.2f} {unit}s per system (between-group variance "
                f"{a.between_var:.4f}, within-group variance {a.within_var:.4f})"
            )
