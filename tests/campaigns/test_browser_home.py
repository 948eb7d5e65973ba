"""In real Chromium, at a person's pace: the home page's "Your work" (issue 17). Building a pyramid
and annotating a peer open alike: one control a row, in the rows' order when tabbing, looking the
same, each answering Enter and Space — whether it is a link ("Build pyramid", "Continue
annotating") or, where opening changes something, a button ("Annotate": the first time it makes
the annotation and marks the assignment started)."""

import pytest
from playwright.sync_api import expect

from annotator.models import Assignment, PeerAnnotation
from tests.accessibility import violations
from tests.conftest import BROWSER_TEST, log_in
from tests.helpers import empty_pyramid
from tests.human import press, tab_to

pytestmark = BROWSER_TEST

LOOK = """(e) => { const s = getComputedStyle(e), r = e.getBoundingClientRect();
  return { font: s.fontSize + " " + s.fontFamily + " " + s.fontWeight,
           background: s.backgroundColor, color: s.color,
           height: Math.round(r.height), radius: s.borderRadius, padding: s.padding }; }"""


def controls(page):
    return page.locator("#your-work .work-action")


@pytest.mark.parametrize("viewport", ["laptop"], indirect=True)
def test_both_kinds_of_work_open_alike_from_the_keyboard(browser_page, live_server, demo):
    page = browser_page
    pyramid = empty_pyramid(demo, name="DEMO01-B", assign_to="annotator")
    log_in(page, live_server, "annotator", "annotator-pass-1")
    build = page.locator("#your-work a.work-action", has_text="Build pyramid")
    annotate = page.locator("#your-work button.work-action", has_text="Annotate")
    expect(build).to_be_visible()
    expect(annotate).to_be_visible()
    assert not violations(page), violations(page)

    # They look alike: one font, one size, one colour, one shape.
    assert build.evaluate(LOOK) == annotate.evaluate(LOOK)

    # One tab stop a row, in the rows' order (nothing focusable in between).
    tab_to(page, "#your-work .work-action")
    order = [page.evaluate("() => document.activeElement.textContent")]
    press(page, "Tab")
    order.append(page.evaluate("() => document.activeElement.textContent"))
    rows = controls(page).all_text_contents()
    assert order == rows, (order, rows)
    assert sorted(rows) == ["Annotate", "Build pyramid"], (order, rows)

    # Space on the link opens the builder, as it would a button.
    tab_to(page, "#your-work a.work-action")
    press(page, "Space")
    page.wait_for_url(f"**/pyramids/{pyramid.pk}/")
    expect(page.locator("h1")).to_contain_text("Pyramid DEMO01-B")
    page.go_back()

    # Space on the button opens the peer: the annotation is made, the assignment started.
    tab_to(page, "#your-work button.work-action")
    press(page, "Space")
    page.wait_for_url("**/annotations/*/")
    annotation = PeerAnnotation.objects.get(annotator=demo["annotator"])
    assert (
        Assignment.objects.get(user=demo["annotator"], task="peer").status
        == Assignment.Status.IN_PROGRESS
    )
    expect(page.locator("h1")).to_contain_text("Peer 1")

    # Back home, the peer is continued by a link now, opened with Enter like the other.
    page.goto(live_server.url + "/")
    expect(controls(page)).to_have_text(
        ["Continue annotating", "Build pyramid"]
    )  # work in progress first
    tab_to(page, "#your-work a.work-action[href^='/annotations/']")
    press(page, "Enter")
    page.wait_for_url(f"**/annotations/{annotation.pk}/")
    page.go_back()
    tab_to(page, "#your-work a.work-action[href^='/pyramids/']")
    press(page, "Enter")
    page.wait_for_url(f"**/pyramids/{pyramid.pk}/")
    assert (
        PeerAnnotation.objects.filter(annotator=demo["annotator"]).count() == 1
    )  # opening made no other
