"""Ids and code spans read whole: never broken at their punctuation ("?" / "thread=", "demo-" / "a"), and
never running out of their column."""

from __future__ import annotations

import contextlib

import pytest
from playwright.sync_api import Locator, Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from tests.browser.conftest import LINE_STARTS, Dashboard
from tests.browser.opening import cli_ok, open_page

#: Every inline code span of the main area: its text, where its own lines begin, its width and the width its
#: block leaves for text (inside its padding), and both right edges.
CODE_SPANS = (
    """main => [...main.querySelectorAll(':not(pre) > code')].filter(c => c.getClientRects().length).map(c => {
  const starts = ("""
    + LINE_STARTS
    + """)(c);
  const own = c.getBoundingClientRect(), parent = c.parentElement, style = getComputedStyle(parent);
  const block = parent.getBoundingClientRect();
  const inner = parent.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
  return {text: c.innerText, starts, right: own.right, blockRight: block.right, width: own.width,
          blockWidth: inner}; })"""
)


#: The page's rule that keeps a code span and its glued text on one line (``dashboard.safe_markdown``) is in a
#: style sheet of the document.
STYLE_IN_EFFECT = """() => [...document.styleSheets].some(sheet => {
  try { return [...sheet.cssRules].some(rule => rule.cssText.includes(':has(> code)')); }
  catch (error) { return false; } })"""


def open_robot_page(page: Page, dashboard: Dashboard, language: str) -> Locator:
    """The robot page of thread ``demo-a`` at 1280×720, drawn with its style for code spans in effect; its main
    block."""
    if "demo-a" not in dashboard.cli("threads").stdout:
        cli_ok(dashboard, "run", "robot", "--thread", "demo-a")
    main = open_page(page, dashboard, f"robot?thread=demo-a&lang={language}", (1280, 720))
    expect(main.locator(":not(pre) > code", has_text="?thread=").first).to_be_attached(timeout=30_000)
    # The sidebar drawn to its last widget (a page served again may draw the main block first), the page's
    # style for code spans in a style sheet (the frame draws it as an element of its own, which can come after
    # the sidebar's widgets).
    expect(page.get_by_test_id("stSidebar").get_by_test_id("stCheckbox").last).to_be_visible()
    page.wait_for_function(STYLE_IN_EFFECT)
    page.evaluate("() => document.fonts.ready.then(() => true)")  # and the code font it may have asked for
    return main


@pytest.mark.parametrize("language", ["en", "ko"])
def test_code_spans_on_the_robot_page_are_never_broken_inside_nor_overflow(
    page: Page, shared_dashboard: Dashboard, language: str
):
    main = open_robot_page(page, shared_dashboard, language)
    # The live part's runs redraw its lines while the page settles: the spans are measured once no span
    # that fits its column is broken (or after the wait, which the assertions below then report).
    settled = (
        "() => { const spans = (" + CODE_SPANS + ")(document.querySelector('[data-testid=\"stMain\"]'));"
        " return spans.length > 20 && spans.every(s => !(s.starts.length && s.width < s.blockWidth - 1)); }"
    )
    with contextlib.suppress(PlaywrightTimeoutError):
        page.wait_for_function(settled, timeout=10_000)
    spans = main.evaluate(CODE_SPANS)
    assert len(spans) > 20, spans  # the lessons' ids and names, in narrow columns
    broken = [span for span in spans if span["starts"] and span["width"] < span["blockWidth"] - 1]
    assert not broken, broken  # a span that fits its column is on one line
    overflowing = [span["text"] for span in spans if span["right"] > span["blockRight"] + 1]
    assert not overflowing, overflowing


#: Every inline code span of the main area with text glued after it ("`checkpoint_id`?", "`yes`만"): the span
#: and that text, whether the first glued character is on the span's (last) line, and whether the element
#: around both keeps them on one line.
GLUED_AFTER = """main => [...main.querySelectorAll(':not(pre) > code')].filter(c => c.getClientRects().length)
  .map(c => { const next = c.nextSibling;
  if (!next || next.nodeType !== Node.TEXT_NODE || !next.textContent || /^\\s/.test(next.textContent)) return null;
  const range = document.createRange(); range.setStart(next, 0); range.setEnd(next, 1);
  const mark = range.getClientRects()[0], code = c.getBoundingClientRect();
  return {text: c.innerText + next.textContent.slice(0, 6), sameLine: mark.top < code.bottom - 2,
          together: getComputedStyle(c.parentElement).whiteSpace === 'nowrap'}; }).filter(Boolean)"""


@pytest.mark.parametrize("language", ["en", "ko"])
def test_punctuation_after_a_code_span_never_starts_the_next_line(
    page: Page, shared_dashboard: Dashboard, language: str
):
    main = open_robot_page(page, shared_dashboard, language)
    glued = main.evaluate(GLUED_AFTER)
    assert len(glued) > 5, glued  # "`checkpoint_id`?", "`approval`)", "`yes`만", ...
    apart = [span["text"] for span in glued if not span["together"]]
    assert not apart, apart  # each in one element that does not wrap
    broken = [span["text"] for span in glued if not span["sameLine"]]
    assert not broken, broken  # its punctuation on its line, never the next one's start
