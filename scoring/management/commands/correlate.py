import json
from dataclasses import asdict

from django.core.management.base import CommandError

from annotator.campaigns.models import HumanJudgment
from annotator.management.lookup import collection_and_docset
from scoring.coverage.records import COVERAGE_SCORES
from scoring.judgments.records import judgment_correlations, system_correlation, tune_alpha
from scoring.management.reading import ReadingCommand
from scoring.numbers import DASH, number, p_equals, undefined
from scoring.scores.tables import MEAN_SCORES
from scoring.scores.variants import RECALL_REFERENCES, TAC2008_RECALLS

# The scores that have system means of their own (the scores page's systems view): the pyramid
# scores, then the coverage judgments' (issue 21).
SYSTEM_SCORES = [*MEAN_SCORES, *COVERAGE_SCORES]
JUDGED_SCORES = [
    "modified",
    "original",
    "coverage",
    "comprehensive",
    "power_mean",
    "tac2008",
    *COVERAGE_SCORES,
]


def _cell(result) -> str:
    """ "0.9995 (p=0.0208)"; "1.0000 (p=—)" with too few pairs for a p-value; "—" without a
    coefficient."""
    if result is None or undefined(result[0]):
        return DASH
    coefficient, p = result
    return f"{number(coefficient)} ({p_equals(p)})"


def conventions(collection, options) -> dict:
    """What the scores were computed with: the collection's conventions, the power mean's alpha
    and the TAC 2008 recall (with --tune, alpha is searched)."""
    return {
        "weight": collection.weight_convention,
        "average_rounding": collection.average_rounding,
        "alpha": "tuned" if options["tune"] else options["alpha"],
        "tac2008_recall": options["tac_recall"],
        "tac2008_recall_definition": TAC2008_RECALLS[options["tac_recall"]],
    }


class Command(ReadingCommand):
    help = (
        "Correlate every score (modified, original, coverage, comprehensive, the power-mean "
        "pyramid score at --alpha, the TAC 2008 F-measure with the recall of --tac-recall, and "
        "where the collection has coverage judgments presence, presence_weighted and "
        "see_coverage) with a human judgment imported by import_judgments: Pearson, Spearman and "
        "Kendall with p-values, at the summary and the system level. With --against, two "
        "scores' system means against each other instead (e.g. --score presence --against "
        "modified)."
    )

    def add_arguments(self, parser):
        parser.add_argument("--collection", required=True)
        parser.add_argument("--criterion", default="content responsiveness")
        parser.add_argument(
            "--alpha",
            type=float,
            default=1.0,
            help="the power mean's alpha (default 1: arithmetic)",
        )
        parser.add_argument(
            "--tac-recall",
            choices=sorted(TAC2008_RECALLS),
            default=RECALL_REFERENCES,
            help="the TAC 2008 F-measure's recall: "
            + "; ".join(f"{name}: {text}" for name, text in TAC2008_RECALLS.items())
            + f" (default {RECALL_REFERENCES})",
        )
        parser.add_argument(
            "--score",
            choices=JUDGED_SCORES,
            help="only this score (against the judgment); with --against, the score compared",
        )
        parser.add_argument(
            "--against",
            choices=SYSTEM_SCORES,
            help="correlate --score's system means with this score's, at the system level (the "
            "means of the scores page's systems view), instead of with a judgment",
        )
        parser.add_argument("--format", choices=["table", "json"], default="table")
        parser.add_argument(
            "--tune",
            action="store_true",
            help="tune alpha on a random half of the docsets and report it on the other half "
            "(Maskey & Rosenberg §5)",
        )
        parser.add_argument(
            "--seed", type=int, default=0, help="the split's random seed (with --tune)"
        )
        parser.add_argument(
            "--adjudicated",
            action="store_true",
            help="submitted consensus work in place of its sources (without it, consensus work is "
            "left out, as from every score)",
        )

    def handle(self, *args, **options):
        collection = collection_and_docset(options["collection"])
        if options["against"]:
            self._against(collection, options)
            return
        criteria = sorted(
            set(
                HumanJudgment.objects.filter(summary__docset__collection=collection).values_list(
                    "criterion", flat=True
                )
            )
        )
        if options["criterion"] not in criteria:
            self.stderr.write(
                f"No judgment {options['criterion']!r} in {collection.name} "
                f"(judged: {', '.join(criteria) or 'nothing yet; see import_judgments'})."
            )
            return
        # The table has no room for them, so every format also says its conventions here.
        used = conventions(collection, options)
        self.stderr.write(
            f"{collection.name}: SCU weight = {used['weight']}, X_a rounding = "
            f"{used['average_rounding']}, TAC 2008 recall = {used['tac2008_recall']} "
            f"({used['tac2008_recall_definition']})"
        )
        if options["tune"]:
            self._tune(collection, options, used)
            return
        results = judgment_correlations(
            collection,
            options["criterion"],
            options["alpha"],
            options["tac_recall"],
            options["adjudicated"],
        )
        if options["score"]:
            results = [r for r in results if r.score == options["score"]]
        if options["format"] == "json":
            self.stdout.write(
                json.dumps(
                    {
                        "conventions": used,
                        "results": [
                            {
                                "score": r.score,
                                "level": r.level,
                                "n": r.n,
                                **{
                                    m: None if v is None else {"coefficient": v[0], "p": v[1]}
                                    for m, v in r.results.items()
                                },
                            }
                            for r in results
                        ],
                    },
                    indent=2,
                )
            )
            return
        self.stdout.write("score\tlevel\tn\tpearson\tspearman\tkendall")
        for r in results:
            self.stdout.write(
                "\t".join(
                    [
                        r.score,
                        r.level,
                        str(r.n),
                        *(_cell(r.results[m]) for m in ("pearson", "spearman", "kendall")),
                    ]
                )
            )

    def _against(self, collection, options):
        """--score's system means against --against's: one line of coefficients."""
        score, against = options["score"], options["against"]
        if score not in SYSTEM_SCORES or score == against:
            raise CommandError(
                f"--against compares --score with another score of {', '.join(SYSTEM_SCORES)}"
            )
        used = conventions(collection, options)
        self.stderr.write(
            f"{collection.name}: SCU weight = {used['weight']}, X_a rounding = "
            f"{used['average_rounding']}; system means over the docsets, submitted work only"
        )
        result = system_correlation(collection, score, against, options["adjudicated"])
        if options["format"] == "json":
            self.stdout.write(
                json.dumps(
                    {
                        "conventions": {
                            "weight": used["weight"],
                            "average_rounding": used["average_rounding"],
                        },
                        "results": [
                            {
                                "score": score,
                                "against": against,
                                "level": result.level,
                                "n": result.n,
                                **{
                                    m: None if v is None else {"coefficient": v[0], "p": v[1]}
                                    for m, v in result.results.items()
                                },
                            }
                        ],
                    },
                    indent=2,
                )
            )
            return
        self.stdout.write("score\tagainst\tlevel\tn\tpearson\tspearman\tkendall")
        self.stdout.write(
            "\t".join(
                [
                    score,
                    against,
                    result.level,
                    str(result.n),
                    *(_cell(result.results[m]) for m in ("pearson", "spearman", "kendall")),
                ]
            )
        )

    def _tune(self, collection, options, used):
        try:
            tunings = tune_alpha(
                collection,
                options["criterion"],
                options["seed"],
                tac_recall=options["tac_recall"],
                adjudicated=options["adjudicated"],
            )
        except ValueError as problem:
            raise CommandError(str(problem)) from None
        if options["format"] == "json":
            self.stdout.write(
                json.dumps({"conventions": used, "tunings": [asdict(t) for t in tunings]}, indent=2)
            )
            return
        if tunings:
            self.stdout.write(
                f"tune docsets: {', '.join(tunings[0].tune_docsets)}; test docsets: "
                f"{', '.join(tunings[0].test_docsets)}"
            )
        self.stdout.write(
            "method\tbest alpha\tpower mean (tune)\tpower mean (test)\toriginal (test)\tmodified "
            "(test)\ttac2008 (test)"
        )
        for t in tunings:
            self.stdout.write(
                "\t".join(
                    [
                        t.method,
                        f"{t.alpha:g}",
                        _cell(t.tune),
                        _cell(t.test),
                        *(_cell(t.test_baselines[n]) for n in ("original", "modified", "tac2008")),
                    ]
                )
            )
