"""The time axis's tick labels fit the panel they are drawn on: on the narrowest a thread's chart and a
comparison's panel are drawn (``NARROW_PLOT_PX``, ``NARROW_PANEL_PX``), no two labels come nearer than
``TICK_GAP_PX``, within a panel or across the two, and a long run is ticked at steps a clock reads."""

from __future__ import annotations

import pytest
import streamlit
from hypothesis import given, settings
from hypothesis import strategies as st

from agents.timing import timeline_of_calls
from dashboard.i18n import LANGUAGE_KEY
from dashboard.text_fit import text_px
from dashboard.timeline_axis import TICK_FONT_PX, TICK_GAP_PX, axis_ticks
from dashboard.timeline_figure import NARROW_PANEL_PX, NARROW_PLOT_PX, compare_figure_of, timeline_figure_of
from tests.dashboard.test_timeline_axis import build_time_axis, make_call, paused_then_resumed


def _label_boxes(figure, axis: str, panel_px: float, left_px: float = 0.0) -> list[tuple[float, float]]:
    """Where the tick labels of ``axis`` (``xaxis``, ``xaxis2``) fall, in pixels, on a plot area
    ``panel_px`` wide starting ``left_px`` from the figure's left: each label centred on its tick."""
    layout = figure.layout[axis]
    low, high = layout.range
    boxes = []
    for value, label in zip(layout.tickvals, layout.ticktext, strict=True):
        centre = left_px + (value - low) / (high - low) * panel_px
        half = text_px(label, TICK_FONT_PX) / 2
        boxes.append((centre - half, centre + half))
    return boxes


def _nearest(boxes: list[tuple[float, float]]) -> float:
    """The least room between two neighbouring boxes (inf for fewer than two)."""
    ordered = sorted(boxes)
    return min((right[0] - left[1] for left, right in zip(ordered, ordered[1:], strict=False)), default=float("inf"))


#: A run's calls: how long each run works and how long the wait before the next one is (seconds).
runs = st.lists(
    st.tuples(st.floats(0.01, 20_000.0), st.floats(0.0, 100_000.0)),
    min_size=1,
    max_size=4,
)


def _calls(shape: list[tuple[float, float]]):
    calls, start = [], 0.0
    for index, (works, wait) in enumerate(shape):
        calls.append(make_call(index + 1, start, start + works, run_id=f"run-{index}"))
        start += works + wait
    return calls


@settings(max_examples=30, deadline=None)  # a figure a case: about 0.1 s each
@given(runs)
def test_a_threads_tick_labels_keep_apart_on_its_narrowest_chart(shape):
    figure = timeline_figure_of(timeline_of_calls(_calls(shape)))
    boxes = _label_boxes(figure, "xaxis", NARROW_PLOT_PX)
    assert len(boxes) >= 2 or figure.layout.xaxis.range[1] <= 0.1
    assert _nearest(boxes) >= TICK_GAP_PX


@settings(max_examples=30, deadline=None)
@given(runs, runs)
def test_a_comparisons_tick_labels_keep_apart_in_each_panel_and_across_the_two(shape_a, shape_b):
    figure = compare_figure_of(timeline_of_calls(_calls(shape_a)), timeline_of_calls(_calls(shape_b)))
    whole = NARROW_PANEL_PX / (figure.layout.xaxis.domain[1] - figure.layout.xaxis.domain[0])
    left = _label_boxes(figure, "xaxis", NARROW_PANEL_PX)
    right = _label_boxes(figure, "xaxis2", NARROW_PANEL_PX, figure.layout.xaxis2.domain[0] * whole)
    assert _nearest(left) >= TICK_GAP_PX and _nearest(right) >= TICK_GAP_PX
    assert left[-1][1] + TICK_GAP_PX <= right[0][0]  # A's last label stays clear of B's first


@pytest.mark.parametrize(
    ("span", "expected"),
    [
        (3700.0, ["0 s", "30m 00s", "1h 00m 00s"]),  # not every 8m 20s, as steps of 1, 2 and 5 hundred seconds give
        (400.0, ["0 s", "2m 00s", "4m 00s", "6m 00s"]),
        (0.37, ["0.0 s", "0.1 s", "0.2 s", "0.3 s"]),
    ],
)
def test_a_narrow_panels_ticks_fall_where_a_clock_reads_them(span, expected):
    axis = build_time_axis([make_call(1, 0.0, span)])
    unit_px = NARROW_PANEL_PX / (span * 1.04)  # the axis's range: 2 % of room at either end
    assert axis_ticks(axis, span=span, unit_px=unit_px)[1] == expected


def test_a_run_start_after_a_wait_keeps_its_tick_on_a_narrow_panel():
    axis = build_time_axis(paused_then_resumed(3600.0))
    tickvals, ticktext = axis_ticks(axis, unit_px=NARROW_PANEL_PX / (axis.span * 1.04))
    # 1h 00m 04s would print over it, and so would 2 s (its "m" estimated as wide as it is drawn)
    assert ticktext == ["0 s", "1 s", "1h 00m 03s"]
    assert tickvals[-1] == pytest.approx(axis.to_display(axis.origin + 3603.0))


def test_a_korean_chart_writes_its_ticks_in_korean_units(monkeypatch):
    monkeypatch.setitem(streamlit.session_state, LANGUAGE_KEY, "ko")
    axis = build_time_axis(paused_then_resumed(3600.0))
    assert axis_ticks(axis)[1][-3:] == ["1시간 00분 03초", "1시간 00분 04초", "1시간 00분 05초"]
    long_run = build_time_axis([make_call(1, 0.0, 400.0)])
    assert axis_ticks(long_run)[1][:3] == ["0 s", "1분 00초", "2분 00초"]  # seconds read the same in both
