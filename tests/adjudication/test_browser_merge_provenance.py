"""In real Chromium at 1280x720, at a person's pace (issue 15): what a consensus pyramid keeps of
where its SCUs came from, and the decisions an adjudicator makes beyond taking a version.

- A source pyramid edited in the builder and restored by Undo: the merge page warns, naming the
  group, while the edit stands and not once it is undone, and the consensus copies point to the
  source's SCU and contributors again.
- A contributor split off in the consensus builder takes its SCU's provenance to its new SCU.
- The same words under different labels: the adjudicator picks the label.
- SCUs the adjudicator makes in the builder and keeps as a group's edit belong to that group.
- A second consensus of the same pyramids is named and started only when confirmed.

Each step asserts what was stored, in the database."""

import pytest
from playwright.sync_api import expect

from annotator.adjudication import pyramid_consensus
from annotator.adjudication.alignment import ONE_TO_ONE, ONLY_B
from annotator.models import SCU, Contributor, Pyramid, PyramidMerge
from annotator.pyramids import editing
from tests.accessibility import violations
from tests.conftest import CHROMIUM, log_in
from tests.helpers import decisions_stored as stored
from tests.helpers import submitted_consensus
from tests.human import click, drag_select, eventually, press, tab_to, type_text

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        not CHROMIUM.exists(),
        reason="Debian's Chromium is not installed (apt-get install -y chromium)",
    ),
    pytest.mark.parametrize("viewport", ["laptop"], indirect=True),
]


def keys_by_kind(consensus) -> dict:
    return {g["kind"]: g["key"] for g in PyramidMerge.objects.get(consensus=consensus).groups}


def provenance(copy_pk: int, contributor_pks: list[int]):
    """Where a consensus SCU and its contributors came from: (source pyramid, uid), and each
    contributor's source (SCU uid, model author), as stored."""
    scu = SCU.objects.select_related("source").get(pk=copy_pk)
    contributors = Contributor.objects.filter(pk__in=contributor_pks).select_related(
        "source__scu", "source__summary"
    )
    return (
        (scu.source.pyramid_id, scu.source.uid) if scu.source else None,
        sorted(
            (
                (c.source.scu.uid, c.source.summary.author) if c.source else None
                for c in contributors
            ),
            key=lambda source: source or (0, ""),
        ),
    )


def adjudicator_on(page, live_server):
    log_in(page, live_server, "adjudicator", "adjudicator-pass-1")
    expect(page.locator("button:text-is('Log out')")).to_be_visible()
    return page


def second_person(page, live_server, username, password):
    """Another person, in a browser session of their own."""
    other = page.context.browser.new_context(viewport=page.viewport_size).new_page()
    log_in(other, live_server, username, password)
    expect(other.locator("button:text-is('Log out')")).to_be_visible()
    return other


def test_a_source_edited_and_restored_keeps_the_consensus_provenance_and_the_warning_follows_it(
    browser_page, live_server, pair
):
    consensus = pyramid_consensus.start(pair["a"], pair["b"], pair["adjudicator"])
    copy = SCU.objects.get(pyramid=consensus, label="Apollo 11 landed on the Moon")
    contributors = list(copy.contributors.values_list("pk", flat=True))
    was = provenance(copy.pk, contributors)
    assert was == ((pair["a"].pk, 1), [(1, "A"), (1, "D")])
    identical = next(key for key, choice in stored(consensus).items() if choice == "identical")
    merge_url = f"{live_server.url}/pyramids/{consensus.pk}/merge/"
    page = adjudicator_on(browser_page, live_server)
    page.goto(merge_url)
    expect(page.locator("#merge-counts")).to_contain_text("1 of 4 groups decided")
    expect(page.locator("#sources-changed")).to_have_count(0)

    # A's annotator, in their own browser, removes SCU 1 of their pyramid from the keyboard.
    annotator = second_person(page, live_server, "annotator", "annotator-pass-1")
    annotator.on("dialog", lambda dialog: dialog.accept())
    annotator.goto(f"{live_server.url}/pyramids/{pair['a'].pk}/")
    tab_to(annotator, "#scu-list [role=treeitem]")
    assert annotator.evaluate("() => document.activeElement.id") == "scu-1"
    press(annotator, "Delete")
    expect(annotator.locator("#status")).to_contain_text("Removed SCU 1")
    assert eventually(lambda: not SCU.objects.filter(pyramid=pair["a"], uid=1).exists())
    assert provenance(copy.pk, contributors) == (None, [None, None])  # the source's rows are gone

    # The adjudicator's merge page names what changed: A, the identical group.
    page.reload()
    warning = page.locator("#sources-changed")
    expect(warning).to_contain_text("A (by-annotator) changed after this merge began")
    expect(warning.locator("li")).to_have_text([f"A's SCUs of group {identical}"])

    # Undone in the builder, the source is as it was: so are the consensus's links, and the warning
    # goes.
    press(annotator, "Control+z")
    expect(annotator.locator("#status")).to_contain_text("Undid")
    assert eventually(lambda: provenance(copy.pk, contributors) == was)
    page.reload()
    expect(page.locator("#merge-counts")).to_contain_text("1 of 4 groups decided")
    expect(page.locator("#sources-changed")).to_have_count(0)
    # Redone and undone again: the same.
    press(annotator, "Control+y")
    expect(annotator.locator("#status")).to_contain_text("Redid")
    assert eventually(lambda: provenance(copy.pk, contributors) == (None, [None, None]))
    press(annotator, "Control+z")
    expect(annotator.locator("#status")).to_contain_text("Undid")
    assert eventually(lambda: provenance(copy.pk, contributors) == was)
    annotator.context.close()


def test_a_contributor_split_off_in_the_consensus_builder_keeps_its_provenance(
    browser_page, live_server, pair
):
    consensus = pyramid_consensus.start(pair["a"], pair["b"], pair["adjudicator"])
    copy = SCU.objects.get(pyramid=consensus, label="Apollo 11 landed on the Moon")
    page = adjudicator_on(browser_page, live_server)
    page.goto(f"{live_server.url}/pyramids/{consensus.pk}/merge/")
    click(page, "a:text-is('builder')")
    expect(page.locator("#scu-list")).to_be_visible()
    # Into SCU 1, down to model D's contributor, s: split it off into a new SCU.
    tab_to(page, "#scu-list [role=treeitem]")
    press(page, "ArrowRight")
    for _ in range(4):
        if page.evaluate(
            "() => document.activeElement.matches('.contributor') && "
            "document.activeElement.textContent.trim().startsWith('D')"
        ):
            break
        press(page, "ArrowDown")
    press(page, "s")
    expect(page.locator("#status")).to_contain_text("into new SCU 2")
    new = eventually(lambda: SCU.objects.filter(pyramid=consensus, uid=2).first())
    assert new is not None
    assert list(new.contributors.values_list("summary__author", flat=True)) == ["D"]
    # Stored: the new SCU came from the same SCU of A as the one it was split from, and its
    # contributor still points to A's contributor in model D.
    assert (
        (new.source.pyramid_id, new.source.uid)
        == (pair["a"].pk, 1)
        == (copy.source.pyramid_id, copy.source.uid)
    )
    moved = new.contributors.get()
    assert (moved.source.scu.pyramid_id, moved.source.summary.author) == (pair["a"].pk, "D")


def test_the_same_words_under_different_labels_wait_for_the_adjudicator_to_pick_a_label(
    browser_page, live_server, pair
):
    b = Pyramid.objects.get(pk=pair["b"].pk)
    editing.set_label(
        b.pk, pair["demo"]["other_annotator"], b.version, 1, "The Moon landing of Apollo 11"
    )
    consensus = pyramid_consensus.start(pair["a"], pair["b"], pair["adjudicator"])
    key = keys_by_kind(consensus)[ONE_TO_ONE]
    assert stored(consensus) == {}
    assert not consensus.scus.exists()
    page = adjudicator_on(browser_page, live_server)
    page.goto(f"{live_server.url}/pyramids/{consensus.pk}/merge/")
    expect(page.locator("#merge-counts")).to_contain_text("0 of 4 groups decided")
    group = page.locator(f"[id='group-{key}']")
    expect(group.locator("h2")).to_contain_text("the same words, labels differ: pick one")
    expect(group.locator(".side-a")).to_contain_text("Apollo 11 landed on the Moon")
    expect(group.locator(".side-b")).to_contain_text("The Moon landing of Apollo 11")
    # From the keyboard: n from one undecided group to the next until this one, Tab to B's version,
    # Enter.
    for _ in range(4):
        press(page, "n")
        if page.evaluate("(id) => document.activeElement.id === id", f"title-{key}"):
            break
    expect(page.locator(f"[id='title-{key}']")).to_be_focused()
    tab_to(page, f"[id='take-b-{key}']")
    press(page, "Enter")
    expect(group.locator(".group-note")).to_contain_text("chose B's version")
    assert eventually(lambda: stored(consensus).get(key) == "b")
    taken = SCU.objects.get(pyramid=consensus)
    assert taken.label == "The Moon landing of Apollo 11"
    assert taken.source.pyramid_id == pair["b"].pk
    assert violations(page) == []


def test_scus_made_in_the_builder_and_kept_as_edited_belong_to_their_group(
    browser_page, live_server, pair
):
    consensus = pyramid_consensus.start(pair["a"], pair["b"], pair["adjudicator"])
    samples = keys_by_kind(consensus)[ONLY_B]
    page = adjudicator_on(browser_page, live_server)
    page.goto(f"{live_server.url}/pyramids/{consensus.pk}/merge/")
    # The adjudicator writes the samples SCU their own way in the builder: the words dragged over
    # in model A, n, and a label typed.
    click(page, "a:text-is('builder')")
    expect(page.locator("#scu-list")).to_be_visible()
    drag_select(page, "A", "The crew collected rock samples")
    expect(page.locator("#selection")).to_contain_text("The crew collected rock samples")
    press(page, "n")
    expect(page.locator("#status")).to_contain_text("New SCU 2")
    made = eventually(lambda: SCU.objects.filter(pyramid=consensus, uid=2).first())
    assert made is not None
    assert made.source is None
    press(page, "l")
    label = page.locator("input.edit-label")
    expect(label).to_be_focused()
    press(page, "Control+a")
    type_text(page, "Rock samples were brought back")
    press(page, "Enter")
    expect(page.locator("#status")).to_contain_text("Relabelled SCU 2")
    assert eventually(lambda: SCU.objects.get(pk=made.pk).label == "Rock samples were brought back")

    # Back on the merge page, the group is kept as edited with a held press.
    page.go_back()
    page.reload()
    group = page.locator(f"[id='group-{samples}']")
    click(page, group.locator("button:text-is('Keep as edited')"))
    expect(group.locator(".group-note")).to_contain_text("kept as edited")
    assert eventually(lambda: stored(consensus).get(samples) == "edited")
    # Stored: the decision names the SCU made for it; the page shows it in its group, not apart.
    assert pyramid_consensus.decisions(consensus)[samples].decision["scus"] == [made.uid]
    click(page, "#hide-decided")
    expect(group.locator(".side-consensus")).to_contain_text("Rock samples were brought back")
    expect(page.locator("h2:text-is('SCUs the adjudicator added')")).to_have_count(0)
    assert violations(page) == []


def test_a_second_consensus_of_the_same_pyramids_is_named_and_started_only_when_confirmed(
    browser_page, live_server, pair
):
    consensus = submitted_consensus(pair)
    page = adjudicator_on(browser_page, live_server)
    page.goto(
        f"{live_server.url}/docsets/{pair['a'].docset_id}/compare/?a={pair['a'].pk}&b={pair['b'].pk}"
    )
    already = page.locator("#pair-consensus")
    expect(already).to_contain_text("by-annotator and by-other already have a consensus")
    expect(already.locator(f"a:text-is('Open {consensus.name}')")).to_be_visible()
    assert violations(page) == []
    # Start another without ticking the confirmation: the browser asks for it, nothing is stored.
    click(page, "#start-consensus button[type=submit]")
    expect(page).to_have_url(
        f"{live_server.url}/docsets/{pair['a'].docset_id}/compare/?a={pair['a'].pk}&b={pair['b'].pk}"
    )
    assert Pyramid.objects.filter(merge__isnull=False).count() == 1
    # Ticked from the keyboard (Space), then started.
    tab_to(page, "#start-consensus input[name=again]")
    press(page, "Space")
    expect(page.locator("#start-consensus input[name=again]")).to_be_checked()
    tab_to(page, "#start-consensus button[type=submit]")
    press(page, "Enter")
    expect(page.locator("#merge-counts")).to_contain_text("groups decided")
    assert eventually(lambda: Pyramid.objects.filter(merge__isnull=False).count() == 2)
    second = Pyramid.objects.filter(merge__isnull=False).exclude(pk=consensus.pk).get()
    assert second.name != consensus.name
    assert second.status == Pyramid.Status.IN_PROGRESS
    # The existing one leads back to its merge page.
    page.go_back()
    page.reload()
    click(page, f"#pair-consensus a:text-is('Open {consensus.name}')")
    expect(page).to_have_url(f"{live_server.url}/pyramids/{consensus.pk}/merge/")
