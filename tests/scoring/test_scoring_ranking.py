"""scoring.ranking and the statistics under it, on NIST's DUC 2006 table (Passonneau 2009 Tables
6, 9, 10)."""

import csv
from types import SimpleNamespace

import pytest
from statsmodels.stats.multicomp import pairwise_tukeyhsd

from scoring.ranking import better_than_groups, rank_systems
from scoring.statistics import TukeyPair, anova_power_n, tukey_hsd


@pytest.fixture
def duc2006(shared_data):
    """Every row of NIST's 2006 table: each annotation one observation (D0631's peers twice)."""
    table = shared_data / "duc2006-nist/scoring/2006_modified_scores.txt"
    return [
        SimpleNamespace(
            docset=row[0], peer=str(int(row[1])), scores=SimpleNamespace(modified=float(row[2]))
        )
        for row in csv.reader(table.open(), delimiter="\t")
    ]


@pytest.mark.shared_data
def test_table_9_means_and_table_6_p(duc2006):
    ranking = rank_systems(duc2006)
    means = {system: mean for system, _, mean in ranking.means}
    assert [round(means[p], 4) for p in ("10", "23", "8", "27")] == [0.2571, 0.2514, 0.2226, 0.2189]
    group = ["1", "35", "17", "18", "25", "29"]
    assert round(sum(means[p] for p in group) / len(group), 4) == 0.1429
    assert ranking.anova.df_factor == 21
    assert round(ranking.anova.p, 6) == 0.000185


@pytest.mark.shared_data
def test_tukey_with_a_given_error_term_equals_statsmodels_with_its_own(duc2006):
    """The Tukey-Kramer comparisons used with the docset as a second factor, given the one-way
    error term, give what statsmodels gives (the path for a one-way ANOVA)."""
    values, systems = [r.scores.modified for r in duc2006], [r.peer for r in duc2006]
    one_way = rank_systems(duc2006).anova
    ours, hsd = tukey_hsd(values, systems, one_way.mse, one_way.df_residual)
    assert hsd == pytest.approx(tukey_hsd(values, systems)[1], rel=1e-3)
    theirs = pairwise_tukeyhsd(values, systems, alpha=0.05)
    expected = {
        frozenset((a, b)): (p, reject) for a, b, _, p, _, _, reject in theirs.summary().data[1:]
    }
    for pair in ours:
        p, reject = expected[frozenset((pair.better, pair.worse))]
        assert pair.p == pytest.approx(p, abs=2e-3)
        assert pair.significant == reject


def test_table_10_power():
    assert round(anova_power_n(16, 0.0393, 0.0314), 2) == 3.45


def test_groups_read_like_the_papers_tables():
    means = {"10": 0.26, "23": 0.25, "1": 0.12, "35": 0.13, "17": 0.15}
    pairs = (
        [TukeyPair("10", w, 0, 0.001, True) for w in ("1", "35", "17")]
        + [TukeyPair("23", w, 0, 0.001, True) for w in ("1", "35", "17")]
        + [TukeyPair("23", "10", 0, 0.9, False)]
    )
    (row,) = better_than_groups(means, pairs)
    assert row.better == ["10", "23"]
    assert row.worse == ["17", "35", "1"]
    assert row.better_mean == pytest.approx(0.255)
    assert row.worse_mean == pytest.approx(0.4 / 3)
