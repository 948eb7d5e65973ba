"""PeerAnnotation.annotator_name and annotator_label: the one definition of who annotated."""

import pytest

from annotator.models import PeerAnnotation
from scoring.scores.records import score_annotations

pytestmark = pytest.mark.django_db


def test_an_imported_annotation_is_named_by_its_annotator_id(demo):
    annotation = demo["annotations"]["1"]
    assert annotation.annotator_code == "demo"
    assert annotation.annotator_name == annotation.annotator_label == "demo"


def test_an_annotation_made_in_the_app_is_named_by_its_user(demo):
    annotation = PeerAnnotation.objects.create(
        pyramid=demo["pyramid"], peer=demo["annotations"]["1"].peer, annotator=demo["annotator"]
    )
    assert annotation.annotator_name == annotation.annotator_label == "annotator"
    assert str(annotation).endswith("by annotator")


def test_an_annotation_whose_user_was_deleted_has_no_name_but_a_label(demo):
    annotation = PeerAnnotation.objects.create(
        pyramid=demo["pyramid"], peer=demo["annotations"]["1"].peer, annotator=demo["annotator"]
    )
    demo["annotator"].delete()
    annotation.refresh_from_db()
    # Score tables and exports leave the name out (the NIST table drops an empty column)...
    assert annotation.annotator_name == ""
    [row] = score_annotations(PeerAnnotation.objects.filter(pk=annotation.pk))
    assert row.annotator == ""
    # ...pages and reports that must tell annotations apart give its id.
    assert annotation.annotator_label == f"#{annotation.pk}"
    assert str(annotation).endswith("by ?")
