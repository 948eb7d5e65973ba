"""The demo docset: our own texts about Apollo 11, with a finished pyramid and peer annotations.

The data file names contributors and PSEs by their words; the loader finds them in the texts,
so the file stays readable and offsets cannot drift from the text.
"""

from __future__ import annotations

import json
from pathlib import Path

from django.db import transaction

from annotator.models import (
    PSE,
    SCU,
    Collection,
    Contributor,
    Docset,
    HumanJudgment,
    PeerAnnotation,
    PSESpan,
    Pyramid,
    PyramidModel,
    Span,
    Summary,
)

DEMO_FILE = Path(__file__).with_name("apollo11.json")


def locate(text: str, phrase: str, where: str) -> tuple[int, int]:
    start = text.find(phrase)
    if start < 0:
        raise ValueError(f"{where}: {phrase!r} is not in the text")
    return start, start + len(phrase)


@transaction.atomic
def load_demo(path: Path = DEMO_FILE) -> Collection | None:
    """Load the demo collection; return None (and change nothing) if it is already there."""
    data = json.loads(path.read_text(encoding="utf-8"))
    if Collection.objects.filter(name=data["collection"]["name"]).exists():
        return None
    collection = Collection.objects.create(**data["collection"])
    docset = Docset.objects.create(collection=collection, **data["docset"])
    models = {
        author: Summary.objects.create(
            docset=docset, kind=Summary.Kind.MODEL, author=author, name=f"{docset.name}.M.100.{author}", text=text
        )
        for author, text in data["models"].items()
    }
    pyramid = Pyramid.objects.create(
        docset=docset, name=docset.name, status=Pyramid.Status.SUBMITTED, creator_code="demo"
    )
    PyramidModel.objects.bulk_create(
        PyramidModel(pyramid=pyramid, summary=summary, position=i) for i, summary in enumerate(models.values())
    )
    scus = {}
    for position, spec in enumerate(data["scus"]):
        scu = SCU.objects.create(
            pyramid=pyramid, uid=position + 1, label=spec["label"], comment=spec.get("comment", ""), position=position
        )
        scus[spec["label"]] = scu
        for c_position, (author, phrases) in enumerate(spec["contributors"].items()):
            contributor = Contributor.objects.create(scu=scu, summary=models[author], position=c_position)
            Span.objects.bulk_create(
                Span(contributor=contributor, summary=models[author], position=p,
                     **dict(zip(("start", "end"), locate(models[author].text, phrase, f"model {author}"))))
                for p, phrase in enumerate(phrases)
            )
    for author, spec in data["peers"].items():
        peer = Summary.objects.create(
            docset=docset, kind=Summary.Kind.PEER, author=author, name=f"{docset.name}.M.100.{author}", text=spec["text"]
        )
        annotation = PeerAnnotation.objects.create(
            pyramid=pyramid, peer=peer, annotator_code="demo", status=PeerAnnotation.Status.SUBMITTED
        )
        for position, (label, phrases) in enumerate(spec["pses"]):
            pse = PSE.objects.create(annotation=annotation, scu=scus[label] if label else None, position=position)
            PSESpan.objects.bulk_create(
                PSESpan(pse=pse, position=p, **dict(zip(("start", "end"), locate(peer.text, phrase, f"peer {author}"))))
                for p, phrase in enumerate(phrases)
            )
        HumanJudgment.objects.bulk_create(
            HumanJudgment(summary=peer, criterion=criterion, value=value)
            for criterion, value in spec.get("judgments", {}).items()
        )
    return collection
