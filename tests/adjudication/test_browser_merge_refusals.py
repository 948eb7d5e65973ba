"""In real Chromium: a decision on a stale merge page (issue 15) is refused as the builder refuses
a stale edit: the page shows the reason and the current state, keeps its scroll, and offers a Retry
that works. What was stored is checked in the database."""

import pytest
from playwright.sync_api import expect

from annotator.adjudication import annotation_consensus, pyramid_consensus
from annotator.adjudication.alignment import ONLY_A, SPLIT
from annotator.models import PeerAnnotation, PyramidMerge
from tests.conftest import BROWSER_TEST, log_in
from tests.helpers import decisions_stored as stored
from tests.human import click, eventually, settle

pytestmark = BROWSER_TEST

SCROLL = "() => [window.scrollY, document.scrollingElement.scrollHeight - window.innerHeight]"


def card(page, text):
    return page.locator(".merge-group").filter(has_text=text)


def top_of(locator) -> float:
    return locator.evaluate("(element) => element.getBoundingClientRect().top")


@pytest.mark.parametrize("viewport", ["laptop"], indirect=True)
def test_a_decision_on_a_stale_pyramid_merge_page_is_refused_with_the_current_state_and_retried(
    browser_page, live_server, pair
):
    consensus = pyramid_consensus.start(pair["a"], pair["b"], pair["adjudicator"])
    groups = {g["kind"]: g["key"] for g in PyramidMerge.objects.get(consensus=consensus).groups}
    identical = stored(consensus)
    url = f"{live_server.url}/pyramids/{consensus.pk}/merge/"
    first = browser_page
    log_in(first, live_server, "adjudicator", "adjudicator-pass-1")
    first.goto(url)
    second = first.context.new_page()
    second.goto(url)

    # The second tab takes B's split of the astronauts.
    click(
        second,
        card(second, "Aldrin walked on the Moon").locator('button:text-is("Take B\'s version")'),
    )
    expect(second.locator("#merge-counts")).to_contain_text("2 of 4 groups decided")
    split, collins_group = groups[SPLIT], groups[ONLY_A]
    assert eventually(lambda: stored(consensus).get(split) == "b")

    # The first tab, scrolled down to Collins, still shows the merge as it was: take A's version.
    collins = card(first, "Collins orbited")
    collins.evaluate("(element) => element.scrollIntoView({ block: 'center' })")
    settle(first)
    scroll_y, most = first.evaluate(SCROLL)
    assert most > 0, "the page should scroll at this size"
    assert scroll_y > 0, "the page should scroll at this size"
    before = top_of(collins)
    click(first, collins.locator('button:text-is("Take A\'s version")'))
    status = first.locator("#status")
    expect(status).to_contain_text("Not saved")
    expect(status).to_contain_text("changed elsewhere")
    # The current state: the second tab's decision is shown, Collins's group still undecided.
    expect(first.locator("#merge-counts")).to_contain_text("2 of 4 groups decided")
    expect(card(first, "Aldrin walked on the Moon").locator(".decision")).to_contain_text(
        "B's version"
    )
    expect(card(first, "Collins orbited").locator(".undecided")).to_be_visible()
    settle(first)
    # The scroll kept: the group clicked is where it was on the screen (the page moved only by what
    # changed above it: the group decided in the other tab is now hidden), not back at the top.
    assert abs(top_of(card(first, "Collins orbited")) - before) <= 2
    assert first.evaluate("() => window.scrollY") > 0
    # Stored: the second tab's decision only.
    assert stored(consensus) == identical | {split: "b"}

    click(first, status.locator("button.retry"))
    expect(status).to_contain_text("chose A's version")
    expect(first.locator("#merge-counts")).to_contain_text("3 of 4 groups decided")
    expect(card(first, "Collins orbited").locator(".decision")).to_contain_text("A's version")
    # Stored: the second tab's decision, then the retried one.
    assert eventually(lambda: stored(consensus) == identical | {split: "b", collins_group: "a"})


def test_a_decision_on_a_stale_peer_merge_page_is_refused_and_retried(
    browser_page, live_server, peer_twice
):
    sources = [peer_twice["mine"], peer_twice["theirs"]]
    consensus = annotation_consensus.start(
        sorted(sources, key=lambda a: (a.annotator_code, a.pk)), peer_twice["adjudicator"]
    )
    undecided = annotation_consensus.undecided_scus(consensus)
    assert len(undecided) >= 2
    url = live_server.url + peer_twice["url"]
    first = browser_page
    log_in(first, live_server, "adjudicator", "adjudicator-pass-1")
    first.goto(url)
    second = first.context.new_page()
    second.goto(url)
    row = lambda page, uid: page.locator(f"tr.reading[data-scu='{uid}']")  # noqa: E731

    click(second, row(second, undecided[0]).locator("button:text-is('Keep as edited')"))
    expect(row(second, undecided[0]).locator(".decision")).to_contain_text("kept as edited")

    click(first, row(first, undecided[1]).locator("button:text-is('Keep as edited')"))
    status = first.locator("#status")
    expect(status).to_contain_text("changed elsewhere")
    expect(row(first, undecided[0]).locator(".decision")).to_contain_text("kept as edited")
    expect(row(first, undecided[1]).locator(".undecided")).to_be_visible()
    assert set(annotation_consensus.decisions(PeerAnnotation.objects.get(pk=consensus.pk))) >= {
        str(undecided[0])
    }
    assert str(undecided[1]) not in annotation_consensus.decisions(
        PeerAnnotation.objects.get(pk=consensus.pk)
    )

    click(first, status.locator("button.retry"))
    expect(row(first, undecided[1]).locator(".decision")).to_contain_text("kept as edited")
    assert eventually(
        lambda: (
            str(undecided[1])
            in annotation_consensus.decisions(PeerAnnotation.objects.get(pk=consensus.pk))
        )
    )
