"""The timeline at scale: bounded step bands, WebGL for long runs, one Timeline shared by every view."""

from __future__ import annotations

from typing import Any

import pytest

from agents.timing import node_calls, run_summaries_of_calls, superstep_stats_of_calls, timeline_of
from dashboard.timeline_axis import time_axis_of_runs
from dashboard.timeline_bands import MAX_STEP_BANDS, STEP_BAND_COLOR, WAIT_BAND_COLOR, step_decorations
from dashboard.timeline_figure import WEBGL_THRESHOLD, compare_figure_of, timeline_figure_of
from tests.factories import node_log_row


def sequential_rows(supersteps: int, *, interrupted_every: int = 0) -> list[dict[str, Any]]:
    """One call per superstep, 0.1 s each, back to back; every ``interrupted_every``-th call errs."""
    return [
        node_log_row(
            step,
            "tick",
            step * 0.1,
            step * 0.1 + 0.1,
            step=step,
            status="error" if interrupted_every and step % interrupted_every == 0 else "ok",
        )
        for step in range(1, supersteps + 1)
    ]


def step_shapes(figure: Any) -> list[Any]:
    return [shape for shape in figure.layout.shapes if shape.fillcolor != WAIT_BAND_COLOR]


def test_ten_thousand_supersteps_give_at_most_max_step_bands_shapes():
    figure = timeline_figure_of(timeline_of(sequential_rows(10_000)))

    shapes = step_shapes(figure)
    assert 0 < len(shapes) <= MAX_STEP_BANDS
    assert len(figure.layout.annotations) <= MAX_STEP_BANDS
    # 50 supersteps per band: the first starts at the first call, the last at step 9,951.
    assert shapes[0].x0 == pytest.approx(0.0, abs=1e-6)
    assert shapes[-1].x0 == pytest.approx(9_950 * 0.1, rel=1e-9)


def test_merged_bands_are_labelled_with_their_step_range():
    # Steps 1-5 last 10 s each, so the first band is wide enough for a label; 995 more take 0.1 s.
    rows = [node_log_row(step, "tick", (step - 1) * 10.0, step * 10.0, step=step) for step in range(1, 6)]
    rows += [node_log_row(step, "tick", 50 + step * 0.1, 50 + step * 0.1 + 0.1, step=step) for step in range(6, 1_001)]
    timeline = timeline_of(rows)
    axis = time_axis_of_runs(timeline.runs)

    _, notes = step_decorations(timeline.supersteps, axis, "x")

    assert notes[0]["text"] == "steps 1–5"  # ceil(1000 / 200) = 5 supersteps per band


def test_up_to_max_step_bands_every_superstep_keeps_its_own_band_as_before():
    timeline = timeline_of(sequential_rows(MAX_STEP_BANDS))
    axis = time_axis_of_runs(timeline.runs)

    shapes, _ = step_decorations(timeline.supersteps, axis, "x")

    assert len(shapes) == MAX_STEP_BANDS
    assert [shape["type"] for shape in shapes[:4]] == ["rect", "line", "rect", "line"]
    assert [shape["x0"] for shape in shapes] == pytest.approx(
        [axis.to_display(s.started_at) for s in timeline.supersteps]
    )
    assert shapes[0]["fillcolor"] == STEP_BAND_COLOR


def test_a_long_run_is_drawn_with_webgl_and_a_bounded_number_of_traces():
    rows = sequential_rows(10_000, interrupted_every=7)
    rows[-1] = rows[-1] | {"ended_at": None}  # one call with no logged end

    figure = timeline_figure_of(timeline_of(rows))

    assert {trace.type for trace in figure.data} == {"scattergl"}
    # ok and error: a segment trace and a hover trace each; one trace of arrow heads.
    assert len(figure.data) == 5
    segments = [trace for trace in figure.data if trace.mode == "lines"]
    assert sum(len(trace.x) for trace in segments) == 3 * 10_000  # start, end, gap per call
    assert sum(trace.showlegend is not False for trace in figure.data) == 3
    # The hover points carry the bars' hover fields and template, so the hover reads the same.
    small = timeline_figure_of(timeline_of(rows[:1]))
    hover = next(trace for trace in figure.data if trace.mode == "markers" and trace.name == "ok")
    assert hover.hovertemplate == small.data[0].hovertemplate
    fields, one_call = list(hover.customdata[0]), list(small.data[0].customdata[0])
    assert fields[:4] + fields[5:] == one_call[:4] + one_call[5:]
    # At this scale a 0.1 s call is drawn at the minimum width, and its hover says so.
    assert fields[4].startswith(one_call[4] + " (drawn ")


def test_a_run_at_the_threshold_keeps_todays_bar_figure():
    figure = timeline_figure_of(timeline_of(sequential_rows(WEBGL_THRESHOLD)))

    assert [trace.type for trace in figure.data] == ["bar"]
    assert len(figure.data[0].x) == WEBGL_THRESHOLD


def test_compare_of_two_long_runs_stays_bounded():
    timeline = timeline_of(sequential_rows(6_000))

    figure = compare_figure_of(timeline, timeline)

    assert len(figure.data) == 4
    assert len(step_shapes(figure)) <= 2 * MAX_STEP_BANDS


def test_one_timeline_holds_what_the_separate_functions_compute():
    rows = sequential_rows(20) + [node_log_row(99, "resume", 50.0, None, step=1, run_id="run-2")]

    timeline = timeline_of(rows)

    assert list(timeline.calls) == node_calls(rows)
    assert list(timeline.supersteps) == superstep_stats_of_calls(node_calls(rows))
    assert list(timeline.runs) == run_summaries_of_calls(node_calls(rows))
    assert timeline.open_calls == 1
    assert timeline.of_run("run-2") == timeline_of([row for row in rows if row["run_id"] == "run-2"])
    assert time_axis_of_runs(timeline.runs) == time_axis_of_runs(run_summaries_of_calls(node_calls(rows)))
