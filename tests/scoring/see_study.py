"""A small SEE study of our own for the coverage tests: three docsets, two models each cut into
three units, three systems, two judges judging every peer against every model on the five-point
scale (a system effect, a judge effect and noise)."""

import itertools
import random

from annotator.models import (
    Collection,
    Docset,
    Judgment,
    JudgmentTask,
    Summary,
    Unit,
    UnitSet,
)

DOCSETS, MODELS, SYSTEMS = ["D1", "D2", "D3"], ["A", "B"], ["1", "2", "3"]
JUDGES, UNITS = ["J1", "J2"], 3


def make_judged():
    """Three docsets, two models each cut into three units, three systems, two judges judging
    every peer against every model on the five-point scale; the answers, as {(docset, model,
    system, judge): [value per unit]}."""
    rng = random.Random(11)
    collection = Collection.objects.create(name="SEE study")
    answers = {}
    for docset_name in DOCSETS:
        docset = Docset.objects.create(collection=collection, name=docset_name)
        peers = {
            s: Summary.objects.create(docset=docset, kind="peer", author=s, text=f"Peer {s}.")
            for s in SYSTEMS
        }
        for model in MODELS:
            summary = Summary.objects.create(
                docset=docset, kind="model", author=model, text="One. Two. Three."
            )
            unit_set = UnitSet.objects.create(
                docset=docset, name=f"SEE model {MODELS.index(model) + 1}", method="see",
                scale="five_point", source="models",
            )  # fmt: skip
            units = [
                Unit.objects.create(unit_set=unit_set, position=i, text=f"unit {i}", model=summary)
                for i in range(UNITS)
            ]
            for system, judge in itertools.product(SYSTEMS, JUDGES):
                task = JudgmentTask.objects.create(
                    unit_set=unit_set, peer=peers[system], judge_code=judge, status="submitted"
                )
                # a system effect, a judge effect and noise, kept on the 0-4 scale
                values = [
                    float(min(4, max(0, int(system) + (judge == "J1") + rng.choice([-1, 0, 1]))))
                    for _ in units
                ]
                Judgment.objects.bulk_create(
                    Judgment(task=task, unit=u, value=v) for u, v in zip(units, values)
                )
                answers[(docset_name, unit_set.name, system, judge)] = values
    return collection, answers
