"""GET /collections/<pk>/progress/: what is assigned, started, submitted; filtered and sorted."""

import csv
import io
import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from annotator.campaigns.progress import CSV_COLUMNS, work_rows
from annotator.coverage.models import Judgment, JudgmentTask, UnitSet
from annotator.models import PSE, SCU, Assignment, Docset, PeerAnnotation, Pyramid, Summary
from annotator.peer_annotation import editing as peer_editing
from annotator.text.ordering import natural_key
from tests.coverage import judging_records as records
from tests.helpers import refuses_nul

pytestmark = pytest.mark.django_db


def url(demo, query=""):
    return reverse("collection-progress", args=[demo["collection"].pk]) + query


def test_figures_follow_the_work(client, demo, django_assert_max_num_queries):
    annotation = PeerAnnotation.objects.create(
        pyramid=demo["pyramid"], peer=demo["annotations"]["1"].peer, annotator=demo["annotator"]
    )
    peer_editing.assign(annotation.pk, demo["annotator"], 1, [(0, 9)], 1)
    client.force_login(demo["organizer"])
    with django_assert_max_num_queries(17):  # 16, and the active time's total (issue 20)
        page = client.get(url(demo)).content.decode()
    assert "2 assigned · 0 started · 0 submitted · 0 SCUs · 1 PSE · " in page
    assert reverse("annotation-detail", args=[annotation.pk]) in page
    assert ">Withdraw</button>" not in page  # organizers read


def test_filters_and_sorting(client, demo):
    client.force_login(demo["admin"])
    page = client.get(url(demo, "?annotator=other_annotator")).content.decode()
    assert "peer 2 against DEMO01" in page
    assert "peer 1 against DEMO01" not in page
    page = client.get(url(demo, "?sort=annotator"), HTTP_HX_REQUEST="true").content.decode()
    assert page.startswith('<div id="progress">')
    assert page.index("<td>annotator</td>") < page.index("<td>other_annotator</td>")


@pytest.mark.parametrize("field", ["docset", "annotator", "task", "status", "sort"])
def test_a_nul_character_in_a_filter_is_refused_as_bad_input(client, demo, field):
    """The filters are looked up in the database: a NUL was a 500 (issue 16). 400 naming the filter:
    a page for the browser, a short message for htmx (the filters are sent by htmx)."""
    client.force_login(demo["organizer"])
    page = client.get(url(demo, f"?{field}=D%00"))
    assert refuses_nul(page, field)
    assert "<h1>Bad request</h1>" in page.content.decode()
    htmx = client.get(url(demo, f"?{field}=D%00"), HTTP_HX_REQUEST="true")
    assert refuses_nul(htmx, field)
    assert htmx["Content-Type"].startswith("text/plain")
    assert "<" not in htmx.content.decode()


# Pages (issue 19): the database sorts, filters and counts every row; a page builds its rows only.

PAGE = 4  # rows of a page in these tests (the page's own is 100)
# The totals before the active time (tests/worktime check that one).
TOTALS = re.compile(r'<p class="totals">(.*?) · [^·<]* active</p>')


@pytest.fixture
def work(demo, monkeypatch):
    """Ten assignments over two docsets: the demo's two peers (assigned), two pyramids of DEMO02
    being built (3 SCUs, in progress; 1 SCU, submitted and done), and six more peers of DEMO01
    for the annotator, numbered and lettered, with their annotations and PSEs."""
    from annotator.campaigns.views import work as views

    monkeypatch.setattr(views, "PAGE_SIZE", PAGE)
    users = {name: demo[name] for name in ("annotator", "other_annotator")}
    docset = Docset.objects.create(collection=demo["collection"], name="DEMO02")
    for user, status, scus, done in [
        ("annotator", "in_progress", 3, False),
        ("other_annotator", "done", 1, True),
    ]:
        pyramid = Pyramid.objects.create(
            docset=docset,
            name=f"DEMO02-{user}",
            status=Pyramid.Status.SUBMITTED if done else Pyramid.Status.IN_PROGRESS,
        )
        SCU.objects.bulk_create(
            SCU(pyramid=pyramid, uid=n, label=f"SCU {n}") for n in range(1, scus + 1)
        )
        Assignment.objects.create(user=users[user], task="pyramid", pyramid=pyramid, status=status)
    for author, status, pses, submitted in [
        ("10", "in_progress", 2, False),
        ("4", "done", 1, True),
        ("12", "withdrawn", 4, False),
        ("A", "assigned", None, False),
        ("b", "assigned", None, False),
        ("20", "in_progress", 0, False),
    ]:
        peer = Summary.objects.create(
            docset=demo["pyramid"].docset,
            kind=Summary.Kind.PEER,
            author=author,
            text=f"Peer {author}.",
        )
        Assignment.objects.create(
            user=users["annotator"], task="peer", pyramid=demo["pyramid"], peer=peer, status=status
        )
        if pses is not None:
            annotation = PeerAnnotation.objects.create(
                pyramid=demo["pyramid"],
                peer=peer,
                annotator=users["annotator"],
                status=PeerAnnotation.Status.SUBMITTED
                if submitted
                else PeerAnnotation.Status.IN_PROGRESS,
            )
            PSE.objects.bulk_create(PSE(annotation=annotation, position=n) for n in range(pses))
    return demo


def listed(client, demo, query=""):
    """The targets of every page of the progress page, in order, and the pages' HTML."""
    pages, targets, number = [], [], 1
    while True:
        page = client.get(url(demo, f"?{query}&page={number}")).content.decode()
        pages.append(page)
        targets += [
            re.sub(r"<[^>]+>", "", t).strip()
            for t in re.findall(
                r'<tr class="work [^"]*" id="assignment-\d+">\s*'
                r"<td>[^<]*</td><td>[^<]*</td>\s*<td>(.*?)</td>",
                page,
            )
        ]
        if '<a id="page-next"' not in page:
            return targets, pages
        number += 1


def test_rows_come_a_page_at_a_time_in_natural_order(client, work):
    client.force_login(work["admin"])
    targets, pages = listed(client, work)
    assert len(pages) == 3
    # Peer "4" before "10", numbers before letters, "A" and "b" whatever their case; then the
    # docset after.
    assert targets == [
        f"peer {author} against DEMO01" for author in ["1", "2", "4", "10", "12", "20", "A", "b"]
    ] + ["pyramid DEMO02-annotator", "pyramid DEMO02-other_annotator"]
    assert "Assignments 1–4 of 10 · page 1 of 3" in pages[0]
    assert "Assignments 5–8 of 10 · page 2 of 3" in pages[1]
    assert "Assignments 9–10 of 10 · page 3 of 3" in pages[2]
    # First and previous are no links on the first page, next and last none on the last.
    assert '<a id="page-previous"' not in pages[0]
    assert '<span id="page-first" tabindex="-1" aria-disabled="true">« First</span>' in pages[0]
    assert 'href="?sort=docset&amp;page=2">Next ›</a>' in pages[0]
    assert 'href="?sort=docset&amp;page=3">Last »</a>' in pages[0]
    assert 'href="?sort=docset&amp;page=1">« First</a>' in pages[2]
    assert 'href="?sort=docset&amp;page=2">‹ Previous</a>' in pages[2]
    assert '<a id="page-last"' not in pages[2]


def test_the_totals_count_every_page(client, work):
    client.force_login(work["admin"])
    _, pages = listed(client, work)
    # 9 not withdrawn; started: two pyramids and peers 10, 4, 20; submitted: DEMO02-other_annotator
    # and peer 4's annotation; SCUs 3 + 1; PSEs 2 + 1 + 4 (withdrawn work keeps its PSEs) + 0.
    whole = "9 assigned · 5 started · 2 submitted · 4 SCUs · 7 PSEs"
    assert {TOTALS.search(page).group(1) for page in pages} == {whole}
    filtered = client.get(url(work, "?annotator=other_annotator&page=1")).content.decode()
    assert (
        TOTALS.search(filtered).group(1) == "2 assigned · 1 started · 1 submitted · 1 SCU · 0 PSEs"
    )


def test_each_row_shows_its_figures(client, work):
    client.force_login(work["admin"])
    page = client.get(url(work, "?sort=pses")).content.decode()
    rows = {
        target: (status, scus, pses)
        for target, status, scus, pses in re.findall(
            r"<td>(?:<a [^>]*>)?(peer \w+ against DEMO01|pyramid [\w-]+)(?:</a>)?</td>\s*"
            r'<td>([^<]*)</td>\s*<td class="num">(\d*)</td><td class="num">(\d*)</td>',
            page,
        )
    }
    assert rows == {
        "peer 12 against DEMO01": ("Withdrawn", "", "4"),
        "peer 10 against DEMO01": ("In progress", "", "2"),
        "peer 4 against DEMO01": ("Done · submitted", "", "1"),
        "peer 1 against DEMO01": ("Assigned", "", "0"),
    }


# The order of the rows before issue 19, sorted in Python from the model's order: the database
# must give the same.
OLD_SORTS = {
    "docset": lambda r: (natural_key(r.docset), natural_key(r.target), r.user),
    "annotator": lambda r: (r.user, natural_key(r.docset), natural_key(r.target)),
    "task": lambda r: (r.task, natural_key(r.docset), natural_key(r.target)),
    "status": lambda r: (r.status_order, natural_key(r.docset), natural_key(r.target)),
    "scus": lambda r: (-(r.scus or 0), r.docset),
    "pses": lambda r: (-(r.pses or 0), r.docset),
    "activity": lambda r: (-(r.last_activity.timestamp() if r.last_activity else 0), r.docset),
}


@pytest.mark.parametrize("sort", list(OLD_SORTS))
def test_every_sort_orders_all_pages_as_before(client, work, sort):
    rows = work_rows(Assignment.objects.filter(pyramid__docset__collection=work["collection"]))
    model_order = sorted(
        rows,
        key=lambda r: (r.assignment.user_id, r.assignment.pyramid_id, r.assignment.peer_id or 1e9),
    )
    client.force_login(work["organizer"])
    targets, pages = listed(client, work, f"sort={sort}")
    assert len(pages) == 3
    assert targets == [r.target for r in sorted(model_order, key=OLD_SORTS[sort])]
    assert f'href="?sort={sort}&amp;page=2">Next ›</a>' in pages[0]


def test_filters_and_sort_are_kept_in_every_link(client, work):
    client.force_login(work["admin"])
    page = client.get(
        url(work, "?annotator=annotator&task=peer&sort=status&page=2")
    ).content.decode()
    assert "Assignments 5–7 of 7 · page 2 of 2" in page
    assert (
        'href="?annotator=annotator&amp;task=peer&amp;sort=status&amp;page=1">« First</a>' in page
    )
    assert (
        'href="?annotator=annotator&amp;task=peer&amp;sort=status&amp;page=1">‹ Previous</a>'
        in page
    )
    # An htmx swap of the table (a filter changed, or a page link followed) keeps them too, and
    # its links swap the table again.
    htmx = client.get(
        url(work, "?annotator=annotator&task=peer&sort=status"), HTTP_HX_REQUEST="true"
    ).content.decode()
    assert htmx.startswith('<div id="progress">')
    assert 'hx-boost="true" hx-target="#progress" hx-swap="outerHTML"' in htmx
    assert 'href="?annotator=annotator&amp;task=peer&amp;sort=status&amp;page=2">Next ›</a>' in htmx


@pytest.mark.parametrize(
    ("asked", "shown"), [("abc", 1), ("2.5", 1), ("", 1), ("0", 1), ("-1", 1), ("99", 3)]
)
def test_a_page_out_of_range_shows_the_nearest(client, work, asked, shown):
    client.force_login(work["admin"])
    page = client.get(url(work, f"?page={asked}"))
    assert page.status_code == 200
    assert f"page {shown} of 3</p>" in page.content.decode()


def test_an_unknown_sort_sorts_by_docset(client, work):
    client.force_login(work["admin"])
    page = client.get(url(work, "?sort=nonsense")).content.decode()
    assert 'href="?sort=docset&amp;page=2">Next ›</a>' in page


def test_who_may_see_the_pages_is_unchanged(client, work):
    assert client.get(url(work, "?page=2")).status_code == 302  # to log in
    # An annotator of the collection may not read it; to an outsider it does not exist.
    for who, status in [("annotator", 403), ("outsider", 404)]:
        client.force_login(work[who])
        assert client.get(url(work, "?page=2")).status_code == status
    client.force_login(work["organizer"])
    assert client.get(url(work, "?page=2")).status_code == 200


@pytest.mark.parametrize("sort", ["docset", "pses", "activity"])
def test_the_queries_do_not_grow_with_the_rows(client, demo, monkeypatch, sort):
    """3 assignments and 30 (over several pages): the same queries."""
    from annotator.campaigns.views import work as views

    monkeypatch.setattr(views, "PAGE_SIZE", 7)
    client.force_login(demo["admin"])
    peers = Summary.objects.bulk_create(
        Summary(docset=demo["pyramid"].docset, kind=Summary.Kind.PEER, author=str(n), text=".")
        for n in range(10, 38)
    )
    Assignment.objects.create(
        user=demo["admin"], task="peer", pyramid=demo["pyramid"], peer=peers[0]
    )
    client.get(url(demo))
    with CaptureQueriesContext(connection) as small:
        page = client.get(url(demo, f"?sort={sort}")).content.decode()
    assert "Assignments 1–3 of 3" in page
    for peer in peers[1:]:
        annotation = PeerAnnotation.objects.create(
            pyramid=demo["pyramid"], peer=peer, annotator=demo["admin"]
        )
        PSE.objects.create(annotation=annotation)
        Assignment.objects.create(
            user=demo["admin"],
            task="peer",
            pyramid=demo["pyramid"],
            peer=peer,
            status="in_progress",
        )
    with CaptureQueriesContext(connection) as large:
        page = client.get(url(demo, f"?sort={sort}&page=2")).content.decode()
    assert "Assignments 8–14 of 30" in page
    assert len(large.captured_queries) == len(small.captured_queries)


# The CSV download lists the judgment tasks too (issue 21), as the page shows them.


@pytest.fixture
def judging(demo):
    """Judgment tasks on the demo docset's four-unit presence set: peer 1 by the annotator (3 of 4
    answered, 6.7 s), peer 2 by the other annotator (all answered, submitted, 12.5 s), peer 3 by
    the annotator (none answered), peer 1 by the other annotator (withdrawn, 1 answered), and an
    imported task by a judge known by a code only (a record, not work to follow: not listed)."""
    unit_set = records.presence_set(demo, count=4)
    units = list(unit_set.units.order_by("position"))
    users = {name: demo[name] for name in ("annotator", "other_annotator")}
    for author, judge, status, withdrawn, seconds in [
        ("1", "annotator", "in_progress", False, [2.4, 3.3, 1.0]),
        ("2", "other_annotator", "submitted", False, [4.0, 4.0, 2.25, 2.25]),
        ("3", "annotator", "in_progress", False, []),
        ("1", "other_annotator", "in_progress", True, [5.0]),
    ]:
        task = JudgmentTask.objects.create(
            unit_set=unit_set,
            peer=records.peer(demo, author),
            judge=users[judge],
            status=status,
            withdrawn=withdrawn,
        )
        Judgment.objects.bulk_create(
            Judgment(task=task, unit=unit, value=1.0, seconds=s) for unit, s in zip(units, seconds)
        )
    imported = JudgmentTask.objects.create(
        unit_set=unit_set, peer=records.peer(demo, "3"), judge_code="crowd 1", status="submitted"
    )
    Judgment.objects.create(task=imported, unit=units[0], value=0.0)
    return demo


def csv_listed(client, demo, query=""):
    response = client.get(url(demo, f"?{query}&format=csv"))
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    return list(csv.DictReader(io.StringIO(b"".join(response.streaming_content).decode())))


JUDGED = [
    # task, annotator, target, status, submitted, unit_set, peer, answered, units, seconds
    ("judge", "annotator", "peer 1 against Lite Pyramid", "in_progress", "False",
     "Lite Pyramid", "1", "3", "4", "7"),
    ("judge", "other_annotator", "peer 1 against Lite Pyramid", "withdrawn", "False",
     "Lite Pyramid", "1", "1", "4", "5"),
    ("judge", "other_annotator", "peer 2 against Lite Pyramid", "done", "True",
     "Lite Pyramid", "2", "4", "4", "12"),  # 12.5 s: to the even second
    ("judge", "annotator", "peer 3 against Lite Pyramid", "assigned", "False",
     "Lite Pyramid", "3", "0", "4", ""),
]  # fmt: skip
FIELDS = [
    "task", "annotator", "target", "status", "submitted", "unit_set", "peer", "units_answered",
    "units", "active_seconds",
]  # fmt: skip


def test_the_csv_lists_the_judgment_tasks_after_the_assignments(client, judging):
    client.force_login(judging["organizer"])
    rows = csv_listed(client, judging)
    assert list(rows[0]) == CSV_COLUMNS
    tasks = [row["task"] for row in rows]
    assert tasks == ["peer", "peer", "judge", "judge", "judge", "judge"]
    assert [tuple(row[f] for f in FIELDS) for row in rows[2:]] == JUDGED
    assert {row["docset"] for row in rows} == {"DEMO01"}
    assert {row["scus"] + row["pses"] for row in rows[2:]} == {""}
    # An assignment's row names its peer, and nothing of judging.
    assert [(r["peer"], r["unit_set"], r["units_answered"], r["units"]) for r in rows[:2]] == [
        ("1", "", "", ""),
        ("2", "", "", ""),
    ]
    answered = Judgment.objects.filter(task__judge=judging["annotator"], task__peer__author="1")
    latest = max(answered.values_list("updated_at", flat=True))
    assert rows[2]["last_activity"] == latest.isoformat()
    assert rows[5]["last_activity"] == ""
    # The page shows the same tasks, the imported one left out there too.
    page = client.get(url(judging)).content.decode()
    assert "crowd 1" not in page
    assert "crowd 1" not in {row["annotator"] for row in rows}


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("task=judge", [row[:3] for row in JUDGED]),
        ("task=peer", []),
        ("status=done", [JUDGED[2][:3]]),
        ("status=assigned", [JUDGED[3][:3]]),
        ("annotator=annotator", [JUDGED[0][:3], JUDGED[3][:3]]),
        ("docset=DEMO02", []),
    ],
)
def test_the_csv_s_judgment_tasks_follow_the_page_s_filters(client, judging, query, expected):
    Docset.objects.create(collection=judging["collection"], name="DEMO02")
    client.force_login(judging["organizer"])
    rows = csv_listed(client, judging, query)
    found = [(r["task"], r["annotator"], r["target"]) for r in rows if r["task"] == "judge"]
    assert found == expected
    if query.startswith("task="):
        assert all(row["task"] == query[5:] for row in rows)


def test_the_csv_s_queries_do_not_grow_with_the_judgment_tasks(client, judging):
    client.force_login(judging["organizer"])
    with CaptureQueriesContext(connection) as few:
        assert len(csv_listed(client, judging)) == 6
    unit_set = UnitSet.objects.get()
    for author in ("2", "3"):
        JudgmentTask.objects.create(
            unit_set=unit_set, peer=records.peer(judging, author), judge=judging["admin"]
        )
    with CaptureQueriesContext(connection) as more:
        assert len(csv_listed(client, judging)) == 8
    assert len(more.captured_queries) == len(few.captured_queries)
