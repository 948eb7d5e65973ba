r"""Benchmark: the builder, the peer page and a merge page in real Chromium, on DUC's largest
pyramid here.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres \
        .venv/bin/python bench/annotation_pages.py

D0640 (DUC 2006, 103 SCUs) and one of its peers, served by gunicorn (production settings) from a
throwaway PostgreSQL database, driven by Playwright in Debian's Chromium at human speed. For each
action: the time from the key press or click to the page's changed DOM, painted (the next frame
after the last change the answer made), median and min–max of several rounds (bench/timing.py).
And the builder page's first load: server time in process (Django's test client), and the
browser's time to first byte. Then a consensus of the two MATTER pyramids (36 groups, as
bench/adjudication.py makes it): a version of one group taken by a click, A's and B's in turn.
With each action, the page's own work for it: its scripts, style recalculation and layout
(Chromium's Performance metrics, through the DevTools protocol).
Targets: every action < 100 ms median, of it <= 15 ms the page's own work; the builder's first
load < 150 ms server time.
"""

from __future__ import annotations

import collections
import os
import socket
import statistics
import subprocess
import sys
import time

from benchdata import data_file, describe, import_matter_pyramids
from benchdb import ROOT, bench_database
from timing import Timing, measure, runs

sys.path.insert(0, str(ROOT))
from tests.human import click, drag_select, press, type_text  # noqa: E402  (the same human-speed input as the tests)

ROUNDS = runs(10)
# BENCH_PROFILE="builder: new SCU" prints where the page's script went in the actions whose name
# holds it (V8's sampling profiler, through the DevTools protocol); BENCH_LINES: how many lines.
PROFILE = os.environ.get("BENCH_PROFILE", "")
LINES = int(os.environ.get("BENCH_LINES", "25"))
# BENCH_PAGES="builder" measures only some of the pages (peer, builder, merge).
PAGES = os.environ.get("BENCH_PAGES", "peer builder merge").split()
PEER = "duc2006-nist/allpans/116.D0640.M.250.D.1.pan"
CHROMIUM = "/usr/bin/chromium"
PASSWORD = "bench-password-1"

# Times what follows a key press or a click: the last change made to the page, and the frame after
# it.
MEASURE = """
window.__bench = { start: 0, last: 0, painted: 0 };
const begin = () => {
  Object.assign(window.__bench, { start: performance.now(), last: 0, painted: 0 });
};
document.addEventListener("keydown", begin, true);
document.addEventListener("click", begin, true);
new MutationObserver(() => {
  if (!window.__bench.start) return;
  const at = performance.now();
  window.__bench.last = at;
  requestAnimationFrame(() => {
    if (window.__bench.last === at) window.__bench.painted = performance.now();
  });
}).observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
"""


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def serve(port: int) -> subprocess.Popen:
    """gunicorn on the bench database, with the production settings (http, so cookies not
    secure)."""
    env = dict(
        os.environ, SECURE_COOKIES="0", DJANGO_SETTINGS_MODULE="config.settings", LOG_LEVEL="ERROR"
    )
    server = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "gunicorn",
            "config.wsgi",
            "--config",
            "config/gunicorn.py",  # as the stack starts them: each worker loads the rankers first
            "-b",
            f"127.0.0.1:{port}",
            "-w",
            "2",
            "--threads",
            "2",
            "--log-level",
            "error",
        ],
        cwd=ROOT,
        env=env,
    )
    for _ in range(100):
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return server
        except OSError:
            time.sleep(0.1)
    server.kill()
    sys.exit("gunicorn did not start")


def settled(page, saved_text: str) -> float:
    """Wait for the status to say the action was saved, then for the page to finish its changes;
    return the milliseconds from the key press or click to the frame after the last change."""
    page.wait_for_function(
        "(text) => { const s = document.getElementById('status'); "
        "return s && s.classList.contains('saved') && s.textContent.includes(text); }",
        arg=saved_text,
    )
    page.wait_for_timeout(150)
    page.wait_for_function("() => window.__bench.painted > 0")
    return page.evaluate("() => window.__bench.painted - window.__bench.start")


def report(name: str, milliseconds: list[float], work: list[dict[str, float]]) -> None:
    """An action's click-to-paint, then the page's own work for it (script, style, layout)."""
    print(f"{name:<42} {Timing.from_milliseconds(milliseconds).format('ms')} (target < 100 ms)")
    total = Timing.from_milliseconds([sum(w.values()) for w in work]).format("ms")
    parts = " + ".join(f"{statistics.median(w[metric] for w in work):.1f}" for metric in PAGE_WORK)
    print(f"{'  of it the page: script + style + layout':<42} {total} (target <= 15 ms)")
    print(f"{'':<42} medians: {parts} ms")


# Chromium's Performance metrics (seconds of the page's main thread since it loaded) that make the
# page's own work: its scripts (htmx and ours), style recalculation and layout.
PAGE_WORK = ("ScriptDuration", "RecalcStyleDuration", "LayoutDuration")


class Timings:
    """Each action's times, by name: click-to-paint, and the page's own work (Chromium's
    Performance metrics, read before the action and once it is painted; the waiting's own checks,
    a small script each frame, are counted in it too)."""

    def __init__(self, page):
        self.page, self.times, self.work, self.profiles = page, {}, {}, {}
        self.devtools = page.context.new_cdp_session(page)
        self.devtools.send("Performance.enable")
        if PROFILE:
            self.devtools.send("Profiler.enable")
            self.devtools.send("Profiler.setSamplingInterval", {"interval": 50})  # microseconds

    def page_work(self) -> dict[str, float]:
        metrics = self.devtools.send("Performance.getMetrics")["metrics"]
        return {m["name"]: m["value"] * 1000 for m in metrics if m["name"] in PAGE_WORK}

    def __call__(self, name: str, saved_text: str, act) -> None:
        profiled = PROFILE and PROFILE in name
        if profiled:
            self.devtools.send("Profiler.start")
        before = self.page_work()
        act()
        self.times.setdefault(name, []).append(settled(self.page, saved_text))
        after = self.page_work()
        self.work.setdefault(name, []).append({m: after[m] - before[m] for m in PAGE_WORK})
        if profiled:
            profile = self.devtools.send("Profiler.stop")["profile"]
            self.profiles.setdefault(name, []).append(profile)

    def report(self) -> None:
        for name, values in self.times.items():
            report(name, values, self.work[name])
            if name in self.profiles:
                print_profile(self.profiles[name])


def print_profile(profiles: list[dict]) -> None:
    """Where the page's script went in these actions (sampled by V8's profiler), per action: each
    function's own time, then with what it called."""
    own: collections.Counter = collections.Counter()
    whole: collections.Counter = collections.Counter()
    for profile in profiles:
        nodes = {node["id"]: node for node in profile["nodes"]}
        parent = {child: n["id"] for n in profile["nodes"] for child in n.get("children", [])}

        def where(node_id, nodes=nodes):
            frame = nodes[node_id]["callFrame"]
            url = frame["url"].rsplit("/", 1)[-1]
            return f"{frame['functionName'] or '(anonymous)'} {url}:{frame['lineNumber'] + 1}"

        for sample, microseconds in zip(profile["samples"], profile["timeDeltas"]):
            own[where(sample)] += microseconds
            seen, at = set(), sample
            while at is not None:
                if (place := where(at)) not in seen:
                    whole[place] += microseconds
                    seen.add(place)
                at = parent.get(at)
    skip = ("(idle)", "(program)", "(root)")
    for title, counter in (("own time", own), ("with what it called", whole)):
        print(f"    {title}, ms per action:")
        shown = [(place, us) for place, us in counter.most_common() if not place.startswith(skip)]
        for place, microseconds in shown[:LINES]:
            print(f"    {microseconds / 1000 / len(profiles):7.2f}  {place}")


def builder_page(page, url: str) -> None:
    """The builder's actions, then its first load as the browser sees it (time to first byte)."""
    builder(page, url)
    first_bytes = []
    for _ in range(ROUNDS):
        page.goto(url)
        first_bytes.append(
            page.evaluate(
                "() => { const n = performance.getEntriesByType('navigation')[0]; return "
                "n.responseStart - n.requestStart; }"
            )
        )
    first_byte = Timing.from_milliseconds(first_bytes)
    print(f"{'builder page: time to first byte (browser)':<42} {first_byte.format('ms')}")


def builder(page, url: str) -> None:
    page.goto(url)
    timed = Timings(page)

    phrases = [
        "nuclear submarine Kursk",
        "the Barents Sea",
        "training mission",
        "international waters",
        "Arctic Circle",
        "trapping 118 sailors",
        "a torpedo",
        "a WWII mine",
        "radiation leaks",
        "the hull",
    ]
    for round_ in range(ROUNDS):
        drag_select(page, "C", phrases[round_ % len(phrases)])  # model C of D0640
        timed("builder: new SCU (n)", "New SCU", lambda: press(page, "n"))
        timed("builder: undo (Ctrl+Z)", "Undid", lambda: press(page, "Control+z"))
        click(page, "#scu-list > .scu:nth-child(3) .label")
        press(page, "l")
        press(page, "Control+a")
        type_text(page, f"Relabelled {round_}")
        timed("builder: relabel (l, typing, Enter)", "Relabelled", lambda: press(page, "Enter"))
        timed(
            "builder: move an SCU down (Alt+Down)",
            "Moved SCU",
            lambda: press(page, "Alt+ArrowDown"),
        )
        timed("builder: move an SCU up (Alt+Up)", "Moved SCU", lambda: press(page, "Alt+ArrowUp"))
        timed("builder: Order (o)", "Ordered", lambda: press(page, "o"))
        timed("builder: undo Order (Ctrl+Z)", "Undid", lambda: press(page, "Control+z"))
    timed.report()


def peer_page(page, url: str) -> None:
    page.goto(url)
    timed = Timings(page)

    # Other words each round: the same words cannot express the same SCU twice.
    clicked = [
        "118 sailors",
        "the sunken nuclear submarine",
        "a top government official",
        "Deputy Prime Minister",
        "the salvage mission",
        "told lawmakers",
        "a contract",
        "initialed Saturday",
        "not name the company",
        "the retrieval work",
    ]
    typed = [
        "Norwegian company",
        "Ilya Klebanov",
        "Russia will hire",
        "retrieve the remains",
        "said Wednesday",
        "who is overseeing",
        "would begin before",
        "could be finished",
        "next month",
        "cautioned that",
    ]
    for round_ in range(ROUNDS):
        drag_select(page, "peer", clicked[round_])
        page.locator("#suggestions li").first.wait_for()
        timed(
            "peer: match by a click on an SCU",
            "Matched",
            lambda: click(page, page.locator("#scu-list .tier .scu-row").first),
        )
        timed("peer: undo (Ctrl+Z)", "Undid", lambda: press(page, "Control+z"))
        timed("peer: redo (Ctrl+Y)", "Redid", lambda: press(page, "Control+y"))
        drag_select(page, "peer", typed[round_])
        page.locator("#suggestions li").first.wait_for()
        press(page, "/")
        type_text(page, "kursk")
        timed("peer: match with / label Enter", "Matched", lambda: press(page, "Enter"))
        click(page, page.locator("#scu-list .pse").first)
        timed("peer: remove a PSE (Delete)", "Removed", lambda: press(page, "Delete"))
        timed("peer: undo the removal", "Undid", lambda: press(page, "Control+z"))
    timed.report()


def merge_page(page, url: str, group: str) -> None:
    """Decisions on a consensus pyramid's merge page: one group's version taken, A's then B's."""
    page.goto(url)
    timed = Timings(page)
    for _ in range(ROUNDS):
        for side in "ab":
            button = page.locator(f"[id='take-{side}-{group}']")
            timed("merge page: take a version (click)", "chose", lambda b=button: click(page, b))
    timed.report()


def consensus_of_two(user):
    """The two independent MATTER pyramids (as bench/adjudication.py aligns them), merged into a
    consensus: the consensus and a group both have SCUs in."""
    from annotator.adjudication import pyramid_consensus
    from annotator.models import Pyramid

    a, b = import_matter_pyramids()
    pyramid_consensus.start(a, b, user)
    consensus = Pyramid.objects.get(merge__isnull=False)
    group = next(
        g["key"] for g in consensus.merge.groups if g["a"] and g["b"] and g["kind"] != "identical"
    )
    return consensus, group


def first_suggestions(annotation, user) -> None:
    """The suggestions of a server just started, request by request: the first each worker gives
    against the later ones (issue 32: 0.9-2.6 s for a worker's first, before the workers loaded the
    rankers as they start and shared the pyramids' prepared indexes)."""
    import urllib.request

    from django.conf import settings
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
    from django.contrib.sessions.backends.db import SessionStore
    from django.urls import reverse

    session = SessionStore()
    session[SESSION_KEY] = str(user.pk)  # signed in, as the login page leaves a session
    session[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
    session[HASH_SESSION_KEY] = user.get_session_auth_hash()
    session.save()
    port = free_port()
    server = serve(port)
    url = f"http://127.0.0.1:{port}" + reverse("annotation-suggestions", args=[annotation.pk])
    times = []
    try:
        for start in range(0, 60, 6):
            request = urllib.request.Request(
                f"{url}?start={start}&end={start + 20}",
                headers={"Cookie": f"{settings.SESSION_COOKIE_NAME}={session.session_key}"},
            )
            began = time.perf_counter()
            with urllib.request.urlopen(request) as answer:
                assert answer.status == 200
                answer.read()
            times.append((time.perf_counter() - began) * 1000)
    finally:
        server.terminate()
        server.wait()
    first, later = ", ".join(f"{t:.0f} ms" for t in times[:2]), Timing.from_milliseconds(times[2:])
    print(
        f"{'suggestions of a new server: first per worker':<42} {first}; later {later.format('ms')}"
    )


def main() -> None:
    from django.contrib.auth import get_user_model
    from django.test import Client
    from django.urls import reverse
    from playwright.sync_api import sync_playwright

    from annotator.models import Assignment, PeerAnnotation, Pyramid
    from annotator.pyramids import editing
    from annotator.transfer.importing import DucviewImporter

    # Playwright's sync API runs an event loop in this thread; the database work here is our own.
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    print(describe([data_file(PEER)]))
    DucviewImporter("bench").import_file(data_file(PEER))
    source = PeerAnnotation.objects.get()
    users = get_user_model().objects
    admin = users.create_superuser("admin", password=PASSWORD)
    annotator = users.create_user("annotator", password=PASSWORD)
    Assignment.objects.create(
        user=annotator, task=Assignment.Task.ANNOTATE_PEER, pyramid=source.pyramid, peer=source.peer
    )
    annotation = PeerAnnotation.objects.create(
        pyramid=source.pyramid, peer=source.peer, annotator=annotator
    )
    # The peer page first, against the submitted pyramid; then the same pyramid reopened to build.
    built = source.pyramid
    builder_user = users.create_user("builder", password=PASSWORD)
    Assignment.objects.create(user=builder_user, task=Assignment.Task.BUILD_PYRAMID, pyramid=built)
    print(
        f"D0640: {built.scus.count()} SCUs, peer {source.peer.author} "
        f"({len(source.peer.text.split())} words)"
    )

    first_suggestions(annotation, annotator)
    port = free_port()
    server = serve(port)
    base = f"http://127.0.0.1:{port}"
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(
                executable_path=CHROMIUM,
                args=[
                    "--no-sandbox",
                    "--disable-gpu",
                    "--disable-background-networking",
                    "--disable-component-update",
                ],
            )

            def session(username):
                page = browser.new_context(viewport={"width": 1440, "height": 900}).new_page()
                page.add_init_script(MEASURE)
                page.goto(base + "/")
                page.fill("#id_username", username)
                page.fill("#id_password", PASSWORD)
                page.click("button[type=submit]")
                return page

            if "peer" in PAGES:
                peer_page(
                    session("annotator"), base + reverse("annotation-detail", args=[annotation.pk])
                )
            editing.reopen(built.pk, admin, Pyramid.objects.get(pk=built.pk).version)
            if "builder" in PAGES:
                builder_page(session("builder"), base + reverse("pyramid-detail", args=[built.pk]))
            if "merge" in PAGES:
                consensus, group = consensus_of_two(admin)
                merge_page(
                    session("admin"), base + reverse("pyramid-merge", args=[consensus.pk]), group
                )
            browser.close()
    finally:
        server.terminate()
        server.wait()

    client = Client(SERVER_NAME="localhost")
    client.force_login(builder_user)
    url = reverse("pyramid-detail", args=[built.pk])
    server = measure(lambda: client.get(url), runs(20))
    assert server.value.status_code == 200
    print(f"{'builder page: first load, server time':<42} {server.format('ms')} (target < 150 ms)")


if __name__ == "__main__":
    with bench_database():
        main()
