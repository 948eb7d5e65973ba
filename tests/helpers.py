"""Small helpers shared by the database tests."""

from io import StringIO

from django.core.management import call_command

from annotator.models import PSE, SCU, Collection, Contributor, Docset, PeerAnnotation, PSESpan, Pyramid, Span, Summary

RECORD_MODELS = [Collection, Docset, Summary, Pyramid, SCU, Contributor, Span, PeerAnnotation, PSE, PSESpan]


def record_counts() -> dict[str, int]:
    return {model.__name__: model.objects.count() for model in RECORD_MODELS}


def run(command: str, *args, **options) -> tuple[str, str]:
    """Run a management command; return what it wrote to stdout and stderr."""
    out, err = StringIO(), StringIO()
    call_command(command, *args, stdout=out, stderr=err, **options)
    return out.getvalue(), err.getvalue()


def import_files(*paths, collection="Test", **options) -> str:
    out, _ = run("import_ducview", *[str(p) for p in paths], collection=collection, no_progress=True, **options)
    return out
