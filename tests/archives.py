"""A collection holding every kind of record an archive keeps, and a field-by-field comparison of
two collections (the original, and its restored copy) with their ids mapped."""

from __future__ import annotations

import io
import json
import zipfile
from datetime import timedelta

from django.utils import timezone

from annotator.adjudication import pyramid_consensus
from annotator.adjudication.alignment import ONLY_B, SPLIT
from annotator.campaigns import assignments
from annotator.coverage.judging import peer_sentences
from annotator.models import (
    PSE,
    Assignment,
    Collection,
    HumanJudgment,
    Judgment,
    JudgmentTask,
    Membership,
    PeerAnnotation,
    PeerSCUComment,
    Proposal,
    Pyramid,
    Role,
    Summary,
    Unit,
    UnitSet,
    WorkTime,
)
from annotator.peer_annotation import editing as peer_editing
from annotator.pyramids import editing
from annotator.transfer import archive
from annotator.transfer.archive import TABLES, USER
from scoring.scores.records import score_collection
from tests.helpers import Builder, complete_consensus_of_peer_1


def _version(model, pk):
    return model.objects.get(pk=pk).version


def rich_collection(pair) -> dict:
    """The demo collection (built on tests.conftest's `pair`) with: its conventions and description
    set; the annotators' two pyramids, one with an undone edit superseded (a discarded change) and
    an SCU removed then brought back by undo (so the consensus's snapshots name a source gone);
    their consensus pyramid with decisions, provenance and an undone decision (redo waiting); a
    consensus annotation with its decisions naming the annotation taken; an annotation with a PSE
    undone (a PSE id that only history holds, which redo brings back); a DUCView SCU comment; human
    judgments; a withdrawn assignment; an administrator membership; a PSE matched from the second
    suggestion, an open and a rejected proposal, and time on task on a pyramid and an annotation
    (issue 20); coverage judgments (issue 21, `coverage_judgments`)."""
    demo, adjudicator = pair["demo"], pair["adjudicator"]
    collection = demo["collection"]
    Collection.objects.filter(pk=collection.pk).update(
        description="Apollo 11, archived.", weight_convention="models", average_rounding="floor"
    )
    a, b = pair["a"], pair["b"]
    consensus = pyramid_consensus.start(a, b, adjudicator)
    groups = {g["kind"]: g for g in consensus.merge.groups}
    for key, side in [
        (groups[SPLIT]["key"], "b"),
        (groups[SPLIT]["key"], "a"),
        (groups[ONLY_B]["key"], "b"),
    ]:
        pyramid_consensus.choose(
            consensus.pk, adjudicator, _version(Pyramid, consensus.pk), key, side
        )
    editing.undo(
        consensus.pk, adjudicator, _version(Pyramid, consensus.pk)
    )  # B's samples undone: redo waits

    builder = Builder.reading(a.pk)
    builder.user = demo["annotator"]
    builder.do("set_label", 3, "Collins stayed in orbit")
    builder.do("undo")
    builder.do("set_comment", 1, "Landing: the first.")  # the undone relabel is discarded
    builder.do("remove_scu", 1)  # the consensus's SCU 1 loses its source...
    builder.do("undo")  # ...which comes back as a new record

    consensus_annotation = complete_consensus_of_peer_1(demo)
    mine = PeerAnnotation.objects.get(
        pyramid=demo["pyramid"], peer=demo["annotations"]["1"].peer, annotator=demo["annotator"]
    )
    peer = mine.peer.text
    start = peer.index("Neil Armstrong")
    peer_editing.assign(
        mine.pk,
        demo["annotator"],
        _version(PeerAnnotation, mine.pk),
        [(start, start + 14)],
        demo["pyramid"].scus.order_by("uid").first().uid,
    )
    peer_editing.undo(mine.pk, demo["annotator"], _version(PeerAnnotation, mine.pk))

    PeerSCUComment.objects.create(
        annotation=demo["annotations"]["2"],
        scu=demo["pyramid"].scus.get(uid=1),
        comment="Close call: 'landed' vs 'arrived'.",
    )
    for n, annotation in enumerate(demo["annotations"].values()):
        HumanJudgment.objects.create(
            summary=annotation.peer, criterion="content responsiveness", judge="J1", value=2 + n / 2
        )
        HumanJudgment.objects.create(
            summary=annotation.peer, criterion="linguistic quality", value=4.0
        )
    peer3 = demo["annotations"]["3"].peer
    withdrawn = Assignment.objects.create(
        user=demo["outsider"],
        task="peer",
        pyramid=demo["pyramid"],
        peer=peer3,
        assigned_by=demo["admin"],
    )
    assignments.withdraw(withdrawn, demo["admin"])
    Membership.objects.create(collection=collection, user=demo["admin"], role=Role.ADMINISTRATOR)
    suggested = PSE.objects.filter(annotation=demo["annotations"]["2"]).order_by("pk").first()
    PSE.objects.filter(pk=suggested.pk).update(suggestion_rank=2)
    first_scu = demo["pyramid"].scus.order_by("uid").first()
    now = timezone.now()
    Proposal.objects.create(
        annotation=mine, scu=first_scu, start=start, end=start + 14, score=0.8, ranker="bm25"
    )
    Proposal.objects.create(
        annotation=mine,
        scu=first_scu,
        start=0,
        end=5,
        score=0.6,
        ranker="bm25",
        state=Proposal.State.REJECTED,
        decided_at=now,
        decided_by=demo["annotator"],
    )
    for work in ({"pyramid": a}, {"annotation": mine}):  # the edits above may have made them
        WorkTime.objects.update_or_create(
            user=demo["annotator"],
            **work,
            defaults={
                "active_seconds": 125.5,
                "actions": 7,
                "first_action_at": now - timedelta(minutes=30),
                "last_action_at": now,
            },
        )
    coverage_judgments(demo)
    return {
        **pair,
        "collection": Collection.objects.get(pk=collection.pk),
        "consensus": consensus,
        "consensus_annotation": consensus_annotation,
        "mine": mine,
    }


def coverage_judgments(demo) -> None:
    """Issue 21's records on the demo docset: presence units from the pyramid's SCUs (weights, an
    imported id) judged by a user (submitted, timed) and by an imported judge code; SEE units cut
    from model A (spans) judged on the five-point scale with the peer's sentences marked, and a
    withdrawn task that an organizer assigned."""
    pyramid, now = demo["pyramid"], timezone.now()
    docset = pyramid.docset
    presence = UnitSet.objects.create(
        docset=docset,
        name="Lite Pyramid",
        method=UnitSet.Method.PRESENCE,
        scale=UnitSet.Scale.PRESENT_ABSENT,
        source=UnitSet.Source.PYRAMID,
        pyramid=pyramid,
        source_name="apollo.pyr",
        version=3,
    )
    scus = list(pyramid.scus.order_by("uid")[:3])
    units = Unit.objects.bulk_create(
        Unit(
            unit_set=presence,
            position=i,
            text=scu.label,
            scu=scu,
            weight=i + 2,
            external_id=f"u{i}" if i == 1 else "",
        )
        for i, scu in enumerate(scus)
    )
    model = Summary.objects.get(docset=docset, kind=Summary.Kind.MODEL, author="A")
    see = UnitSet.objects.create(
        docset=docset,
        name="SEE model A",
        method=UnitSet.Method.SEE,
        scale=UnitSet.Scale.FIVE_POINT,
        source=UnitSet.Source.MODELS,
    )
    clause = model.text.split(",")[0]
    clauses = Unit.objects.bulk_create(
        [
            Unit(unit_set=see, position=0, text=clause, model=model, start=0, end=len(clause)),
            Unit(unit_set=see, position=1, text="Written by hand, from model A.", model=model),
        ]
    )
    peers = list(Summary.objects.filter(docset=docset, kind=Summary.Kind.PEER).order_by("author"))
    JudgmentTask.objects.bulk_create(
        [
            JudgmentTask(
                unit_set=presence,
                peer=peers[0],
                judge=demo["annotator"],
                status=JudgmentTask.Status.SUBMITTED,
                version=5,
                assigned_by=demo["admin"],
            ),
            JudgmentTask(unit_set=presence, peer=peers[0], judge_code="crowd 1"),
            JudgmentTask(unit_set=see, peer=peers[1], judge=demo["other_annotator"], version=3),
            JudgmentTask(
                unit_set=see,
                peer=peers[2],
                judge=demo["outsider"],
                withdrawn=True,
                assigned_by=demo["organizer"],
            ),
        ]
    )
    mine, crowd, see_task, _ = JudgmentTask.objects.filter(unit_set__docset=docset).order_by("pk")
    sentences = [list(span) for span in peer_sentences(peers[1].text)[:2]]
    Judgment.objects.bulk_create(
        [
            *(
                Judgment(task=mine, unit=unit, value=float(i % 2), seconds=3.25 + i)
                for i, unit in enumerate(units)
            ),
            Judgment(task=crowd, unit=units[0], value=1.0),
            Judgment(task=see_task, unit=clauses[0], value=3.0, sentences=sentences, seconds=9.5),
            Judgment(task=see_task, unit=clauses[1], value=0.0),
        ]
    )
    # Times unlike those a restore would give its records: hours ago.
    UnitSet.objects.filter(docset=docset).update(created_at=now - timedelta(hours=3))
    JudgmentTask.objects.filter(unit_set__docset=docset).update(
        created_at=now - timedelta(hours=2), updated_at=now - timedelta(hours=1)
    )
    Judgment.objects.filter(task__unit_set__docset=docset).update(
        updated_at=now - timedelta(hours=1)
    )


def written(collection) -> bytes:
    buffer = io.BytesIO()
    archive.export(collection, buffer)
    return buffer.getvalue()


def records(collection) -> dict[str, list[dict]]:
    return {table.name: list(table.rows(collection)) for table in TABLES}


def assert_same_records(original: Collection, restored: Collection) -> dict[str, dict[int, int]]:
    """Every record of `restored` is the one of `original` field by field, its references mapped to
    the restored records' ids; return the ids mapped ({table: {original id: restored id}})."""
    for name in ("description", "weight_convention", "average_rounding", "created_at"):
        assert getattr(original, name) == getattr(restored, name), name
    before, after = records(original), records(restored)
    ids = {}
    for table in TABLES:
        assert len(before[table.name]) == len(after[table.name]), table.name
        # Records are restored in the order of their ids, so the n-th of one is the n-th of the
        # other.
        ids[table.name] = {x["id"]: y["id"] for x, y in zip(before[table.name], after[table.name])}
        assert not set(ids[table.name]) & set(ids[table.name].values()), (
            f"{table.name}: restored under old ids"
        )
    history = _history_ids(before["peer_annotation_changes"], after["peer_annotation_changes"], ids)
    for table in TABLES:
        for x, y in zip(before[table.name], after[table.name]):
            where = f"{table.name} {x['id']}"
            for field in table.plain:
                if table.name == "pyramid_changes" and field.name in ("before", "after"):
                    assert _pyramid_state(x[field.name], ids) == y[field.name], where
                elif table.name == "peer_annotation_changes" and field.name in ("before", "after"):
                    assert _peer_state(x[field.name], *history) == y[field.name], where
                elif (
                    table.name == "peer_annotation_changes"
                    and field.name == "decision"
                    and isinstance((x["decision"] or {}).get("choice"), int)
                ):
                    assert y["decision"] == {
                        **x["decision"],
                        "choice": ids["peer_annotations"][x["decision"]["choice"]],
                    }
                else:
                    assert x[field.name] == y[field.name], f"{where}: {field.name}"
            for ref, to in table.refs.items():
                expected = x[ref] if to == USER or x[ref] is None else ids[to][x[ref]]
                assert y[ref] == expected, f"{where}: {ref}"
    return ids


def _history_ids(before, after, ids) -> tuple[dict, dict]:
    """The PSE and PSE span ids of annotation snapshots mapped: a record's to its restored id; one
    that only history holds (undone, removed) to a new id no restored record has, the same wherever
    it appears."""
    maps = {"pses": dict(ids["pses"]), "pse_spans": dict(ids["pse_spans"])}
    taken = {name: set(known.values()) for name, known in maps.items()}

    def learn(name, old, new):
        if old in maps[name]:
            assert maps[name][old] == new, f"{name} {old}: {new} instead of {maps[name][old]}"
        else:
            assert new not in taken[name], (
                f"{name} {old}, which only history holds, got a record's id"
            )
            maps[name][old] = new
            taken[name].add(new)

    for x, y in zip(before, after):
        for side in ("before", "after"):
            (xs, x_absent), (ys, y_absent) = _listed(x[side]), _listed(y[side])
            assert len(xs) == len(ys)
            for old, new in zip(x_absent, y_absent, strict=True):
                learn("pses", old, new)
            for p, q in zip(xs, ys):
                learn("pses", p["id"], q["id"])
                for old, new in zip(p["span_ids"], q["span_ids"], strict=True):
                    learn("pse_spans", old, new)
    return maps["pses"], maps["pse_spans"]


def _listed(state) -> tuple[list, list]:
    """The PSEs a change's snapshot lists, and those it says are absent (issue 19: only the PSEs
    changed, {"pses", "absent"}; before, a list of every PSE)."""
    return (state["pses"], state["absent"]) if isinstance(state, dict) else (state, [])


def _source(state, table_ids):
    state = dict(state)
    if "source" in state:
        if state["source"] in table_ids:
            state["source"] = table_ids[state["source"]]
        else:
            del state["source"]  # gone: undo would drop the link
    if "copies" in state:  # a source's consensus copies (annotator.pyramids.editing._note_copies)
        state["copies"] = [table_ids[copy] for copy in state["copies"] if copy in table_ids]
        if not state["copies"]:
            del state["copies"]
    return state


def _pyramid_state(state, ids):
    summaries = ids["summaries"]
    scus = {}
    for uid, scu in state["scus"].items():
        if scu is not None:
            scu = _source(scu, ids["scus"])
            scu["contributors"] = [
                _contributor_ids(
                    {
                        **_source(c, ids["contributors"]),
                        "summary": summaries[c["summary"]],
                        "spans": [[summaries[s], start, end] for s, start, end in c["spans"]],
                    },
                    ids,
                )
                for c in scu["contributors"]
            ]
        scus[uid] = scu
    return {**state, "scus": scus}


def _contributor_ids(contributor, ids):
    """A snapshot's contributor and part ids (issue 32) mapped to the restored records'; none kept
    where the contributor is no longer a record (undo gives it a new id)."""
    contributor = dict(contributor)
    old, parts = contributor.pop("id", None), contributor.pop("span_ids", None)
    if old not in ids["contributors"]:
        return contributor
    contributor["id"] = ids["contributors"][old]
    if parts is not None and all(part in ids["spans"] for part in parts):
        contributor["span_ids"] = [ids["spans"][part] for part in parts]
    return contributor


def _peer_state(state, pses, spans):
    if isinstance(state, dict):  # the PSEs the change changed (issue 19)
        return {
            "pses": _peer_state(state["pses"], pses, spans),
            "absent": [pses[i] for i in state["absent"]],
        }
    return [
        {**_source(p, pses), "id": pses[p["id"]], "span_ids": [spans[i] for i in p["span_ids"]]}
        for p in state
    ]


def score_rows(collection, ids=None) -> list[dict]:
    """The collection's score rows (work in progress too, with its status), with the original's ids
    mapped to the restored ones'."""
    rows = []
    for row in score_collection(collection, include_in_progress=True):
        row = row.as_dict()
        del row["collection"]
        if ids:
            row["annotation_id"] = ids["peer_annotations"][row["annotation_id"]]
            row["pyramid_id"] = ids["pyramids"][row["pyramid_id"]]
        rows.append(row)
    return rows


def scu_state(pyramid_id) -> list:
    return Builder.reading(pyramid_id).state()


def pse_state(annotation_id) -> list:
    return [
        (
            p.scu.uid if p.scu else 0,
            p.comment,
            [(s.start, s.end) for s in p.spans.order_by("position")],
        )
        for p in PeerAnnotation.objects.get(pk=annotation_id)
        .pses.select_related("scu")
        .order_by("position", "id")
    ]


def with_version(archive, version: int) -> bytes:
    """The archive (bytes, a path or a file) with its archive.json naming another format version:
    an older archive, or one from a newer instance."""
    source = zipfile.ZipFile(io.BytesIO(archive) if isinstance(archive, bytes) else archive)
    changed = io.BytesIO()
    with zipfile.ZipFile(changed, "w") as target:
        for name in source.namelist():
            data = source.read(name)
            if name == "archive.json":
                data = json.dumps({**json.loads(data), "version": version}).encode()
            target.writestr(name, data)
    return changed.getvalue()
