"""The lecture's draft never makes the page scroll sideways: one long word in a request field (its "Course
overview" table quotes them) wraps in its cell, and a table still wider than a phone's screen scrolls inside
its own box, while its short words ("11:00", "Topic") are never cut."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from dashboard.lecture_view import DOCUMENT_KEY
from dashboard.safe_markdown import LONG_WORD
from tests.browser.conftest import LINE_STARTS, Dashboard
from tests.browser.opening import lecture_flags, open_page

THREAD = "lecture-long-word"
LONG = "a" * 150  # one word of the constraints field (at most 500 characters)

#: The main area's widths, the draft's tables' widths, and the short words of their cells that are cut.
MEASURE = (
    """(main, [key, longWord]) => {
  const starts = """
    + LINE_STARTS
    + """;
  const draft = main.querySelector('.st-key-' + key);
  const tables = [...draft.querySelectorAll('table')];
  return {
    main: [main.scrollWidth, main.clientWidth],
    right: Math.max(...tables.map(table => table.getBoundingClientRect().right)),
    draftRight: draft.getBoundingClientRect().right,
    longCell: [...draft.querySelectorAll('td')].filter(cell => cell.textContent.includes('aaaaaaaaaa'))
      .map(cell => ({lines: starts(cell).length + 1, scroll: cell.closest('table').scrollWidth,
                     shown: cell.closest('table').clientWidth})),
    cutShortWords: [...draft.querySelectorAll('td, th')]
      .filter(cell => !/\\s/.test(cell.textContent.trim()) && cell.textContent.trim().length <= longWord)
      .filter(cell => starts(cell).length).map(cell => cell.textContent),
  }; }"""
)


@pytest.fixture(scope="module")
def long_word(shared_dashboard: Dashboard) -> Dashboard:
    """The shared dashboard with a lecture thread whose constraints are one 150-letter word."""
    flags = lecture_flags()
    flags[flags.index("--constraints") + 1] = LONG
    seeded = shared_dashboard.cli_batch({"cli": ["run", "lecture", *flags, "--thread", THREAD]})
    assert seeded[0]["code"] == 0, seeded
    return shared_dashboard


@pytest.mark.parametrize(("width", "language"), [(390, "ko"), (1280, "ko"), (390, "en")])
def test_a_long_word_in_the_request_wraps_in_the_draft_and_the_page_never_scrolls_sideways(
    page: Page, long_word: Dashboard, width: int, language: str
):
    main = open_page(page, long_word, f"lecture?thread={THREAD}&lang={language}", (width, 800))
    expect(main.locator(f".st-key-{DOCUMENT_KEY} td", has_text=LONG[:10])).to_be_attached()
    measured = main.evaluate(MEASURE, [DOCUMENT_KEY, LONG_WORD])
    scroll, client = measured["main"]
    assert scroll <= client, measured  # the page does not scroll sideways
    assert measured["right"] <= measured["draftRight"] + 1, measured  # no table runs out of the draft's box
    [cell] = measured["longCell"]
    assert cell["lines"] > 1 and cell["scroll"] <= cell["shown"], measured  # the word wraps in its cell
    assert not measured["cutShortWords"], measured
