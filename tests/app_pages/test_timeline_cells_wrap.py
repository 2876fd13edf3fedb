"""The timeline's superstep table wraps a long cell instead of cutting it ("review_conten…"), in rows of
two lines, and a lecture run's table is whole: no row hides in the grid's own scroll."""

from __future__ import annotations

import json

from streamlit.testing.v1 import AppTest

from agents import runs
from agents.lecture.inputs import DEFAULT_LECTURE_INPUT
from dashboard.timeline_tables import HEADER_HEIGHT, NODES_WIDTH, WRAPPED_ROW_HEIGHT, stats_height
from tests.conftest import APP_FILE
from tests.factories import run_ids

PAGE = "app_pages/timeline.py"
#: The grid wraps a cell's text only in rows taller than 4rem (Streamlit's DataFrame: ``rowHeight > 4rem``).
WRAPS_ABOVE = 64
#: Two lines of the grid's text and its padding; a third line would need about 72 px.
TWO_LINES = 70


def test_the_superstep_tables_cells_wrap_and_every_row_shows(app, store, settings):
    runs.start_run(store, settings, "robot", {})
    at = app(PAGE)
    table = at.dataframe[0]
    assert WRAPS_ABOVE < table.proto.row_height <= TWO_LINES  # wraps, never ends in "…", and stays short
    columns = json.loads(table.proto.columns)
    assert columns["nodes"]["width"] == NODES_WIDTH  # wide enough to wrap between node names
    assert columns["run"]["hidden"] is True  # one run shown: the picker names it, the nodes get its width
    assert columns["no end logged"]["hidden"] is True  # every call ended: no column of zeros beside them
    assert stats_height(len(table.value)) >= len(table.value) * WRAPPED_ROW_HEIGHT  # every row, no inner scroll


def test_a_lecture_runs_table_is_whole_and_its_definitions_are_under_it(store, settings):
    result = runs.start_run(store, settings, "lecture", dict(DEFAULT_LECTURE_INPUT), thread_id="lec-t")
    runs.resume_thread(store, settings, result.thread_id, "save")
    at = AppTest.from_file(APP_FILE, default_timeout=60)
    at.query_params["thread"] = "lec-t"
    at.run()
    at.switch_page(PAGE).run()
    at.selectbox(key="timeline-run-lec-t").set_value(run_ids(store, "lec-t")[0]).run()  # the run with the gate
    assert not at.exception, at.exception
    table = at.dataframe[0]
    rows = len(table.value)
    assert rows >= 8  # validate … gate, decide and the whole run
    height = stats_height(rows)  # the page's height for the grid (AppTest keeps no element height)
    assert height >= rows * table.proto.row_height + HEADER_HEIGHT  # gate, decide, whole run: no inner scroll
    assert height <= 900 - 120  # and whole on a 1400×900 screen
    whole = table.value[table.value["step"] == "whole run"].iloc[0]
    assert whole["nodes"].startswith("supersteps: ") and "whole run:" not in whole["nodes"]
    assert any("whole run: " in caption.value for caption in at.main.caption)  # the definition, under it
