"""What an approver sees on a 1280×720 first screen of the refund page: the case, then its buttons."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import Dashboard
from tests.browser.opening import cli_ok, open_page

WIDTH, HEIGHT = 1280, 720
LONG_REASON = (
    "The parcel arrived two weeks late, the outer box was crushed, two of the three ceramic cups inside were"
    " broken and the customer had already paid for express delivery, which the courier did not honour; the"
    " customer asks for the whole order back including shipping."
)
#: Whether the element under a button's centre is the button (or inside it): nothing drawn over it.
ON_TOP = """button => { const box = button.getBoundingClientRect();
  const top = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
  return top !== null && button.contains(top); }"""
WAITING = {"en": "Waiting for an approver.", "ko": "승인자를 기다리는 중입니다."}
#: The reason's start, and a part of it past the headline's cut.
FIRST_PART, LATE_PART = "The parcel arrived two weeks late", "which the courier did not honour"
#: How many texts of the main block that begin above the Approve button hold ``part``.
SAID_ABOVE_APPROVE = """part => {
  const main = document.querySelector('[data-testid="stMain"]');
  const approve = main.querySelector('.st-key-refund-approve button').getBoundingClientRect().top;
  const walker = document.createTreeWalker(main, NodeFilter.SHOW_TEXT);
  let count = 0, text;
  while ((text = walker.nextNode())) {
    if (!text.data.includes(part)) continue;
    const range = document.createRange(); range.selectNodeContents(text);
    const box = range.getBoundingClientRect();
    if (box.height > 0 && box.top < approve) count += 1;
  }
  return count;
}"""
#: The Approve button's place unchanged for five drawn frames in a row: an opening animation has ended.
SETTLED = """() => {
  const button = document.querySelector('[data-testid="stMain"] .st-key-refund-approve button');
  if (!button) return false;
  const place = button.getBoundingClientRect().bottom, seen = window.__approvePlaces || [];
  window.__approvePlaces = [...seen, place].slice(-5);
  return window.__approvePlaces.length === 5 && window.__approvePlaces.every(p => p === place);
}"""


def _bottom(page: Page, selector: str) -> tuple[float, float]:
    button = page.get_by_test_id("stMain").locator(selector).first
    expect(button).to_be_visible()
    box = button.bounding_box()
    assert box is not None
    return box["y"], box["y"] + box["height"]


# The tests share the module's dashboard: each starts a case of its own, of an id as long as the others', and
# the page draws the selected case before the queue of the others.


@pytest.mark.parametrize("language", ["en", "ko"])
def test_the_case_comes_before_approve_and_a_long_reason_is_whole_one_click_from_the_first_screen(
    page: Page, shared_dashboard: Dashboard, language: str
):
    dashboard, case = shared_dashboard, {"en": "C-1061", "ko": "C-1071"}[language]
    args = ("--case", case, "--customer", "Kim Minsu", "--amount", "480000", "--reason", LONG_REASON)
    cli_ok(dashboard, "run", "refund", *args)
    main = open_page(page, dashboard, f"refund?thread=refund-{case}&lang={language}", (WIDTH, HEIGHT))
    expect(main.get_by_text(WAITING[language], exact=True)).to_be_visible()
    approve_top, approve_bottom = _bottom(page, ".st-key-refund-approve button")
    _, reject_bottom = _bottom(page, ".st-key-refund-reject button")
    assert max(approve_bottom, reject_bottom) <= HEIGHT, (approve_bottom, reject_bottom)  # no scrolling to decide
    for seen in ("Kim Minsu", "480,000", "The parcel arrived two weeks late"):
        shown = main.get_by_text(seen).first  # the first place the page says it
        expect(shown).to_be_visible()
        box = shown.bounding_box()
        assert box is not None and box["y"] + box["height"] <= approve_top, (seen, box, approve_top)

    # The long reason is whole one click away, on the same first screen (nothing clicked before).
    control = main.locator(f".st-key-refund-whole-reason-refund-{case}").locator("label").first  # its switch
    expect(control).to_be_visible()
    box = control.bounding_box()
    approve_top, approve_bottom = _bottom(page, ".st-key-refund-approve button")
    assert box is not None and box["y"] + box["height"] <= approve_top, (box, approve_top)  # under the summary
    assert approve_bottom <= HEIGHT, approve_bottom  # and the buttons still need no scrolling
    assert page.evaluate(SAID_ABOVE_APPROVE, LATE_PART) == 0  # cut before it

    control.click()
    page.wait_for_function(f"part => ({SAID_ABOVE_APPROVE})(part) > 0", arg=LATE_PART)  # the reason opened
    page.wait_for_function(SETTLED, polling="raf")  # and whatever opened it has ended moving the page
    for action in ("approve", "reject"):  # the whole reason shown, each button on the first screen, uncovered
        _, bottom = _bottom(page, f".st-key-refund-{action} button")
        assert bottom <= HEIGHT, (action, bottom)
        assert main.locator(f".st-key-refund-{action} button").first.evaluate(ON_TOP), action
    for part in (LONG_REASON, FIRST_PART, LATE_PART):  # whole, as typed, and said once above the buttons
        assert page.evaluate(SAID_ABOVE_APPROVE, part) == 1, part


@pytest.mark.parametrize("language", ["en", "ko"])
def test_the_first_items_buttons_are_on_the_first_screen(page: Page, shared_dashboard: Dashboard, language: str):
    dashboard, case = shared_dashboard, {"en": "C-1062", "ko": "C-1072"}[language]
    items = '[{"item": "A-1", "amount": 300000}, {"item": "A-2", "amount": 80000}, {"item": "A-3", "amount": 200000}]'
    args = ("--case", case, "--customer", "홍길동", "--reason", "파손된 배송", "--items", items)
    cli_ok(dashboard, "run", "refund", *args)
    main = open_page(page, dashboard, f"refund?thread=refund-{case}&lang={language}", (WIDTH, HEIGHT))
    expect(main.get_by_text("A-1", exact=False).first).to_be_visible()
    for action in ("approve", "reject"):
        _, bottom = _bottom(page, f'[class*="st-key-refund-item-{action}-"] button')
        assert bottom <= HEIGHT, (action, bottom)
    first_item = main.get_by_text("A-1").first.bounding_box()
    assert first_item is not None and first_item["y"] < HEIGHT
