"""Wait bands at scale: at most MAX_WAIT_BANDS per panel, merged bands covering exactly their waits."""

from __future__ import annotations

from typing import Any

import pytest

from agents.durations import format_duration
from agents.timing import timeline_of
from dashboard.timeline_axis import time_axis_of_runs
from dashboard.timeline_bands import MAX_STEP_BANDS, MAX_WAIT_BANDS, WAIT_BAND_COLOR, wait_decorations
from dashboard.timeline_figure import compare_figure_of, timeline_figure_of
from tests.factories import node_log_row


def waiting_rows(runs: int, *, gap: float = 60.0) -> list[dict[str, Any]]:
    """``runs`` one-call runs of 1 s, each after a wait of ``gap`` seconds; every other run pauses."""
    return [
        node_log_row(
            index + 1,
            "step",
            index * (1.0 + gap),
            index * (1.0 + gap) + 1.0,
            run_id=f"run-{index}",
            status="interrupted" if index % 2 == 0 else "ok",
        )
        for index in range(runs)
    ]


def wait_shapes(figure: Any) -> list[Any]:
    return [shape for shape in figure.layout.shapes if shape.fillcolor == WAIT_BAND_COLOR]


def test_five_thousand_waits_draw_at_most_max_wait_bands():
    figure = timeline_figure_of(timeline_of(waiting_rows(5_001)))

    assert 0 < len(wait_shapes(figure)) <= MAX_WAIT_BANDS
    # Everything in the layout is bounded, whatever the number of waits.
    assert len(figure.layout.shapes) <= MAX_STEP_BANDS + MAX_WAIT_BANDS
    assert len(figure.layout.annotations) <= MAX_STEP_BANDS + MAX_WAIT_BANDS


def test_merged_wait_bands_cover_exactly_the_waits_they_replace():
    axis = time_axis_of_runs(timeline_of(waiting_rows(5_001)).runs)
    waits = axis.waits
    assert len(waits) == 5_000

    shapes, notes = wait_decorations(axis, "x")

    per_band = 25  # ceil(5000 / 200)
    assert len(shapes) == len(notes) == 200
    for index, shape in enumerate(shapes):
        group = waits[index * per_band : (index + 1) * per_band]
        assert (shape["x0"], shape["x1"]) == (group[0].display_start, group[-1].display_end)
        assert notes[index]["x"] == pytest.approx((shape["x0"] + shape["x1"]) / 2)
    # Every wait falls in exactly one band: consecutive bands meet no wait twice and skip none.
    covered = [w for shape in shapes for w in waits if shape["x0"] <= w.display_start < shape["x1"]]
    assert covered == waits


def test_a_merged_band_gives_the_number_and_summed_length_of_its_waits():
    axis = time_axis_of_runs(timeline_of(waiting_rows(MAX_WAIT_BANDS * 3 + 1)).runs)

    _, notes = wait_decorations(axis, "x")

    assert notes[0]["text"] == f"3 waits, {format_duration(3 * 60.0)} in all"


def test_up_to_max_wait_bands_every_wait_keeps_its_own_band_and_label_as_before():
    axis = time_axis_of_runs(timeline_of(waiting_rows(MAX_WAIT_BANDS + 1)).runs)

    shapes, notes = wait_decorations(axis, "x")

    assert len(shapes) == MAX_WAIT_BANDS
    expected_shape = {"type": "rect", "xref": "x", "yref": "paper", "y0": 0, "y1": 1, "layer": "below"}
    for shape, note, wait in zip(shapes, notes, axis.waits, strict=True):
        assert shape == {
            **expected_shape,
            "x0": wait.display_start,
            "x1": wait.display_end,
            "fillcolor": WAIT_BAND_COLOR,
            "line": {"width": 1, "dash": "dash", "color": "#888"},
        }
        assert note["text"] == f"{wait.kind} 1 min 0 s"
    assert notes[0]["text"] == "human wait 1 min 0 s" and notes[1]["text"] == "idle 1 min 0 s"


def test_both_panels_of_a_comparison_bound_their_wait_bands():
    many, few = timeline_of(waiting_rows(2_001)), timeline_of(waiting_rows(3))

    figure = compare_figure_of(many, few)

    by_axis = {xref: [s for s in wait_shapes(figure) if s.xref == xref] for xref in ("x", "x2")}
    assert len(by_axis["x"]) == MAX_WAIT_BANDS
    assert len(by_axis["x2"]) == 2
