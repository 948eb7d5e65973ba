from annotator.assist.evaluation import QUERIES, Evaluation, Split, evaluate, split
from annotator.assist.rankers import default_ranker
from annotator.management.evaluating import EvaluationCommand
from annotator.peer_annotation.models import PeerAnnotation


class Command(EvaluationCommand):
    help = (
        "How well the suggestions find the SCU: every stored PSE with an SCU replayed as the "
        "annotator saw it (its words ranked against all the SCUs of its pyramid); prints top-1, "
        "top-3, top-5, mean reciprocal rank and milliseconds per ranking."
    )
    model = PeerAnnotation
    docset_path = "pyramid__docset"
    noun = "peer annotation"
    ranker_help = "default: the page's (semantic with the extra installed, else lexical)"

    def add_arguments(self, parser):
        super().add_arguments(parser)
        parser.add_argument(
            "--query",
            choices=QUERIES,
            default="span",
            help="span: the PSE's words (what the page ranks); sentence: the sentence around it "
            "(what the page ranked before)",
        )
        parser.add_argument(
            "--split",
            action="store_true",
            help="the figures on alternate docsets apart (sorted by name: the 1st, 3rd, ... as "
            "tuned on, the 2nd, 4th, ... held out)",
        )

    def evaluate(self, rows, options):
        ranker = options["ranker"] or default_ranker()
        if options["split"]:
            return split(rows, ranker, options["query"])
        return evaluate(rows, ranker, options["query"])

    def text(self, result) -> str:
        if isinstance(result, Split):
            lines = [f"tuning docsets {', '.join(result.tuning_docsets)}:", one(result.tuning)]
            if result.held_out is None:
                lines.append("held out: none (one docset)")
            else:
                lines += [
                    f"held-out docsets {', '.join(result.held_out_docsets)}:",
                    one(result.held_out),
                ]
            return "\n".join(lines)
        return one(result)


def one(result: Evaluation) -> str:
    return (
        f"{result.ranker} ranker, {result.query} as query: {result.rankings} PSEs with an SCU "
        f"in {result.pyramids} pyramid{'s' if result.pyramids != 1 else ''}\n"
        f"top-1 {result.top1:.3f}  top-3 {result.top3:.3f}  top-5 {result.top5:.3f}  "
        f"MRR {result.mrr:.3f}\n"
        f"ranking: median {result.ms_median:.2f} ms, 95th percentile {result.ms_p95:.2f} ms, "
        f"max {result.ms_max:.2f} ms; "
        f"preparing a pyramid: {result.prepare_ms_mean:.1f} ms (once per version, cached)"
    )
