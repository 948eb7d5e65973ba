"""python manage.py correlate: scores against human judgments, at the summary and the system level."""

import json

import pytest
from scipy import stats

from .helpers import import_files, run

pytestmark = pytest.mark.django_db


@pytest.mark.shared_data
def test_duc_2006_scores_against_content_responsiveness(shared_data):
    folder = shared_data / "duc2006-nist"
    import_files(*sorted((folder / "allpans").glob("*.pan")), collection="DUC 2006")
    table = folder / "scoring/2006_modified_scores.txt"
    run("import_judgments", str(table), collection="DUC 2006")
    document = json.loads(run("correlate", collection="DUC 2006", format="json")[0])
    modified = next(r for r in document if r["score"] == "modified" and r["level"] == "summary")
    # The same numbers straight from NIST's table, for the 47 peer summaries stored here (D0631's
    # two annotations averaged): NIST's modified scores against its content column.
    rows = [line.split("\t") for line in table.read_text().splitlines()]
    stored = {"D0601", "D0631"} | {("D0640", p) for p in ("1", "10", "14")}
    points = {}
    for row in rows:
        key = (row[0], str(int(row[1])))
        if row[0] in stored or key in stored:
            points.setdefault(key, ([], float(row[12])))[0].append(float(row[2]))
    x = [sum(s) / len(s) for s, _ in points.values()]
    y = [c for _, c in points.values()]
    assert modified["n"] == len(points) == 47
    assert modified["pearson"]["coefficient"] == pytest.approx(stats.pearsonr(x, y)[0], abs=1e-3)
    assert modified["kendall"]["coefficient"] == pytest.approx(stats.kendalltau(x, y)[0], abs=1e-3)
    levels = {(r["score"], r["level"]) for r in document}
    assert ("power_mean", "system") in levels and ("tac2008", "summary") in levels
    out, _ = run("correlate", collection="DUC 2006", alpha=0.5)
    assert out.splitlines()[0] == "score\tlevel\tn\tpearson\tspearman\tkendall"

    # Alpha tuned on half of the docsets, reported on the other half.
    tunings = json.loads(run("correlate", collection="DUC 2006", tune=True, format="json")[0])
    assert [t["method"] for t in tunings] == ["pearson", "spearman", "kendall"]
    for tuning in tunings:
        assert set(tuning["tune_docsets"]).isdisjoint(tuning["test_docsets"])
        assert -3 <= tuning["alpha"] <= 3 and tuning["test"] is not None
    table, _ = run("correlate", collection="DUC 2006", tune=True)
    assert table.splitlines()[0].startswith("tune docsets: ")


def test_a_criterion_not_judged_says_what_is(demo):
    _, err = run("correlate", collection=demo["collection"].name, criterion="fluency")
    assert "No judgment 'fluency'" in err
