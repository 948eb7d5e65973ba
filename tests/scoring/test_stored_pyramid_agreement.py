"""Pyramid agreement kept per docset (scoring.models.StoredPyramidAgreement, issue 32): computed
again only where a docset's pyramids or their models changed, and equal to a fresh computation."""

import math
import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from annotator.models import Docset, Pyramid, PyramidModel, Summary
from annotator.pyramids import editing
from scoring.agreement.records import PYRAMID_DISTANCES, pyramid_agreement
from scoring.models import StoredPyramidAgreement

pytestmark = pytest.mark.django_db


@pytest.fixture
def two_docsets(pair):
    """The demo docset with its three pyramids (the demo's and `pair`'s two, in progress), and a
    second docset whose two submitted pyramids are empty: no unit, so no alpha."""
    demo = pair["demo"]
    docset = Docset.objects.create(collection=demo["collection"], name="DEMO02")
    models = [
        Summary.objects.create(docset=docset, kind="model", author=a, text=f"Model {a} text.")
        for a in "AB"
    ]
    for name in ("DEMO02-x", "DEMO02-y"):
        pyramid = Pyramid.objects.create(docset=docset, name=name, status="submitted")
        for position, model in enumerate(models):
            PyramidModel.objects.create(pyramid=pyramid, summary=model, position=position)
    return {**pair, "collection": demo["collection"]}


def agreement(collection):
    results, skipped = pyramid_agreement(collection, include_in_progress=True)
    return [(r.docset, r.pyramids, r.units, r.alpha) for r in results], skipped


def spans_read(queries) -> list[str]:
    return [q["sql"] for q in queries if 'FROM "annotator_span"' in q["sql"]]


def same(first, second) -> bool:
    """Equal results, NaN equal to NaN."""
    return [(d, p, u, {k: str(v) for k, v in a.items()}) for d, p, u, a in first] == [
        (d, p, u, {k: str(v) for k, v in a.items()}) for d, p, u, a in second
    ]


def test_a_second_run_reads_no_contributor_and_gives_the_same_values(two_docsets):
    first = agreement(two_docsets["collection"])
    assert [docset for docset, *_ in first[0]] == ["DEMO01", "DEMO02"]
    assert StoredPyramidAgreement.objects.count() == 2
    with CaptureQueriesContext(connection) as queries:
        second = agreement(two_docsets["collection"])
    assert spans_read(queries) == []
    assert same(first[0], second[0])
    assert second[1] == first[1]
    # The alphas in the distances' order, as computed (a stored JSON object keeps no order).
    assert [list(alphas) for *_, alphas in second[0]] == [list(PYRAMID_DISTANCES)] * 2
    # No unit in DEMO02: its alphas are undefined, stored as null, given back as NaN.
    assert all(math.isnan(value) for value in second[0][1][3].values())
    assert set(StoredPyramidAgreement.objects.get(docset__name="DEMO02").alphas.values()) == {None}


def test_an_edited_pyramid_recomputes_its_docset_only(two_docsets):
    first = agreement(two_docsets["collection"])
    other = StoredPyramidAgreement.objects.get(docset__name="DEMO02")
    b = Pyramid.objects.get(pk=two_docsets["b"].pk)
    builder = two_docsets["demo"]["other_annotator"]  # who built B
    editing.remove_scu(b.pk, builder, b.version, 4)  # B's SCU of the rock samples
    with CaptureQueriesContext(connection) as queries:
        edited = agreement(two_docsets["collection"])
    (read,) = spans_read(queries)
    ids = {int(i) for i in re.search(r'"pyramid_id" IN \(([\d, ]+)\)', read)[1].split(", ")}
    assert ids == set(Pyramid.objects.filter(docset__name="DEMO01").values_list("pk", flat=True))
    assert other.computed_at == StoredPyramidAgreement.objects.get(pk=other.pk).computed_at
    assert edited[0][0][3] != first[0][0][3]  # DEMO01's alphas changed
    # Equal to what a computation from nothing stored gives.
    StoredPyramidAgreement.objects.all().delete()
    assert same(edited[0], agreement(two_docsets["collection"])[0])


def test_a_mended_model_text_recomputes_the_docset(two_docsets):
    agreement(two_docsets["collection"])
    model = Summary.objects.get(docset__name="DEMO02", author="A")
    model.text = "Model A text!"  # same length: as an import mends a stored copy
    model.save(update_fields=["text"])
    with CaptureQueriesContext(connection) as queries:
        agreement(two_docsets["collection"])
    assert len(spans_read(queries)) == 1


def test_pyramids_of_different_models_are_skipped_and_stay_so(two_docsets):
    other = Summary.objects.create(
        docset=Docset.objects.get(name="DEMO02"), kind="model", author="C", text="Another."
    )
    PyramidModel.objects.filter(pyramid__name="DEMO02-y", position=1).update(summary=other)
    _, skipped = agreement(two_docsets["collection"])
    message = (
        "DEMO02: its pyramids are not built from the same model summaries (their words differ)"
    )
    assert skipped == [message]
    with CaptureQueriesContext(connection) as queries:
        results, skipped = agreement(two_docsets["collection"])
    assert spans_read(queries) == []
    assert skipped == [message]
    assert [docset for docset, *_ in results] == ["DEMO01"]


def test_the_task_an_import_queues_keeps_the_agreement_for_the_next_run(two_docsets):
    """After an import a task computes and keeps the agreement (scoring.apps), so that the next
    run of `agreement --kind pyramids` reads it; a collection deleted meanwhile is nothing."""
    from scoring.agreement.records import keep_pyramid_agreement

    collection = two_docsets["collection"]
    # The demo docset's pyramids in progress are not compared by default: DEMO02's two are.
    assert keep_pyramid_agreement.call(collection.pk) == 1
    with CaptureQueriesContext(connection) as queries:
        results, _ = pyramid_agreement(collection)
    assert spans_read(queries) == []
    assert [result.docset for result in results] == ["DEMO02"]
    # And with the other choices of what counts: the demo's pyramids in progress compared too.
    for adjudicated in (False, True):
        with CaptureQueriesContext(connection) as queries:
            results, _ = pyramid_agreement(
                collection, adjudicated=adjudicated, include_in_progress=True
            )
        assert spans_read(queries) == []
        assert [result.docset for result in results] == ["DEMO01", "DEMO02"]
    assert keep_pyramid_agreement.call(10**9) == 0
