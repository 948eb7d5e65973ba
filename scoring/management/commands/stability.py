import json
import math
from dataclasses import asdict

from django.core.management.base import CommandError

from annotator.management.lookup import collection_and_docset
from annotator.pyramids.models import Pyramid
from annotator.text.plurals import counted
from scoring.management.reading import ReadingCommand
from scoring.stability.records import pyramid_stability


def _n(value) -> str:
    return (
        "—" if value is None or (isinstance(value, float) and math.isnan(value)) else f"{value:.4f}"
    )


class Command(ReadingCommand):
    help = (
        "Pyramid size and stability (Nenkova & Passonneau 2004 §3.3) for a docset's pyramid: every "
        "sub-pyramid of n models, each peer's min/mean/max score per order, the mean Spearman "
        "correlation with the full pyramid's ranking (Table 4), the error probabilities p1, p2, "
        "p3, p (Table 3, threshold 0.06), the optimal summaries it predicts (Fig. 2), and TAC's "
        "jackknifed scores of the peers and of the model summaries."
    )

    def add_arguments(self, parser):
        parser.add_argument("--collection", required=True)
        parser.add_argument("--docset", required=True)
        parser.add_argument("--pyramid", help="the pyramid's name, if the docset has several")
        parser.add_argument("--score", choices=["modified", "original"], default="modified")
        parser.add_argument("--format", choices=["table", "json"], default="table")
        parser.add_argument(
            "--adjudicated",
            action="store_true",
            help="a peer's complete consensus annotation in place of its sources (without it, "
            "consensus annotations are left out, as from every score)",
        )

    def handle(self, *args, **options):
        collection = collection_and_docset(options["collection"], options["docset"])
        pyramids = Pyramid.objects.filter(
            docset__collection=collection, docset__name=options["docset"]
        ).select_related("docset__collection")
        if options["pyramid"]:
            pyramids = pyramids.filter(name=options["pyramid"])
        if pyramids.count() != 1:
            names = ", ".join(pyramids.values_list("name", flat=True)) or "none"
            raise CommandError(f"name one pyramid with --pyramid (found: {names})")
        pyramid = pyramids.get()
        if pyramid.status == Pyramid.Status.IN_PROGRESS:
            self.stderr.write(
                f"The pyramid {pyramid.name} is still in progress: its SCUs may change, and what "
                "it predicts with them."
            )
        result = pyramid_stability(pyramid, options["score"], options["adjudicated"])
        if options["format"] == "json":
            document = asdict(result)
            for order in document["orders"]:
                order["scores"] = {str(k): v for k, v in order["scores"].items()}
            self.stdout.write(json.dumps(document, indent=2, default=lambda v: None))
            return
        write = self.stdout.write
        write(
            f"pyramid {result.pyramid}: models {', '.join(result.models)}; X_a = "
            f"{result.average_scu_count:g}, "
            f"{counted(result.optimal_summaries, 'optimal summary', 'optimal summaries')} of that "
            "size"
        )
        write("order\tpyramids\tmean spearman\tp1\tp2\tp3\tp\tdata points")
        errors = {e.order: e for e in result.errors}
        for order in result.orders:
            e = errors.get(order.order)
            write(
                "\t".join(
                    [
                        str(order.order),
                        str(order.pyramids),
                        _n(order.spearman),
                        *(
                            (_n(e.p1), _n(e.p2), _n(e.p3), _n(e.p), str(e.data_points))
                            if e
                            else ("",) * 5
                        ),
                    ]
                )
            )
        write("")
        write("peer\tjackknifed score")
        for peer, value in sorted(
            result.jackknifed_peers.items(), key=lambda item: -(item[1] or 0)
        ):
            write(f"{peer}\t{_n(value)}")
        write("model\tagainst the other models")
        for model, value in result.jackknifed_models.items():
            write(f"{model}\t{_n(value)}")
