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


def empty_pyramid(demo, name="new", assign_to="outsider"):
    """A pyramid in progress over the demo's four models, with no SCU, assigned to a demo user."""
    from annotator.models import Assignment, Pyramid, PyramidModel

    source = demo["pyramid"]
    pyramid = Pyramid.objects.create(docset=source.docset, name=name, status=Pyramid.Status.IN_PROGRESS)
    PyramidModel.objects.bulk_create(
        PyramidModel(pyramid=pyramid, summary_id=link.summary_id, position=link.position)
        for link in source.model_links.all()
    )
    Assignment.objects.create(user=demo[assign_to], task="pyramid", pyramid=pyramid)
    return pyramid
