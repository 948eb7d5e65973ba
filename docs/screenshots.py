"""The guide's screenshots (and the README's), regenerated from the demo in real Chromium.

    .venv/bin/python docs/screenshots.py            # writes docs/img/builder.png, peer-page.png,
                                                    # report.png, judging.png
    .venv/bin/python docs/screenshots.py --out DIR  # somewhere else

It needs the test extras (`pip install -e '.[test]'`, for Playwright) and Debian's Chromium at
/usr/bin/chromium (`apt-get install -y chromium`; Playwright's own browser download is not used).

From nothing, and leaving nothing behind: `manage.py rundemo` (migrate, the demo data, the login
demo / pyramid-demo, the development server) runs in a subprocess against a throwaway SQLite
database in a temporary directory, on a free port; Chromium logs in as `demo` at 1280x720 (device
scale 1) and takes four pictures of the demo's finished example (its submitted pyramid, the one
with the most submitted peer annotations, found through the API rather than by id):

- report.png     "Pyramid size and stability" of that pyramid (a plot and its table), opened from
                 the collection's Reports page;
- peer-page.png  one of its peer annotations, reopened, with peer words selected and the SCUs the
                 page suggests for them;
- builder.png    the pyramid, reopened in the builder, the first SCU of its list selected (in the
                 demo the heaviest: its contributors lit in all four models);
- judging.png    the judging page of a SEE judgment task (a unit set of the demo's first model,
                 made and given to `demo` through the app's own services before the browser
                 opens it), its first unit answered "most" and a sentence of the peer marked.

The report is taken first, while every annotation is still submitted. Then the server is stopped and
the temporary directory removed, whether the pictures were taken or not.
"""

from __future__ import annotations

import argparse
import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM = "/usr/bin/chromium"
VIEWPORT = {"width": 1280, "height": 720}
USERNAME, PASSWORD = "demo", "pyramid-demo"  # what rundemo creates
# Peer words worth selecting in the demo (the page then suggests SCU 7 first). Should the demo
# change, the script selects the last sentence of the peer instead.
PEER_PHRASE = "Millions of people watched the landing on television"

# Two animation frames: what the last answer swapped in is laid out, and the fonts are in.
SETTLED = """async () => { await document.fonts.ready;
  await new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))); }"""

# Where to press and where to let go to drag over `phrase` in a text (data-author="peer"): the left
# edge of its first character and the right edge of its last, the text scrolled into view first.
DRAG_ENDS = """([author, phrase]) => {
  const box = document.querySelector(`.text[data-author="${author}"]`);
  box.scrollIntoView({ block: "nearest" });
  const full = box.textContent;
  let start = full.indexOf(phrase);
  if (start < 0) return null;
  const walker = document.createTreeWalker(box, NodeFilter.SHOW_TEXT);
  const at = (offset) => {
    let node, seen = 0;
    while ((node = walker.nextNode())) {
      if (offset < seen + node.data.length) return [node, offset - seen];
      seen += node.data.length;
    }
  };
  const box_of = (offset) => {
    walker.currentNode = box;
    const [node, index] = at(offset);
    const range = document.createRange();
    range.setStart(node, index);
    range.setEnd(node, index + 1);
    return range.getBoundingClientRect();
  };
  const first = box_of(start), last = box_of(start + phrase.length - 1);
  return [[first.left + 1, first.top + first.height / 2],
          [last.right - 1, last.top + last.height / 2]];
}"""


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def server_environment(data: Path) -> dict:
    return dict(
        os.environ,
        DATABASE_URL=f"sqlite:///{data / 'db.sqlite3'}",
        DEBUG="1",
        DJANGO_SETTINGS_MODULE="config.settings",
        TASKS_BACKEND="immediate",
        GUIDE_ROOT=str(data / "site"),  # rundemo builds the guide: there, not into the checkout
        PYTHONUNBUFFERED="1",
    )


def start_server(data: Path, port: int) -> subprocess.Popen:
    """`manage.py rundemo` on a SQLite database in `data`; returns once it answers."""
    env = server_environment(data)
    log = (data / "server.log").open("wb")
    server = subprocess.Popen(
        [sys.executable, "manage.py", "rundemo", f"127.0.0.1:{port}"],
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
        stdin=subprocess.DEVNULL,
    )
    print(f"server: pid {server.pid}, port {port}", flush=True)
    deadline = time.monotonic() + 180
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise RuntimeError(
                f"rundemo stopped ({server.returncode}):\n{(data / 'server.log').read_text()}"
            )
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz/", timeout=2):
                return server
        except (urllib.error.URLError, OSError):
            time.sleep(0.3)
    stop_server(server)
    raise RuntimeError(f"rundemo did not answer within 180 s:\n{(data / 'server.log').read_text()}")


# A SEE unit set of the demo docset's first model, its peers given to demo to judge: made by the
# app's own services (annotator.coverage), in the server's database, as an administrator would on
# the docset's and the progress pages.
PREPARE_JUDGING = """
from django.contrib.auth import get_user_model
from annotator.campaigns.models import Docset, Summary
from annotator.coverage.judging_assignment import assign_judging
from annotator.coverage.models import UnitSet
from annotator.coverage.unit_sets import see_unit_sets
demo = get_user_model().objects.get(username="demo")
docset = Docset.objects.filter(summaries__kind=Summary.Kind.MODEL).order_by("pk").first()
model = docset.summaries.filter(kind=Summary.Kind.MODEL).order_by("author").first()
unit_sets = see_unit_sets(docset, [model], UnitSet.Scale.FIVE_POINT)
print(assign_judging(unit_sets, [demo], by=demo).summary)
"""


def prepare_judging(data: Path) -> None:
    result = subprocess.run(
        [sys.executable, "manage.py", "shell", "-c", PREPARE_JUDGING],
        cwd=ROOT,
        env=server_environment(data),
        capture_output=True,
        text=True,
    )
    if result.returncode != 0:
        raise RuntimeError(f"the judging task was not made:\n{result.stdout}{result.stderr}")
    print(f"judging: {result.stdout.strip()}", flush=True)


def stop_server(server: subprocess.Popen) -> None:
    if server.poll() is None:
        server.terminate()
        try:
            server.wait(timeout=15)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()


def settle(page) -> None:
    page.wait_for_load_state("networkidle")
    page.evaluate(SETTLED)


def api(page, base: str, path: str) -> list[dict] | dict:
    """A record, or every record of a list (all its pages), through the API with the page's
    session."""
    url, records = base + path, []
    while url:
        response = page.request.get(url)
        if not response.ok:
            raise RuntimeError(f"GET {url}: {response.status}")
        body = response.json()
        if not (isinstance(body, dict) and "results" in body):
            return body
        records += body["results"]
        url = body.get("next")
    return records


def finished_example(page, base: str) -> dict:
    """The demo's finished example: the submitted pyramid with the most submitted peer annotations,
    its collection, and the annotation to show (the one whose peer holds PEER_PHRASE, else the
    first)."""
    annotations = [
        a for a in api(page, base, "/api/peer-annotations/") if a["status"] == "submitted"
    ]
    pyramids = [p for p in api(page, base, "/api/pyramids/") if p["status"] == "submitted"]
    done = {p["id"]: [a for a in annotations if a["pyramid"] == p["id"]] for p in pyramids}
    pyramid = max(pyramids, key=lambda p: (len(done[p["id"]]), -p["id"]))
    if not done[pyramid["id"]]:
        raise RuntimeError("the demo has no submitted pyramid with submitted peer annotations")
    docset = api(page, base, f"/api/docsets/{pyramid['docset']}/")
    peers = {
        a["id"]: api(page, base, f"/api/summaries/{a['peer']}/")["text"]
        for a in done[pyramid["id"]]
    }
    chosen = sorted(
        done[pyramid["id"]], key=lambda a: (PEER_PHRASE not in peers[a["id"]], a["id"])
    )[0]
    text = peers[chosen["id"]]
    last_line = [line for line in text.splitlines() if line.strip()][-1]
    phrase = (
        PEER_PHRASE
        if PEER_PHRASE in text
        else [s for s in last_line.split(". ") if s.strip()][-1].strip().rstrip(".")
    )
    return {
        "pyramid": pyramid["id"],
        "collection": docset["collection"],
        "annotation": chosen["id"],
        "phrase": phrase,
    }


def reopen(page) -> None:
    """Reopen a submitted pyramid or annotation (the demo's are finished), then load it afresh."""
    button = page.locator("button[data-act=reopen]")
    if button.count():
        button.first.click()
        page.locator("button[data-act=undo]").wait_for()
        page.reload()
    settle(page)


def take(out: Path, base: str) -> list[Path]:
    from playwright.sync_api import TimeoutError as PlaywrightTimeout
    from playwright.sync_api import sync_playwright

    written = []
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
        try:
            page = browser.new_context(viewport=VIEWPORT, device_scale_factor=1).new_page()
            page.on("dialog", lambda dialog: dialog.accept())  # "Reopen …?" and the like
            page.set_default_timeout(30_000)
            page.goto(base + "/")
            page.fill("#id_username", USERNAME)
            page.fill("#id_password", PASSWORD)
            page.click("button[type=submit]")
            page.wait_for_url(lambda url: "/accounts/login/" not in url)
            example = finished_example(page, base)

            def shot(name: str) -> None:
                page.mouse.move(1, VIEWPORT["height"] - 1)  # no hover effects but the ones wanted
                settle(page)
                path = out / name
                page.screenshot(path=str(path))
                written.append(path)
                print(f"wrote {path}", flush=True)

            # The report: from the collection's page to its Reports, "Pyramid size and stability" of
            # the pyramid.
            page.goto(base + "/")
            page.locator(f"a[href='/collections/{example['collection']}/']").first.click()
            page.locator(f"a[href='/collections/{example['collection']}/reports/']").first.click()
            form = page.locator("form[action$='/reports/stability/']")
            form.locator("select[name=pyramid]").select_option(str(example["pyramid"]))
            form.locator("button[type=submit]").click()
            page.locator("#report svg.plot").first.wait_for(timeout=120_000)
            shot("report.png")

            # A peer annotation, reopened, peer words selected: the SCUs the page suggests for them.
            page.goto(f"{base}/annotations/{example['annotation']}/")
            reopen(page)
            ends = page.evaluate(DRAG_ENDS, ["peer", example["phrase"]])
            if ends is None:
                raise RuntimeError(f"the peer text on the page does not hold {example['phrase']!r}")
            (x0, y0), (x1, y1) = ends
            page.mouse.move(x0, y0)
            page.mouse.down()
            page.mouse.move(x1, y1, steps=12)
            page.mouse.up()
            page.locator("#selection").filter(has_text="Selected").wait_for()
            try:
                page.locator("#suggestions button").first.wait_for(timeout=5_000)
            except (
                PlaywrightTimeout
            ):  # words no SCU shares: a picture without suggestions is still one
                pass
            shot("peer-page.png")

            # The builder: the pyramid reopened, its first SCU selected (its contributors lit in the
            # models).
            page.goto(f"{base}/pyramids/{example['pyramid']}/")
            reopen(page)
            row = page.locator("#scu-list > li.scu > .scu-row").first
            row.click()
            page.locator("#scu-list > li.scu.selected").first.wait_for()
            shot("builder.png")

            # The judging page: the SEE task given to demo (prepare_judging), as a judge opens it
            # from the home page; the first unit answered, then the sentence that expresses the
            # second marked.
            page.goto(base + "/")
            page.locator("a[href^='/judging/']").first.click()
            page.locator("#units").wait_for()
            page.keyboard.press("a", delay=60)  # the peer's first sentence expresses the unit
            page.keyboard.press("3", delay=60)  # most of it: saved, and the next unit shown
            page.locator("#status").filter(has_text="Saved").wait_for()
            page.keyboard.press("b", delay=60)  # the second unit: the sentence that expresses it
            shot("judging.png")
        finally:
            browser.close()
    return written


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--out",
        type=Path,
        default=ROOT / "docs" / "img",
        help="where the PNGs go (default: docs/img/)",
    )
    args = parser.parse_args(argv)
    if not Path(CHROMIUM).exists():
        parser.error(f"{CHROMIUM} is missing: apt-get install -y chromium")
    args.out.mkdir(parents=True, exist_ok=True)
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="pyramid-screenshots-") as data:
        print(f"data: {data}", flush=True)
        port = free_port()
        server = start_server(Path(data), port)
        try:
            prepare_judging(Path(data))
            take(args.out.resolve(), f"http://127.0.0.1:{port}")
        finally:
            stop_server(server)
            print(f"server stopped ({server.returncode})", flush=True)
    print(f"done in {time.monotonic() - started:.1f} s", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
