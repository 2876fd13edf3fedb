"""Korean text wraps between words (어절) as Korean is set, never inside a word ("멈/춥니다")."""

from __future__ import annotations

from playwright.sync_api import Page, expect

from tests.browser.conftest import LINE_STARTS, Dashboard
from tests.browser.opening import open_page


def _hangul(char: str) -> bool:
    return "가" <= char <= "힣"


def test_a_korean_page_wraps_its_paragraphs_between_words(page: Page, dashboard: Dashboard):
    started = dashboard.cli("--lang", "ko", "run", "robot")
    assert started.returncode == 0, started.stderr
    # Korean's line breaking is a style of its own, drawn in a place of its own: the page is read once it is in effect.
    open_page(page, dashboard, "robot?lang=ko", (1280, 720))
    paragraphs = page.get_by_test_id("stMain").locator(".st-key-robot-explain p")
    expect(paragraphs.first).to_be_visible(timeout=30_000)
    starts = [start for index in range(paragraphs.count()) for start in paragraphs.nth(index).evaluate(LINE_STARTS)]
    assert len(starts) >= 5, starts  # the box is narrow: its paragraphs wrap over many lines
    inside_words = [(before, first) for before, first in starts if _hangul(before) and _hangul(first)]
    assert not inside_words, inside_words
