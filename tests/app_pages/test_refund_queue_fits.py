"""The refund queue fits a 1280-pixel window signed in too (the deciders named by email), in English and Korean:
every column has its width, all of them within the grid, each cell fitted to the rows' lines (who may decide
cut with "…", whole on the case's panel); its order, page, count of rows and search share one line."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from agents import runs
from agents.roles_file import parse_roles
from app_pages.refund_queue import QUEUE_CELL_LINES
from dashboard import text_fit
from tests.conftest import APP_FILE

ROLES_TEXT = """
[users]
"kim@example.com" = { role = "approver", limit_krw = 1_000_000, name = "Kim" }
"lee.jihoon@example.com" = { role = "approver", limit_krw = 3_000_000, name = "Lee" }
"park.senior@example.com" = { role = "senior_approver", name = "Park" }
"ada@example.com" = { role = "admin", name = "Ada" }
"""
#: A grid's inner width in a 1280×720 window (measured in Chromium: the main block's grid, 818 px).
GRID_AT_1280 = 818
#: A widget's label drawn as nothing, not even an empty line (Streamlit's ``label_visibility="collapsed"``).
COLLAPSED = 2
KIM = {"is_logged_in": True, "email": "kim@example.com", "name": "Kim"}


@pytest.fixture
def thirty_cases(store, settings, use_roles: Callable[[str], Path]) -> None:
    """Thirty waiting refunds (two pages of the queue), requested by Lee, with the roles file in force."""
    use_roles(ROLES_TEXT)
    lee = parse_roles(ROLES_TEXT).identity_for("lee.jihoon@example.com")
    for index in range(30):
        values = {"case_id": f"C-{1000 + index}", "customer": "Kim Minsu", "amount": 200_000 + index * 100_000}
        runs.start_run(store, settings, "refund", {**values, "reason": "broken on arrival"}, actor=lee)


def _queue_signed_in(lang: str) -> AppTest:
    at = AppTest.from_file(APP_FILE, default_timeout=60)
    at.user = KIM
    at.query_params["lang"] = lang
    at.run()
    at.switch_page("app_pages/refund.py").run()
    assert not at.exception, at.exception
    return at


@pytest.mark.parametrize(("lang", "deciders"), [("en", "who may decide"), ("ko", "결정권자")])
def test_signed_in_every_queue_column_fits_a_1280_window_and_who_may_decide_is_fitted(
    thirty_cases, lang: str, deciders: str
):
    queue = next(frame for frame in _queue_signed_in(lang).dataframe if deciders in frame.value.columns)
    columns = json.loads(queue.proto.columns)
    shown = [label for label, config in columns.items() if not config.get("hidden")]
    widths = {label: columns[label].get("width") for label in shown}
    assert all(isinstance(width, int) for width in widths.values()), widths  # none sized by its longest cell
    assert sum(widths.values()) <= GRID_AT_1280, widths  # nothing to scroll sideways to
    assert queue.proto.row_height == text_fit.row_height(QUEUE_CELL_LINES)
    cells = list(queue.value[deciders])
    assert all("@example.com" in " ".join(cell.split()) or "@\nexample" in cell for cell in cells), cells
    assert all(text_fit.lines_needed(cell, widths[deciders]) <= QUEUE_CELL_LINES for cell in cells), cells
    assert all(cell.endswith(text_fit.ELLIPSIS) for cell in cells), cells  # every one names more people


@pytest.mark.parametrize(("lang", "search", "rows"), [("en", "Search", "Rows 1–25 of 30"), ("ko", "검색", "1–25행")])
def test_the_queues_order_page_count_and_search_share_one_line(thirty_cases, lang: str, search: str, rows: str):
    at = _queue_signed_in(lang)
    columns = at.main.columns
    at_order = next(n for n, column in enumerate(columns) if column.get("button_group"))  # the queue's order
    order, page, count, search_box = columns[at_order : at_order + 4]
    assert order.button_group[0].key == "refund-queue-order"
    assert order.button_group[0].proto.label_visibility.value == COLLAPSED  # no label line above its choices
    assert page.number_input[0].key == "refund-queue:page"
    assert page.number_input[0].proto.label_visibility.value == COLLAPSED  # the count beside it says what it pages
    assert any(rows in caption.value for caption in count.caption), [c.value for c in count.caption]
    assert search_box.text_input[0].placeholder == search
