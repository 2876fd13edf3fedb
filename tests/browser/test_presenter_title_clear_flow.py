"""A page's title clears the header bar, measured in the browser: at a phone's and a tablet's width, where the
sidebar is closed and the header (with its "»" button) is opaque, in presenter mode and not, in English and
Korean; and on a projector's width when the presenter closes the sidebar by hand."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import Dashboard
from tests.browser.opening import open_page

#: The pages measured, each with its title first.
PAGES = ("robot", "lecture", "explorer")

#: The title's and the header bar's boxes (top and bottom, in the page), and whether the sidebar is closed.
TITLE_AND_HEADER = """main => {
  const box = node => { const r = node.getBoundingClientRect(); return {top: r.top, bottom: r.bottom}; };
  const sidebar = document.querySelector('[data-testid="stSidebar"]');
  return {title: box(main.querySelector('h1')), header: box(document.querySelector('[data-testid="stHeader"]')),
          closed: sidebar.getAttribute('data-collapsed') === 'true'};
}"""


def _title_clears_the_header(page: Page) -> None:
    main = page.get_by_test_id("stMain")
    expect(main.locator("h1").first).to_be_visible()
    boxes = main.evaluate(TITLE_AND_HEADER)
    assert boxes["closed"], boxes  # the header is opaque only while the sidebar is closed
    assert boxes["title"]["top"] >= boxes["header"]["bottom"], boxes


@pytest.mark.parametrize("lang", ["en", "ko"])
@pytest.mark.parametrize("present", [True, False], ids=["present", "normal"])
@pytest.mark.parametrize("size", [(390, 844), (768, 1024)], ids=["phone", "tablet"])
def test_every_pages_title_clears_the_header_with_the_sidebar_closed(
    page: Page, shared_dashboard: Dashboard, size: tuple[int, int], present: bool, lang: str
):
    query = f"lang={lang}" + ("&present=1" if present else "")
    for name in PAGES:
        open_page(page, shared_dashboard, f"{name}?{query}", size)
        _title_clears_the_header(page)


def test_the_title_clears_the_header_when_the_presenter_closes_the_sidebar(page: Page, shared_dashboard: Dashboard):
    open_page(page, shared_dashboard, "lecture?present=1", (1280, 720))
    sidebar = page.get_by_test_id("stSidebar")
    expect(sidebar).to_have_attribute("data-collapsed", "false")
    sidebar.hover()  # the close button shows while the pointer is over the sidebar
    page.get_by_test_id("stSidebarCollapseButton").locator("button").click()
    expect(sidebar).to_have_attribute("data-collapsed", "true")
    _title_clears_the_header(page)
