"""The demo docset: our own texts about Apollo 11, with a finished pyramid and peer annotations.

The data file names contributors and PSEs by their words; the loader finds them in the texts,
so the file stays readable and offsets cannot drift from the text.

Two layers:
- `load_demo()` loads the records alone: the pyramid DEMO01 and the annotations carry the code
  "demo", as imported work does, and nobody is assigned anything (the tests' `demo` fixture builds
  on this);
- `install_demo()` is what the commands `load_demo` and `rundemo` run: the same records, with the
  finished example as the work of the account `example` (its pyramid DEMO01-example and its three
  peer annotations, each assignment done, so the progress page shows it), and open work for a
  user (rundemo's `demo`): a pyramid of their own to build from the same four models, and the three
  peers to annotate against the finished pyramid (a second annotation of each peer, which the
  agreement report compares with the example's).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from django.contrib.auth import get_user_model
from django.db import transaction

from annotator.campaigns.assignment_status import mark_done
from annotator.campaigns.assignments import assign_peers, assign_pyramids
from annotator.campaigns.models import Assignment, Collection, Docset, HumanJudgment, Summary
from annotator.peer_annotation.models import PSE, PeerAnnotation, PSESpan
from annotator.pyramids.models import SCU, Contributor, Pyramid, PyramidModel, Span
from annotator.text.ordering import natural_key

if TYPE_CHECKING:
    from django.contrib.auth.models import User

DEMO_FILE = Path(__file__).with_name("apollo11.json")
DEMO_USERNAME = "demo"  # the administrator rundemo creates, who is given the open work
DEMO_PASSWORD = "pyramid-demo"
EXAMPLE_USERNAME = (
    "example"  # the account the finished example is the work of (no password: nobody logs in)
)


def locate(text: str, phrase: str, where: str) -> tuple[int, int]:
    start = text.find(phrase)
    if start < 0:
        raise ValueError(f"{where}: {phrase!r} is not in the text")
    return start, start + len(phrase)


def _read(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


@transaction.atomic
def load_demo(path: Path = DEMO_FILE, annotator=None) -> Collection | None:
    """Load the demo collection; return None (and change nothing) if it is already there.

    With `annotator` (a user), the finished example is their work, given through the assignment
    services: their pyramid (named DEMO01-<username>, as every builder's) and their annotations,
    each assignment done. Without, the pyramid is DEMO01 and its creator and annotator the code
    "demo", with no assignment."""
    data = _read(path)
    if Collection.objects.filter(name=data["collection"]["name"]).exists():
        return None
    return _load(data, annotator)


def _load(data: dict, annotator) -> Collection:
    collection = Collection.objects.create(**data["collection"])
    docset = Docset.objects.create(collection=collection, **data["docset"])
    models = {
        author: Summary.objects.create(
            docset=docset,
            kind=Summary.Kind.MODEL,
            author=author,
            name=f"{docset.name}.M.100.{author}",
            text=text,
        )
        for author, text in data["models"].items()
    }
    if annotator is None:
        pyramid = Pyramid.objects.create(
            docset=docset, name=docset.name, status=Pyramid.Status.SUBMITTED, creator_code="demo"
        )
        PyramidModel.objects.bulk_create(
            PyramidModel(pyramid=pyramid, summary=summary, position=i)
            for i, summary in enumerate(models.values())
        )
    else:  # the example's own pyramid, as every builder gets one (over the models in author order)
        pyramid = assign_pyramids([docset], [annotator], by=None).created[0].pyramid
        pyramid.status = Pyramid.Status.SUBMITTED
        pyramid.save(update_fields=["status", "updated_at"])
    scus = {}
    for position, spec in enumerate(data["scus"]):
        scu = SCU.objects.create(
            pyramid=pyramid,
            uid=position + 1,
            label=spec["label"],
            comment=spec.get("comment", ""),
            position=position,
        )
        scus[spec["label"]] = scu
        for c_position, (author, phrases) in enumerate(spec["contributors"].items()):
            contributor = Contributor.objects.create(
                scu=scu, summary=models[author], position=c_position
            )
            Span.objects.bulk_create(
                Span(
                    contributor=contributor,
                    summary=models[author],
                    position=p,
                    **dict(
                        zip(
                            ("start", "end"), locate(models[author].text, phrase, f"model {author}")
                        )
                    ),
                )
                for p, phrase in enumerate(phrases)
            )
    for author, spec in data["peers"].items():
        peer = Summary.objects.create(
            docset=docset,
            kind=Summary.Kind.PEER,
            author=author,
            name=f"{docset.name}.M.100.{author}",
            text=spec["text"],
        )
        annotation = PeerAnnotation.objects.create(
            pyramid=pyramid,
            peer=peer,
            status=PeerAnnotation.Status.SUBMITTED,
            **({"annotator_code": "demo"} if annotator is None else {"annotator": annotator}),
        )
        for position, (label, phrases) in enumerate(spec["pses"]):
            pse = PSE.objects.create(
                annotation=annotation, scu=scus[label] if label else None, position=position
            )
            PSESpan.objects.bulk_create(
                PSESpan(
                    pse=pse,
                    position=p,
                    **dict(zip(("start", "end"), locate(peer.text, phrase, f"peer {author}"))),
                )
                for p, phrase in enumerate(phrases)
            )
        HumanJudgment.objects.bulk_create(
            HumanJudgment(summary=peer, criterion=criterion, value=value)
            for criterion, value in spec.get("judgments", {}).items()
        )
    if (
        annotator is not None
    ):  # the peers annotated are theirs to annotate, and every assignment is done
        assign_peers([docset], [annotator], by=None, pyramids={docset.pk: pyramid})
        mark_done(Assignment.Task.BUILD_PYRAMID, pyramid.pk, user_id=annotator.pk)
        mark_done(Assignment.Task.ANNOTATE_PEER, pyramid.pk, user_id=annotator.pk)
    return collection


def example_annotator():
    """The account `example`, whose work the finished example is (made once; no usable password)."""
    user, created = get_user_model().objects.get_or_create(username=EXAMPLE_USERNAME)
    if created:
        user.set_unusable_password()
        user.save(update_fields=["password"])
    return user


@dataclass
class DemoSetup:
    """What `install_demo` found and did."""

    collection: Collection
    docset: Docset
    example_pyramid: Pyramid
    loaded: bool  # the records were loaded now (else they were there already)
    user: User | None = None  # the user given open work, if one was named
    work: list[Assignment] = field(default_factory=list)  # the open work given to `user` now

    @property
    def changed(self) -> bool:
        return self.loaded or bool(self.work)

    def lines(self) -> list[str]:
        docset, pyramid = self.docset, self.example_pyramid
        if self.loaded:
            annotations = pyramid.peer_annotations.count()
            lines = [
                f"Loaded {self.collection.name}: docset {docset.name} with "
                f"{docset.summaries.filter(kind=Summary.Kind.MODEL).count()} models, "
                f"{docset.summaries.filter(kind=Summary.Kind.PEER).count()} peers and a pyramid "
                f"of {pyramid.scus.count()} SCUs, {pyramid.name}, with {annotations} peer "
                "annotations against it (the finished example, done by the account "
                f"{EXAMPLE_USERNAME})."
            ]
        else:
            lines = [
                "The demo data is already loaded" + ("." if self.work else "; nothing changed.")
            ]
        if self.work:
            built = [a.pyramid.name for a in self.work if a.task == Assignment.Task.BUILD_PYRAMID]
            peers = sorted(
                (a.peer.author for a in self.work if a.peer is not None), key=natural_key
            )
            todo = [f"build the pyramid {name} from the same models" for name in built]
            if peers:
                todo.append(f"annotate peers {', '.join(peers)} against {pyramid.name}")
            assert self.user is not None  # work is only ever given to a named user
            lines.append(f"Open work for {self.user.username}: {'; '.join(todo)}.")
        return lines


@transaction.atomic
def install_demo(user=None, path: Path = DEMO_FILE) -> DemoSetup:
    """The demo as the commands load it (see the module's docstring). Idempotent: the records are
    loaded once, and `user` is given the open work once: if they have any assignment in the demo
    collection already (done, withdrawn or reassigned), it stays as it is."""
    data = _read(path)
    collection = Collection.objects.filter(name=data["collection"]["name"]).first()
    loaded = collection is None
    if collection is None:
        collection = _load(data, example_annotator())
    docset = collection.docsets.get(name=data["docset"]["name"])
    example_pyramid = docset.pyramids.order_by(
        "id"
    ).first()  # loaded first; what the user may build comes later
    assert example_pyramid is not None  # the demo's pyramid, loaded with its docset
    setup = DemoSetup(
        collection=collection,
        docset=docset,
        example_pyramid=example_pyramid,
        loaded=loaded,
        user=user,
    )
    if (
        user is not None
        and not Assignment.objects.filter(
            user=user, pyramid__docset__collection=collection
        ).exists()
    ):
        setup.work = (
            assign_pyramids([docset], [user], by=None).created
            + assign_peers([docset], [user], by=None, pyramids={docset.pk: example_pyramid}).created
        )
    return setup
