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


def _bottom(page: Page, selector: str) -> tuple[float, float]:
    button = page.get_by_test_id("stMain").locator(selector).first
    expect(button).to_be_visible()
    box = button.bounding_box()
    assert box is not None
    return box["y"], box["y"] + box["height"]


@pytest.mark.parametrize("language", ["en", "ko"])
def test_the_case_comes_before_approve_and_a_long_reason_is_whole_one_click_from_the_first_screen(
    page: Page, dashboard: Dashboard, language: str
):
    args = ("--case", "C-1061", "--customer", "Kim Minsu", "--amount", "480000", "--reason", LONG_REASON)
    cli_ok(dashboard, "run", "refund", *args)
    main = open_page(page, dashboard, f"refund?thread=refund-C-1061&lang={language}", (WIDTH, HEIGHT))
    expect(main.get_by_text(WAITING[language], exact=True)).to_be_visible()

    # The customer, the amount and the reason come before the buttons, which need no scrolling.
    approve_top, approve_bottom = _bottom(page, ".st-key-refund-approve button")
    _, reject_bottom = _bottom(page, ".st-key-refund-reject button")
    assert max(approve_bottom, reject_bottom) <= HEIGHT, (approve_bottom, reject_bottom)  # no scrolling to decide
    for seen in ("Kim Minsu", "480,000", "The parcel arrived two weeks late"):
        shown = main.get_by_text(seen).first  # the first place the page says it
        expect(shown).to_be_visible()
        box = shown.bounding_box()
        assert box is not None and box["y"] + box["height"] <= approve_top, (seen, box, approve_top)

    # The long reason is whole one click away, on the same first screen (nothing clicked before).
    header = main.locator(".st-key-refund-whole-reason").locator("summary, button").first
    expect(header).to_be_visible()
    box = header.bounding_box()
    approve_top, approve_bottom = _bottom(page, ".st-key-refund-approve button")
    assert box is not None and box["y"] + box["height"] <= approve_top, (box, approve_top)  # under the summary
    assert approve_bottom <= HEIGHT, approve_bottom  # and the buttons still need no scrolling
    header.click()
    whole = page.get_by_text(LONG_REASON, exact=True).first  # under the summary (the figures repeat it below)
    expect(whole).to_be_visible()  # as typed
    for action in ("approve", "reject"):  # the whole reason open, each button is the thing under its centre
        button = main.locator(f".st-key-refund-{action} button").first
        button.scroll_into_view_if_needed()
        assert button.evaluate(ON_TOP), action
    reason_box, approve_box = whole.bounding_box(), main.locator(".st-key-refund-approve button").bounding_box()
    assert reason_box is not None and approve_box is not None
    assert reason_box["y"] + reason_box["height"] <= approve_box["y"], (reason_box, approve_box)  # above, not over


@pytest.mark.parametrize("language", ["en", "ko"])
def test_the_first_items_buttons_are_on_the_first_screen(page: Page, dashboard: Dashboard, language: str):
    items = '[{"item": "A-1", "amount": 300000}, {"item": "A-2", "amount": 80000}, {"item": "A-3", "amount": 200000}]'
    args = ("--case", "C-1062", "--customer", "홍길동", "--reason", "파손된 배송", "--items", items)
    cli_ok(dashboard, "run", "refund", *args)
    main = open_page(page, dashboard, f"refund?thread=refund-C-1062&lang={language}", (WIDTH, HEIGHT))
    expect(main.get_by_text("A-1", exact=False).first).to_be_visible()
    for action in ("approve", "reject"):
        _, bottom = _bottom(page, f'[class*="st-key-refund-item-{action}-"] button')
        assert bottom <= HEIGHT, (action, bottom)
    first_item = main.get_by_text("A-1").first.bounding_box()
    assert first_item is not None and first_item["y"] < HEIGHT
