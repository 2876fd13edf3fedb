"""Tests for dashboard.timeline_figure: lanes, bars, colours and compressed waits."""

from __future__ import annotations

import html
import math
from typing import Any

import numpy as np
import plotly.graph_objects as go
import plotly.io as pio
import pytest

from agents.timing import timeline_of
from dashboard import text_fit, timeline_figure
from dashboard.timeline_figure import (
    DRAWN_TRACE_TYPES,
    STATUS_COLORS,
    UNDRAWN_LAYOUT,
    WAIT_BAND_COLOR,
    compare_figure_of,
    empty_timeline_figure,
    timeline_figure_of,
)
from tests.factories import node_log_row

EMPTY_MESSAGE = "no node calls logged"  # timeline.empty in English
#: A comparison panel's width and the single chart's plot area on a 1280 px page beside the lecture's long lane
#: names (measured in Chromium: about 200 px and 420 px): text over them must fit these.
NARROW_PANEL = 200
NARROW_PLOT = 420


def lecture_rows() -> list[dict[str, Any]]:
    """validate -> plan -> 3 parallel research tasks -> write."""
    return [
        node_log_row(1, "validate", 0.0, 0.2, step=1),
        node_log_row(2, "plan", 0.2, 1.0, step=2),
        node_log_row(3, "research", 1.0, 3.0, step=3, label="Python 기초"),
        node_log_row(4, "research", 1.0, 2.5, step=3, label="pandas"),
        node_log_row(5, "research", 1.0, 4.0, step=3, label="plotly"),
        node_log_row(6, "write", 4.0, 5.0, step=4),
    ]


def paused_thread_rows(gap: float) -> list[dict[str, Any]]:
    """Run 1 pauses at the gate; run 2 resumes ``gap`` seconds later."""
    resume = 3.0 + gap
    return [
        node_log_row(1, "plan", 0.0, 1.0, step=1),
        node_log_row(2, "review", 1.0, 2.5, step=2),
        node_log_row(3, "gate", 2.5, 3.0, step=3, status="interrupted"),
        node_log_row(4, "gate", resume, resume + 0.5, step=3, run_id="run-2"),
        node_log_row(5, "save", resume + 0.5, resume + 2.0, step=4, run_id="run-2"),
    ]


def bars(figure: go.Figure) -> list[tuple[str, float, float]]:
    """Every bar as ``(lane, x_start, x_end)``."""
    return [
        (lane, base, base + length)
        for trace in figure.data
        if trace.type == "bar"
        for lane, base, length in zip(trace.y, trace.base, trace.x, strict=True)
    ]


def bar_of(figure: go.Figure, lane: str) -> tuple[float, float]:
    [(start, end)] = [(s, e) for name, s, e in bars(figure) if name == lane]
    return start, end


def test_one_lane_per_node_plus_one_per_labelled_task():
    figure = timeline_figure_of(timeline_of(lecture_rows()))

    # Plotly lists categories from the bottom up: reversed, the first node is on top.
    assert list(reversed(figure.layout.yaxis.categoryarray)) == [
        "validate",
        "plan",
        "research · Python 기초",
        "research · pandas",
        "research · plotly",
        "write",
    ]
    assert figure.layout.yaxis.autorange != "reversed"  # Plotly 4 would draw WebGL segments at the bottom


def test_parallel_research_bars_really_overlap_and_sequential_ones_do_not():
    figure = timeline_figure_of(timeline_of(lecture_rows()))
    research = [(s, e) for lane, s, e in bars(figure) if lane.startswith("research")]
    plan, write = bar_of(figure, "plan"), bar_of(figure, "write")

    assert len(research) == 3
    latest_start = max(start for start, _ in research)
    earliest_end = min(end for _, end in research)
    assert latest_start < earliest_end  # all three share a moment
    assert plan[1] <= min(start for start, _ in research)
    assert write[0] >= max(end for _, end in research)


def test_bar_lengths_are_true_durations_in_seconds_from_first_start():
    figure = timeline_figure_of(timeline_of(lecture_rows()))

    assert bar_of(figure, "validate") == pytest.approx((0.0, 0.2), abs=1e-6)
    assert bar_of(figure, "research · plotly") == pytest.approx((1.0, 4.0), abs=1e-6)


def test_bars_are_coloured_by_status_with_one_legend_entry_each():
    rows = [
        node_log_row(1, "a", 0.0, 1.0),
        node_log_row(2, "b", 0.0, 1.0, status="error"),
        node_log_row(3, "c", 1.0, 2.0, status="interrupted"),
        node_log_row(4, "d", 0.0, 1.0),
    ]

    figure = timeline_figure_of(timeline_of(rows))
    bar_traces = [trace for trace in figure.data if trace.type == "bar"]

    assert [t.name for t in bar_traces] == ["ok", "error", "interrupted"]
    assert {t.name: t.marker.color for t in bar_traces} == {
        "ok": STATUS_COLORS["ok"],
        "error": STATUS_COLORS["error"],
        "interrupted": STATUS_COLORS["interrupted"],
    }
    assert [len(t.y) for t in bar_traces] == [2, 1, 1]
    assert all(t.orientation == "h" for t in bar_traces)
    assert figure.layout.barmode == "overlay"


def test_open_call_is_drawn_to_the_runs_last_time_hatched_and_marked():
    rows = [
        node_log_row(1, "plan", 0.0, 2.0),
        node_log_row(2, "research", 0.5, None, label="x", status="running"),
    ]

    figure = timeline_figure_of(timeline_of(rows))
    [running] = [t for t in figure.data if t.name == "running"]
    [marker] = [t for t in figure.data if t.type == "scatter"]

    assert running.marker.color == STATUS_COLORS["running"]
    assert running.marker.pattern.shape == ("/",)
    assert bar_of(figure, "research · x") == pytest.approx((0.5, 2.0), abs=1e-6)
    assert marker.name == "no end logged"
    assert marker.x == pytest.approx((2.0,), abs=1e-6)


def test_hover_names_node_label_times_duration_step_and_status():
    figure = timeline_figure_of(timeline_of([node_log_row(1, "research", 0.0, 1.5, step=3, label="pandas")]))
    [trace] = figure.data
    node, label, start, end, duration, step, _run, status, _error = trace.customdata[0]

    assert (node, label, step, status) == ("research", "pandas", 3, "ok")
    assert start == "2025-06-15 15:06:40.000 UTC"
    assert end == "2025-06-15 15:06:41.500 UTC"
    assert duration == "1.500 s"
    for word in ("label", "start", "end", "duration", "step", "status"):
        assert f"{word}: %{{customdata" in trace.hovertemplate


def test_user_text_is_escaped_so_plotly_shows_it_as_text():
    figure = timeline_figure_of(timeline_of([node_log_row(1, "research", 0.0, 1.0, label="<b>bold</b> & co")]))

    assert list(figure.layout.yaxis.categoryarray) == ["research · &lt;b&gt;bold&lt;/b&gt; &amp; co"]


def test_each_superstep_gets_a_band_or_separator_and_a_label():
    figure = timeline_figure_of(timeline_of(lecture_rows()))
    step_shapes = [s for s in figure.layout.shapes if s.fillcolor != WAIT_BAND_COLOR]
    labels = [a.text for a in figure.layout.annotations]

    assert len(step_shapes) == 4  # validate, plan, research, write
    assert [s.type for s in step_shapes] == ["rect", "line", "rect", "line"]
    assert step_shapes[2].x0 == pytest.approx(1.0, abs=1e-6)
    assert step_shapes[2].x1 == pytest.approx(4.0, abs=1e-6)
    assert "step 3" in labels


def test_hour_long_human_wait_is_compressed_and_marked():
    figure = timeline_figure_of(timeline_of(paused_thread_rows(gap=3600.0)))
    x_end = max(end for _, _, end in bars(figure))
    waits = [s for s in figure.layout.shapes if s.fillcolor == WAIT_BAND_COLOR]
    labels = [a.text for a in figure.layout.annotations]

    assert x_end < 10.0  # 5 s of work, not an hour of empty chart
    assert len(waits) == 1 and waits[0].line.dash == "dash"
    assert 0 < waits[0].x1 - waits[0].x0 <= 5.0
    assert "human wait 1 h 0 min" in labels
    assert any(text.startswith("1h 00m 03") for text in figure.layout.xaxis.ticktext)
    assert "compressed" in figure.layout.xaxis.title.text


def test_durations_stay_true_on_both_sides_of_a_compressed_wait():
    figure = timeline_figure_of(timeline_of(paused_thread_rows(gap=3600.0)))
    save_start, save_end = bar_of(figure, "save")
    review_start, review_end = bar_of(figure, "review")

    assert save_end - save_start == pytest.approx(1.5, abs=1e-6)
    assert review_end - review_start == pytest.approx(1.5, abs=1e-6)


def test_short_wait_between_runs_is_kept_to_scale_without_marker():
    figure = timeline_figure_of(timeline_of(paused_thread_rows(gap=2.0)), compress_waits_over=5.0)

    assert bar_of(figure, "save")[1] == pytest.approx(3.0 + 2.0 + 2.0, abs=1e-6)
    assert not [s for s in figure.layout.shapes if s.fillcolor == WAIT_BAND_COLOR]


def test_infinite_threshold_turns_compression_off():
    figure = timeline_figure_of(timeline_of(paused_thread_rows(gap=3600.0)), compress_waits_over=math.inf)

    # Its start: at this scale the 1.5 s bar is drawn at the minimum width, wider than it lasted.
    assert bar_of(figure, "save")[0] == pytest.approx(3603.5, abs=1e-3)


def test_negative_threshold_is_refused():
    with pytest.raises(ValueError, match="compress_waits_over"):
        timeline_figure_of(timeline_of(lecture_rows()), compress_waits_over=-1.0)


def test_no_rows_give_an_empty_figure_with_a_note():
    figure = timeline_figure_of(timeline_of([]), title="thread-1")

    assert len(figure.data) == 0
    assert [a.text for a in figure.layout.annotations] == [EMPTY_MESSAGE]


def test_many_rows_make_one_trace_per_status_not_per_bar():
    rows = [
        node_log_row(
            i,
            f"node{i % 7}",
            i * 0.01,
            i * 0.01 + 0.5,
            step=i // 50,
            status=("ok", "error")[i % 2],
        )
        for i in range(3000)
    ]

    figure = timeline_figure_of(timeline_of(rows))

    assert len(figure.data) == 2
    assert sum(len(trace.x) for trace in figure.data) == 3000


def test_compare_figure_aligns_lanes_and_scales_of_two_runs():
    slow = lecture_rows()
    fast = [row | {"ended_at": row["started_at"] + 0.1} for row in lecture_rows()[:2]]
    fast.append(node_log_row(9, "extra", 0.2, 0.4, step=3))

    figure = compare_figure_of(timeline_of(slow), timeline_of(fast), ("baseline", "tuned"))
    axes_used = {trace.xaxis for trace in figure.data}
    texts = [a.text for a in figure.layout.annotations]

    assert axes_used == {"x", "x2"}
    assert list(figure.layout.yaxis.categoryarray)[0] == "extra"  # the last lane, at the bottom
    assert figure.layout.xaxis.range == figure.layout.xaxis2.range
    assert {"baseline", "tuned"} <= set(texts)
    assert sum(trace.showlegend is not False for trace in figure.data) == 1  # one "ok"


def test_compare_figure_notes_an_empty_side():
    figure = compare_figure_of(timeline_of(lecture_rows()), timeline_of([]), ("before", "after"))

    notes = [a for a in figure.layout.annotations if a.text == EMPTY_MESSAGE]
    assert [note.xref for note in notes] == ["x2 domain"]


@pytest.mark.parametrize("webgl", [False, True], ids=["bars", "webgl"])
def test_the_template_styles_all_a_timeline_draws_as_plotly_white_does(monkeypatch, webgl):
    """What the timeline's template leaves out of ``plotly_white`` (other trace types, other kinds of subplot,
    colour scales) is nothing a timeline draws: bars, WebGL segments, an open call's marker, bands, a wait,
    a comparison and an empty figure."""
    if webgl:
        monkeypatch.setattr(timeline_figure, "WEBGL_THRESHOLD", 2)
    rows = [*paused_thread_rows(3600.0), node_log_row(6, "research", 3604.0, None, step=5, run_id="run-2")]
    rows[1]["status"] = "error"
    timeline = timeline_of(rows)
    white = pio.templates["plotly_white"].to_plotly_json()
    drawn = set()
    for figure in (timeline_figure_of(timeline), compare_figure_of(timeline, timeline), empty_timeline_figure()):
        spec = figure.to_plotly_json()
        template = spec["layout"]["template"]
        assert template["data"] == {kind: white["data"][kind] for kind in DRAWN_TRACE_TYPES}
        assert template["layout"] == {key: value for key, value in white["layout"].items() if key not in UNDRAWN_LAYOUT}
        assert not [key for key in spec["layout"] if key.startswith(UNDRAWN_LAYOUT)]
        for trace in spec["data"]:
            drawn.add(trace["type"])
            marker = trace.get("marker", {})
            assert "colorscale" not in marker and "coloraxis" not in marker
            assert all(isinstance(colour, str) for colour in np.atleast_1d(marker.get("color", "")))
    assert drawn == ({"scattergl"} if webgl else {"bar", "scatter"})


def drawn_px(text: str, font_size: float) -> float:
    """An upper estimate of an annotation line's width in pixels (its text as Plotly shows it)."""
    return text_fit.text_width(html.unescape(text)) * font_size / 14


def panel_titles(figure: go.Figure) -> list[Any]:
    """The comparison's panel titles: its annotations placed on the whole figure (the others are on an axis)."""
    return [note for note in figure.layout.annotations if note.xref == "paper"]


@pytest.mark.parametrize(
    "threads",
    [
        ("lecture-4dc37866", "lecture-2e9aa741"),  # the lecture's own ids: whole
        ("r" * 120 + "-0001", "r" * 120 + "-0002"),  # as long as a thread id may be
        ("환불-" + "가" * 60 + "-1", "환불-" + "가" * 60 + "-2"),  # wide characters
    ],
    ids=["lecture", "longest", "korean"],
)
def test_compare_titles_fit_their_panels_side_by_side_whatever_the_ids_length(threads):
    runs = ("2841cc32cb52", "6b0e909adbde")
    labels = [f"{side}: {thread} · {run}" for side, thread, run in zip("AB", threads, runs, strict=True)]
    figure = compare_figure_of(timeline_of(lecture_rows()), timeline_of(lecture_rows()), labels)
    titles = panel_titles(figure)

    assert [note.x for note in titles] == pytest.approx([0.24, 0.76])  # each over the middle of its panel
    for note, label, thread in zip(titles, labels, threads, strict=True):
        lines = note.text.split("<br>")
        assert len(lines) == 2 and lines[1] in runs  # the run on a line of its own
        # Centred over panels NARROW_PANEL apart (and more), titles no wider than that never meet.
        assert all(drawn_px(line, note.font.size) <= NARROW_PANEL for line in lines), lines
        if len(thread) > 20:  # cut in the middle: both ends kept, the whole label in the hover
            assert lines[0].startswith(f"{label[0]}: {thread[:3]}") and "…" in lines[0]
            assert lines[0].endswith(thread[-2:])
            assert note.hovertext == label
        else:
            assert lines[0] == f"{label[0]}: {thread}" and not note.hovertext
    assert figure.layout.margin.t >= 50 + 2 * 16  # room above the step labels for both lines


def test_compare_titles_are_escaped_text():
    label = "A: <b>x</b>&co · <i>" + "y" * 80 + "</i>"
    figure = compare_figure_of(timeline_of(lecture_rows()), timeline_of([]), [label, "B"])
    first, second = panel_titles(figure)

    assert first.text.startswith("A: &lt;b&gt;x&lt;/b&gt;&amp;co<br>&lt;i&gt;y")
    assert first.text.count("<") == 1  # the line break alone
    assert first.hovertext == "A: &lt;b&gt;x&lt;/b&gt;&amp;co · &lt;i&gt;" + "y" * 80 + "&lt;/i&gt;"
    assert second.text == "B" and not second.hovertext


def short_steps_rows() -> list[dict[str, Any]]:
    """Two seconds of work, two steps of 0.15 s side by side, then two seconds more."""
    return [
        node_log_row(1, "plan", 0.0, 2.0, step=1),
        node_log_row(2, "check", 2.0, 2.15, step=2),
        node_log_row(3, "route", 2.15, 2.3, step=3),
        node_log_row(4, "write", 2.3, 4.3, step=4),
    ]


def step_label_extents(figure: go.Figure, xref: str, plot_px: float) -> list[tuple[str, float, float]]:
    """Each "step N" label of the panel on ``xref``: its text and where it begins and ends, in pixels."""
    axis = figure.layout[{"x": "xaxis", "x2": "xaxis2"}[xref]]
    unit_px = plot_px / (axis.range[1] - axis.range[0])
    extents = []
    for note in figure.layout.annotations:
        if note.xref == xref and note.text.startswith("step"):
            half = drawn_px(note.text, note.font.size) / 2
            extents.append((note.text, note.x * unit_px - half, note.x * unit_px + half))
    return sorted(extents, key=lambda extent: extent[1])


@pytest.mark.parametrize("kind", ["compare", "single"])
def test_step_labels_side_by_side_never_print_over_each_other(kind):
    timeline = timeline_of(short_steps_rows())
    if kind == "compare":
        figure = compare_figure_of(timeline, timeline, ("A", "B"))
        panels = [("x", NARROW_PANEL), ("x2", NARROW_PANEL)]
    else:
        figure, panels = timeline_figure_of(timeline), [("x", NARROW_PLOT)]

    for xref, plot_px in panels:
        extents = step_label_extents(figure, xref, plot_px)
        assert [text for text, _, _ in extents][:2] == ["step 1", "step 2"]  # the first of two close ones kept
        assert "step 4" in [text for text, _, _ in extents]
        for (_, _, end), (_, start, _) in zip(extents, extents[1:], strict=False):
            assert end <= start, extents
