"""The refund page in a real browser, as an approver works a queue: a waiting case's decision on a
projector's first screen, several items approved in one action, one item of a multi-item case answered
while the rest stay waiting. In English and Korean; every wait is on the page's state."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest
from playwright.sync_api import Locator, Page, expect

from tests.browser.conftest import RAN, Dashboard, wait_for_app

#: The grid's row height and header height, in pixels (Streamlit's defaults); its first column, in a
#: multi-row selection, holds each row's selection checkbox.
ROW, HEADER, MARKER_X = 35, 35, 18
WORDS = {
    "en": {"approve": "Approve", "approver": "Approver", "batch_approve": "Approve selected", "waiting": "Waiting for"},
    "ko": {"approve": "승인", "approver": "승인자", "batch_approve": "고른 항목 승인", "waiting": "승인자를 기다리는"},
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
    page.goto(f"{dashboard.url}/refund?thread={thread}&lang={language}")
    page.wait_for_function(RAN, timeout=DRAWN)
    main = page.get_by_test_id("stMain")
    expect(main.get_by_text(thread, exact=True).first).to_be_visible(timeout=DRAWN)  # the case is drawn
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


@pytest.mark.parametrize("language", ["en", "ko"])
def test_several_items_are_selected_and_approved_in_one_action(page: Page, shared_dashboard: Dashboard, language: str):
    words = WORDS[language]
    single, several = f"one-{language}", f"many-{language}"
    _start(shared_dashboard, single, "--amount", "500000")
    _start(shared_dashboard, several, "--items", json.dumps(ITEMS))
    main = _open(page, shared_dashboard, f"refund-{single}", language)
    batch = main.locator("[data-testid='stDataFrame']").filter(has_text=f"{several}")
    # Rows of this test's cases only (the shared dashboard also holds other tests' cases).
    rows = [single, several, several]
    texts = batch.locator("tbody tr").all_inner_texts()
    positions = [n for n, text in enumerate(texts) if any(text.startswith(f"{case}\t") for case in rows)]
    assert len(positions) == 3, texts
    grid = batch.bounding_box()
    assert grid is not None
    for position in positions:
        batch.click(position={"x": MARKER_X, "y": HEADER + ROW * position + ROW / 2})
        wait_for_app(page)
    main.get_by_label(words["approver"], exact=True).last.fill("lee")
    main.get_by_role("button", name=words["batch_approve"]).click()
    results = main.locator("[data-testid='stDataFrame']").filter(has_text=f"{several} · A-3")
    expect(results).to_be_visible()
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
    words = WORDS[language]
    case = f"items-{language}"
    _start(shared_dashboard, case, "--items", json.dumps(ITEMS))
    main = _open(page, shared_dashboard, f"refund-{case}", language)
    first, second = (
        main.get_by_test_id("stVerticalBlockBorderWrapper").filter(has_text=f"{item}:") for item in ("A-1", "A-3")
    )
    expect(first).to_be_visible()
    expect(second).to_be_visible()
    main.get_by_label(words["approver"], exact=True).first.fill("lee")
    first.get_by_role("button", name=words["approve"], exact=True).click()
    expect(first).to_have_count(0)  # answered: its controls are gone
    expect(second.get_by_role("button", name=words["approve"], exact=True)).to_be_visible()
    expect(main.get_by_text(words["waiting"], exact=False).first).to_be_visible()
    threads = {t["thread_id"]: t for t in _cli_json(shared_dashboard, "threads")}
    assert threads[f"refund-{case}"]["status"] == "waiting"
