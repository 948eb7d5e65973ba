r"""Benchmark: the whole-collection pages and commands at 1x, 10x and 50x a DUC year (issue 19).

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres .venv/bin/python bench/scale.py \
        [--scales 1,10,50] [--runs 3]

A DUC year is about YEAR = 462 peer annotations; 50x is about 23,000, a campaign of a few years.
The collection is made once from DUC 2006 (../shared's duc2006-nist, or the full package
PYRAMID_FULL_DATA names: bench/benchdata.py), imported by the importer, then prepared:
- each annotator id gets a user ("annotator-100"), set as its annotations' annotator (the
  annotator id stays, so the scores are NIST's), and each docset a second pyramid, copied from the
  first with every fifth contributor moved to the next SCU, so that `agreement --kind pyramids`
  has pairs;
- one Assignment per peer annotation (to its annotator's user) and per pyramid (to "builder"), so
  that the progress page has its rows.
Then, scale by scale, the collection grows by copies of these records under renamed docsets
("D0601-2"): one INSERT ... SELECT per table with the ids shifted (bench/copies.py), no import;
then its stored scores are brought up to date, as the task an import enqueues does, and the
database vacuumed and analyzed (at rest, as autovacuum leaves it soon after). At each
scale, per item, median server time (min–max of --runs runs), the response's size in bytes and
its SQL queries (django.test.Client, logged in as a superuser, DEBUG off; for a streamed response
also the time to its first chunk, the whole content read); and per command (call_command, output
to memory) wall and CPU time (time.process_time), output size and SQL queries. A table of the
medians by scale closes the run. Uses a database of its own, dropped at the end
(bench/benchdb.py).
"""

import argparse
import io
import math
import time
from dataclasses import dataclass, field

from benchdata import describe, package_folders
from benchdb import bench_database
from timing import Timing, measure, number

YEAR = 462  # peer annotations in a DUC year (DUC 2006: 462 .pan files)
COLLECTION = "DUC 2006 at scale"


@dataclass
class Result:
    """One item's figures at one scale (or why it failed)."""

    timing: Timing | None = None
    size: int = 0
    queries: int = 0
    first_chunk: list[float] = field(default_factory=list)
    error: str = ""


def arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--scales", default="1,10,50", help="multiples of a DUC year (1,10,50)")
    parser.add_argument("--runs", type=int, default=3, help="runs of each item (3)")
    parser.add_argument(
        "--skip",
        default="",
        help='items left out, by the start of their label, comma-separated ("agreement --kind")',
    )
    parser.add_argument(
        "--only",
        default="",
        help='the only items measured, by the start of their label ("scores ?view")',
    )
    parser.add_argument(
        "--profile",
        action="store_true",
        help="after its runs, profile one more run of each item and print its top functions",
    )
    return parser.parse_args()


def get(client, url: str, result: Result):
    """One request: the whole content read (a streamed one chunk by chunk), its size kept."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as queries:
        started = time.perf_counter()
        response = client.get(url)
        if response.status_code != 200:
            raise RuntimeError(f"answered {response.status_code}")
        if getattr(response, "streaming", False):
            chunks = iter(response.streaming_content)
            first = next(chunks, b"")
            result.first_chunk.append(time.perf_counter() - started)
            size = len(first) + sum(len(chunk) for chunk in chunks)
        else:
            size = len(response.content)
        response.close()
    result.size, result.queries = size, len(queries)


def command(name: str, options: dict, result: Result):
    """One command, its output written to memory."""
    from django.core.management import call_command
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    out = io.StringIO()
    with CaptureQueriesContext(connection) as queries:
        call_command(name, stdout=out, stderr=io.StringIO(), **options)
    result.size, result.queries = len(out.getvalue().encode()), len(queries)


def profiled(call) -> None:
    """One more run of `call` under cProfile: its 25 costliest functions, cumulative time."""
    import cProfile
    import pstats

    profile = cProfile.Profile()
    profile.runcall(call, Result())
    pstats.Stats(profile).sort_stats("cumulative").print_stats(25)


def measured(label: str, options: argparse.Namespace) -> bool:
    def starts(names: str) -> bool:
        return any(label.startswith(name) for name in names.split(",") if name)

    return not starts(options.skip) and (not options.only or starts(options.only))


def timed(call, runs: int) -> Result:
    result = Result()
    try:
        result.timing = measure(lambda: call(result), runs)
    except Exception as error:  # noqa: BLE001 (a failure at scale is a finding: reported, run goes on)
        result.error = f"{type(error).__name__}: {error}"[:120]
    return result


def items(client, collection) -> list[tuple[str, object]]:
    """What is measured: (label, a call filling a Result)."""
    from django.urls import reverse

    scores = reverse("collection-scores", args=[collection.pk])
    pages = [
        ("scores page", scores),
        ("scores ?sort=-modified", scores + "?sort=-modified"),
        ("scores ?view=systems", scores + "?view=systems"),
    ]
    first = client.get(scores)
    content = b"".join(first.streaming_content) if first.streaming else first.content
    if b"page=2" in content:  # paginated pages only
        pages.append(("scores ?page=2", scores + "?page=2"))
    pages += [
        ("progress page", reverse("collection-progress", args=[collection.pk])),
        ("/api/scores/", reverse("api-scores") + f"?collection={collection.pk}"),
        *((f"export ?format={f}", scores + f"?format={f}") for f in ("csv", "json", "duc")),
    ]
    calls = [(label, lambda result, url=url: get(client, url, result)) for label, url in pages]
    name = {"collection": collection.name}
    commands = [
        *(
            (f"export_scores --format {f}", "export_scores", {**name, "format": f})
            for f in ("csv", "json", "duc")
        ),
        ("ranking", "ranking", name),
        ("agreement --kind peers", "agreement", {**name, "kind": "peers"}),
        ("agreement --kind pyramids", "agreement", {**name, "kind": "pyramids"}),
    ]
    calls += [(label, lambda result, c=c, o=o: command(c, o, result)) for label, c, o in commands]
    return calls


def row(label: str, result: Result) -> str:
    if result.error:
        return f"  {label:<28} FAILED {result.error}"
    timing = result.timing
    assert timing is not None
    first = Timing(tuple(result.first_chunk)) if result.first_chunk else None
    return (
        f"  {label:<28} {timing.format('ms'):<46} cpu {number(timing.cpu.median * 1000):>6} ms"
        f"  {result.size:>11,} B  {result.queries:>4} q"
        + (f"  first chunk {first.format('ms')}" if first else "")
    )


def summary(scales: list[int], results: dict[int, dict[str, Result]]) -> None:
    """Medians by scale: linear growth and page weight side by side."""
    print("\nmedians by scale (wall ms | bytes | queries)")
    labels = list(results[scales[0]])
    print(f"  {'':<28}" + "".join(f"{f'{s}x':>30}" for s in scales))
    for label in labels:
        cells = []
        for scale in scales:
            result = results[scale].get(label)
            if result is None or result.timing is None:
                cells.append(f"{'failed' if result else '-':>30}")
                continue
            cells.append(
                f"{number(result.timing.median * 1000):>10} | {result.size:>11,} | "
                f"{result.queries:>3}"
            )
        print(f"  {label:<28}" + "".join(cells))


def main() -> None:
    import copies
    from django.contrib.auth import get_user_model
    from django.db import connection
    from django.test import Client

    from annotator.models import Collection, PeerAnnotation
    from annotator.transfer.importing import DucviewImporter, ducview_files
    from scoring.agreement.records import keep_pyramid_agreement
    from scoring.scores.score_table import refresh_collection_scores
    from scoring.scores.system_means import keep_system_means

    options = arguments()
    scales = sorted(int(s) for s in options.scales.split(","))
    files = ducview_files(package_folders(["duc2006-nist"]))
    print(describe(files))

    started = time.perf_counter()
    importer = DucviewImporter(COLLECTION)
    for path in files:
        importer.import_file(path)
    if importer.report.failures:
        raise SystemExit(f"import failed: {importer.report.failures[:3]}")
    collection = Collection.objects.get(name=COLLECTION)
    copies.prepare(collection)
    seed = copies.Seed.of(collection)
    print(
        f"seed: {seed.annotations} peer annotations, {seed.pyramids} pyramids, imported and "
        f"prepared in {time.perf_counter() - started:.1f} s"
    )
    client = Client(SERVER_NAME="localhost")
    client.force_login(get_user_model().objects.create_superuser("bench-admin"))

    results: dict[int, dict[str, Result]] = {}
    for scale in scales:
        wanted = math.ceil(scale * YEAR / seed.annotations)
        started = time.perf_counter()
        seed.grow_to(wanted)
        grown = time.perf_counter() - started
        total = PeerAnnotation.objects.filter(pyramid__docset__collection=collection).count()
        # As an import leaves a collection: its stored scores, system means and pyramid agreement
        # brought up to date by the tasks the import enqueues (scoring.apps), which no worker runs
        # here; copies are not imports.
        started = time.perf_counter()
        refreshed = refresh_collection_scores.call(collection.pk)
        stored = time.perf_counter() - started
        started = time.perf_counter()
        compared = keep_pyramid_agreement.call(collection.pk)
        kept = time.perf_counter() - started
        started = time.perf_counter()
        systems = keep_system_means.call(collection.pk)
        averaged = time.perf_counter() - started
        # At rest, as autovacuum soon leaves tables that grew this much: the planner's statistics
        # current, and no autovacuum of the copies competing with the pages for the two cores.
        with connection.cursor() as cursor:
            cursor.execute("VACUUM ANALYZE")
        print(
            f"\n{scale}x a DUC year: {total:,} peer annotations ({wanted} copies of the seed; "
            f"grown in {grown:.1f} s; the stored scores of {refreshed:,} brought up to date in "
            f"{stored:.1f} s; the pyramid agreement of {compared:,} docsets kept in {kept:.1f} s; "
            f"the means of {systems} systems in {averaged:.2f} s); "
            f"{options.runs} run(s) each",
            flush=True,
        )
        results[scale] = {}
        for label, call in items(client, collection):
            if not measured(label, options):
                continue
            results[scale][label] = result = timed(call, options.runs)
            print(row(label, result), flush=True)
            if options.profile:
                profiled(call)
    summary(scales, results)


if __name__ == "__main__":
    with bench_database():
        main()
