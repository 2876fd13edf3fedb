"""The timeline read at a glance: short calls drawn visible, interrupted calls coloured, long runs windowed."""

from __future__ import annotations

from typing import Any

import plotly.graph_objects as go
import pytest

from agents.timing import timeline_of
from dashboard.timeline_figure import (
    PANEL_WIDTH_PX,
    STATUS_COLORS,
    compare_figure_of,
    min_bar_width,
    timeline_figure_of,
)
from dashboard.timeline_tables import stats_table, summary_table
from tests.factories import node_log_row


def planner_rows() -> list[dict[str, Any]]:
    """The lecture planner's first run: a fan-out of research, then gate and decide in well under a millisecond."""
    return [
        node_log_row(1, "plan", 0.0, 0.2, step=1),
        node_log_row(2, "research", 0.2, 0.5, step=2, label="a"),
        node_log_row(3, "research", 0.2, 0.48, step=2, label="b"),
        node_log_row(4, "research", 0.2, 0.47, step=2, label="c"),
        node_log_row(5, "write", 0.5, 0.6, step=3),
        node_log_row(6, "gate", 0.6, 0.60012, step=4),
        node_log_row(7, "decide", 0.601, 0.60118, step=5, status="interrupted"),
    ]


def bars(figure: go.Figure) -> dict[str, tuple[str, float, float, list[Any]]]:
    """Lane → (trace name, drawn start, drawn length, hover fields) of every bar."""
    return {
        lane: (trace.name, base, length, list(hover))
        for trace in figure.data
        if trace.type == "bar"
        for lane, base, length, hover in zip(trace.y, trace.base, trace.x, trace.customdata, strict=True)
    }


def test_a_call_shorter_than_a_pixel_is_drawn_at_the_minimum_width_and_its_hover_gives_the_exact_time():
    figure = timeline_figure_of(timeline_of(planner_rows()))
    drawn = bars(figure)
    minimum = min_bar_width(0.60118)  # the run's span

    _, start, length, hover = drawn["gate"]
    assert start == pytest.approx(0.6, abs=1e-6)  # it starts where it started
    assert length == pytest.approx(minimum)  # a few pixels wide, not 0.12 ms
    assert hover[4] == f"0.120 ms (drawn {minimum * 1000:.3f} ms wide so it can be seen)"
    _, _, plan_length, plan_hover = drawn["plan"]
    assert plan_length == pytest.approx(0.2) and plan_hover[4] == "200.000 ms"  # a long call is as it was


def test_interrupted_calls_have_their_own_colour_and_a_visible_bar():
    figure = timeline_figure_of(timeline_of(planner_rows()))
    name, _, length, hover = bars(figure)["decide"]
    [trace] = [trace for trace in figure.data if trace.name == "interrupted"]

    assert name == "interrupted" and hover[7] == "interrupted"
    assert trace.marker.color == STATUS_COLORS["interrupted"] != STATUS_COLORS["ok"]
    assert length >= min_bar_width(0.60118) > 0.00018
    # Drawn after the ok bars, so where they meet the interrupted one is on top.
    assert [t.name for t in figure.data] == ["ok", "interrupted"]


def test_the_run_rows_report_the_efficiency_of_the_parallel_supersteps():
    timeline = timeline_of(planner_rows())
    [summary] = timeline.runs
    whole = stats_table(timeline).to_dict("records")[-1]
    [compared] = summary_table(timeline).to_dict("records")

    assert summary.efficiency < 0.4  # seven calls, mostly one at a time
    assert summary.parallel_supersteps == 1
    assert summary.parallel_efficiency == pytest.approx((0.3 + 0.28 + 0.27) / (3 * 0.3))
    assert whole["step"] == "whole run" and whole["efficiency"] == 0.94
    assert whole["nodes"] == "supersteps: 5 · parallel: 1"  # what it means: whole_run_notes, under the table
    assert (compared["parallel supersteps"], compared["efficiency of parallel supersteps"]) == (1, 0.94)


def test_a_run_without_parallel_work_has_no_parallel_efficiency():
    [summary] = timeline_of(planner_rows()[:1]).runs

    assert (summary.parallel_supersteps, summary.parallel_efficiency) == (0, None)


def sequential_rows(calls: int) -> list[dict[str, Any]]:
    return [node_log_row(i, "tick", i * 0.1, i * 0.1 + 0.1, step=i) for i in range(1, calls + 1)]


def test_a_long_run_is_drawn_as_a_window_of_its_latest_calls_with_ticks_counting_from_its_start():
    timeline = timeline_of(sequential_rows(3000))

    figure = timeline_figure_of(timeline, max_calls=1000)
    everything = timeline_figure_of(timeline)

    assert sum(len(trace.x) for trace in figure.data) == 1000
    assert min(min(trace.base) for trace in figure.data) == pytest.approx(0.0)
    # The window starts at call 2,001: 200 s after the run's first start, and its first tick says so.
    assert figure.layout.xaxis.ticktext[0].startswith("3m 20")
    assert len(figure.to_json()) < len(everything.to_json()) / 2.5
    assert sum(len(trace.x) for trace in everything.data) == 3000


def test_a_short_run_compared_with_a_long_one_keeps_few_readable_ticks():
    long_run = timeline_of(sequential_rows(100))  # 10 s
    resume = timeline_of([node_log_row(1, "approval", 0.0, 0.0001), node_log_row(2, "execute", 0.0001, 0.0003)])

    figure = compare_figure_of(long_run, resume)

    assert figure.layout.xaxis2.ticktext == ("0 s",)  # not "0.0000 s", "0.0001 s", ... crowded on end
    assert figure.layout.xaxis.range == figure.layout.xaxis2.range
    lengths = [length for trace in figure.data if trace.xaxis == "x2" for length in trace.x]
    assert min(lengths) == pytest.approx(min_bar_width(10.0, PANEL_WIDTH_PX))
