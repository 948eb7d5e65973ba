"""In real Chromium, at a person's speed (issue 15): an adjudicator finds a pair of pyramids waiting
for a consensus on the home page, starts it with a held press, and comes back to continue it."""

import re

from playwright.sync_api import expect

from annotator.models import SCU, Pyramid, PyramidChange, PyramidMerge
from tests.conftest import BROWSER_TEST, log_in
from tests.human import click

pytestmark = BROWSER_TEST


def test_an_adjudicator_starts_a_waiting_pair_from_the_home_page(browser_page, live_server, pair):
    page, a, b = browser_page, pair["a"], pair["b"]
    Pyramid.objects.filter(pk__in=[a.pk, b.pk]).update(status=Pyramid.Status.SUBMITTED)
    log_in(page, live_server, "adjudicator", "adjudicator-pass-1")
    queue = page.locator("#adjudication-queue")
    expect(queue).to_contain_text("3 not started · 0 in progress · 0 submitted")
    row = queue.locator("tr.queue-item", has_text="by-annotator + by-other")
    expect(row.locator("td.state")).to_have_text("Not started")
    expect(row).to_contain_text("annotator, other_annotator")

    click(page, row.locator("button:text-is('Start consensus')"))
    expect(page).to_have_url(re.compile(r"/pyramids/\d+/merge/$"))
    merge = PyramidMerge.objects.select_related("consensus").get()
    consensus = merge.consensus
    assert page.url.endswith(f"/pyramids/{consensus.pk}/merge/")
    assert (merge.source_a_id, merge.source_b_id, merge.created_by) == (
        a.pk,
        b.pk,
        pair["adjudicator"],
    )
    assert consensus.status == Pyramid.Status.IN_PROGRESS
    assert consensus.docset_id == a.docset_id
    # The one group identical in both was taken from A at the start, by the adjudicator, with
    # provenance.
    change = PyramidChange.objects.get(pyramid=consensus)
    assert change.user == pair["adjudicator"]
    assert change.decision["choice"] == "identical"
    taken = SCU.objects.select_related("source").get(pyramid=consensus)
    assert taken.label == "Apollo 11 landed on the Moon"
    assert taken.source.pyramid_id == a.pk

    # Back home, the pair is in progress and leads to the same consensus: none is started twice.
    page.goto(live_server.url + "/")
    expect(queue).to_contain_text("2 not started · 1 in progress · 0 submitted")
    row = queue.locator("tr.queue-item").first
    expect(row).to_contain_text("by-annotator + by-other")
    expect(row.locator("td.state")).to_contain_text("In progress")
    click(page, row.locator("a:text-is('Continue')"))
    expect(page).to_have_url(re.compile(rf"/pyramids/{consensus.pk}/merge/$"))
    assert PyramidMerge.objects.count() == 1
