from annotator.assist import proposals
from annotator.assist.proposal_evaluation import (
    GRID_MARGINS,
    Evaluation,
    Sweep,
    evaluate,
    sweep,
)
from annotator.management.evaluating import EvaluationCommand
from annotator.peer_annotation.models import PeerAnnotation


class Command(EvaluationCommand):
    help = (
        "How right the proposals to confirm are: every stored peer annotation replayed empty (the "
        "pyramid as its annotator saw it), proposed for, and compared with its stored PSEs (a "
        "proposal is correct when its words overlap a stored PSE of the same SCU); prints the "
        "proposals made, their precision, the recall of the stored SCU matches and milliseconds "
        "per peer. --sweep: a grid of thresholds on alternate docsets, the one chosen, and its "
        "figures on the other docsets."
    )
    model = PeerAnnotation
    docset_path = "pyramid__docset"
    noun = "peer annotation"
    ranker_help = f"default: the proposals' ({proposals.RANKER})"

    def add_arguments(self, parser):
        super().add_arguments(parser)
        parser.add_argument(
            "--min-score",
            type=float,
            help=f"the best SCU's least score (default: the proposals' {proposals.MIN_SCORE})",
        )
        parser.add_argument(
            "--min-margin",
            type=float,
            help=f"its least lead over the second (default: the proposals' {proposals.MIN_MARGIN})",
        )
        parser.add_argument(
            "--sweep",
            action="store_true",
            help="measure a grid of both thresholds on the 1st, 3rd, ... docsets (sorted by "
            "name), choose one, and report it on the 2nd, 4th, ... too",
        )

    def evaluate(self, rows, options):
        if options["sweep"]:
            return sweep(rows, options["ranker"])
        return evaluate(rows, options["ranker"], options["min_score"], options["min_margin"])

    def text(self, result) -> str:
        if isinstance(result, Sweep):
            return sweep_text(result)
        return f"{result.ranker} ranker, {figures(result)}"


def figures(r: Evaluation) -> str:
    return (
        f"MIN_SCORE {r.min_score}, MIN_MARGIN {r.min_margin}: {r.annotations} peer annotation"
        f"{'s' if r.annotations != 1 else ''} of {', '.join(r.docsets) or 'no docset'}\n"
        f"proposals {r.proposals}, correct {r.correct}: precision {r.precision:.3f}; "
        f"stored PSEs with an SCU {r.stored}, found {r.found}: recall {r.recall:.3f}; "
        f"F0.5 {r.f05:.3f}\n"
        f"per peer: median {r.ms_median:.1f} ms, 95th percentile {r.ms_p95:.1f} ms, max "
        f"{r.ms_max:.1f} ms; preparing a pyramid: {r.prepare_ms_mean:.1f} ms (once per version, "
        "cached)"
    )


def sweep_text(s: Sweep) -> str:
    """The grid as precision/recall (proposals) per MIN_SCORE (rows) and MIN_MARGIN (columns); rows
    where nothing is proposed left out."""
    lines = [
        f"{s.ranker} ranker; tuning on {', '.join(s.tuning_docsets)}, held out: "
        f"{', '.join(s.held_out_docsets) or 'none (one docset)'}",
        "precision/recall on the tuning docsets, per MIN_SCORE (rows) and MIN_MARGIN (columns):",
        "score " + "".join(f"{m:>11}" for m in GRID_MARGINS),
    ]
    by_score: dict[float, list[dict[str, float]]] = {}
    for point in s.grid:
        by_score.setdefault(point["min_score"], []).append(point)
    for score, points in by_score.items():
        if not any(p["proposals"] for p in points):
            continue
        cells = "".join(f"{p['precision']:>6.2f}/{p['recall']:.2f}" for p in points)
        lines.append(f"{score:<6}{cells}")
    lines.append(f"chosen: {s.rule}")
    lines.append(f"tuning docsets: {figures(s.tuning)}")
    if s.held_out is not None:
        lines.append(f"held out: {figures(s.held_out)}")
    lines.append(f"all docsets: {figures(s.everything)}")
    return "\n".join(lines)
