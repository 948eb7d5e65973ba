"""The report "Pyramid shapes": each pyramid's SCUs by weight."""

from __future__ import annotations

from collections import Counter, defaultdict

from annotator.campaigns.models import Collection, WeightConvention
from annotator.pyramids.models import SCU, Contributor, Pyramid
from annotator.text.plurals import counted
from scoring.reports.results import result_table


def pyramids_report(collection: Collection, parameters: dict) -> dict:
    weights: Counter[int] = Counter()  # SCUs by weight, all pyramids
    per_pyramid: defaultdict[int, Counter[int]] = defaultdict(Counter)  # by pyramid id
    names = dict(Pyramid.objects.filter(docset__collection=collection).values_list("pk", "name"))
    for pyramid_id, weight in (
        SCU.objects.filter(pyramid__docset__collection=collection)
        .with_weight(WeightConvention.CONTRIBUTORS)
        .values_list("pyramid_id", "weight")
    ):
        per_pyramid[pyramid_id][weight] += 1
        weights[weight] += 1
    contributors = Contributor.objects.filter(scu__pyramid__docset__collection=collection).count()
    tiers = sorted(weights)
    return {
        "tables": [
            result_table(
                "SCUs per tier (weight)",
                ["pyramid", *[f"weight {w}" for w in tiers], "SCUs"],
                [
                    [names[p], *(c.get(w, 0) for w in tiers), sum(c.values())]
                    for p, c in sorted(per_pyramid.items(), key=lambda i: names[i[0]])
                ]
                + [["all", *(weights[w] for w in tiers), sum(weights.values())]],
                f"{counted(contributors, 'contributor')}. Fewer SCUs in the upper tiers: the "
                "Zipfian shape of N&P 2004 Table 1.",
            )
        ],
        "plots": [
            {
                "type": "bars",
                "title": "SCUs per tier, all pyramids",
                "labels": [str(w) for w in tiers],
                "values": [weights[w] for w in tiers],
            }
        ],
    }
