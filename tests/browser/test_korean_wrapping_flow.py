"""Korean text wraps between words (어절) as Korean is set, never inside a word ("멈/춥니다"); and a Korean
page shows none of the English hints Streamlit writes under a text box being typed in."""

from __future__ import annotations

import pytest
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


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_the_hint_under_a_text_box_being_typed_in_shows_only_in_english(page: Page, dashboard: Dashboard, lang: str):
    # Streamlit writes "Press Enter to apply" (or "to submit form") under a text box whose text is not sent
    # yet, in English whatever the page's language; Enter still sends it.
    started = dashboard.cli("--lang", lang, "run", "robot", "--thread", f"hint-{lang}")
    assert started.returncode == 0, started.stderr
    main = open_page(page, dashboard, f"robot?lang={lang}&thread=hint-{lang}", (1280, 720))
    typed = main.get_by_label("Or type an answer" if lang == "en" else "또는 답을 직접 입력")
    typed.fill("n")
    hint = main.get_by_test_id("InputInstructions")
    if lang == "en":
        expect(hint).to_contain_text("Press Enter")
    else:
        expect(hint).to_be_attached()
        expect(hint).to_be_hidden()
