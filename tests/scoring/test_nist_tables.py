"""The NIST DUC 2006 / 2007 score tables, reproduced from the stored records (154 of 154 rows)."""

import csv
import io

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from annotator.models import Collection
from scoring.scores.records import score_collection
from tests.helpers import NIST_TABLES as TABLES
from tests.helpers import import_files, nist_rows, run

pytestmark = [pytest.mark.django_db, pytest.mark.shared_data]


@pytest.fixture
def duc_collections(shared_data):
    for folder in TABLES:
        import_files(shared_data / folder, collection=folder)


def test_every_row_of_the_three_nist_tables_is_reproduced(shared_data, duc_collections):
    checked = 0
    for folder in TABLES:
        expected = nist_rows(shared_data, folder)
        out, _ = run("export_scores", collection=folder, format="duc")
        for line in out.splitlines():
            setid, peer, score, num_scus, repetitions, *annotator = line.split("\t")
            key = (setid, peer, annotator[0] if annotator else "")
            assert (score, int(num_scus), int(repetitions)) == expected[key], (folder, line)
            checked += 1
    assert checked == 154


def test_edge_cases_named_in_the_readmes(duc_collections):
    update = {
        (r.docset, r.peer): r.scores
        for r in score_collection(Collection.objects.get(name="duc2007-update-nist"))
    }
    assert f"{update[('D0736-C', '46')].modified:.4f}" == "1.0769"  # above 1: not capped
    assert update[("D0736-C", "46")].coverage == 1.0  # DUCView 1.5's coverage is
    duc2006 = score_collection(Collection.objects.get(name="duc2006-nist"), docset="D0640")
    assert {r.scores.average_scu_count for r in duc2006} == {39}  # 154 / 4 = 38.5 -> 39
    main = {
        r.peer: r.scores for r in score_collection(Collection.objects.get(name="duc2007-main-nist"))
    }
    assert (main["9"].unique_scus, main["9"].repetitions, main["9"].non_matching) == (8, 1, 10)
    assert f"{main['9'].original:.4f}" == "0.2963"  # DUCView original score, X = 19


def test_the_rounding_convention_changes_x_a(duc_collections):
    collection = Collection.objects.get(name="duc2006-nist")
    collection.average_rounding = "floor"
    collection.save()
    rows = score_collection(collection, docset="D0640")
    assert {r.scores.average_scu_count for r in rows} == {38}
    assert all(r.average_rounding == "floor" for r in rows)


def test_the_models_weight_convention_counts_distinct_models(duc_collections):
    collection = Collection.objects.get(name="duc2006-nist")
    contributors = {(r.docset, r.peer, r.annotator): r.scores for r in score_collection(collection)}
    collection.weight_convention = "models"
    collection.save()
    models = {(r.docset, r.peer, r.annotator): r.scores for r in score_collection(collection)}
    # D0631 SCU 237 has a contributor with parts in two models: weights can only shrink.
    assert all(models[k].raw_score <= contributors[k].raw_score for k in models)
    assert models.keys() == contributors.keys()


def test_scoring_queries_do_not_grow_with_the_number_of_peers(shared_data, duc_collections):
    small = Collection.objects.get(name="duc2007-main-nist")  # 13 peer annotations
    large = Collection.objects.get(name="duc2006-nist")  # 69 peer annotations
    with CaptureQueriesContext(connection) as few:
        assert len(score_collection(small)) == 13
    with CaptureQueriesContext(connection) as many:
        assert len(score_collection(large)) == 69
    assert len(few) == len(many) <= 5


def test_export_scores_csv_and_json_carry_the_conventions(duc_collections):
    out, _ = run("export_scores", collection="duc2007-update-nist", format="csv", docset="D0736-C")
    rows = list(csv.DictReader(io.StringIO(out)))
    assert len(rows) == 24
    assert {r["average_rounding"] for r in rows} == {"half_up"}
    row = next(r for r in rows if r["peer"] == "46")
    assert (row["modified"], row["unique_scus"], row["annotator"]) == ("1.0769", "7", "H")
