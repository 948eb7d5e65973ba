from annotator.assist.builder_evaluation import evaluate
from annotator.assist.builder_help import RANKER
from annotator.management.evaluating import EvaluationCommand
from annotator.pyramids.models import Pyramid


class Command(EvaluationCommand):
    help = (
        "How well the pyramid builder's help finds a model's contributor: one contributor of each "
        "SCU with at least two held out, the phrases of its model ranked for the SCU; prints "
        "top-1, top-3, the first suggestion's word precision and recall, the SCUs evaluated and "
        "milliseconds per help."
    )
    model = Pyramid
    docset_path = "docset"
    noun = "pyramid"
    ranker_help = f"default: the page's ({RANKER})"

    def evaluate(self, rows, options):
        return evaluate(rows, options["ranker"])

    def text(self, result) -> str:
        return (
            f"{result.ranker} ranker: {result.scus} SCUs with a contributor held out in "
            f"{result.pyramids} pyramid{'s' if result.pyramids != 1 else ''}\n"
            f"top-1 {result.top1:.3f}  top-3 {result.top3:.3f}  "
            f"first suggestion's words: precision {result.word_precision:.3f}, "
            f"recall {result.word_recall:.3f}\n"
            f"help for one SCU: median {result.ms_median:.2f} ms, 95th percentile "
            f"{result.ms_p95:.2f} ms, max {result.ms_max:.2f} ms; "
            f"preparing a pyramid's phrases: {result.prepare_ms_mean:.1f} ms (once per version, "
            "cached)"
        )
