"""In real Chromium, at a person's pace: an adjudicator whose kept groups both cover some model
words sees them named on the merge page, with their groups; Submit refuses until they confirm."""

from playwright.sync_api import expect

from annotator.models import Pyramid
from tests.adjudication.test_pyramid_consensus import consensus_counting_words_twice
from tests.conftest import BROWSER_TEST, log_in
from tests.human import click, press, tab_to

pytestmark = BROWSER_TEST


def test_words_counted_twice_are_named_and_submit_waits_for_a_confirmation(
    browser_page, live_server, pair
):
    page = browser_page
    consensus, groups, _ = consensus_counting_words_twice(pair)
    log_in(page, live_server, "adjudicator", "adjudicator-pass-1")
    expect(page.locator("button:text-is('Log out')")).to_be_visible()
    page.goto(f"{live_server.url}/pyramids/{consensus.pk}/merge/")
    warning = page.locator("#counted-twice")
    expect(warning).to_contain_text("Model words counted twice (1)")
    expect(warning).to_contain_text("Model D: “Neil Armstrong and Buzz Aldrin walked on the Moon”")

    # Submit asks first; the confirmation names what submitting does, and the words counted twice.
    click(page, "summary:text-is('Submit the consensus…')")
    expect(page.locator("#confirm-submit")).to_contain_text(
        "only an administrator of the collection can reopen it"
    )
    click(page, "#submit-now")
    expect(page.locator("#merge p.message.error")).to_contain_text(
        "Not submitted: 1 stretch of model words"
    )
    assert Pyramid.objects.get(pk=consensus.pk).status == "in_progress"

    tab_to(page, "input[name=confirm]")
    press(page, "Space")
    expect(page.locator("input[name=confirm]")).to_be_checked()
    tab_to(page, "#submit-now")
    press(page, "Enter")
    expect(page.locator("#merge-counts")).to_contain_text("submitted")
    assert Pyramid.objects.get(pk=consensus.pk).status == "submitted"
