"""python manage.py stability: a stored pyramid's sub-pyramids, error probabilities and
jackknife."""

import json

import pytest
from django.core.management.base import CommandError

from tests.helpers import import_files, run

pytestmark = pytest.mark.django_db


@pytest.mark.shared_data
def test_d0601_by_pyramid_order(shared_data):
    folder = shared_data / "duc2006-nist"
    import_files(
        folder / "allpyramids/D0601.pyr",
        *sorted((folder / "allpans").glob("*.D0601.*.pan")),
        collection="DUC 2006",
    )
    document = json.loads(run("stability", collection="DUC 2006", docset="D0601", format="json")[0])
    assert len(document["models"]) == 4
    assert document["average_scu_count"] > 0
    assert [o["pyramids"] for o in document["orders"]] == [4, 6, 4, 1]
    assert document["orders"][-1]["spearman"] == pytest.approx(1.0)
    assert [e["order"] for e in document["errors"]] == [1, 2, 3]
    # The full pyramid's modified score of peer 10 is NIST's 0.2644 (the min, mean and max of one).
    low, mean, high = document["orders"][-1]["scores"]["10"]
    assert round(mean, 4) == 0.2644
    assert low == high == mean
    assert len(document["jackknifed_peers"]) == 22
    assert len(document["jackknifed_models"]) == 4
    table, _ = run("stability", collection="DUC 2006", docset="D0601")
    assert table.splitlines()[1] == "order\tpyramids\tmean spearman\tp1\tp2\tp3\tp\tdata points"


def test_the_pyramid_must_be_named_when_there_are_several(demo):
    from annotator.models import Pyramid

    Pyramid.objects.create(docset=demo["pyramid"].docset, name="second")
    with pytest.raises(CommandError, match="name one pyramid with --pyramid"):
        run("stability", collection=demo["collection"].name, docset="DEMO01")
    out, _ = run("stability", collection=demo["collection"].name, docset="DEMO01", pyramid="DEMO01")
    assert out.startswith("pyramid DEMO01: models ")


def test_a_fractional_x_a(demo):
    """X_a left fractional (PyrEval v2): 25 / 4 = 6.25 in the table and the JSON, the optimal
    summaries counted for 7 SCUs (6 whole and a share of one more), every sub-pyramid scored."""
    demo["collection"].average_rounding = "fractional"
    demo["collection"].save()
    out, _ = run("stability", collection=demo["collection"].name, docset="DEMO01")
    assert "X_a = 6.25, " in out.splitlines()[0]
    document = json.loads(
        run("stability", collection=demo["collection"].name, docset="DEMO01", format="json")[0]
    )
    assert document["average_scu_count"] == 6.25
    assert document["optimal_summaries"] >= 1
    assert all(value is not None for value in document["jackknifed_peers"].values())


def test_a_pyramid_in_progress_is_said_to_be_and_counts_come_in_words(demo):
    """Issue 17: "1 optimal summaries"; and nothing said of a pyramid still being built."""
    from tests.helpers import empty_pyramid

    empty_pyramid(demo, name="second", assign_to="annotator")
    out, err = run(
        "stability", collection=demo["collection"].name, docset="DEMO01", pyramid="second"
    )
    assert "1 optimal summary of that size" in out.splitlines()[0]
    assert "The pyramid second is still in progress" in err
    _, err = run("stability", collection=demo["collection"].name, docset="DEMO01", pyramid="DEMO01")
    assert err == ""
