"""Small helpers shared by the database tests."""

from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command

from annotator.models import (
    PSE,
    SCU,
    Collection,
    Contributor,
    Docset,
    PeerAnnotation,
    PSESpan,
    Pyramid,
    Span,
    Summary,
)

RECORD_MODELS = [
    Collection,
    Docset,
    Summary,
    Pyramid,
    SCU,
    Contributor,
    Span,
    PeerAnnotation,
    PSE,
    PSESpan,
]


def record_counts() -> dict[str, int]:
    return {model.__name__: model.objects.count() for model in RECORD_MODELS}


def run(command: str, *args, **options) -> tuple[str, str]:
    """Run a management command; return what it wrote to stdout and stderr."""
    out, err = StringIO(), StringIO()
    call_command(command, *args, stdout=out, stderr=err, **options)
    return out.getvalue(), err.getvalue()


def import_files(*paths, collection="Test", **options) -> str:
    out, _ = run(
        "import_ducview",
        *[str(p) for p in paths],
        collection=collection,
        no_progress=True,
        **options,
    )
    return out


def empty_pyramid(demo, name="new", assign_to="outsider"):
    """A pyramid in progress over the demo's four models, with no SCU, assigned to a demo user."""
    from annotator.models import Assignment, Pyramid, PyramidModel

    source = demo["pyramid"]
    pyramid = Pyramid.objects.create(
        docset=source.docset, name=name, status=Pyramid.Status.IN_PROGRESS
    )
    PyramidModel.objects.bulk_create(
        PyramidModel(pyramid=pyramid, summary_id=link.summary_id, position=link.position)
        for link in source.model_links.all()
    )
    Assignment.objects.create(user=demo[assign_to], task="pyramid", pyramid=pyramid)
    return pyramid


class Builder:
    """A fresh pyramid over the demo's four models, edited by an assigned annotator."""

    def __init__(self, demo, name="new", user="outsider"):
        self.pyramid = empty_pyramid(demo, name=name, assign_to=user)
        self.models = {summary.author: summary for summary in self.pyramid.models_used.all()}
        self.user = demo[user]

    @classmethod
    def reading(cls, pyramid_id):
        """A Builder over an existing pyramid, to read what is stored (`state()`)."""
        build = cls.__new__(cls)
        build.pyramid = Pyramid.objects.get(pk=pyramid_id)
        return build

    @property
    def version(self):
        return Pyramid.objects.get(pk=self.pyramid.pk).version

    def where(self, author, phrase):
        text = self.models[author].text
        start = text.index(phrase)
        return self.models[author].id, [(start, start + len(phrase))]

    def do(self, operation, *args, **kwargs):
        from annotator.pyramids import editing

        return getattr(editing, operation)(
            self.pyramid.pk, self.user, self.version, *args, **kwargs
        )

    def new_scu(self, author, phrase, **kwargs):
        summary, ranges = self.where(author, phrase)
        return self.do("new_scu", summary, ranges, **kwargs)

    def add(self, uid, author, phrase):
        summary, ranges = self.where(author, phrase)
        return self.do("add_contributor", uid, summary, ranges)

    def contributor(self, **filters):
        return Contributor.objects.get(scu__pyramid=self.pyramid, **filters)

    def span(self, **filters):
        return Span.objects.get(contributor__scu__pyramid=self.pyramid, **filters)

    def state(self):
        """Every SCU as (uid, label, {author: [texts]}) in display order."""
        result = []
        for scu in SCU.objects.filter(pyramid=self.pyramid).order_by("position"):
            contributors = {}
            for contributor in scu.contributors.select_related("summary"):
                contributors[contributor.summary.author] = [
                    contributor.summary.text[s.start : s.end]
                    for s in contributor.spans.order_by("position")
                ]
            result.append((scu.uid, scu.label, contributors))
        return result


def complete_consensus_of_peer_1(demo, mine_complete: bool = False):
    """The annotator's own annotation of demo peer 1 (one zero-weight PSE; still in progress, or
    marked complete first with `mine_complete`, as the adjudication queue offers two submitted
    annotations), merged with the demo's by an administrator taking the demo's reading everywhere,
    and marked complete."""
    from annotator.adjudication import annotation_consensus
    from annotator.peer_annotation import editing as peer_editing

    theirs = demo["annotations"]["1"]
    mine = PeerAnnotation.objects.create(
        pyramid=demo["pyramid"], peer=theirs.peer, annotator=demo["annotator"]
    )
    peer_editing.assign(mine.pk, demo["annotator"], mine.version, [(0, 9)], 0)
    if mine_complete:
        peer_editing.complete(mine.pk, demo["annotator"], mine.version + 1)
    consensus = annotation_consensus.start([theirs, mine], demo["admin"])
    for uid in annotation_consensus.undecided_scus(consensus):
        consensus.refresh_from_db()
        annotation_consensus.choose(consensus.pk, demo["admin"], consensus.version, uid, theirs.pk)
    consensus.refresh_from_db()
    peer_editing.complete(consensus.pk, demo["admin"], consensus.version)
    return consensus


def decisions_stored(consensus) -> dict:
    """{group key: choice} of a consensus pyramid's decisions, as the database holds them."""
    from annotator.adjudication import pyramid_consensus

    return {
        key: change.decision["choice"]
        for key, change in pyramid_consensus.decisions(consensus).items()
    }


def submitted_consensus(pair, side: str = "a"):
    """The consensus of the `pair` fixture's pyramids, every group decided as `side`'s version,
    submitted."""
    from annotator.adjudication import pyramid_consensus
    from annotator.models import Pyramid
    from annotator.pyramids import editing

    user = pair["adjudicator"]
    consensus = pyramid_consensus.start(pair["a"], pair["b"], user)
    for key in editing.undecided_groups(consensus):
        pyramid_consensus.choose(
            consensus.pk, user, Pyramid.objects.get(pk=consensus.pk).version, key, side
        )
    editing.submit(consensus.pk, user, Pyramid.objects.get(pk=consensus.pk).version)
    return Pyramid.objects.get(pk=consensus.pk)


def annotated_whole(pyramid, peer, code: str, by, complete: bool = False):
    """An annotation (annotator id `code`) whose one PSE is the whole peer matching nothing (SCU 0),
    by `by`; in progress, or marked complete (submitted) with `complete`."""
    from annotator.models import PeerAnnotation
    from annotator.peer_annotation import editing as peer_editing

    annotation = PeerAnnotation.objects.create(pyramid=pyramid, peer=peer, annotator_code=code)
    peer_editing.assign(annotation.pk, by, annotation.version, [(0, len(peer.text))], 0)
    if complete:
        peer_editing.complete(annotation.pk, by, annotation.version + 1)
        annotation.refresh_from_db()
    return annotation


NUL = (
    "\x00"  # PostgreSQL text cannot hold it: every input refuses it before it reaches the database
)


def refuses_nul(response, field: str, status: int = 400) -> bool:
    """Whether `response` refuses a NUL character in `field` with `status` and a message naming the
    field (the 400 page, the editing pages' status line, or the API's JSON alike)."""
    return (
        response.status_code == status
        and f"“{field}” holds a NUL character" in response.content.decode()
    )


def stored_job(model, content: bytes = b"", **fields):
    """A background job (ImportJob, ArchiveJob) with its bytes stored as the pages store them
    (annotator.transfer.job_bytes)."""
    from annotator.transfer import job_bytes

    job = model.objects.create(**fields)
    if content:
        job_bytes.store(job, content)
    return job


def job_content(job) -> bytes:
    from annotator.transfer import job_bytes

    return job_bytes.read(job)


def body(response) -> bytes:
    """A response's bytes, whether streamed (the score downloads) or not."""
    if response.streaming:
        return b"".join(response.streaming_content)
    return response.content


def write(folder: Path, name: str, data: bytes) -> Path:
    """A file of `data` at `folder`/`name`, its folders made."""
    path = folder / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    return path


def spoil_stored_scores() -> None:
    """A third of the stored scores (scoring.models.StoredScore) stale, with other numbers and an
    older edit's time, another third missing: what the readers of stored scores must see through
    (scoring.scores.score_table.current_stored_rows)."""
    from scoring.models import StoredScore

    stale = StoredScore.objects.order_by("pk")[::3]
    for stored in stale:
        stored.modified = stored.original = stored.coverage = 999.0
        stored.annotation_updated_at = stored.annotation_updated_at.replace(year=2000)
    StoredScore.objects.bulk_update(
        stale, ["modified", "original", "coverage", "annotation_updated_at"]
    )
    gone = [stored.pk for stored in StoredScore.objects.order_by("pk")[1::3]]
    StoredScore.objects.filter(pk__in=gone).delete()


def undo_and_redo_after(step) -> tuple[bool, bool]:
    """Whether the answer to an undo or a redo (`step()` posts it) enables Undo and Redo, asserting
    it knew without asking the undo stack in a query of its own (issue 32)."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as queries:
        page = step().content.decode()
    assert not [q for q in queries if q["sql"].startswith("SELECT DISTINCT")]
    return tuple(  # type: ignore[return-value]
        f'data-act="{act}" title="{key}" >' in page
        for act, key in (("undo", "Ctrl+Z"), ("redo", "Ctrl+Y"))
    )


def means_equal(found, expected):
    """System means equal to the last bits the database's sums may change
    (scoring.scores.score_table.
    current_system_means): the same systems in the same order, docsets and rows in progress."""
    assert [(m.peer, m.docsets, m.in_progress) for m in found] == [
        (m.peer, m.docsets, m.in_progress) for m in expected
    ]
    for a, b in zip(found, expected):
        for name in ("modified", "original", "coverage", "comprehensive"):
            assert getattr(a, name) == pytest.approx(getattr(b, name), rel=1e-14, abs=1e-15)


def import_duc2006(shared_data, *docsets: str) -> Collection:
    """NIST's DUC 2006 pyramids and peer annotations of `docsets` (../shared's duc2006-nist),
    imported as the collection "DUC 2006"."""
    folder = shared_data / "duc2006-nist"
    annotations = [sorted((folder / "allpans").glob(f"*.{docset}.*.pan")) for docset in docsets]
    import_files(
        *(folder / "allpyramids" / f"{docset}.pyr" for docset in docsets),
        *(path for paths in annotations for path in paths),
        collection="DUC 2006",
    )
    return Collection.objects.get(name="DUC 2006")


# NIST's official score tables of the shared DUC folders (../shared/data/pyramids).
NIST_TABLES = {
    "duc2006-nist": "scoring/2006_modified_scores.txt",
    "duc2007-main-nist": "scoring/2007_modified_scores.txt",
    "duc2007-update-nist": "scoring/2007_modified_scores.txt",
}


def nist_rows(shared_data, folder: str) -> dict[tuple[str, str, str], tuple[str, int, int]]:
    """{(setid, peerid, annotator or ""): (score, numSCUs, numrepetitions)} of an official table,
    the score as NIST prints it (0.046, 0)."""
    import csv

    rows = {}
    with open(shared_data / folder / NIST_TABLES[folder]) as table:
        for fields in csv.reader(table, delimiter="\t"):
            if len(fields) < 5:
                continue
            # The 2006 and 2007 update tables have the annotator in column 6; 2007 main has none.
            annotator = fields[5] if folder != "duc2007-main-nist" else ""
            rows[(fields[0], fields[1], annotator)] = (fields[2], int(fields[3]), int(fields[4]))
    return rows


def migrate(targets):
    """The database migrated to `targets` ([(app, migration)]); the apps as they were there (their
    historical models), for tests of a migration's data step."""
    from django.db import connection
    from django.db.migrations.executor import MigrationExecutor

    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps


def latest_migrations():
    """Every app's last migration: where `migrate` goes back to after a test."""
    from django.db import connection
    from django.db.migrations.executor import MigrationExecutor

    return MigrationExecutor(connection).loader.graph.leaf_nodes()


def planner_statistics_current() -> None:
    """ANALYZE, on PostgreSQL, before a test reads back thousands of rows it has just written in its
    own transaction: autovacuum cannot see them, and with the statistics of empty tables the
    planner may join seven tables by nested loops (a CI run spent 14 minutes on one such query)."""
    from django.db import connection

    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("ANALYZE")
