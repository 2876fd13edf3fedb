"""The home page's inbox fits its grid, every column in view, its reason wrapped; the agent cards name
each thread's agent by its title in the page's language, not by its code."""

from __future__ import annotations

import json

import pytest
from streamlit.testing.v1 import AppTest

from agents import runs
from dashboard import text_fit
from dashboard.views import INBOX_WIDTHS
from tests.conftest import APP_FILE

#: The grid wraps a cell's text only in rows taller than 4rem (Streamlit's DataFrame: ``rowHeight > 4rem``).
WRAPS_ABOVE = 64
#: The inbox grid's inner width in a 1280×720 window (measured in Chromium: the main block's grid, 818 px).
GRID_AT_1280 = 818
#: A widget's label drawn as nothing, not even an empty line (Streamlit's ``label_visibility="collapsed"``).
COLLAPSED = 2


def _home(lang: str) -> AppTest:
    test = AppTest.from_file(APP_FILE, default_timeout=60)
    test.query_params["lang"] = lang
    test.run()
    return test


def test_the_inbox_wraps_its_reason_and_every_column_fits_a_1280_window(store, settings):
    reason = "the parcel arrived broken and the customer asks for the whole amount back, shipping included"
    runs.start_run(store, settings, "refund", {"case_id": "C1", "customer": "Kim", "amount": 480_000, "reason": reason})
    inbox = _home("en").dataframe[0]
    assert inbox.proto.row_height > WRAPS_ABOVE  # a long reason wraps in its cell, never runs off the grid
    columns = json.loads(inbox.proto.columns)
    shown = [label for label, config in columns.items() if not config.get("hidden")]
    assert {"reason", "who may decide", "what resolves it"} <= set(shown)
    widths = {label: columns[label].get("width") for label in shown}
    assert all(isinstance(width, int) for width in widths.values()), widths  # none sized by its longest cell
    assert sum(widths.values()) <= GRID_AT_1280, widths  # nothing to scroll sideways to, "who may decide" included
    assert widths["reason"] == max(widths.values())


@pytest.mark.parametrize(("lang", "titles"), [("en", {"Approval robot"}), ("ko", {"승인 로봇"})])
def test_the_inbox_names_the_agent_by_its_title_and_a_card_does_not_repeat_it(
    store, settings, lang: str, titles: set[str]
):
    runs.start_run(store, settings, "robot", {}, thread_id="demo-a")
    home = _home(lang)
    agent_column, thread_column = ("agent", "thread") if lang == "en" else ("에이전트", "스레드")
    assert set(home.dataframe[0].value[agent_column]) == titles  # never the code "robot"
    cards = [frame.value for frame in home.dataframe[1:] if thread_column in frame.value.columns]
    assert cards, "no threads table drawn in the agent cards"
    assert all(agent_column not in card.columns for card in cards)  # the card's title names its agent


def test_the_inbox_order_and_search_share_one_row(store, settings):
    runs.start_run(store, settings, "robot", {}, thread_id="demo-a")
    home = _home("en")
    columns = home.main.columns
    at = next(index for index, column in enumerate(columns) if column.get("button_group"))  # the order
    assert "1 waiting" in [caption.value for caption in columns[at + 1].caption]  # then the count
    assert columns[at + 2].text_input[0].placeholder == "Search"  # then the search: more inbox rows on screen
    assert columns[at].button_group[0].proto.label_visibility.value == COLLAPSED  # no label line above its choices


@pytest.mark.parametrize(("lang", "reason_column"), [("en", "reason"), ("ko", "사유")])
def test_a_long_reason_is_cut_to_two_lines_in_rows_two_lines_high(store, settings, lang: str, reason_column: str):
    reason = "the parcel arrived broken and the customer asks for the whole amount back, shipping included"
    runs.start_run(store, settings, "refund", {"case_id": "C1", "customer": "Kim", "amount": 480_000, "reason": reason})
    inbox = _home(lang).dataframe[0]
    assert WRAPS_ABOVE < inbox.proto.row_height == text_fit.row_height(2)  # five rows on a 1280×720 first screen
    shown = inbox.value[reason_column].iloc[0]
    assert shown.endswith(text_fit.ELLIPSIS), shown  # the question is longer than two lines of its column
    assert text_fit.lines_needed(shown, INBOX_WIDTHS["reason"]) == 2
