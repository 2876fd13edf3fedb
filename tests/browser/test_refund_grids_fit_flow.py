"""The refund page's open-cases queue and its audit at a 1280-pixel-wide window, in English and Korean:
every column of each grid is within the grid's width, so nothing is cut at its right edge or needs a
sideways scroll to be read. The grids are drawn on a canvas, so a check of the page's overflow cannot
see this; the grid's own scroller element can. Every wait is on the page's state."""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import Dashboard, table_with, wait_for_app
from tests.browser.opening import cli_ok, open_page

#: Several items, two of them above the threshold (they wait), one below it (paid at once).
ITEMS = [{"item": "A-1", "amount": 300000}, {"item": "A-2", "amount": 80000}, {"item": "A-3", "amount": 200000}]
#: The case deleted while it waited: only the audit lists it.
DELETED = "C-1090"
#: How far the grid's content may reach past its visible width (rounding of fractional pixels).
SLACK = 1

#: Each grid's scroller: how wide its content is and how wide it shows.
WIDTHS = """(grid) => {
  const scroller = grid.querySelector('.dvn-scroller');
  return scroller && {scroll: scroller.scrollWidth, client: scroller.clientWidth};
}"""


@pytest.fixture(scope="module")
def cases(shared_dashboard: Dashboard) -> Dashboard:
    """Waiting cases of one amount and of several items, decided cases, and one deleted while it waited."""
    run = ("run", "refund", "--reason", "broken on arrival")
    cli_ok(shared_dashboard, *run, "--case", "C-1061", "--customer", "Kim Minsu", "--amount", "480000")
    cli_ok(shared_dashboard, *run, "--case", "C-1062", "--customer", "홍길동", "--items", json.dumps(ITEMS))
    cli_ok(shared_dashboard, *run, "--case", "건-1080", "--customer", "이영희", "--amount", "250000")
    for case, customer in (("C-1070", "Park Jisoo"), ("C-1071", "Choi Yuna")):
        cli_ok(shared_dashboard, *run, "--case", case, "--customer", customer, "--amount", "300000")
    # Decided in a batch (its id, a UUID, is in the audit), and on its own, by a signed-in-length name.
    approver = "kim.minsu@example.com"
    cli_ok(shared_dashboard, "decide", "refund-C-1070", "--action", "approve", "--approver", approver)
    cli_ok(shared_dashboard, "resume", "refund-C-1071", json.dumps({"action": "reject", "approver": approver}))
    cli_ok(shared_dashboard, *run, "--case", "C-1063", "--customer", "Jung Hana", "--amount", "200000")
    # Edited and not continued: the queue says why it needs attention, in a sentence.
    cli_ok(shared_dashboard, "update", "refund-C-1063", "--values", json.dumps({"amount": 150000}))
    cli_ok(shared_dashboard, *run, "--case", DELETED, "--customer", "Han Seojin", "--amount", "150000")
    reason = "requested twice by mistake; the customer's second request C-1091 stands"
    cli_ok(shared_dashboard, "delete", f"refund-{DELETED}", "--yes", "--reason", reason)
    return shared_dashboard


def _widths(page: Page, shown_text: str) -> dict[str, int]:
    grid = table_with(page, shown_text)
    grid.scroll_into_view_if_needed()
    expect(grid.locator(".dvn-scroller")).to_have_count(1)  # the grid is drawn
    widths = grid.evaluate(WIDTHS)
    assert widths and widths["client"] > 0, widths
    return widths


@pytest.mark.parametrize(
    ("language", "views"),
    [
        (
            "en",
            {
                "decisions": "decided in batch",
                "requests and times": "paid at",
                "deletions": "why deleted",
                "trace": "trace",
                "amounts": "executed",
            },
        ),
        (
            "ko",
            {
                "결정": "일괄 결정",
                "요청과 시각": "지급 시각",
                "삭제": "삭제 사유",
                "기록": "기록",
                "금액": "지급된 금액",
            },
        ),
    ],
)
def test_the_queue_and_every_view_of_the_audit_fit_a_1280_pixel_window(
    page: Page, cases: Dashboard, language: str, views: dict[str, str]
):
    """``views``: each view of the audit, and a column only it draws."""
    main = open_page(page, cases, f"refund?lang={language}", size=(1280, 720))
    queue = _widths(page, "C-1063")  # the queue is the first grid that lists the case needing attention
    assert queue["scroll"] <= queue["client"] + SLACK, f"the queue scrolls sideways: {queue}"
    audit = _widths(page, DELETED)  # only the audit lists a deleted case (its first view: amounts)
    assert audit["scroll"] <= audit["client"] + SLACK, f"the audit's amounts scroll sideways: {audit}"
    for view, its_column in views.items():
        main.locator(".st-key-refund-audit-view").get_by_role("radio", name=view, exact=True).click()
        expect(
            table_with(page, DELETED).get_by_role("columnheader", name=its_column, exact=True, include_hidden=True)
        ).to_have_count(1)
        wait_for_app(page)
        audit = _widths(page, DELETED)
        assert audit["scroll"] <= audit["client"] + SLACK, f"the audit's {view} scroll sideways: {audit}"
        page.screenshot(path=f"/tmp/grid7/{language}-{view}.png")
