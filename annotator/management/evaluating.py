"""What `evaluate_suggestions` and `evaluate_builder_help` share: their options (--collection,
--docset, --ranker, --format), the lookup of what they replay, and the JSON output."""

import json
from typing import Any

from django.core.management.base import BaseCommand, CommandError
from django.db.models import Model, QuerySet

from annotator.assist.rankers import RANKERS
from annotator.campaigns.models import Collection


class EvaluationCommand(BaseCommand):
    """A command replaying `model`'s rows of a collection (or of one docset of it) with a ranker.

    A subclass names the rows (`model`, `docset_path`: the lookup from a row to its docset,
    `noun`: what the docset error calls a row, `ranker_help`) and says how to evaluate them and
    how to print the result as text; the result's `as_dict()` is the JSON output."""

    model: type[Model]
    docset_path: str  # e.g. "docset" for a pyramid, "pyramid__docset" for a peer annotation
    noun: str  # e.g. "pyramid": "no pyramid of docset 'D0601'"
    ranker_help: str

    def add_arguments(self, parser):
        parser.add_argument("--collection", required=True, help='e.g. "DUC 2006"')
        parser.add_argument("--docset", help="one docset only, e.g. D0601")
        parser.add_argument("--ranker", choices=RANKERS, help=self.ranker_help)
        parser.add_argument("--format", choices=("text", "json"), default="text")

    def handle(self, *args, **options):
        collection = Collection.objects.filter(name=options["collection"]).first()
        if collection is None:
            raise CommandError(f"no collection {options['collection']!r}")
        rows = self.model._default_manager.filter(**{f"{self.docset_path}__collection": collection})
        if options["docset"]:
            rows = rows.filter(**{f"{self.docset_path}__name": options["docset"]})
            if not rows.exists():
                raise CommandError(f"no {self.noun} of docset {options['docset']!r}")
        try:
            result = self.evaluate(rows, options)
        except ImportError as error:  # a ranker's extra not installed
            raise CommandError(str(error)) from None
        if options["format"] == "json":
            self.stdout.write(json.dumps(result.as_dict(), indent=2))
        else:
            self.stdout.write(self.text(result))

    def evaluate(self, rows: QuerySet, options: dict[str, Any]) -> Any:
        raise NotImplementedError

    def text(self, result: Any) -> str:
        raise NotImplementedError
