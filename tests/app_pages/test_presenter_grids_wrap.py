"""AppTest of presenter mode's grids: Streamlit wraps a grid cell's text only in rows taller than 4rem, which
presenter mode's type makes 88 px, so rows meant to wrap (the refund queue's, 69 px) are asked taller there;
else each cell is one line cut with "…" ("500,000 KRW wa…" for "500,000 KRW waiting"). Rows that are one line
stay as they are, and the grid's height counts the header row at the larger type, so its last row is whole."""

from __future__ import annotations

from unittest import mock

import pytest

from dashboard import presenter, text_fit
from dashboard.tables import HEADER_HEIGHT
from tests.factories import start_refund

PAGE = "app_pages/refund.py"
#: Streamlit's condition for wrapping: ``row_height > 4rem``, at presenter mode's root size.
WRAPS_ABOVE_PRESENTING = 4 * 22


def test_the_root_size_the_grids_are_sized_for_is_the_styles():
    assert f"html {{ font-size: {presenter.ROOT_PX}px; }}" in presenter.STYLE


def _queue_row_height(app, present: bool) -> int:
    at = app(PAGE)
    if present:
        at.query_params["present"] = "1"
        at.run()
    assert not at.exception, at.exception
    queue = next(d for d in at.dataframe if "to pay" in d.value.columns and "who may decide" in d.value.columns)
    return int(queue.proto.row_height)


def test_presenter_mode_asks_the_refund_queue_for_rows_that_still_wrap(app, store, settings):
    start_refund(store, settings, "C1", 500_000)
    assert _queue_row_height(app, present=False) == text_fit.row_height(3)  # 69 px: wraps at the normal type
    assert _queue_row_height(app, present=True) > WRAPS_ABOVE_PRESENTING


@pytest.mark.parametrize(
    ("asked", "presenting", "drawn"),
    [
        (69, True, 89),  # meant to wrap: just over 4rem of the larger type
        (120, True, 120),  # taller already
        (69, False, 69),
        (None, True, None),  # one-line rows: Streamlit's own height
        (40, True, 40),
    ],
)
def test_only_rows_meant_to_wrap_are_made_taller_and_only_for_a_presenter(asked, presenting, drawn):
    with mock.patch.object(presenter, "is_on", return_value=presenting):
        assert presenter.grid_row_height(asked) == drawn


def test_a_grids_header_row_is_counted_at_the_larger_type():
    with mock.patch.object(presenter, "is_on", return_value=True):
        assert presenter.grid_header_height(HEADER_HEIGHT) == 52  # 2.1875rem of 22 px, and its borders
    with mock.patch.object(presenter, "is_on", return_value=False):
        assert presenter.grid_header_height(HEADER_HEIGHT) == HEADER_HEIGHT
