"""The timeline's superstep table wraps a long cell instead of cutting it ("review_conten…")."""

from __future__ import annotations

import json

from agents import runs
from dashboard.timeline_tables import NODES_WIDTH, WRAPPED_ROW_HEIGHT, stats_height

PAGE = "app_pages/timeline.py"
#: The grid wraps a cell's text only in rows taller than 4rem (Streamlit's DataFrame: ``rowHeight > 4rem``).
WRAPS_ABOVE = 64


def test_the_superstep_tables_cells_wrap_and_every_row_shows(app, store, settings):
    runs.start_run(store, settings, "robot", {})
    at = app(PAGE)
    table = at.dataframe[0]
    assert table.proto.row_height > WRAPS_ABOVE  # a long nodes or whole-run cell wraps, never ends in "…"
    columns = json.loads(table.proto.columns)
    assert columns["nodes"]["width"] == NODES_WIDTH  # wide enough to wrap between node names
    assert columns["run"]["hidden"] is True  # one run shown: the picker names it, the nodes get its width
    assert stats_height(len(table.value)) >= len(table.value) * WRAPPED_ROW_HEIGHT  # every row, no inner scroll
