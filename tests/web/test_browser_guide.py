"""In real Chromium: the guide as a person reaches it — from the builder's `?` help to its page of
the guide, under the Content-Security-Policy, asking no other site for anything — and its search,
typed a key at a time, finds the peer page's proposals."""

import pytest

from tests.accessibility import violations
from tests.conftest import BROWSER_TEST, log_in
from tests.helpers import empty_pyramid
from tests.human import press, tab_to, type_text

pytestmark = BROWSER_TEST


@pytest.fixture
def guide(built_guide, settings):
    settings.GUIDE_ROOT = built_guide
    return built_guide


class Watch:
    """What a page asked of other sites, and what the policy refused, as Chromium reports it."""

    def __init__(self, context, origin: str):
        self.elsewhere: list[str] = []
        self.refused: list[str] = []
        context.route(
            "**/*",
            lambda route: (
                route.continue_()
                if route.request.url.startswith((origin, "data:", "blob:"))
                else (self.elsewhere.append(route.request.url), route.abort())
            ),
        )

    def page(self, page):
        page.on(
            "console",
            lambda message: (
                self.refused.append(message.text)
                if "Content Security Policy" in message.text
                else None
            ),
        )
        return page


@pytest.mark.parametrize("viewport", ["laptop"], indirect=True)
def test_from_the_builders_help_to_its_page_of_the_guide(browser_page, live_server, demo, guide):
    page = browser_page
    watch = Watch(page.context, live_server.url)
    watch.page(page)
    pyramid = empty_pyramid(demo, name="Guide-B")
    log_in(page, live_server, "outsider", "outsider-pass-1")
    page.goto(f"{live_server.url}/pyramids/{pyramid.pk}/")
    page.locator("#models").wait_for()
    press(page, "?")
    link = page.locator("#help a", has_text="the pyramid builder")
    link.wait_for()
    tab_to(page, "#help a[href='/guide/annotator/builder/']")  # as a person reaches it
    with page.context.expect_page() as opened:
        press(page, "Enter")
    guide_page = watch.page(opened.value)
    guide_page.wait_for_load_state("networkidle")
    assert guide_page.url == f"{live_server.url}/guide/annotator/builder/"
    assert guide_page.locator("h1").first.inner_text().rstrip("¶") == "The pyramid builder"
    # The screenshot is there; the theme's inline script (allowed by its hash) and its bundle ran.
    assert guide_page.locator("img[src$='builder.png']").evaluate("i => i.naturalWidth") == 1280
    assert guide_page.evaluate("() => typeof __md_get === 'function' && typeof document$")
    assert not watch.elsewhere, watch.elsewhere
    assert not watch.refused, watch.refused
    guide_page.close()

    # The topbar's Guide link of the builder opens the same section.
    href = page.locator("header nav a", has_text="Guide").get_attribute("href")
    assert href == "/guide/annotator/builder/"


@pytest.mark.parametrize("viewport", ["laptop"], indirect=True)
def test_the_guides_search_works_offline(browser_page, live_server, guide):
    page = browser_page
    watch = Watch(page.context, live_server.url)
    watch.page(page)
    page.goto(f"{live_server.url}/guide/")  # no login: the manual is anyone's
    page.locator("h1", has_text="Pyramid annotator").wait_for()
    press(page, "/")  # Material's key for its search box
    type_text(page, "proposals")
    results = page.locator(".md-search-result__item a")
    results.first.wait_for()
    hrefs = [results.nth(i).get_attribute("href") for i in range(results.count())]
    assert any("annotator/peer/" in href for href in hrefs), hrefs
    assert not watch.elsewhere, watch.elsewhere
    assert not watch.refused, watch.refused


@pytest.mark.parametrize("viewport", ["laptop"], indirect=True)
@pytest.mark.parametrize("section", ["", "annotator/peer/", "organizer/commands/"])
def test_axe_finds_nothing_serious_in_the_guide(browser_page, live_server, guide, section):
    page = browser_page
    page.goto(f"{live_server.url}/guide/{section}")
    page.locator("h1").first.wait_for()
    found = violations(page)
    assert found == [], "\n".join(found)
