"""What a first screen shows: the robot's yes / no on a projector's 1280×720, the inbox's Open at 1400 px."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import LINE_STARTS, Dashboard
from tests.browser.opening import cli_ok, open_page

DRAWN = 30_000
#: Room left under the answer buttons in presenter mode: a projector's edge or a browser bar never hides them.
FOLD_MARGIN = 40


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
