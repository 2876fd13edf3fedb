"""What a first screen shows: the robot's yes / no on a projector's 1280×720, the inbox's Open at 1400 px."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from dashboard.i18n import t
from tests.browser.conftest import LINE_STARTS, Dashboard
from tests.browser.opening import cli_ok, open_page

DRAWN = 30_000
#: Room left under the answer buttons in presenter mode: a projector's edge or a browser bar never hides them.
FOLD_MARGIN = 40
#: Each metric's value and label: its text, and the parts of it that are cut (Streamlit keeps a value on one
#: line and hides what its column cannot hold behind an ellipsis: a cut value is wider inside than it shows).
METRICS = """main => Array.from(main.querySelectorAll(
  '[data-testid="stMetricValue"], [data-testid="stMetricLabel"]')).map(value => ({
  text: value.innerText.trim(),
  cut: [value, ...value.querySelectorAll('*')].filter(part => part.scrollWidth > part.clientWidth)
    .map(part => [part.scrollWidth, part.clientWidth]),
}))"""


# The robot's first screens are measured on a fresh database (the ``dashboard`` fixture): as a first user
# sees the page, with no other waiting robot thread listed above its answer buttons.


def test_the_robots_answer_buttons_are_on_a_projectors_first_screen(page: Page, dashboard: Dashboard):
    cli_ok(dashboard, "run", "robot")
    main = open_page(page, dashboard, "robot", (1280, 720))
    for label in ("yes", "no"):
        button = main.get_by_role("button", name=label, exact=True)
        expect(button).to_be_visible(timeout=DRAWN)
        box = button.bounding_box()
        assert box is not None and box["y"] + box["height"] <= 720, (label, box)  # no scrolling needed


def test_the_inbox_offers_open_first_even_beside_a_long_reason(page: Page, shared_dashboard: Dashboard):
    dashboard = shared_dashboard  # the inbox's columns, whatever other rows it holds
    reason = "the parcel arrived broken and the customer asks for the whole amount " * 4
    args = ("--case", "C1", "--customer", "kim", "--amount", "500000", "--reason", reason)
    cli_ok(dashboard, "run", "refund", *args)
    open_page(page, dashboard, size=(1400, 900))
    inbox = page.get_by_test_id("stDataFrame").first
    expect(inbox).to_be_visible(timeout=DRAWN)
    # The grid draws on a canvas; its columns, in the order drawn, are in the grid's accessible table.
    headers = inbox.locator("th[role=columnheader]")
    expect(headers.first).to_have_text("open", timeout=DRAWN)  # drawn at the left edge, never pushed off
    texts = headers.all_inner_texts()
    assert texts[:3] == ["open", "agent", "thread"], texts


@pytest.mark.parametrize("language", ["en", "ko"])
def test_the_robots_answer_buttons_are_on_the_first_screen_in_presenter_mode(
    page: Page, dashboard: Dashboard, language: str
):
    cli_ok(dashboard, "run", "robot")
    main = open_page(page, dashboard, f"robot?present=1&lang={language}", (1280, 720))
    for key in ("robot-yes", "robot-no"):
        button = main.locator(f".st-key-{key} button")
        expect(button).to_be_visible(timeout=DRAWN)
        box = button.bounding_box()
        # Larger type, still no scrolling, and not at the very edge of the screen.
        assert box is not None and box["y"] + box["height"] <= 720 - FOLD_MARGIN, (key, box)


@pytest.mark.parametrize("language", ["en", "ko"])
def test_the_sidebar_badge_is_not_cut_and_wraps_between_words_in_presenter_mode(
    page: Page, shared_dashboard: Dashboard, language: str
):
    # The badge says who acts (local mode here): it reads nothing from the database, so the module's one
    # dashboard serves both languages.
    open_page(page, shared_dashboard, f"?present=1&lang={language}", (1280, 720))
    badge = page.get_by_test_id("stSidebar").locator(".stMarkdownBadge").first
    expect(badge).to_be_visible(timeout=DRAWN)
    # An ellipsis cuts text whose box is wider than the space it is drawn in.
    widths = badge.evaluate("node => [node.scrollWidth, node.clientWidth]")
    assert widths[0] <= widths[1], widths
    starts = badge.evaluate(LINE_STARTS)
    assert starts, "the badge fits one line: nothing to check"  # it wraps at this size in both languages
    inside_words = [(before, first) for before, first in starts if not before.isspace() and not first.isspace()]
    assert not inside_words, (badge.inner_text(), starts)


@pytest.mark.parametrize("present", [False, True], ids=["plain", "presenter"])
@pytest.mark.parametrize("language", ["en", "ko"])
def test_the_robots_status_reads_whole_beside_the_open_sidebar_at_1280(
    page: Page, shared_dashboard: Dashboard, language: str, present: bool
):
    thread = "status-attention"  # its state edited without continuing: the longest status, "needs attention"
    if thread not in shared_dashboard.cli("threads").stdout:
        cli_ok(shared_dashboard, "run", "robot", "--thread", thread)
        cli_ok(shared_dashboard, "update", thread, "--values", '{"pending_action": "Wire 1,000,000 KRW"}')
    mode = "&present=1" if present else ""
    main = open_page(page, shared_dashboard, f"robot?thread={thread}&lang={language}{mode}", (1280, 720))
    expect(page.get_by_test_id("stSidebar")).to_be_visible()  # open, as a 1280 px page opens
    status = main.get_by_test_id("stMetric").filter(has_text=t("robot.status", lang=language))
    expect(status.get_by_test_id("stMetricValue")).to_have_text(t("status.attention", lang=language))
    metrics = main.evaluate(METRICS)
    assert all(not metric["cut"] for metric in metrics), metrics  # the status, the outcome and their labels, whole
    for value in main.get_by_test_id("stMetricValue").all():  # on one line, or wrapped between its words
        inside_words = [pair for pair in value.evaluate(LINE_STARTS) if not pair[0].isspace()]
        assert not inside_words, (value.inner_text(), inside_words)
