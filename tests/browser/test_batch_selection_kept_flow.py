"""The refund batch's selection in a real browser, while another approver works the same queue from the CLI:
rows ticked before a case was decided elsewhere stay ticked (the next click adds to them, it does not start
over), and a ticked row decided elsewhere is dropped with a notice naming it; the batch pays only what stays
selected. Every wait is on the page's state."""

from __future__ import annotations

import json
import re

from playwright.sync_api import Locator, Page, expect

from tests.browser.conftest import RAN, RAN_POLLING, Dashboard
from tests.browser.opening import cli_ok, open_page

#: The grid's row height and header height, in pixels (Streamlit's defaults); its first column, in a
#: multi-row selection, holds each row's selection checkbox (as tests/browser/test_refund_queue_flow.py).
ROW, HEADER, MARKER_X = 35, 35, 18
#: A fresh server's first run imports every page; on a busy machine that takes a minute.
DRAWN = 120_000
CASES = ("Q1", "Q2", "Q3", "Q4")


def _batch_grid(main: Locator) -> Locator:
    grid = main.locator("[class*='st-key-refund-batch-']").get_by_test_id("stDataFrame").first
    expect(grid).to_be_visible(timeout=DRAWN)
    return grid


def _row_of(grid: Locator, case: str) -> int:
    """The position of ``case``'s row in the batch table as drawn now."""
    rows = grid.locator("tbody tr")
    expect(rows.first).to_be_attached()
    cells = [rows.nth(n).locator("td").all_inner_texts() for n in range(rows.count())]
    return next(n for n, row in enumerate(cells) if case in {cell.strip() for cell in row})


def _tick(page: Page, grid: Locator, position: int, selected: Locator, count: int) -> None:
    """Clicks the checkbox of the row at ``position`` and waits for the run that follows to say ``count``."""
    grid.click(position={"x": MARKER_X, "y": HEADER + ROW * position + ROW / 2})
    expect(selected).to_have_text(f"{count} item(s) selected.")
    page.wait_for_function(RAN, polling=RAN_POLLING)  # that run has ended: the grid takes the next click


def test_ticked_rows_stay_ticked_when_the_queue_changes_elsewhere(page: Page, dashboard: Dashboard):
    steps = [
        {"cli": ["run", "refund", "--case", c, "--customer", "kim", "--amount", "500000", "--reason", "r"]}
        for c in CASES
    ]
    assert all(done["code"] == 0 for done in dashboard.cli_batch(*steps))
    main = open_page(page, dashboard, "refund?thread=refund-Q1&lang=en")
    selected = main.get_by_text(re.compile(r"^\d+ item\(s\) selected\.$"))
    grid = _batch_grid(main)
    assert [_row_of(grid, case) for case in CASES] == [0, 1, 2, 3]
    _tick(page, grid, 1, selected, 1)  # Q2
    _tick(page, grid, 2, selected, 2)  # Q3
    # Another approver decides the oldest case, above the ticked rows, from the command line.
    cli_ok(dashboard, "decide", "refund-Q1", "--action", "reject", "--approver", "park")
    _tick(page, grid, 3, selected, 3)  # Q4, on the table as it is still drawn: the three stay selected
    grid = _batch_grid(main)
    expect(grid.locator("tbody tr")).to_have_count(3)  # drawn again without Q1
    # A ticked case decided elsewhere; the next click (Q2 unticked) finds Q3 gone and says so.
    cli_ok(dashboard, "decide", "refund-Q3", "--action", "approve", "--approver", "park")
    grid.click(position={"x": MARKER_X, "y": HEADER + ROW * _row_of(grid, "Q2") + ROW / 2})
    expect(main.get_by_text("No longer waiting, so no longer selected: Q3.")).to_be_visible()
    expect(selected).to_have_text("1 item(s) selected.")  # Q4: ticked on the redrawn table, so still selected
    page.wait_for_function(RAN, polling=RAN_POLLING)
    main.locator(".st-key-refund-batch-approver input").fill("kim")
    main.locator(".st-key-refund-batch-approve button").click()
    expect(main.get_by_test_id("stAlertContentSuccess").filter(has_text="1 paid")).to_be_visible()
    done = cli_ok(dashboard, "ledger", "--json")
    assert sorted((row["case_id"], row["approver"]) for row in json.loads(done.stdout)) == [
        ("Q3", "park"),
        ("Q4", "kim"),
    ]
