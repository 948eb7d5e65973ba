"""In real Chromium at 1280x720, by keyboard at a person's pace: an administrator makes a SEE unit
set from the docset's page, merges two units and relabels the merged one; what was stored is
checked, and axe-core finds no serious or critical violation on the two pages."""

import pytest
from playwright.sync_api import expect

from annotator.models import Summary, Unit, UnitSet
from tests.accessibility import violations
from tests.conftest import CHROMIUM, log_in
from tests.human import eventually, focused, press, settle, tab_to, type_text

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        not CHROMIUM.exists(),
        reason="Debian's Chromium is not installed (apt-get install -y chromium)",
    ),
]

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
