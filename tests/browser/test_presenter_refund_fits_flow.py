"""Presenter mode's refund page in a 1280×720 window, in English and Korean: its larger type cuts nothing the page
measures in pixels. The case's metrics read whole (a 500,000 KRW case, and the largest a refund may ask,
10,000,000 KRW), the queue's order choices are whole and clear of its search box, and the queue's grid fits
without scrolling sideways. Each is measured as the grid-fit tests measure (an element's content no wider than
what it shows: no "…"). Every wait is on the page's state."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from dashboard.i18n import t
from tests.browser.conftest import Dashboard, table_with
from tests.browser.opening import cli_ok, open_page
from tests.browser.test_refund_grids_fit_flow import WIDTHS as GRID_WIDTHS

WIDTH, HEIGHT = 1280, 720
#: Rounding of fractional pixels.
SLACK = 1
CASES = {"C1": 500_000, "C-MAX": 10_000_000}

#: Each metric's value: its text's element cuts it with "…" where its column ends.
METRIC_WIDTHS = """(main) => [...main.querySelectorAll('[data-testid="stMetricValue"] > div')].map(
  value => ({text: value.textContent, scroll: value.scrollWidth, client: value.clientWidth}))"""
#: The elements of a control whose content is wider than they show (cut, or scrolled sideways).
SCROLLED = """(control) => [...control.querySelectorAll('*')].filter(e => e.scrollWidth > e.clientWidth + 1)
  .map(e => ({tag: e.tagName, scroll: e.scrollWidth, client: e.clientWidth}))"""


@pytest.fixture(scope="module")
def cases(shared_dashboard: Dashboard) -> Dashboard:
    for case, amount in CASES.items():
        run = ("run", "refund", "--case", case, "--customer", "Kim Minsu", "--reason", "broken on arrival")
        cli_ok(shared_dashboard, *run, "--amount", str(amount))
    return shared_dashboard


@pytest.mark.parametrize("lang", ["en", "ko"])
@pytest.mark.parametrize("case", list(CASES))
def test_the_refund_figures_read_whole_in_presenter_mode(page: Page, cases: Dashboard, lang: str, case: str):
    main = open_page(page, cases, f"refund?present=1&thread=refund-{case}&lang={lang}", (WIDTH, HEIGHT))
    expect(main.get_by_test_id("stMetric").filter(has_text=t("refund.metric.requested", lang=lang))).to_be_visible()
    metrics = main.evaluate(METRIC_WIDTHS)
    assert [m["text"] for m in metrics].count(f"{CASES[case]:,}" + (" KRW" if lang == "en" else "원")) == 2, metrics
    cut = [m for m in metrics if m["scroll"] > m["client"] + SLACK]
    assert not cut, f"cut with an ellipsis: {cut}"


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_the_queue_and_its_order_choices_are_whole_in_presenter_mode(page: Page, cases: Dashboard, lang: str):
    main = open_page(page, cases, f"refund?present=1&thread=refund-C1&lang={lang}", (WIDTH, HEIGHT))
    order = main.locator(".st-key-refund-queue-order")
    order.scroll_into_view_if_needed()
    last = order.locator("button", has_text=t("queue.order.amount", lang=lang))
    expect(last).to_be_visible()
    # The choices scroll sideways inside the control when its column is narrower than they are.
    assert order.evaluate(SCROLLED) == [], "the order's choices are cut"
    button, box = last.bounding_box(), main.locator(".st-key-refund-queue-search input").bounding_box()
    assert button is not None and box is not None
    beside = box["y"] < button["y"] + button["height"] and button["y"] < box["y"] + box["height"]
    assert not beside or button["x"] + button["width"] <= box["x"], (button, box)  # never under the search box

    grid = table_with(page, "C-MAX")  # the queue: the first grid that lists the open cases
    grid.scroll_into_view_if_needed()
    expect(grid.locator(".dvn-scroller")).to_have_count(1)
    widths = grid.evaluate(GRID_WIDTHS)
    assert widths and 0 < widths["client"] and widths["scroll"] <= widths["client"] + SLACK, widths
