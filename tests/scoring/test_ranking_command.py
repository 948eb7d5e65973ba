"""python manage.py ranking: systems compared from the stored scores."""

import json
from dataclasses import asdict
from itertools import takewhile

import pytest
from django.core.management.base import CommandError

from annotator.models import Collection
from scoring.models import StoredScore
from scoring.numbers import json_ready
from scoring.scores.records import score_collection
from scoring.statistics.ranking import rank_systems
from tests.helpers import complete_consensus_of_peer_1, import_files, run, spoil_stored_scores

pytestmark = pytest.mark.django_db


@pytest.mark.shared_data
def test_ranking_the_duc_2006_peers_stored_here(shared_data):
    folder = shared_data / "duc2006-nist"
    import_files(*sorted((folder / "allpans").glob("*.pan")), collection="DUC 2006")
    out, _ = run("ranking", collection="DUC 2006")
    lines = out.splitlines()
    assert lines[0] == (
        "# one observation per docset: each docset counts once (a docset annotated twice is "
        "averaged first)"
    )
    assert lines[1] == "system\tobservations\tmean modified"
    assert any(line.startswith("ANOVA, system as factor: F(21, ") for line in lines)
    assert any(line.startswith("Tukey's HSD (0.05): ") for line in lines)
    document = json.loads(
        run("ranking", collection="DUC 2006", format="json", docset_factor=True)[0]
    )
    observations = {system: n for system, n, _ in document["means"]}
    assert document["per"] == "docset"
    assert observations["10"] == 3  # D0601, D0631 (its two annotations averaged), D0640
    every = json.loads(run("ranking", collection="DUC 2006", format="json", per="annotation")[0])
    assert {system: n for system, n, _ in every["means"]}["10"] == 4  # D0631 twice
    assert document["anova"]["df_factor"] == 21
    assert 0 <= document["anova"]["p"] <= 1
    # The groups need one critical value; each pair's p-value is an integration: only on request.
    assert len(document["pairs"]) == 22 * 21 // 2
    assert all(pair["p"] is None for pair in document["pairs"])
    asked = json.loads(
        run("ranking", collection="DUC 2006", format="json", pairwise_p_values=True)[0]
    )
    assert all(0 <= pair["p"] <= 1 for pair in asked["pairs"])
    assert all(pair["significant"] == (pair["p"] < 0.05) for pair in asked["pairs"])
    out, _ = run("ranking", collection="DUC 2006", pairwise_p_values=True)
    lines = out.splitlines()
    header = lines.index("better\tworse\tdifference\tp (Tukey)\tsignificant")
    assert len(list(takewhile(bool, lines[header + 1 :]))) == 22 * 21 // 2  # up to a blank line
    assert "better\tworse" not in run("ranking", collection="DUC 2006")[0]


def test_one_system_cannot_be_ranked(demo):
    from annotator.models import PeerAnnotation

    PeerAnnotation.objects.exclude(peer__author="1").delete()
    with pytest.raises(CommandError, match="at least two systems"):
        run("ranking", collection=demo["collection"].name)


def test_adjudicated_ranks_a_peers_consensus_instead_of_its_sources(demo):
    complete_consensus_of_peer_1(demo, mine_complete=True)
    observations = lambda *flags: {
        s: n
        for s, n, _ in json.loads(
            run(  # noqa: E731
                "ranking", *flags, collection=demo["collection"].name, format="json"
            )[0]
        )["means"]
    }
    # The consensus is not a third observation: its two sources, or it alone (issue 15).
    assert observations("--per", "annotation")["1"] == 2
    assert observations("--per", "annotation", "--adjudicated")["1"] == 1
    assert observations()["1"] == observations("--adjudicated")["1"] == 1  # one docset


def strict_json(text: str):
    """JSON as the standard has it: NaN and Infinity are not JSON (Python writes them unless
    told)."""

    def refuse(constant):
        raise ValueError(f"{constant} is not JSON")

    return json.loads(text, parse_constant=refuse)


def test_one_docset_per_system_leaves_no_error_term_said_as_a_dash_not_f_0(demo):
    """The demo: three systems of one docset, one score each. The ANOVA's residual has no degrees
    of freedom, so F and p are undefined (issue 17: it printed F = 0.0000, p = nan)."""
    out, _ = run("ranking", collection=demo["collection"].name)
    assert "ANOVA, system as factor: F(2, 0) = —, p = —" in out.splitlines()
    assert "Tukey's HSD: — (one score per system: no error term to test with)" in out
    document = strict_json(run("ranking", collection=demo["collection"].name, format="json")[0])
    assert document["anova"]["df_residual"] == 0
    assert document["anova"]["f"] is None
    assert document["anova"]["p"] is None
    assert document["hsd"] is None
    assert [n for _, n, _ in document["means"]] == [1, 1, 1]


@pytest.mark.shared_data
@pytest.mark.parametrize(
    ("score", "docset_factor"), [("modified", False), ("original", True), ("coverage", False)]
)
def test_the_ranking_of_stored_scores_is_that_of_fresh_ones_whatever_their_state(
    shared_data, score, docset_factor
):
    """The command reads the stored scores (issue 19): missing, current or stale, its output is
    that of the collection scored afresh, to the byte."""
    folder = shared_data / "duc2006-nist"
    import_files(
        *(folder / "allpyramids" / f"{docset}.pyr" for docset in ("D0601", "D0631")),
        *sorted((folder / "allpans").glob("*.D0601.*.pan")),
        *sorted((folder / "allpans").glob("*.D0631.*.pan")),
        collection="DUC 2006",
    )
    fresh = rank_systems(
        score_collection(Collection.objects.get(name="DUC 2006")), score, docset_factor
    )
    expected = json.dumps(json_ready(asdict(fresh)), indent=2) + "\n"
    options = {"collection": "DUC 2006", "score": score, "docset_factor": docset_factor}
    assert not StoredScore.objects.exists()  # the import's refresh is a task, not run here
    assert run("ranking", format="json", **options)[0] == expected
    assert StoredScore.objects.exists()
    table = run("ranking", **options)[0]
    assert run("ranking", format="json", **options)[0] == expected  # current
    spoil_stored_scores()
    assert run("ranking", format="json", **options)[0] == expected
    spoil_stored_scores()
    assert run("ranking", **options)[0] == table


def test_ranking_by_presence_gives_each_systems_mean_of_its_judgments(demo):
    """Issue 21: the coverage scores are ranked like the others, each peer's score against a unit
    set one observation (tests/scoring/coverage_scores.py): presence of 2, (1/4 + 1) / 2; of 1,
    (1/2 + 1/2) / 2; of 3, 0 (DEMO01 alone; its DEMO02 task is in progress, not counted)."""
    from tests.scoring.coverage_scores import coverage_collection

    coverage_collection(demo)
    name = demo["collection"].name
    document = json.loads(run("ranking", collection=name, score="presence", format="json")[0])
    assert document["score"] == "presence"
    assert document["means"] == [["2", 2, 0.625], ["1", 2, 0.5], ["3", 1, 0.0]]
    assert document["anova"]["df_factor"] == 2
    assert document["anova"]["df_residual"] == 2  # 5 observations, 3 systems
    weighted = json.loads(
        run("ranking", collection=name, score="presence_weighted", format="json")[0]
    )
    assert [(s, n) for s, n, _ in weighted["means"]] == [("1", 2), ("2", 2), ("3", 1)]
    assert [m for _, _, m in weighted["means"]] == pytest.approx([(5 / 7 + 1 / 2) / 2, 4 / 7, 0])
    see = json.loads(run("ranking", collection=name, score="see_coverage", format="json")[0])
    assert [(s, n) for s, n, _ in see["means"]] == [("1", 1), ("2", 1), ("3", 1)]
    assert [m for _, _, m in see["means"]] == pytest.approx([19 / 24, 8 / 24, 1 / 24])
    out, _ = run("ranking", collection=name, score="presence")
    assert out.splitlines()[:5] == [
        "# one observation per judged row (a peer against a unit set), the means as published",
        "system\tobservations\tmean presence",
        "2\t2\t0.6250",
        "1\t2\t0.5000",
        "3\t1\t0.0000",
    ]
