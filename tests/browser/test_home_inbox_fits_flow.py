"""The home inbox shows every column whole in a 1400×900 and a 1280×720 window: nothing runs off the grid's
right edge (a refund's reason, "who may decide"), and Open, the way to act, comes first."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from dashboard.views import INBOX_ROW_HEIGHT
from tests.browser.conftest import Dashboard
from tests.browser.opening import open_page

DRAWN = 30_000
REASON = "The parcel arrived two weeks late and the box was crushed; the customer asks for the whole order back"
#: The grid's own scroller: wider content than its box scrolls sideways, off the right edge.
SIDEWAYS = """grid => { const s = grid.querySelector('.dvn-scroller');
  return {content: s.scrollWidth, shown: s.clientWidth}; }"""


@pytest.fixture(scope="module")
def case_with_a_long_reason(shared_dashboard: Dashboard) -> None:
    """Case C-7, waiting, with a reason longer than two lines, on the module's dashboard (made once)."""
    args = ("--case", "C-7", "--customer", "Kim Minsu", "--amount", "480000", "--reason", REASON)
    started = shared_dashboard.cli("run", "refund", *args)
    assert started.returncode == 0, started.stderr


@pytest.mark.parametrize("size", [(1400, 900), (1280, 720)], ids=["1400x900", "1280x720"])
@pytest.mark.parametrize("language", ["en", "ko"])
def test_every_inbox_column_is_in_view_and_open_comes_first(
    page: Page, shared_dashboard: Dashboard, case_with_a_long_reason: None, language: str, size: tuple[int, int]
):
    open_page(page, shared_dashboard, f"?lang={language}", size)
    inbox = page.get_by_test_id("stMain").get_by_test_id("stDataFrame").first
    expect(inbox.locator("th[role=columnheader]").first).to_have_text(
        "open" if language == "en" else "열기", timeout=DRAWN
    )
    widths = inbox.evaluate(SIDEWAYS)
    assert widths["content"] <= widths["shown"] + 1, widths  # every column, the last one too, is in view


@pytest.mark.parametrize("language", ["en", "ko"])
def test_an_agent_cards_threads_fit_its_grid_in_a_1280_window(
    page: Page, shared_dashboard: Dashboard, case_with_a_long_reason: None, language: str
):
    open_page(page, shared_dashboard, f"?lang={language}", (1280, 720))
    card = page.get_by_test_id("stMain").get_by_test_id("stDataFrame").nth(1)  # the refund card's threads
    card.scroll_into_view_if_needed(timeout=DRAWN)
    expect(card.locator("th[role=columnheader]").first).to_have_text("open" if language == "en" else "열기")
    widths = card.evaluate(SIDEWAYS)
    assert widths["content"] <= widths["shown"] + 1, widths  # its columns' widths, set, fit the card


#: The inbox's header row in pixels, and its rows (two lines of text, a longer reason cut).
HEADER, ROW = 36, INBOX_ROW_HEIGHT
FIRST_SCREEN_ROWS = 5


@pytest.fixture(scope="module")
def five_waiting(shared_dashboard: Dashboard) -> None:
    """At least five items in the inbox, refunds with a reason longer than two lines among them (made once,
    through one CLI process)."""
    args = ("--customer", "Kim Minsu", "--amount", "480000", "--reason", REASON)
    steps = [{"cli": ["run", "refund", "--case", f"C-{number}", *args]} for number in range(8, 8 + FIRST_SCREEN_ROWS)]
    done = shared_dashboard.cli_batch(*steps)
    assert [step["code"] for step in done] == [0] * FIRST_SCREEN_ROWS, [step["err"] for step in done]


@pytest.mark.parametrize("language", ["en", "ko"])
def test_five_inbox_rows_are_on_a_1280x720_first_screen(
    page: Page, shared_dashboard: Dashboard, five_waiting: None, language: str
):
    open_page(page, shared_dashboard, f"?lang={language}", (1280, 720))
    main = page.get_by_test_id("stMain")
    inbox = main.get_by_test_id("stDataFrame").first
    expect(inbox).to_be_visible(timeout=DRAWN)
    grid = inbox.bounding_box()
    assert grid is not None and grid["height"] >= HEADER + FIRST_SCREEN_ROWS * ROW, grid  # five rows drawn
    assert grid["y"] + HEADER + FIRST_SCREEN_ROWS * ROW <= 720, grid  # and whole on the first screen
    search = main.get_by_placeholder("Search" if language == "en" else "검색").first.bounding_box()
    order = main.get_by_test_id("stButtonGroup").first.bounding_box()
    assert search is not None and order is not None
    assert abs((search["y"] + search["height"] / 2) - (order["y"] + order["height"] / 2)) < 6, (search, order)
