"""scoring.statistics.ranking and the statistics under it, on NIST's DUC 2006 table (Passonneau
2009 Tables
6, 9, 10)."""

import csv
import math
import random
from types import SimpleNamespace

import pytest
from statsmodels.stats.multicomp import pairwise_tukeyhsd

from scoring.scores.tables import PER_ANNOTATION
from scoring.statistics.ranking import better_than_groups, rank_systems
from scoring.statistics.significance import TukeyPair, anova_by_factor, anova_power_n, tukey_hsd


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
    # The paper counts every annotation (D0631's two sites' twice): its convention, by name.
    ranking = rank_systems(duc2006, per=PER_ANNOTATION)
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
    one_way = rank_systems(duc2006, per=PER_ANNOTATION).anova
    ours, hsd = tukey_hsd(values, systems, one_way.mse, one_way.df_residual, p_values=True)
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


def statsmodels_tukey(values, factor, significance=0.05):
    """statsmodels' pairwise_tukeyhsd as our pairs read it: {(better, worse): significant}, and
    its HSD for the mean group size, q_crit * sqrt(MSE / n̄)."""
    result = pairwise_tukeyhsd(values, factor, alpha=significance)
    decisions = {}
    for (a, b, difference, *_), reject in zip(result.summary().data[1:], result.reject):
        better, worse = (b, a) if difference >= 0 else (a, b)  # meandiff = mean(b) - mean(a)
        decisions[(str(better), str(worse))] = bool(reject)
    mean_size = len(values) / len(set(factor))
    return decisions, float(result.q_crit * math.sqrt(result.variance / mean_size))


def data_sets():
    """Balanced and unbalanced groups, few and more, close and far apart (seeded; statsmodels
    integrates once per pair, so not too many groups)."""
    generator = random.Random(19)
    sets = {}
    for name, sizes, spread in [
        ("balanced, 4 groups", [6] * 4, 0.2),
        ("balanced, 9 groups", [8] * 9, 0.1),
        ("unbalanced, 5 groups", [2, 9, 4, 15, 3], 0.15),
        ("unbalanced, 12 groups", [generator.randint(2, 20) for _ in range(12)], 0.1),
    ]:
        values, factor = [], []
        for g, size in enumerate(sizes):
            centre = generator.uniform(0, 1)
            for _ in range(size):
                values.append(generator.gauss(centre, spread))
                factor.append(f"s{g}")
        sets[name] = (values, factor)
    return sets


@pytest.mark.parametrize("name", list(data_sets()))
@pytest.mark.parametrize("significance", [0.05, 0.01])
def test_tukey_decisions_and_hsd_equal_statsmodels(name, significance):
    """One critical value for every pair gives statsmodels' decisions, pair by pair, and its HSD."""
    values, factor = data_sets()[name]
    decisions, hsd = statsmodels_tukey(values, factor, significance)
    pairs, ours = tukey_hsd(values, factor, significance=significance)
    assert {(p.better, p.worse): p.significant for p in pairs} == decisions
    assert 0 < sum(decisions.values()) < len(decisions)  # the data sets test both decisions
    assert ours == pytest.approx(hsd, rel=1e-12)
    assert all(p.p is None for p in pairs)  # not asked for


def test_tukey_p_values_on_request_equal_statsmodels():
    values, factor = data_sets()["unbalanced, 5 groups"]
    result = pairwise_tukeyhsd(values, factor)
    expected = {
        frozenset((a, b)): p for (a, b, *_), p in zip(result.summary().data[1:], result.pvalues)
    }
    pairs, _ = tukey_hsd(values, factor, p_values=True)
    for pair in pairs:
        assert pair.p == pytest.approx(expected[frozenset((pair.better, pair.worse))], abs=1e-9)
        assert pair.significant == (pair.p < 0.05)


@pytest.mark.shared_data
def test_the_duc_2006_groups_and_hsd_are_statsmodels(duc2006):
    """The real data: the one-way ranking's pairs, HSD and groups are those of statsmodels'
    pairwise_tukeyhsd."""
    values, systems = [r.scores.modified for r in duc2006], [r.peer for r in duc2006]
    ranking = rank_systems(duc2006, per=PER_ANNOTATION)
    expected, hsd = statsmodels_tukey(values, systems)
    assert ranking.hsd == pytest.approx(hsd, rel=1e-12)
    assert {(p.better, p.worse): p.significant for p in ranking.pairs} == expected
    means = {system: mean for system, _, mean in ranking.means}
    significant = [TukeyPair(b, w, 0, None, True) for (b, w), yes in expected.items() if yes]
    assert ranking.groups == better_than_groups(means, significant)
    assert [g.better for g in ranking.groups] == [["10"], ["23"]]


@pytest.mark.shared_data
def test_by_default_a_docset_annotated_twice_is_one_observation_its_mean(duc2006):
    """Issue 33: one default everywhere: each docset counts once. D0631's two annotations of a
    system are averaged into one observation; the ANOVA and Tukey's test are statsmodels' on
    those, and the means are the scores page's (scoring.scores.tables.system_means)."""
    from statistics import fmean

    from scoring.scores.tables import system_means

    ranking = rank_systems(duc2006)
    assert ranking.per == "docset"
    pairs: dict = {}
    for row in duc2006:
        pairs.setdefault((row.peer, row.docset), []).append(row.scores.modified)
    assert len(pairs) < len(duc2006)  # D0631 was annotated twice
    systems = [system for system, _ in pairs]
    values = [fmean(v) for v in pairs.values()]
    expected, hsd = statsmodels_tukey(values, systems)
    assert ranking.hsd == pytest.approx(hsd, rel=1e-12)
    assert {(p.better, p.worse): p.significant for p in ranking.pairs} == expected
    assert ranking.anova.df_residual == len(values) - len(set(systems))
    with_every_score = [
        SimpleNamespace(
            docset=row.docset,
            peer=row.peer,
            scores=SimpleNamespace(
                modified=row.scores.modified, original=None, coverage=None, comprehensive=None
            ),
        )
        for row in duc2006
    ]
    page = {m.peer: m.modified for m in system_means(with_every_score)}
    assert {s: m for s, _, m in ranking.means} == pytest.approx(page, rel=1e-12)
    assert {s: n for s, n, _ in ranking.means}["10"] == 20  # its 20 docsets, D0631 once
    assert {s: n for s, n, _ in rank_systems(duc2006, per=PER_ANNOTATION).means}["10"] == 21


@pytest.mark.shared_data
def test_the_duc_2006_groups_with_the_docset_as_a_factor_are_as_before(duc2006):
    """With the docset as a factor: the groups and HSD the per-pair p-values gave before (p < 0.05
    for each pair, an integration each; test_tukey_with_a_given_error_term_... checks the
    p-values)."""
    ranking = rank_systems(duc2006, docset_factor=True, per=PER_ANNOTATION)
    assert ranking.hsd == pytest.approx(0.077203, abs=1e-6)
    assert sum(p.significant for p in ranking.pairs) == 32
    assert [(g.better, g.worse) for g in ranking.groups] == [
        (["10"], ["14", "32", "22", "29", "25", "18", "17", "35", "1"]),
        (["23"], ["22", "29", "25", "18", "17", "35", "1"]),
        (["8", "27"], ["18", "17", "35", "1"]),
        (["15", "28", "6"], ["35", "1"]),
        (["3", "2"], ["1"]),
    ]


def test_the_one_way_anova_in_closed_form_is_statsmodels_ols():
    """The one-way table without statsmodels' OLS (pandas and statsmodels cost more to import than
    the whole ranking): the same F, p, degrees of freedom and MSE."""
    import pandas as pd
    import statsmodels.formula.api as smf
    from statsmodels.stats.anova import anova_lm

    for values, factor in data_sets().values():
        ours = anova_by_factor(values, factor)
        model = smf.ols("value ~ C(factor)", pd.DataFrame({"value": values, "factor": factor}))
        fitted = model.fit()
        table = anova_lm(fitted)
        assert ours.f == pytest.approx(table.loc["C(factor)", "F"], rel=1e-9)
        assert ours.p == pytest.approx(table.loc["C(factor)", "PR(>F)"], rel=1e-9, abs=1e-300)
        assert ours.df_factor == table.loc["C(factor)", "df"]
        assert ours.df_residual == fitted.df_resid
        assert ours.mse == pytest.approx(fitted.mse_resid, rel=1e-12)
