"""In real Chromium at 1280x720, at a person's pace: finding one's way through a merge (issue 15).
Decided groups are hidden, n goes to the next undecided, a decision is confirmed beside its group,
a marked stretch of model text opens its group, Undo and Redo work from the page and from the keys,
and Submit asks first. What was stored is checked in the database after each step."""

import pytest
from playwright.sync_api import expect

from annotator.adjudication import annotation_consensus, pyramid_consensus
from annotator.adjudication.alignment import ONLY_A, ONLY_B, SPLIT
from annotator.models import PeerAnnotation, Pyramid, PyramidMerge
from tests.accessibility import violations
from tests.conftest import CHROMIUM, log_in
from tests.helpers import decisions_stored as stored
from tests.human import click, eventually, focused, press, scrolled, settle, tab_to

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        not CHROMIUM.exists(),
        reason="Debian's Chromium is not installed (apt-get install -y chromium)",
    ),
    pytest.mark.parametrize("viewport", ["laptop"], indirect=True),
]


def in_view(locator) -> bool:
    return locator.evaluate(
        "(e) => { const r = e.getBoundingClientRect(); "
        "return r.top >= 0 && r.bottom <= innerHeight; }"
    )


def test_an_adjudicator_works_through_a_merge_by_keys_and_marked_words(
    browser_page, live_server, pair
):
    consensus = pyramid_consensus.start(pair["a"], pair["b"], pair["adjudicator"])
    keys = {g["kind"]: g["key"] for g in PyramidMerge.objects.get(consensus=consensus).groups}
    identical = next(key for key, choice in stored(consensus).items() if choice == "identical")
    page = browser_page
    log_in(page, live_server, "adjudicator", "adjudicator-pass-1")
    expect(page.locator("button:text-is('Log out')")).to_be_visible()
    page.goto(f"{live_server.url}/pyramids/{consensus.pk}/merge/")
    group = lambda key: page.locator(f"[id='group-{key}']")  # noqa: E731

    # The group identical in both was taken at the start: decided, so hidden.
    expect(page.locator("#hide-decided")).to_be_checked()
    expect(group(identical)).to_be_hidden()
    expect(group(keys[SPLIT])).to_be_visible()
    assert violations(page) == []

    # n: the first undecided group, its title in focus and on the screen under the bar.
    press(page, "n")
    expect(page.locator(f"[id='title-{keys[SPLIT]}']")).to_be_focused()
    assert in_view(group(keys[SPLIT]).locator(".merge-actions")), (
        "the decision buttons are on the screen"
    )
    # From the keyboard: Tab to B's version, Enter.
    tab_to(page, f"[id='take-b-{keys[SPLIT]}']")
    press(page, "Enter")
    # Confirmed beside the group (which stays in view until one moves on), and stored.
    note = group(keys[SPLIT]).locator(".group-note")
    expect(note).to_contain_text("chose B's version")
    expect(note).to_contain_text("saved")
    assert eventually(lambda: stored(consensus).get(keys[SPLIT]) == "b")
    expect(page.locator("#merge-counts")).to_contain_text("2 of 4 groups decided")

    # The note's "Next undecided group" leads on, to the first undecided after this one.
    order = [g["key"] for g in PyramidMerge.objects.get(consensus=consensus).groups]
    following = lambda key: next(
        k
        for k in order[order.index(key) + 1 :] + order[: order.index(key)]  # noqa: E731
        if k not in stored(consensus)
    )
    second = following(keys[SPLIT])
    click(page, note.locator("a.next-undecided"))
    expect(page.locator(f"[id='title-{second}']")).to_be_focused()
    page.evaluate("document.getElementById('merge-words').dataset.kept = 'yes'")
    take = page.locator(f"[id='take-a-{second}']")
    take.scroll_into_view_if_needed()
    pressed_at = take.bounding_box()["y"]
    click(page, take)  # A's version, or leaving out as A
    assert eventually(lambda: stored(consensus).get(second) == "a")
    expect(page.locator("#merge-counts")).to_contain_text("3 of 4 groups decided")
    # The button stays under the pointer: the split group decided before hides above it, and the
    # note comes above the button (found by a tester: the buttons dropped 29 px).
    expect(group(second).locator(".group-note")).to_be_visible()
    expect(group(keys[SPLIT])).to_be_hidden()
    assert abs(take.bounding_box()["y"] - pressed_at) < 1
    assert violations(page) == []  # the page as the decision's pieces left it
    # Only what the decision changed came back (issue 32): the model texts are the same nodes;
    # the note went from the group decided before to this one.
    expect(group(second).locator(".group-note")).to_contain_text("saved")
    expect(group(keys[SPLIT]).locator(".group-note")).to_have_count(0)
    assert page.evaluate("document.getElementById('merge-words').dataset.kept") == "yes"

    # n goes on to the last; its decision hides the split group, and a marked word of that group in
    # the model texts opens it again.
    last = following(second)
    press(page, "n")
    expect(page.locator(f"[id='title-{last}']")).to_be_focused()
    click(page, page.locator(f"[id='take-a-{last}']"))
    assert eventually(lambda: stored(consensus).get(last) == "a")
    expect(page.locator("#merge-counts")).to_contain_text("4 of 4 groups decided")
    expect(group(keys[SPLIT])).to_be_hidden()
    link = page.locator(f"#merge-words a[href='#group-{keys[SPLIT]}']").first
    expect(link).to_have_class("only-a")
    click(page, link)
    expect(group(keys[SPLIT])).to_be_visible()
    expect(page.locator(f"[id='title-{keys[SPLIT]}']")).to_be_focused()
    assert in_view(page.locator(f"[id='title-{keys[SPLIT]}']"))

    # Undo from the keys (Ctrl+Z) takes back the last decision; Redo (the button) brings it back.
    # Pressed with the page scrolled to its top, the group it undoes below the screen.
    page.mouse.wheel(0, -5000)
    scrolled(page)
    assert group(last).evaluate("(g) => g.getBoundingClientRect().top > innerHeight")
    press(page, "Control+z")
    expect(page.locator("#status")).to_contain_text("Undid: Group")
    assert eventually(lambda: last not in stored(consensus))
    expect(page.locator("#merge-counts")).to_contain_text("3 of 4 groups decided")
    # The group undone is brought into view, its note with it (found by a tester: off screen).
    expect(group(last).locator(".group-note")).to_contain_text("Undid")
    assert group(last).evaluate(
        "(g) => { const r = g.getBoundingClientRect(); return r.top >= 0 && r.top < innerHeight; }"
    )
    click(page, "#merge-redo")
    expect(page.locator("#status")).to_contain_text("Redid: Group")
    assert eventually(lambda: stored(consensus).get(last) == "a")
    expect(page.locator("#merge-counts")).to_contain_text("4 of 4 groups decided")
    assert {keys[ONLY_A], keys[ONLY_B]} == {second, last}

    # Submit asks first, from the keyboard too; nothing is submitted until confirmed.
    tab_to(page, "#confirm-submit > summary")
    press(page, "Enter")
    expect(page.locator("#confirm-submit")).to_contain_text(
        "only an administrator of the collection can reopen it"
    )
    assert Pyramid.objects.get(pk=consensus.pk).status == Pyramid.Status.IN_PROGRESS
    tab_to(page, "#submit-now")
    press(page, "Enter")
    expect(page.locator("#merge-counts")).to_contain_text("submitted")
    assert eventually(
        lambda: Pyramid.objects.get(pk=consensus.pk).status == Pyramid.Status.SUBMITTED
    ), focused(page)


def test_the_hide_decided_box_is_kept_across_answers(browser_page, live_server, pair):
    consensus = pyramid_consensus.start(pair["a"], pair["b"], pair["adjudicator"])
    keys = {g["kind"]: g["key"] for g in PyramidMerge.objects.get(consensus=consensus).groups}
    page = browser_page
    log_in(page, live_server, "adjudicator", "adjudicator-pass-1")
    expect(page.locator("button:text-is('Log out')")).to_be_visible()
    page.goto(f"{live_server.url}/pyramids/{consensus.pk}/merge/")
    click(page, "#hide-decided")
    expect(page.locator("#hide-decided")).not_to_be_checked()
    expect(page.locator(".merge-group.decided")).to_have_count(1)
    expect(page.locator(".merge-group.decided")).to_be_visible()
    click(page, page.locator(f"[id='take-a-{keys[ONLY_A]}']"))
    assert eventually(lambda: stored(consensus).get(keys[ONLY_A]) == "a")
    expect(page.locator(".merge-group.decided")).to_have_count(2)
    # The answer came back with the box as the adjudicator left it: every decided group shown.
    expect(page.locator("#hide-decided")).not_to_be_checked()
    settle(page)
    assert page.locator(".merge-group.decided:visible").count() == 2


def test_a_peers_comparison_tells_each_annotators_words_and_the_consensus_leads_back(
    browser_page, live_server, peer_twice
):
    page = browser_page
    mine, theirs = peer_twice["mine"], peer_twice["theirs"]
    log_in(page, live_server, "adjudicator", "adjudicator-pass-1")
    expect(page.locator("button:text-is('Log out')")).to_be_visible()
    page.goto(live_server.url + peer_twice["url"])
    # Collins: the demo matched it to an SCU, the annotator did not; each column says so.
    expect(
        page.locator(
            f".peer-text[data-annotation='{theirs.pk}'] .w.differs.here", has_text="Collins"
        )
    ).to_be_visible()
    expect(
        page.locator(
            f".peer-text[data-annotation='{mine.pk}'] .w.differs.not-here", has_text="Collins"
        )
    ).to_be_visible()
    assert (
        page.locator(
            f".peer-text[data-annotation='{mine.pk}'] .w.differs.here", has_text="Collins"
        ).count()
        == 0
    )

    click(page, "button:text-is('Start a consensus annotation')")
    expect(page.locator("#merge-counts")).to_contain_text("left to decide")
    consensus = PeerAnnotation.objects.get(merge__isnull=False)
    undecided = annotation_consensus.undecided_scus(consensus)
    # n: the first undecided SCU in the page's order (the pyramid's).
    uid = int(page.locator("tr.reading:not(.decided)").first.get_attribute("data-scu"))
    assert uid in undecided
    press(page, "n")
    expect(page.locator(f"#scu-{uid} [data-item-title]")).to_be_focused()
    undecided = [uid]
    tab_to(page, f"#take-{theirs.pk}-{undecided[0]}")
    press(page, "Enter")
    expect(page.locator(f"#scu-{undecided[0]} .group-note")).to_contain_text("saved")
    assert eventually(
        lambda: (
            str(undecided[0])
            in annotation_consensus.decisions(PeerAnnotation.objects.get(pk=consensus.pk))
        )
    )
    press(page, "Control+z")
    expect(page.locator("#status")).to_contain_text("Undid")
    assert eventually(
        lambda: (
            str(undecided[0])
            not in annotation_consensus.decisions(PeerAnnotation.objects.get(pk=consensus.pk))
        )
    )

    # The consensus annotation's own page leads back to the comparison.
    page.goto(f"{live_server.url}/annotations/{consensus.pk}/")
    click(page, "#back-to-comparison")
    expect(page).to_have_url(live_server.url + peer_twice["url"])
    expect(page.locator("#merge-counts")).to_contain_text("left to decide")


def test_three_pyramids_compared_and_merged_at_once(browser_page, live_server, trio):
    page = browser_page
    log_in(page, live_server, "adjudicator", "adjudicator-pass-1")
    expect(page.locator("button:text-is('Log out')")).to_be_visible()
    page.goto(
        f"{live_server.url}/docsets/{trio['a'].docset_id}/compare/?a={trio['a'].pk}&b={trio['b'].pk}"
    )
    # Add C from the keyboard: Tab to its select, choose, Compare.
    tab_to(page, "select[name=c]")
    page.select_option("select[name=c]", label="by-third")
    tab_to(page, "#choose-pyramids button[type=submit]")
    press(page, "Enter")
    expect(page.locator("#groups thead")).to_contain_text("C: by-third")
    expect(page.locator("#group-counts")).to_contain_text("1 in some pyramids only")
    assert violations(page) == []
    # Another choice in the selects: Merge waits for Compare (it would merge what is shown), and
    # says so.
    merge = page.locator("button:text-is('Merge A, B and C into a consensus pyramid')")
    page.select_option("select[name=c]", label="—")
    expect(merge).to_be_disabled()
    expect(page.locator("#compare-first")).to_contain_text("press Compare")
    page.select_option("select[name=c]", label="by-third")
    expect(merge).to_be_enabled()
    expect(page.locator("#compare-first")).to_have_count(0)

    click(page, "button:text-is('Merge A, B and C into a consensus pyramid')")
    expect(page.locator("#merge-counts")).to_contain_text("1 of 5 groups decided")
    consensus = Pyramid.objects.get(merge__isnull=False)
    keys = {g["kind"]: g["key"] for g in consensus.merge.groups}
    assert [p.pk for _, p in consensus.merge.sides()] == [trio["a"].pk, trio["b"].pk, trio["c"].pk]
    # Collins's orbit, found by A and C: take C's version; stored with its provenance.
    partial = page.locator(f"[id='group-{keys['in some pyramids only']}']")
    expect(partial.locator("h3")).to_have_text(["A", "B", "C", "Consensus"])
    click(page, partial.locator('button:text-is("Take C\'s version")'))
    expect(partial.locator(".group-note")).to_contain_text("chose C's version")
    assert eventually(lambda: stored(consensus).get(keys["in some pyramids only"]) == "c")
    assert (
        Pyramid.objects.get(pk=consensus.pk).scus.get(label="Collins in orbit").source.pyramid_id
        == trio["c"].pk
    )
    # C alone found Kennedy's goal: from the marked words of model C, open its group and take it.
    link = page.locator("#merge-words a.only-c", has_text="Kennedy")
    click(page, link)
    only_c = keys["only in C"]
    expect(page.locator(f"[id='title-{only_c}']")).to_be_focused()
    tab_to(page, f"[id='take-c-{only_c}']")
    press(page, "Enter")
    assert eventually(lambda: stored(consensus).get(only_c) == "c")
    assert violations(page) == []


COVERED = """() => {
  // Whether the focused element is hidden under something else (the sticky bar, say): the point a
  // person looks at, its middle, shows another element.
  const e = document.activeElement, r = e.getBoundingClientRect();
  const top = document.elementFromPoint(r.left + Math.min(r.width / 2, 20), r.top + r.height / 2);
  return !top || !(e === top || e.contains(top) || top.contains(e))
    ? e.id || e.outerHTML.slice(0, 80)
    : null;
}"""


def test_tab_and_shift_tab_never_leave_the_focus_under_the_sticky_bar(
    browser_page, live_server, trio
):
    consensus = pyramid_consensus.start_many([trio["a"], trio["b"], trio["c"]], trio["adjudicator"])
    page = browser_page
    log_in(page, live_server, "adjudicator", "adjudicator-pass-1")
    expect(page.locator("button:text-is('Log out')")).to_be_visible()
    page.goto(f"{live_server.url}/pyramids/{consensus.pk}/merge/")
    expect(page.locator("#merge-counts")).to_contain_text("1 of 5 groups decided")
    hidden = []
    for key in ["Tab"] * 60 + ["Shift+Tab"] * 60:
        press(page, key)
        settle(page)
        covered = page.evaluate(COVERED)
        if covered and page.evaluate("() => !!document.activeElement.closest('.merge')"):
            hidden.append((key, covered))
    assert hidden == [], "focused elements hidden under the sticky bar or buttons"


def on_a_pairs_merge_page(page, live_server, pair):
    """The adjudicator on the merge page of a new consensus of the pair; the page, the consensus
    and the key of its split group."""
    consensus = pyramid_consensus.start(pair["a"], pair["b"], pair["adjudicator"])
    split = {g["kind"]: g["key"] for g in PyramidMerge.objects.get(consensus=consensus).groups}[
        SPLIT
    ]
    log_in(page, live_server, "adjudicator", "adjudicator-pass-1")
    expect(page.locator("button:text-is('Log out')")).to_be_visible()
    page.goto(f"{live_server.url}/pyramids/{consensus.pk}/merge/")
    return page, consensus, split


def test_undo_and_redo_by_keys_keep_the_focus_on_the_group_where_decided_ones_are_hidden(
    browser_page, live_server, pair
):
    page, consensus, split = on_a_pairs_merge_page(browser_page, live_server, pair)
    expect(page.locator("#hide-decided")).to_be_checked()
    tab_to(page, f"[id='take-b-{split}']")
    press(page, "Enter")
    assert eventually(lambda: stored(consensus).get(split) == "b")
    group = page.locator(f"[id='group-{split}']")
    expect(group.locator(".group-note")).to_contain_text(
        "chose B's version"
    )  # seen saved, as a person waits to
    press(page, "Control+z")
    expect(group.locator(".group-note")).to_contain_text("Undid: Group")
    assert eventually(lambda: split not in stored(consensus))
    press(page, "Control+y")
    # Redone, the group is decided again, yet stays in view with its note, and the focus with it.
    expect(group.locator(".group-note")).to_contain_text("Redid: Group")
    assert eventually(lambda: stored(consensus).get(split) == "b")
    expect(group).to_be_visible()
    assert page.evaluate(
        "(id) => document.getElementById(id).contains(document.activeElement)", f"group-{split}"
    ), focused(page)


def test_a_key_pressed_while_the_last_answer_is_on_its_way_is_sent_after_it_not_lost(
    browser_page, live_server, pair
):
    """A person who decides and presses Ctrl+Z at once (a tenth of a second apart) gets both, in
    order."""
    page, consensus, split = on_a_pairs_merge_page(browser_page, live_server, pair)
    tab_to(page, f"[id='take-b-{split}']")
    press(page, "Enter")
    press(page, "Control+z")  # without waiting to see the decision saved
    group = page.locator(f"[id='group-{split}']")
    expect(group.locator(".group-note")).to_contain_text("Undid: Group")
    actions = lambda: list(consensus.changes.order_by("id").values_list("action", "state"))  # noqa: E731
    assert eventually(lambda: actions()[-2:] == [("adjudicate", "undone"), ("undo", "applied")]), (
        actions()
    )
    assert split not in stored(consensus)
