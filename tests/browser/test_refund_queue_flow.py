"""The refund page in a real browser, as an approver works a queue: a waiting case's decision on a
projector's first screen, several items approved in one action, one item of a multi-item case answered
while the rest stay waiting. In English and Korean; every wait is on the page's state."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator

import pytest
from playwright.sync_api import Locator, Page, expect

from tests.browser.conftest import RAN, RAN_POLLING, Dashboard
from tests.browser.opening import laid_out

#: The grid's row height and header height, in pixels (Streamlit's defaults); its first column, in a
#: multi-row selection, holds each row's selection checkbox.
ROW, HEADER, MARKER_X = 35, 35, 18
WORDS = {
    "en": {"selected": r"\d+ item\(s\) selected\.", "three_paid": "3 paid"},
    "ko": {"selected": r"항목 \d+개를 골랐습니다\.", "three_paid": "지급 3"},
}
#: A fresh server's first run imports every page; on a busy machine that takes a minute.
DRAWN = 120_000
ITEMS = [{"item": "A-1", "amount": 300000}, {"item": "A-2", "amount": 80000}, {"item": "A-3", "amount": 200000}]


@pytest.fixture
def projector(page: Page) -> Iterator[Page]:
    page.set_viewport_size({"width": 1280, "height": 720})
    yield page


def _start(dashboard: Dashboard, case: str, *args: str) -> None:
    done = dashboard.cli("run", "refund", "--case", case, "--customer", "kim", "--reason", "broken", *args)
    assert done.returncode == 0, done.stderr


def _open(page: Page, dashboard: Dashboard, thread: str, language: str) -> Locator:
    path = f"refund?thread={thread}&lang={language}"
    page.goto(f"{dashboard.url}/{path}")
    page.wait_for_function(RAN, timeout=DRAWN, polling=RAN_POLLING)
    main = page.get_by_test_id("stMain")
    expect(main.get_by_text(thread, exact=True).first).to_be_visible(timeout=DRAWN)  # the case is drawn
    laid_out(page, path)  # and the rest of that run, laid out as it stays: the rows are clicked by position
    return main


def _cli_json(dashboard: Dashboard, *args: str) -> list[dict]:
    done = dashboard.cli(*args, "--json")
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


@pytest.mark.parametrize("language", ["en", "ko"])
def test_a_waiting_cases_decision_is_on_a_projectors_first_screen(
    projector: Page, shared_dashboard: Dashboard, language: str
):
    case = f"first-{language}"
    _start(shared_dashboard, case, "--amount", "500000")
    main = _open(projector, shared_dashboard, f"refund-{case}", language)
    for key in ("refund-approve", "refund-reject"):
        button = main.locator(f".st-key-{key} button")
        expect(button).to_be_visible()
        box = button.bounding_box()
        assert box is not None and box["y"] + box["height"] <= 720, (key, box)  # no scrolling needed
    assert projector.evaluate("window.scrollY") == 0


def _batch_rows(main: Locator, cases: set[str]) -> tuple[Locator, list[int]]:
    """The batch table, and the positions of the rows of ``cases`` (a shared dashboard lists others too)."""
    grid = main.locator("[class*='st-key-refund-batch-']").get_by_test_id("stDataFrame").first
    expect(grid).to_be_visible(timeout=DRAWN)
    rows = grid.locator("tbody tr")
    expect(rows.first).to_be_attached()
    cells = [rows.nth(n).locator("td").all_inner_texts() for n in range(rows.count())]
    return grid, [n for n, row in enumerate(cells) if cases & {c.strip() for c in row}]


@pytest.mark.parametrize("language", ["en", "ko"])
def test_several_items_are_selected_and_approved_in_one_action(page: Page, shared_dashboard: Dashboard, language: str):
    words = WORDS[language]
    single, several = f"one-{language}", f"many-{language}"
    _start(shared_dashboard, single, "--amount", "500000")
    _start(shared_dashboard, several, "--items", json.dumps(ITEMS))
    main = _open(page, shared_dashboard, f"refund-{single}", language)
    grid, positions = _batch_rows(main, {single, several})
    assert len(positions) == 3, positions  # the single case, and the two items of the other above the threshold
    selected = main.get_by_text(re.compile(words["selected"]))
    for count, position in enumerate(positions, start=1):
        grid.click(position={"x": MARKER_X, "y": HEADER + ROW * position + ROW / 2})  # the row's checkbox
        expect(selected).to_have_text(re.compile(rf"\b{count}\b"))
        page.wait_for_function(RAN, polling=RAN_POLLING)  # the selection's run has ended: the grid takes the next click
    main.locator(".st-key-refund-batch-approver input").fill("lee")
    main.locator(".st-key-refund-batch-approve button").click()
    expect(main.get_by_test_id("stAlertContentSuccess").filter(has_text=words["three_paid"])).to_be_visible()
    payouts = _cli_json(shared_dashboard, "ledger")
    paid = {(p["case_id"], p.get("item") or "", p["paid_amount"], p["approver"]) for p in payouts}
    assert {row for row in paid if row[0] in (single, several)} == {
        (single, "", 500000, "lee"),
        (several, "A-1", 300000, "lee"),
        (several, "A-2", 80000, "automatic"),  # at or under the threshold: paid when requested
        (several, "A-3", 200000, "lee"),
    }
    threads = {t["thread_id"]: t for t in _cli_json(shared_dashboard, "threads")}
    assert threads[f"refund-{single}"]["status"] == "done" and threads[f"refund-{several}"]["status"] == "done"


@pytest.mark.parametrize("language", ["en", "ko"])
def test_one_item_answered_leaves_the_others_waiting_and_shown(page: Page, shared_dashboard: Dashboard, language: str):
    case = f"items-{language}"
    _start(shared_dashboard, case, "--items", json.dumps(ITEMS))
    main = _open(page, shared_dashboard, f"refund-{case}", language)
    approve_key = "[class*='st-key-refund-item-approve-']"
    approve = main.locator(f"{approve_key} button")
    expect(approve).to_have_count(2, timeout=DRAWN)  # A-2 is at the threshold and paid at once

    def item(name: str) -> Locator:
        blocks = main.get_by_test_id("stVerticalBlock").filter(has_text=f"{name}:")
        return blocks.filter(has=page.locator(approve_key)).last  # the innermost: the item's own bordered box

    main.locator(".st-key-refund-approver input").fill("lee")
    item("A-1").locator(f"{approve_key} button").click()
    expect(approve).to_have_count(1)
    expect(main.get_by_text(re.compile(r"^(Item|항목) A-1:"))).to_have_count(0)  # answered: its box is gone
    expect(item("A-3").locator("[class*='st-key-refund-item-reject-'] button")).to_be_visible()
    threads = {t["thread_id"]: t for t in _cli_json(shared_dashboard, "threads")}
    assert threads[f"refund-{case}"]["status"] == "waiting"
    paid = {p.get("item"): p["approver"] for p in _cli_json(shared_dashboard, "ledger") if p["case_id"] == case}
    assert paid == {"A-1": "lee", "A-2": "automatic"}
