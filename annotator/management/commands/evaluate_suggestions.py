import json

from django.core.management.base import BaseCommand, CommandError

from annotator.assist.evaluation import QUERIES, evaluate
from annotator.assist.rankers import RANKERS, default_ranker
from annotator.models import Collection, PeerAnnotation


class Command(BaseCommand):
    help = (
        "How well the suggestions find the SCU: every stored PSE with an SCU replayed as the "
        "annotator saw it (its words ranked against all the SCUs of its pyramid); prints top-1, "
        "top-3, top-5, mean reciprocal rank and milliseconds per ranking."
    )

    def add_arguments(self, parser):
        parser.add_argument("--collection", required=True, help='e.g. "DUC 2006"')
        parser.add_argument("--docset", help="one docset only, e.g. D0601")
        parser.add_argument(
            "--ranker",
            choices=RANKERS,
            help="default: the page's (semantic with the extra installed, else lexical)",
        )
        parser.add_argument(
            "--query",
            choices=QUERIES,
            default="span",
            help="span: the PSE's words (what the page ranks); sentence: the sentence around it "
            "(what the page ranked before)",
        )
        parser.add_argument("--format", choices=("text", "json"), default="text")

    def handle(self, *args, **options):
        collection = Collection.objects.filter(name=options["collection"]).first()
        if collection is None:
            raise CommandError(f"no collection {options['collection']!r}")
        annotations = PeerAnnotation.objects.filter(pyramid__docset__collection=collection)
        if options["docset"]:
            annotations = annotations.filter(pyramid__docset__name=options["docset"])
            if not annotations.exists():
                raise CommandError(f"no peer annotation of docset {options['docset']!r}")
        try:
            result = evaluate(annotations, options["ranker"] or default_ranker(), options["query"])
        except ImportError as error:
            raise CommandError(str(error)) from None
        if options["format"] == "json":
            self.stdout.write(json.dumps(result.as_dict(), indent=2))
            return
        self.stdout.write(
            f"{result.ranker} ranker, {result.query} as query: {result.rankings} PSEs with an SCU "
            f"in {result.pyramids} pyramid{'s' if result.pyramids != 1 else ''}\n"
            f"top-1 {result.top1:.3f}  top-3 {result.top3:.3f}  top-5 {result.top5:.3f}  "
            f"MRR {result.mrr:.3f}\n"
            f"ranking: median {result.ms_median:.2f} ms, 95th percentile {result.ms_p95:.2f} ms, "
            f"max {result.ms_max:.2f} ms; "
            f"preparing a pyramid: {result.prepare_ms_mean:.1f} ms (once per version, cached)"
        )
