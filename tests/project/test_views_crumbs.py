"""The trail at the top of every page (templates/campaigns/_crumbs.html, issue 17): one pattern on
all
of them. A page's trail names where its subject sits, from the top — Collections › <collection> ›
Docset <docset> › Pyramid <pyramid> › … — cut where the subject sits, each crumb named as the
heading of the page it opens (a docset and a pyramid of one name read apart), never the page itself;
an annotator's trail starts at Your work and names the collection and docset without links (their
pages are the readers'). This module surveys every page that has a trail; the views' own modules
hold the defects found (the New account page led to Collections; the annotation page read
"DEMO01 › DEMO01")."""

import html
import re

import pytest
from django.urls import reverse

from annotator.models import ArchiveJob, ImportJob, PeerAnnotation, Summary

pytestmark = pytest.mark.django_db

NAV = re.compile(r'<nav class="crumbs" aria-label="Breadcrumb">(.*?)</nav>', re.S)
CRUMB = re.compile(
    r'^(?:<a href="(?P<href>[^"]+)">(?P<link>[^<]+)</a>|<span>(?P<text>[^<]+)</span>)$'
)
H1 = re.compile(r"<h1[^>]*>(.*?)</h1>", re.S)


def trail(client, url) -> list[tuple[str, str | None]]:
    """The page's crumbs: (label, the address it links to, or None)."""
    response = client.get(url)
    assert response.status_code == 200, url
    found = NAV.findall(response.content.decode())
    assert len(found) <= 1, f"{url}: {len(found)} trails"
    if not found:
        return []
    crumbs = []
    for piece in found[0].split(" › "):
        match = CRUMB.match(piece)
        assert match, f"{url}: {piece!r} is not a crumb"
        crumbs.append((html.unescape(match["link"] or match["text"]), match["href"]))
    return crumbs


def heading(client, url) -> list[str]:
    """The words of the page's <h1>."""
    page = client.get(url).content.decode()
    words = html.unescape(re.sub(r"<[^>]+>|\s+", " ", H1.search(page).group(1))).split()
    return [word.rstrip(",:") for word in words]


@pytest.fixture
def places(demo):
    collection, pyramid = demo["collection"], demo["pyramid"]
    docset = pyramid.docset
    annotation = demo["annotations"]["1"]
    own = PeerAnnotation.objects.create(
        pyramid=pyramid, peer=annotation.peer, annotator=demo["annotator"]
    )
    model = Summary.objects.filter(docset=docset, kind="model").order_by("author").first()
    job = ImportJob.objects.create(
        collection=collection,
        kind="summaries",
        file_name="D0601.model.A.txt",
        created_by=demo["admin"],
    )
    export = ArchiveJob.objects.create(
        kind="export", collection=collection, file_name="demo.zip", created_by=demo["admin"]
    )
    restore = ArchiveJob.objects.create(
        kind="restore", file_name="demo.zip", created_by=demo["admin"]
    )
    C = collection.name
    return {
        "collection": collection,
        "docset": docset,
        "pyramid": pyramid,
        "annotation": annotation,
        "own": own,
        "model": model,
        "job": job,
        "export": export,
        "restore": restore,
        "C": C,
    }


def expected_for_readers(p):
    c, d = p["collection"].pk, p["docset"].pk
    collections = ("Collections", reverse("collection-list"))
    in_c = [collections, (p["C"], reverse("collection-detail", args=[c]))]
    in_d = [*in_c, ("Docset DEMO01", reverse("docset-detail", args=[d]))]
    in_p = [*in_d, ("Pyramid DEMO01", reverse("pyramid-detail", args=[p["pyramid"].pk]))]
    return {
        reverse("collection-list"): [],
        reverse("user-list"): [],
        reverse("home"): [],
        reverse("user-create"): [("Accounts", reverse("user-list"))],
        reverse("collection-create"): [collections],
        reverse("collection-restore"): [collections],
        reverse("archive-job", args=[p["restore"].pk]): [collections],
        reverse("collection-detail", args=[c]): [collections],
        reverse("collection-settings", args=[c]): in_c,
        reverse("collection-members", args=[c]): in_c,
        reverse("docset-create", args=[c]): in_c,
        reverse("summaries-upload", args=[c]): in_c,
        reverse("ducview-import", args=[c]): in_c,
        reverse("assign", args=[c]): in_c,
        reverse("collection-progress", args=[c]): in_c,
        reverse("collection-scores", args=[c]): in_c,
        reverse("collection-reports", args=[c]): in_c,
        reverse("job-detail", args=[p["job"].pk]): in_c,
        reverse("archive-job", args=[p["export"].pk]): in_c,
        reverse("docset-detail", args=[d]): in_c,
        reverse("collection-scores", args=[c]) + "?docset=DEMO01": in_d,
        reverse("collection-report", args=[c, "pyramids"]): [
            *in_c,
            ("Reports", reverse("collection-reports", args=[c])),
        ],
        reverse("summary-create", args=[d]): in_d,
        reverse("summary-detail", args=[p["model"].pk]): in_d,
        reverse("pyramid-comparison", args=[d]): in_d,
        reverse("peer-disagreements", args=[d]): in_d,
        reverse("pyramid-detail", args=[p["pyramid"].pk]): in_d,
        reverse("pyramid-history", args=[p["pyramid"].pk]): in_p,
        reverse("annotation-detail", args=[p["annotation"].pk]): in_p,
        reverse("peer-comparison", args=[p["pyramid"].pk, p["annotation"].peer.pk]): in_p,
        reverse("annotation-history", args=[p["annotation"].pk]): [
            *in_d,
            ("Peer 1 against DEMO01", reverse("annotation-detail", args=[p["annotation"].pk])),
        ],
    }


def test_every_page_follows_the_one_pattern(client, demo, places):
    client.force_login(demo["admin"])
    for url, expected in expected_for_readers(places).items():
        assert trail(client, url) == expected, url


def test_each_crumb_reads_as_the_heading_of_the_page_it_opens(client, demo, places):
    client.force_login(demo["admin"])
    checked = set()
    for url in expected_for_readers(places):
        crumbs = trail(client, url)
        labels = [label for label, _ in crumbs]
        assert len(labels) == len(set(labels)), (
            f"{url}: {labels}"
        )  # nothing said twice (DEMO01 › DEMO01)
        for label, href in crumbs:
            assert href != url, f"{url} links to itself"
            if href not in checked:
                words = heading(client, href)
                said = [word.rstrip(",:") for word in label.split()]
                assert words[: len(said)] == said, (
                    f"{label!r} opens {href}, headed {' '.join(words)!r}"
                )
                checked.add(href)
    assert (
        len(checked) == 7
    )  # Collections, Accounts, the collection, its Reports, the docset, the pyramid, the annotation


def test_an_annotators_trail_starts_at_their_work(client, demo, places):
    """An annotator does not read the collection's and docset's pages (403): their trail starts at
    Your work, names the collection and docset as text, and links only what they may open."""
    client.force_login(demo["annotator"])
    home = ("Your work", reverse("home"))
    where = [home, (places["C"], None), ("Docset DEMO01", None)]
    pyramid = ("Pyramid DEMO01", reverse("pyramid-detail", args=[places["pyramid"].pk]))
    own = places["own"]
    assert trail(client, reverse("annotation-detail", args=[own.pk])) == [*where, pyramid]
    assert trail(client, reverse("annotation-history", args=[own.pk])) == [
        *where,
        ("Peer 1 against DEMO01", reverse("annotation-detail", args=[own.pk])),
    ]
    assert trail(client, reverse("pyramid-detail", args=[places["pyramid"].pk])) == where
    assert trail(client, reverse("pyramid-history", args=[places["pyramid"].pk])) == [
        *where,
        pyramid,
    ]
    assert trail(client, reverse("summary-detail", args=[places["model"].pk])) == where
    for _, href in [home, pyramid]:
        assert client.get(href).status_code == 200
