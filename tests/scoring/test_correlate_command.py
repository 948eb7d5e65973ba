"""python manage.py correlate: scores against human judgments, at the summary and the system
level."""

import json

import pytest
from django.core.management.base import CommandError
from scipy import stats

from tests.helpers import import_files, run

pytestmark = pytest.mark.django_db


@pytest.mark.shared_data
def test_duc_2006_scores_against_content_responsiveness(shared_data):
    folder = shared_data / "duc2006-nist"
    import_files(*sorted((folder / "allpans").glob("*.pan")), collection="DUC 2006")
    table = folder / "scoring/2006_modified_scores.txt"
    run("import_judgments", str(table), collection="DUC 2006")
    document = json.loads(run("correlate", collection="DUC 2006", format="json")[0])
    assert (
        document["conventions"]["tac2008_recall"] == "references"
    )  # eq. 4 as printed, unless asked
    document = document["results"]
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
    assert ("power_mean", "system") in levels
    assert ("tac2008", "summary") in levels
    out, _ = run("correlate", collection="DUC 2006", alpha=0.5)
    assert out.splitlines()[0] == "score\tlevel\tn\tpearson\tspearman\tkendall"

    # Alpha tuned on half of the docsets, reported on the other half.
    tunings = json.loads(run("correlate", collection="DUC 2006", tune=True, format="json")[0])[
        "tunings"
    ]
    assert [t["method"] for t in tunings] == ["pearson", "spearman", "kendall"]
    for tuning in tunings:
        assert set(tuning["tune_docsets"]).isdisjoint(tuning["test_docsets"])
        assert -3 <= tuning["alpha"] <= 3
        assert tuning["test"] is not None
    table, _ = run("correlate", collection="DUC 2006", tune=True)
    assert table.splitlines()[0].startswith("tune docsets: ")


def test_a_criterion_not_judged_says_what_is(demo):
    _, err = run("correlate", collection=demo["collection"].name, criterion="fluency")
    assert "No judgment 'fluency'" in err


@pytest.fixture
def two_docsets_one_empty_peer(tmp_path):
    """Our D9901 fixture as two docsets of three judged peers each: 7 (the fixture's annotation),
    9 (the same without its PSE of SCU 11) and 8 (with every PSE taken out: a summary with no
    PSE)."""
    from annotator.models import PSE
    from tests.conftest import PAN_FIXTURE

    for docset in ("D9901", "D9902"):
        for peer in ("7", "8", "9"):
            import_files(PAN_FIXTURE, collection="Tuning", docset=docset, peer=peer)
    PSE.objects.filter(annotation__peer__author="8").delete()
    PSE.objects.filter(annotation__peer__author="9", scu__uid=11).delete()
    judgments = tmp_path / "judgments.csv"
    judgments.write_text(
        "docset,peer,criterion,value\n"
        + "".join(
            f"{docset},{peer},content,{value}\n"
            for docset, values in (("D9901", (4, 1, 3)), ("D9902", (5, 1, 2)))
            for peer, value in zip(("7", "8", "9"), values)
        )
    )
    run("import_judgments", str(judgments), collection="Tuning")


def test_tune_scores_a_summary_with_no_pse_zero(two_docsets_one_empty_peer):
    tunings = json.loads(
        run("correlate", collection="Tuning", criterion="content", tune=True, format="json")[0]
    )["tunings"]
    assert [t["method"] for t in tunings] == ["pearson", "spearman", "kendall"]
    # Peer 8 expresses nothing: 0 on every score (its original score, 0 / Max(0), would be
    # undefined), so on the held-out docset each score ranks 7, 9, 8 as the judges do.
    spearman = tunings[1]["test_baselines"]
    assert (
        spearman["original"][0]
        == spearman["modified"][0]
        == spearman["tac2008"][0]
        == pytest.approx(1.0)
    )


def test_the_tac_2008_recall_is_named_and_stated(two_docsets_one_empty_peer):
    """Peer 7 expresses SCUs of weight 3 and 2 of a pyramid of weight 8 (3 + 2 + 1 + 1 + 1), whose
    SCUs, counted once per model holding them, weigh 3 x 3 + 2 x 2 + 1 + 1 + 1 = 16 (eq. 4)."""
    from annotator.models import Collection
    from scoring.judgments.records import variant_inputs, variant_scores
    from scoring.scores.variants import tac2008_f_measure, tac2008_precision

    inputs = variant_inputs(Collection.objects.get(name="Tuning"))
    peer_7 = next(i for i in inputs.values() if i.expressed)
    assert sorted(peer_7.expressed) == [2, 3]
    assert sum(peer_7.pyramid) == 8
    assert peer_7.reference_weight == 16
    precision = tac2008_precision(peer_7.length, 2)
    for name, recall in (("references", 5 / 16), ("pyramid", 5 / 8)):
        scores = variant_scores(inputs, 1.0, name)
        assert {round(v["tac2008"], 12) for v in scores.values() if v["power_mean"] == 1.0} == {
            round(tac2008_f_measure(recall, precision), 12)
        }
        out, err = run(
            "correlate", collection="Tuning", criterion="content", tac_recall=name, format="json"
        )
        document = json.loads(out)
        assert document["conventions"]["tac2008_recall"] == name
        assert f"TAC 2008 recall = {name} (" in err
        tuned = json.loads(
            run(
                "correlate",
                collection="Tuning",
                criterion="content",
                tac_recall=name,
                tune=True,
                format="json",
            )[0]
        )
        assert tuned["conventions"]["tac2008_recall"] == name
        assert {t["tac2008_recall"] for t in tuned["tunings"]} == {name}
    _, err = run("correlate", collection="Tuning", criterion="content")
    assert (
        "TAC 2008 recall = references (matched weight / the sum over the reference summaries" in err
    )


def test_too_few_systems_for_a_p_value_print_a_dash_never_p_0(two_docsets_one_empty_peer):
    """Issue 17: three systems ranked perfectly printed Spearman's "p=0" (SciPy's t approximation).
    Three pairs are too few for any p: "—" (null in JSON), the coefficient still given; six
    summaries get Spearman's exact p, printed with three significant digits."""
    from annotator.models import Collection
    from scoring.judgments.correlation import spearman_exact_p
    from scoring.judgments.records import judged_summaries

    out, _ = run("correlate", collection="Tuning", criterion="content")
    rows = {tuple(line.split("\t")[:2]): line.split("\t") for line in out.splitlines()[1:]}
    assert rows[("modified", "system")][2] == "3"
    assert rows[("modified", "system")][4:] == ["1.0000 (p=—)", "1.0000 (p=—)"]  # Spearman, Kendall
    assert rows[("modified", "system")][3].endswith(" (p=—)")
    assert "p=0)" not in out
    assert "p=0.0)" not in out
    document = json.loads(
        run("correlate", collection="Tuning", criterion="content", format="json")[0]
    )["results"]
    system = next(r for r in document if (r["score"], r["level"]) == ("modified", "system"))
    assert system["spearman"] == {"coefficient": 1.0, "p": None}
    assert system["pearson"]["p"] is None

    summaries = judged_summaries(Collection.objects.get(name="Tuning"), "content")
    x, y = [s.scores["modified"] for s in summaries], [s.judgment for s in summaries]
    summary = next(r for r in document if (r["score"], r["level"]) == ("modified", "summary"))
    assert summary["n"] == len(x) == 6
    assert summary["spearman"]["p"] == spearman_exact_p(x, y) != stats.spearmanr(x, y)[1]
    assert (
        rows[("modified", "summary")][4]
        == f"{summary['spearman']['coefficient']:.4f} (p={summary['spearman']['p']:.3g})"
    )


# -- coverage judgments (issue 21) ----------------------------------------------------------------

# The judgment of each peer summary of tests/scoring/coverage_scores.py: (docset, peer) -> value.
CONTENT = {("DEMO01", "1"): 5, ("DEMO01", "2"): 3, ("DEMO01", "3"): 1}
CONTENT |= {("DEMO02", "1"): 4, ("DEMO02", "2"): 2}


@pytest.fixture
def judged_for_coverage(demo):
    from annotator.models import HumanJudgment, Summary
    from tests.scoring.coverage_scores import coverage_collection

    coverage_collection(demo)
    for (docset, peer), value in CONTENT.items():
        summary = Summary.objects.get(docset__name=docset, kind="peer", author=peer)
        HumanJudgment.objects.create(summary=summary, criterion="content", value=value)
    return demo


def _results(collection: str, **options) -> dict:
    document = json.loads(
        run("correlate", collection=collection, criterion="content", format="json", **options)[0]
    )
    return {(r["score"], r["level"]): r for r in document["results"]}


def test_the_coverage_scores_correlate_with_the_judgments(judged_for_coverage):
    """Each judged peer's presence and SEE coverage (its mean over the unit sets it was judged on,
    tests/scoring/coverage_scores.py) against its judgment; the DEMO02 peers, judged for coverage
    and never annotated, are points of the coverage scores alone."""
    results = _results(judged_for_coverage["collection"].name)
    presence = {("DEMO01", "1"): 0.5, ("DEMO01", "2"): 0.25, ("DEMO01", "3"): 0.0}
    presence |= {("DEMO02", "1"): 0.5, ("DEMO02", "2"): 1.0}
    x, y = list(presence.values()), [CONTENT[key] for key in presence]
    summary = results[("presence", "summary")]
    assert summary["n"] == 5
    assert summary["pearson"]["coefficient"] == pytest.approx(stats.pearsonr(x, y)[0])
    assert summary["pearson"]["p"] == pytest.approx(stats.pearsonr(x, y)[1])
    assert summary["spearman"]["coefficient"] == pytest.approx(stats.spearmanr(x, y)[0])
    assert summary["kendall"]["coefficient"] == pytest.approx(stats.kendalltau(x, y)[0])
    assert results[("modified", "summary")]["n"] == 3  # the annotated peers, as before
    # System level: 2 (1/4 + 1) / 2 against (3 + 2) / 2; 1 (1/2 + 1/2) / 2 against (5 + 4) / 2;
    # 3 0 against 1.
    system = results[("presence", "system")]
    assert system["n"] == 3
    expected = stats.pearsonr([0.625, 0.5, 0.0], [2.5, 4.5, 1.0])[0]
    assert system["pearson"]["coefficient"] == pytest.approx(expected)
    assert system["pearson"]["p"] is None  # three systems: no p
    see = results[("see_coverage", "summary")]
    assert see["n"] == 3
    assert see["spearman"]["coefficient"] == pytest.approx(1.0)  # 19/24 > 8/24 > 1/24, as 5 > 3 > 1
    assert set(results) >= {("presence_weighted", "summary"), ("see_coverage", "system")}
    only, _ = run(
        "correlate",
        collection=judged_for_coverage["collection"].name,
        criterion="content",
        score="presence",
    )
    assert [line.split("\t")[:3] for line in only.splitlines()] == [
        ["score", "level", "n"],
        ["presence", "summary", "5"],
        ["presence", "system", "3"],
    ]


def test_no_coverage_rows_without_coverage_judgments(two_docsets_one_empty_peer):
    results = _results("Tuning")
    assert {score for score, _ in results} == {
        "modified",
        "original",
        "coverage",
        "comprehensive",
        "power_mean",
        "tac2008",
    }


def test_a_coverage_score_against_a_pyramid_score_at_the_system_level(judged_for_coverage):
    from scoring.scores.records import score_collection
    from scoring.scores.tables import system_means

    name = judged_for_coverage["collection"].name
    modified = {
        m.peer: m.modified
        for m in system_means(score_collection(judged_for_coverage["collection"]))
    }
    presence = {"1": 0.5, "2": 0.625, "3": 0.0}  # tests/scoring/coverage_scores.py
    systems = sorted(presence)
    x, y = [presence[s] for s in systems], [modified[s] for s in systems]
    out, err = run("correlate", collection=name, score="presence", against="modified")
    assert "system means over the docsets" in err
    lines = out.splitlines()
    assert lines[0] == "score\tagainst\tlevel\tn\tpearson\tspearman\tkendall"
    fields = lines[1].split("\t")
    assert fields[:4] == ["presence", "modified", "system", "3"]
    assert fields[4] == f"{stats.pearsonr(x, y)[0]:.4f} (p=—)"
    document = json.loads(
        run("correlate", collection=name, score="presence", against="modified", format="json")[0]
    )
    (result,) = document["results"]
    assert (result["score"], result["against"], result["n"]) == ("presence", "modified", 3)
    assert result["spearman"]["coefficient"] == pytest.approx(stats.spearmanr(x, y)[0])
    assert result["kendall"]["coefficient"] == pytest.approx(stats.kendalltau(x, y)[0])
    # Two coverage scores against each other: SEE coverage's means are DEMO01's.
    see = json.loads(
        run("correlate", collection=name, score="see_coverage", against="presence", format="json")[
            0
        ]
    )["results"][0]
    expected = stats.pearsonr([19 / 24, 8 / 24, 1 / 24], [0.5, 0.625, 0.0])[0]
    assert see["pearson"]["coefficient"] == pytest.approx(expected)


@pytest.mark.parametrize(
    "options",
    [
        {"against": "modified"},
        {"score": "power_mean", "against": "modified"},
        {"score": "presence", "against": "presence"},
    ],
)
def test_against_needs_another_score_with_system_means(judged_for_coverage, options):
    with pytest.raises(CommandError, match="--against compares --score"):
        run("correlate", collection=judged_for_coverage["collection"].name, **options)
