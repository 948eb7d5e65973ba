"""In real Chromium at 1280x720, by keyboard at a person's pace: an administrator makes a SEE unit
set from the docset's page, merges two units and relabels the merged one; what was stored is
checked, and axe-core finds no serious or critical violation on the two pages."""

import pytest
from playwright.sync_api import expect

from annotator.models import Summary, Unit, UnitSet
from tests.accessibility import violations
from tests.conftest import BROWSER_TEST, log_in
from tests.human import eventually, focused, press, settle, tab_to, type_text

pytestmark = BROWSER_TEST

A1 = "Apollo 11 landed on the Moon on July 20, 1969"
A2 = (
    "Neil Armstrong and Buzz Aldrin walked on the surface while Michael Collins orbited above "
    "in the command module"
)


def stored_texts() -> list[str]:
    return list(
        Unit.objects.filter(unit_set__name="SEE model A")
        .order_by("position")
        .values_list("text", flat=True)
    )


@pytest.mark.parametrize("viewport", ["laptop"], indirect=True)
def test_make_a_see_unit_set_then_merge_and_relabel_by_keyboard(browser_page, live_server, demo):
    page = browser_page
    docset = demo["pyramid"].docset
    models = dict(Summary.objects.filter(docset=docset, kind="model").values_list("author", "pk"))
    log_in(page, live_server, "admin", "admin-pass-1")
    page.goto(f"{live_server.url}/docsets/{docset.pk}/")

    # The docset's page → New unit sets.
    tab_to(page, "a[href$='/unit-sets/new/']")
    press(page, "Enter")
    expect(page.locator("h1")).to_have_text(f"New unit sets for docset {docset.name}")
    assert not violations(page), violations(page)

    # SEE for model A only: untick B, C and D (Space), keep the five-point scale.
    for author in "BCD":
        tab_to(page, f"input[name='see-models'][value='{models[author]}']")
        press(page, "Space")
    tab_to(page, "form:has(input[name='kind'][value='see']) button[type=submit]")
    press(page, "Enter")
    expect(page.locator("h1")).to_have_text("Unit set SEE model A")
    unit_set = UnitSet.objects.get()
    assert (unit_set.name, unit_set.scale, unit_set.version) == ("SEE model A", "five_point", 1)
    assert stored_texts()[:2] == [A1, A2]
    assert len(stored_texts()) == 4
    assert not violations(page), violations(page)

    # Merge units 1 and 2 (Tab to the button, Enter).
    tab_to(page, "form[action$='/edit/merge/'] button")  # unit 1's, the first reached
    assert "Merge units 1 and 2" in focused(page)
    press(page, "Enter")
    merged = f"{A1}. {A2}"
    assert eventually(lambda: stored_texts()[0] == merged), stored_texts()
    expect(page.locator("#unit-status")).to_have_text("Merged units 1 and 2 into unit 1.")
    settle(page)
    # The focus is on the merged unit's text: select it all and type its new text, then Enter.
    assert 'name="text"' in focused(page), focused(page)
    assert page.evaluate("() => document.activeElement.value") == merged
    press(page, "Control+A")
    type_text(page, "Apollo 11 landed in July 1969 and two astronauts walked on the Moon")
    press(page, "Enter")
    expect(page.locator("#unit-status")).to_have_text("Saved the text of unit 1.")

    stored = list(
        Unit.objects.filter(unit_set=unit_set)
        .order_by("position")
        .values_list("position", "text", "start", "end")
    )
    model_text = Summary.objects.get(pk=models["A"]).text
    assert stored[0] == (
        1,
        "Apollo 11 landed in July 1969 and two astronauts walked on the Moon",
        0,
        model_text.index(A2) + len(A2),
    )
    assert [position for position, *_ in stored] == [1, 2, 3]
    assert UnitSet.objects.get().version == 3
    assert not violations(page), violations(page)


@pytest.mark.parametrize("viewport", ["laptop"], indirect=True)
def test_a_conflict_keeps_the_typed_text_to_save_again_then_the_set_is_deleted(
    browser_page, live_server, demo
):
    """Two tabs on one unit set: A merges units 1 and 2; B, still showing the old units, retypes
    unit 3 and presses Enter: 409, the units as they now are, the typed text still in unit 3's box
    (now unit 2), the focus in it; Enter saves it. Then the set is deleted through its
    confirmation."""
    from tests.coverage.unit_set_helpers import see_of_model_a

    unit_set = see_of_model_a(demo)
    third = list(unit_set.units.order_by("position").values_list("pk", flat=True))[2]
    tab_a = browser_page
    log_in(tab_a, live_server, "admin", "admin-pass-1")
    page_url = f"{live_server.url}/unit-sets/{unit_set.pk}/"
    tab_a.goto(page_url)
    tab_b = tab_a.context.new_page()
    tab_b.goto(page_url)

    tab_to(tab_a, "form[action$='/edit/merge/'] button")
    press(tab_a, "Enter")
    expect(tab_a.locator("#unit-status")).to_have_text("Merged units 1 and 2 into unit 1.")
    assert eventually(lambda: len(stored_texts()) == 3)

    typed = "Armstrong stepped onto the Moon first"
    tab_b.bring_to_front()
    tab_to(tab_b, f"#unit-text-{third}")
    press(tab_b, "Control+A")
    type_text(tab_b, typed)
    press(tab_b, "Enter")
    expect(tab_b.locator("#unit-status")).to_contain_text("this unit set was changed elsewhere")
    expect(tab_b.locator("#unit-status")).to_contain_text(
        "Your text for this unit is kept in its box (now unit 2): press Enter in it to save it."
    )
    settle(tab_b)
    # The focus in the box the message names, so that Enter there (as it says) saves the text.
    assert tab_b.evaluate("() => document.activeElement.id") == f"unit-text-{third}"
    assert tab_b.input_value(f"#unit-text-{third}") == typed
    assert stored_texts()[1] == "Armstrong was the first person to step onto the Moon"
    assert not violations(tab_b), violations(tab_b)

    press(tab_b, "Enter")
    expect(tab_b.locator("#unit-status")).to_have_text("Saved the text of unit 2.")
    assert eventually(lambda: stored_texts()[1] == typed), stored_texts()
    assert UnitSet.objects.get().version == 3

    # Delete the unit set: its link, the confirmation, the button; back on the docset's page.
    tab_to(tab_b, f"a[href$='/unit-sets/{unit_set.pk}/delete/']")
    press(tab_b, "Enter")
    expect(tab_b.locator("h1")).to_have_text("Delete unit set SEE model A?")
    assert not violations(tab_b), violations(tab_b)
    tab_to(tab_b, "form[action$='/delete/'] button[type=submit]")
    press(tab_b, "Enter")
    expect(tab_b.locator("h1")).to_contain_text("DEMO01")
    expect(tab_b.locator("body")).to_contain_text("Deleted the unit set “SEE model A” (3 units).")
    assert eventually(lambda: not UnitSet.objects.exists())
    assert not Unit.objects.exists()
