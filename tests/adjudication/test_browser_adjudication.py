"""In real Chromium: an adjudicator merges two annotators' pyramids into a consensus, and two
sites' annotations of a D0631 peer into a consensus annotation whose score export_scores agrees
with."""

import csv
import io
import re

import pytest
from playwright.sync_api import expect

from annotator.adjudication import annotation_consensus
from annotator.campaigns import assignments
from annotator.models import Collection, Membership, PeerAnnotation, Pyramid, Role
from tests.conftest import BROWSER_TEST, log_in
from tests.helpers import import_files, run
from tests.human import click, drag_select, eventually, press, type_text

pytestmark = BROWSER_TEST


def decided_one(consensus) -> bool:
    """Whether the adjudicator has decided an SCU yet (beyond those taken at the start)."""
    return any(
        change.decision["choice"] != annotation_consensus.IDENTICAL
        for change in annotation_consensus.decisions(consensus).values()
    )


def group_card(page, text):
    return page.locator(".merge-group").filter(has_text=text)


def test_two_pyramids_merged_submitted_and_a_peer_annotated_against_the_consensus(
    browser_page, live_server, pair
):
    page, demo = browser_page, pair["demo"]
    page.on("dialog", lambda dialog: dialog.accept())
    log_in(page, live_server, "adjudicator", "adjudicator-pass-1")
    page.goto(f"{live_server.url}/docsets/{pair['a'].docset_id}/")
    click(page, "a:text-is('Compare')")
    page.select_option("select[name=a]", label="by-annotator")
    page.select_option("select[name=b]", label="by-other")
    click(page, "button:text-is('Compare')")
    expect(page.locator("#group-counts")).to_contain_text("1 split by one annotator")
    expect(page.locator("#model-texts .only-a").first).to_be_visible()

    click(page, "button:text-is('Merge A and B into a consensus pyramid')")
    expect(page.locator("#merge-counts")).to_contain_text("1 of 4 groups decided")
    # Some of each side: B's split of the astronauts, A's Collins, and leave B's samples out.
    click(
        page,
        group_card(page, "Aldrin walked on the Moon").locator(
            'button:text-is("Take B\'s version")'
        ),
    )
    expect(page.locator("#merge-counts")).to_contain_text("2 of 4 groups decided")
    click(page, group_card(page, "Collins orbited").locator('button:text-is("Take A\'s version")'))
    expect(page.locator("#merge-counts")).to_contain_text("3 of 4 groups decided")
    click(
        page,
        group_card(page, "Samples were collected").locator("button:text-is('Leave out (as A)')"),
    )
    expect(page.locator("#merge-counts")).to_contain_text("4 of 4 groups decided")

    # Edit one SCU in the builder, then say the group stands as edited.
    click(page, "a:text-is('builder')")
    click(page, page.locator(".scu-list > li", has_text="Collins orbited").locator(".label"))
    press(page, "l")
    expect(page.locator("input.edit-label")).to_be_focused()
    press(page, "Control+a")
    type_text(page, "Collins stayed in orbit")
    press(page, "Enter")
    expect(page.locator("#status")).to_contain_text("Relabelled SCU")
    page.go_back()
    page.reload()
    click(page, "#hide-decided")  # the group was decided (A's version): decided groups are hidden
    card = group_card(page, "Collins stayed in orbit")
    click(page, card.locator("button:text-is('Keep as edited')"))
    expect(group_card(page, "Collins stayed in orbit").locator(".decision")).to_contain_text(
        "kept as edited · adjudicator"
    )

    click(page, "summary:text-is('Submit the consensus…')")
    click(page, "button:text-is('Submit now')")
    expect(page.locator("#merge-counts")).to_contain_text("submitted")
    consensus = Pyramid.objects.get(merge__isnull=False)
    assert consensus.status == Pyramid.Status.SUBMITTED
    assert sorted(consensus.scus.values_list("label", flat=True)) == [
        "Aldrin walked on the Moon",
        "Apollo 11 landed on the Moon",
        "Armstrong",
        "Collins stayed in orbit",
    ]

    # Peers are now annotated against the docset's adjudicated pyramid.
    report = assignments.assign_peers(
        [consensus.docset],
        [pair["adjudicator"]],
        demo["admin"],
        peers=[demo["annotations"]["1"].peer],
    )
    assert report.created[0].pyramid_id == consensus.pk
    page.goto(live_server.url + "/")
    click(
        page,
        page.locator("#your-work tbody tr", has_text=consensus.name).locator(
            "button:text-is('Annotate')"
        ),
    )
    expect(page.locator("#peer-text")).to_be_visible()
    drag_select(page, "peer", "Michael Collins remained in orbit")
    expect(page.locator("#selection")).to_contain_text(
        "Selected: “Michael Collins remained in orbit”"
    )
    click(
        page, page.locator(".scu-list > li", has_text="Collins stayed in orbit").locator(".scu-row")
    )
    expect(page.locator("#status")).to_contain_text(
        "Matched “Michael Collins remained in orbit” to SCU"
    )
    annotation = PeerAnnotation.objects.get(pyramid=consensus)
    assert list(annotation.pses.values_list("scu__label", flat=True)) == ["Collins stayed in orbit"]


@pytest.mark.shared_data
def test_d0631_annotations_of_one_peer_merged_and_scored(
    browser_page, live_server, shared_data, django_user_model
):
    folder = shared_data / "duc2006-nist"
    import_files(
        folder / "allpyramids/D0631.pyr",
        folder / "allpans/114.D0631.M.250.D.1.pan",
        folder / "allpans/115.D0631.M.250.D.1.pan",
        collection="DUC 2006",
    )
    adjudicator = django_user_model.objects.create_user(
        "adjudicator", password="adjudicator-pass-1"
    )
    Membership.objects.create(
        collection=Collection.objects.get(name="DUC 2006"), user=adjudicator, role=Role.ADJUDICATOR
    )
    page = browser_page
    log_in(page, live_server, "adjudicator", "adjudicator-pass-1")
    page.goto(live_server.url + "/")
    click(page, "nav a:text-is('Collections')")
    click(page, "a:text-is('DUC 2006')")
    click(page, "a:text-is('D0631')")
    click(page, "a:text-is('Peers annotated twice')")
    click(page, "#peers a:text-is('1')")
    expect(page.locator(".peer-text")).to_have_count(2)
    expect(page.locator(".peer-text .differs").first).to_be_visible()  # where the two sites differ

    sites = {a.annotator_code: a for a in PeerAnnotation.objects.filter(pyramid__name="D0631")}
    click(page, "button:text-is('Start a consensus annotation')")
    expect(page.locator("#merge-counts")).to_contain_text("left to decide")
    # Decide every SCU the sites differ on: site 114's reading for the first, 115's for the rest.
    consensus = PeerAnnotation.objects.get(merge__isnull=False)
    left = len(annotation_consensus.undecided_scus(consensus))
    assert left > 1
    counts = page.locator("#merge-counts")
    expect(counts).to_have_text(re.compile(rf"(^|\D){left} left to decide"))
    while left:
        uid = int(page.locator("tr.reading:not(.decided)").first.get_attribute("data-scu"))
        site = sites["114" if not decided_one(consensus) else "115"]
        button = page.locator(f"[id='scu-{uid}'] button[id='take-{site.pk}-{uid}']")
        # A site that matched nothing for the SCU offers to leave it out; one that did, its reading.
        expect(button).to_have_text(re.compile(r"^(Take 1\d\d's|Leave out \(as 1\d\d: no PSE\))$"))
        click(page, button)
        left -= 1
        expect(counts).to_have_text(re.compile(rf"(^|\D){left} left to decide"))
        # The decided SCU's rows marked as such (htmx settles classes a moment after the swap), as a
        # person sees before looking for the next undecided one.
        expect(page.locator(f"tr.reading[data-scu='{uid}']:not(.decided)")).to_have_count(0)
        # Stored: that SCU decided, as that site's reading.
        assert eventually(lambda uid=uid: annotation_consensus.decisions(consensus).get(str(uid)))
        assert annotation_consensus.decisions(consensus)[str(uid)].decision["choice"] == site.pk
    expect(page.locator("#merge-counts")).to_contain_text("0 left to decide")
    click(page, "summary:text-is('Mark the consensus complete…')")
    click(page, "button:text-is('Mark it complete now')")
    expect(page.locator("#merge-counts")).to_contain_text("complete")

    shown = page.locator("#annotation-scores tr.consensus .score-modified").inner_text()
    out, _ = run("export_scores", collection="DUC 2006", docset="D0631", adjudicated=True)
    rows = [r for r in csv.DictReader(io.StringIO(out)) if r["annotator"] == "consensus"]
    assert len(rows) == 1
    assert f"{float(rows[0]['modified']):.4f}" == shown
    # Without --adjudicated, consensus work is left out of the scores (one rule everywhere).
    out, _ = run("export_scores", collection="DUC 2006", docset="D0631")
    assert not [r for r in csv.DictReader(io.StringIO(out)) if r["annotator"] == "consensus"]
