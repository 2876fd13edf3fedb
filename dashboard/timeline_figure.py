"""Plotly timeline of node calls: parallel tasks drawn as overlapping bars.

Pure functions ``node-log rows -> plotly.graph_objects.Figure``, and their
``..._of`` forms that take an ``agents.timing.Timeline`` computed once by the
caller; no Streamlit, so they are unit-tested directly.

The x axis is *seconds since the first node start*, laid out by
:mod:`dashboard.timeline_axis`: inside a run 1 display unit = 1 real second,
and an idle gap between two runs longer than ``compress_waits_over`` seconds
is drawn narrow. Here such a wait is marked by a dashed grey band with its
real length ("human wait 12 min 3 s"); tick labels give the real elapsed time,
so they jump across it. Hover texts give the wall-clock start and end in UTC.

Two rules keep the chart readable at a glance. A call shorter than
``MIN_BAR_PX`` pixels of its panel (the lecture's ``gate``, ``decide`` and
``save`` take a fraction of a millisecond; an ``interrupt()`` pauses its call
at once, so every interrupted call is one of them) is drawn that wide, and
its hover gives the exact time and says it was widened. And with
``max_calls``, a run of more calls is drawn as a window of its latest
``max_calls`` calls (the page's default, ``MAX_DRAWN_CALLS``), its tick labels
still counting from the run's first start, so what the browser gets follows
what can be seen; every call stays one click away.

Every label, legend entry and hover text is in the session's language
(``dashboard.i18n.t``). User-supplied text (labels, errors, titles) is
HTML-escaped because Plotly renders a subset of HTML in tick labels, hover
boxes and annotations.
"""

from __future__ import annotations

import functools
import html
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import plotly.graph_objects as go
import plotly.io as pio
from plotly.subplots import make_subplots

from agents.timing import NodeCall, Timeline, timeline_of_calls
from dashboard.i18n import t
from dashboard.text_fit import cut_in_middle, text_px
from dashboard.timeline_axis import TICK_FONT_PX, TICK_GAP_PX, TimeAxis, axis_ticks, lane_name, time_axis_of_runs
from dashboard.timeline_bands import WAIT_BAND_COLOR as WAIT_BAND_COLOR
from dashboard.timeline_bands import duration_text, step_decorations, wait_decorations
from dashboard.timeline_hover import STATUS_ORDER as STATUS_ORDER
from dashboard.timeline_hover import Pen, Texts, escape

STATUS_COLORS = {
    "ok": "#2ca02c",
    "error": "#d62728",
    "interrupted": "#ff7f0e",
    "running": "#1f77b4",
}
UNKNOWN_STATUS_COLOR = "#7f7f7f"
OPEN_PATTERN = "/"
#: A page draws at most this many calls per panel by default (the latest ones); ``max_calls=None`` draws all.
MAX_DRAWN_CALLS = 500
#: The narrowest a call is drawn, in pixels of its panel's plot area.
MIN_BAR_PX = 6
#: The plot area's width the minimum is reckoned on: a wide page's chart, and one panel of a comparison.
PLOT_WIDTH_PX = 700
PANEL_WIDTH_PX = 330
#: The narrowest the plot area is drawn, and one panel of a comparison: on a 1280 px page, beside the
#: lecture's long lane names, about 420 px and 200 px. Text over a panel is fitted to these widths: the
#: comparison's titles and the "step N" labels (a label that would print over its neighbour is left out).
NARROW_PLOT_PX = 400
NARROW_PANEL_PX = 190
#: A comparison panel's title: its font size, and how its label's parts are told apart. Each part
#: (``A: thread``, the run) is a line of its own, cut in the middle with "…" where it is wider than
#: ``NARROW_PANEL_PX``, so two titles side by side never run into each other; a cut title's hover holds
#: it whole.
PANEL_TITLE_FONT = 13
#: The widest a lane's name is written beside the plot, and its font (Plotly's tick labels' size).
LANE_LABEL_PX = 240
LANE_FONT_PX = 12
PANEL_TITLE_PARTS = " · "
#: The top margin above a comparison's panels without a title line, with a figure title, and per title line.
COMPARE_MARGIN_TOP = 50
COMPARE_MARGIN_TITLED = 75
PANEL_TITLE_LINE_PX = 18
#: Above this many calls in a panel, bars become WebGL line segments (two traces per status).
#: A few thousand SVG bars still draw smoothly, so runs of that size keep the exact bar figure.
WEBGL_THRESHOLD = 5000
#: Thickness in pixels of a call drawn as a WebGL segment (a bar's height on a 34 px lane).
SEGMENT_WIDTH = 18
#: The trace types a timeline draws: its template holds ``plotly_white``'s defaults for these alone.
DRAWN_TRACE_TYPES = ("bar", "scatter", "scattergl")
#: What ``plotly_white`` styles that a timeline never draws: other kinds of subplot, and colour scales (every
#: colour of a timeline is given).
UNDRAWN_LAYOUT = ("geo", "polar", "scene", "ternary", "coloraxis", "colorscale")


@functools.cache
def timeline_template() -> go.layout.Template:
    """``plotly_white`` as a timeline sees it: its defaults for ``DRAWN_TRACE_TYPES`` and for cartesian axes.

    Plotly copies and checks a template each time one is set on a figure. Named, ``plotly_white`` is a deep copy
    of its styles for every trace type (24) and subplot Plotly has: about half the time of drawing a small
    timeline and half of its JSON, for parts that change nothing in it.
    ``benchmarks/bench_timeline.py --template`` measures the two.
    """
    white = pio.templates["plotly_white"].to_plotly_json()
    layout = {key: value for key, value in white["layout"].items() if key not in UNDRAWN_LAYOUT}
    return go.layout.Template(layout=layout, data={kind: white["data"][kind] for kind in DRAWN_TRACE_TYPES})


def _status_trace(status: str, calls: Sequence[NodeCall], pen: Pen, show_legend: bool) -> go.Bar:
    """Horizontal bars (``base`` = start, ``x`` = drawn length) for one status.

    Coordinates and hover fields go in as NumPy arrays, which Plotly checks
    and copies whole, not item by item; hatching is only sent when a call has
    no logged end.
    """
    starts, ends = pen.span(calls)
    marker: dict[str, Any] = {"color": STATUS_COLORS.get(status, UNKNOWN_STATUS_COLOR)}
    if any(call.open for call in calls):  # hatching marks calls with no logged end (running or crashed)
        marker["pattern"] = {"shape": [OPEN_PATTERN if c.open else "" for c in calls]}
    return go.Bar(
        orientation="h",
        name=pen.texts.status(status),
        legendgroup=status,
        showlegend=show_legend,
        y=np.array([escape(lane_name(call)) for call in calls], dtype=object),
        base=starts,
        x=ends - starts,
        customdata=np.array(pen.hover(calls), dtype=object),
        hovertemplate=pen.texts.hover,
        marker=marker,
    )


def _segment_traces(status: str, calls: Sequence[NodeCall], pen: Pen, show_legend: bool) -> list[go.Scattergl]:
    """A long run's calls of one status as WebGL line segments, plus their hover points.

    One ``go.Scattergl`` of thick horizontal segments (start, end, gap) draws
    every call, however many; a second one, of invisible markers at the
    segments' middles, carries each call's hover text once (on the segments
    it would be repeated at both ends). Both share the status's legend entry.
    Coordinates and hover fields go in as NumPy arrays: Plotly validates
    nested Python lists item by item, which cost seconds at this size.
    """
    color = STATUS_COLORS.get(status, UNKNOWN_STATUS_COLOR)
    lanes = np.array([escape(lane_name(call)) for call in calls], dtype=object)
    starts, ends = pen.span(calls)
    gaps = np.full(len(calls), np.nan)  # NaN breaks the line between two calls
    name = pen.texts.status(status)
    segments = go.Scattergl(
        mode="lines",
        name=name,
        legendgroup=status,
        showlegend=show_legend,
        x=np.column_stack([starts, ends, gaps]).ravel(),
        y=np.column_stack([lanes, lanes, np.full(len(calls), None, dtype=object)]).ravel(),
        line={"color": color, "width": SEGMENT_WIDTH},
        hoverinfo="skip",
    )
    hover_points = go.Scattergl(
        mode="markers",
        name=name,
        legendgroup=status,
        showlegend=False,
        x=(starts + ends) / 2,
        y=lanes,
        marker={"color": color, "size": SEGMENT_WIDTH, "opacity": 0},
        customdata=np.array(pen.hover(calls), dtype=object),
        hovertemplate=pen.texts.hover,
    )
    return [segments, hover_points]


def _bar_traces(calls: Sequence[NodeCall], pen: Pen, legend_shown: set[str]) -> list[go.BaseTraceType]:
    """One horizontal bar trace per status, built from plain lists for speed.

    Above ``WEBGL_THRESHOLD`` calls the bars become WebGL segments instead
    (``_segment_traces``: two traces per status), so a run of ten thousand
    calls stays a handful of traces the browser draws on the GPU. WebGL has
    no hatching: there, the arrow heads alone mark calls with no logged end.
    Statuses are drawn in ``STATUS_ORDER``, so an ``interrupted`` or
    ``error`` bar lies over an ``ok`` one where they meet.
    """
    by_status: dict[str, list[NodeCall]] = {}
    for call in calls:
        by_status.setdefault(call.status, []).append(call)
    ordered = [s for s in STATUS_ORDER if s in by_status] + sorted(set(by_status) - set(STATUS_ORDER))
    webgl = len(calls) > WEBGL_THRESHOLD
    traces: list[go.BaseTraceType] = []
    for status in ordered:
        show_legend = status not in legend_shown
        if webgl:
            traces += _segment_traces(status, by_status[status], pen, show_legend)
        else:
            traces.append(_status_trace(status, by_status[status], pen, show_legend))
        legend_shown.add(status)
    for trace in traces:
        trace.update(xaxis=pen.xaxis, yaxis=pen.yaxis)
    return traces


def _open_marker_trace(calls: Sequence[NodeCall], pen: Pen, show_legend: bool) -> go.Scatter | go.Scattergl | None:
    """Arrow heads at the drawn end of calls with no logged end.

    They keep a call that is open and still zero-length visible, and say in
    the legend what the hatched bars mean. WebGL above ``WEBGL_THRESHOLD`` calls,
    like the bars.
    """
    open_calls = [call for call in calls if call.open]
    if not open_calls:
        return None
    scatter = go.Scattergl if len(calls) > WEBGL_THRESHOLD else go.Scatter
    return scatter(
        mode="markers",
        name=t("timeline.legend.open"),
        legendgroup="open",
        showlegend=show_legend,
        x=[pen.axis.to_display(call.ended_at) for call in open_calls],
        y=[escape(lane_name(call)) for call in open_calls],
        marker={
            "symbol": "triangle-right",
            "size": 11,
            "color": [STATUS_COLORS.get(c.status, UNKNOWN_STATUS_COLOR) for c in open_calls],
            "line": {"width": 1, "color": "#333"},
        },
        customdata=pen.hover(open_calls),
        hovertemplate=pen.texts.hover,
        xaxis=pen.xaxis,
        yaxis=pen.yaxis,
    )


@dataclass(frozen=True)
class _Panel:
    """Everything one timeline panel contributes to a figure."""

    traces: list[go.BaseTraceType]
    shapes: list[dict[str, Any]]
    annotations: list[dict[str, Any]]
    axis: TimeAxis


def _lanes(calls: Iterable[NodeCall]) -> list[str]:
    """Escaped lane names in order of first start (top to bottom)."""
    return list(dict.fromkeys(escape(lane_name(call)) for call in calls))


def _drawn(
    timeline: Timeline, compress_waits_over: float, max_calls: int | None, origin: float | None = None
) -> tuple[Timeline, TimeAxis]:
    """The part of ``timeline`` a panel draws (its latest ``max_calls`` calls) and that part's axis.

    The axis counts elapsed time from ``origin`` (by default the whole
    timeline's first start), so a window's ticks read the real time into the run.
    """
    shown = timeline
    if max_calls is not None and len(timeline.calls) > max_calls:
        # The latest calls keep their resolved ends; their supersteps and runs are recomputed, so a
        # superstep the window cuts counts only its calls inside it.
        shown = timeline_of_calls(timeline.calls[-max_calls:])
    if origin is None and timeline.calls:
        origin = timeline.calls[0].started_at
    return shown, time_axis_of_runs(shown.runs, compress_waits_over, origin=origin)


def min_bar_width(x_range: float, plot_px: float = PLOT_WIDTH_PX) -> float:
    """The narrowest bar, in x units, on a panel showing ``x_range`` units across ``plot_px`` pixels.

    ``MIN_BAR_PX`` pixels' worth; an empty range (every call instantaneous)
    counts as one unit, the width its padding shows.
    """
    return MIN_BAR_PX / plot_px * (x_range if x_range > 0 else 1.0)


def _panel(shown: Timeline, pen: Pen, legend_shown: set[str], unit_px: float) -> _Panel:
    """Traces, bands and labels of one timeline drawn with ``pen``; ``unit_px``: the pixels an x unit takes
    on the panel at its narrowest (the step labels are spaced for it)."""
    calls = shown.calls
    traces = _bar_traces(calls, pen, legend_shown)
    marker = _open_marker_trace(calls, pen, show_legend="open" not in legend_shown)
    if marker is not None:
        traces.append(marker)
        legend_shown.add("open")
    step_shapes, step_notes = step_decorations(shown.supersteps, pen.axis, pen.xaxis, unit_px=unit_px)
    wait_shapes, wait_notes = wait_decorations(pen.axis, pen.xaxis)
    return _Panel(traces, step_shapes + wait_shapes, step_notes + wait_notes, pen.axis)


def _padding(x_max: float) -> float:
    """The room left of 0 and right of ``x_max`` on an x axis drawn up to ``x_max``."""
    return 0.02 * x_max if x_max > 0 else 0.5


def _unit_px(x_max: float, plot_px: float) -> float:
    """The pixels one x unit takes on a plot ``plot_px`` wide whose axis is drawn up to ``x_max``."""
    return plot_px / (x_max + 2 * _padding(x_max))


def _x_axis_layout(axis: TimeAxis, compress_waits_over: float, x_max: float, unit_px: float) -> dict[str, Any]:
    """The x axis of a panel drawn up to ``x_max``, ``unit_px`` pixels a unit where it is drawn narrowest."""
    tickvals, ticktext = axis_ticks(axis, span=x_max, unit_px=unit_px)
    title = t("timeline.axis")
    if axis.waits:
        title += t("timeline.axis.compressed", duration=duration_text(compress_waits_over))
    padding = _padding(x_max)
    return {
        "title": {"text": title},
        "tickmode": "array",
        "tickvals": tickvals,
        "ticktext": ticktext,
        "range": [-padding, x_max + padding],
        "zeroline": False,
        "showgrid": True,
    }


def _clear_of_next(
    layout: dict[str, Any], following: dict[str, Any], unit_px: float, spacing_px: float
) -> dict[str, Any]:
    """``layout`` (a panel's x axis) less its last ticks whose label would come nearer than ``TICK_GAP_PX`` to the
    first label of the panel to its right (``following``, ``spacing_px`` further on; both ``unit_px`` a unit)."""
    values, labels = list(layout["tickvals"]), list(layout["ticktext"])
    if not following["tickvals"]:  # an empty panel: no label to keep clear of
        return layout
    high, low = layout["range"][1], following["range"][0]
    next_start = spacing_px + (following["tickvals"][0] - low) * unit_px - _half_label_px(following["ticktext"][0])
    while len(values) > 1 and (values[-1] - high) * unit_px + _half_label_px(labels[-1]) + TICK_GAP_PX > next_start:
        values.pop()
        labels.pop()
    return {**layout, "tickvals": values, "ticktext": labels}


def _half_label_px(label: str) -> float:
    return text_px(label, TICK_FONT_PX) / 2


def _base_layout(title: str | None, lane_count: int) -> dict[str, Any]:
    return {
        "title": {"text": escape(title)} if title else None,
        "barmode": "overlay",  # bars of different status traces share a lane
        "bargap": 0.25,
        "template": timeline_template(),
        "height": max(280, 110 + 34 * lane_count),
        "legend": {"title": {"text": t("timeline.legend")}},
        "hovermode": "closest",
        "margin": {"t": 70 if title else 45},
    }


def empty_timeline_figure(title: str | None = None) -> go.Figure:
    """Figure saying that no node calls were logged (instead of an error)."""
    figure = go.Figure()
    figure.update_layout(
        title={"text": escape(title)} if title else None,
        template=timeline_template(),
        height=280,
        xaxis={"visible": False},
        yaxis={"visible": False},
        annotations=[
            {
                "text": t("timeline.empty"),
                "xref": "paper",
                "yref": "paper",
                "x": 0.5,
                "y": 0.5,
                "showarrow": False,
                "font": {"size": 16, "color": "#666"},
            }
        ],
    )
    return figure


def timeline_figure_of(
    timeline: Timeline, *, compress_waits_over: float = 5.0, title: str | None = None, max_calls: int | None = None
) -> go.Figure:
    """Gantt-style timeline of node calls, one lane per node or labelled task.

    Args:
        timeline: The calls (``agents.timing.timeline_of`` of node-log rows, usually one thread,
            possibly several runs of it), resolved once for every view of a page.
        compress_waits_over: Gaps between runs longer than this many seconds
            are drawn narrow and marked; ``math.inf`` keeps all to scale.
        title: Optional figure title (escaped, shown as text).
        max_calls: Draw only the latest this many calls (None: all); their ticks still count from
            the first start.

    Returns:
        A figure with one horizontal ``go.Bar`` trace per status (``base`` =
        start, ``x`` = drawn length, both in seconds on the axis described in
        the module docstring; at least ``min_bar_width`` long), superstep
        bands, wait markers and hover details with the exact times.
        Above ``WEBGL_THRESHOLD`` calls the bars are ``go.Scattergl`` segments
        instead, two traces per status; at most
        ``dashboard.timeline_bands.MAX_STEP_BANDS`` step bands and
        ``MAX_WAIT_BANDS`` wait bands are drawn, whatever the run.
        No calls give an empty figure with a "no node calls logged" note.
    """
    if not timeline.calls:
        return empty_timeline_figure(title)
    shown, axis = _drawn(timeline, compress_waits_over, max_calls)
    pen = Pen(axis, min_bar_width(axis.span), Texts.now())
    unit_px = _unit_px(axis.span, NARROW_PLOT_PX)
    panel = _panel(shown, pen, set(), unit_px)
    lanes = _lanes(shown.calls)
    figure = go.Figure(data=panel.traces)
    figure.update_layout(
        **_base_layout(title, len(lanes)),
        shapes=panel.shapes,
        annotations=panel.annotations,
        xaxis=_x_axis_layout(panel.axis, compress_waits_over, panel.axis.span, unit_px),
        yaxis=_lane_axis(lanes),
    )
    return figure


def compare_figure_of(
    timeline_a: Timeline,
    timeline_b: Timeline,
    labels: Sequence[str] = ("A", "B"),
    *,
    compress_waits_over: float = 5.0,
    title: str | None = None,
    max_calls: int | None = None,
    origins: Sequence[float | None] = (None, None),
) -> go.Figure:
    """Two timelines side by side on shared lanes, for "compare two runs".

    ``labels`` are the panels' titles (:func:`panel_title`: each part between " · " on a line of its own,
    fitted to a narrow panel, escaped); the rest is as in ``timeline_figure_of``, ``max_calls`` for each side.

    ``origins`` give each side's run start when a side holds only its run's
    latest calls (``agents.run_index.run_tail``), so its ticks count from it.

    Each panel measures time from its own first start; both x axes get the
    same range and the same tick step, so equal lengths mean equal durations
    across the panels and a short run's ticks do not crowd into a few pixels.

    Returns:
        A 1x2 subplot figure; lanes (y categories) are the union of both
        sides in first-seen order, aligned across the panels. An empty side
        shows "no node calls logged" in its panel. Each panel follows the
        size rules of ``timeline_figure_of`` (a window of ``max_calls``,
        WebGL, bounded step and wait bands, a minimum bar width on the shared range).
    """
    timelines = (timeline_a, timeline_b)
    figure = make_subplots(
        rows=1,
        cols=2,
        shared_yaxes=True,
        horizontal_spacing=0.04,
    )
    drawn = [
        _drawn(side, compress_waits_over, max_calls, origin) for side, origin in zip(timelines, origins, strict=True)
    ]
    lanes = _lanes([call for shown, _ in drawn for call in shown.calls])
    x_max = max(axis.span for _, axis in drawn)
    texts, legend_shown = Texts.now(), set[str]()
    unit_px = _unit_px(x_max, NARROW_PANEL_PX)
    panels = [
        _panel(
            shown,
            Pen(axis, min_bar_width(x_max, PANEL_WIDTH_PX), texts, f"x{suffix}", f"y{suffix}"),
            legend_shown,
            unit_px,
        )
        for (shown, axis), suffix in zip(drawn, ("", "2"), strict=True)
    ]
    shapes = [shape for panel in panels for shape in panel.shapes]
    # The panel titles, centred over their panels and lifted above the "step N" labels on the panels' top edge.
    titles = [panel_title(label) for label in labels[:2]]
    domains = (figure.layout.xaxis.domain, figure.layout.xaxis2.domain)
    annotations = [_title_note(title, domain) for title, domain in zip(titles, domains, strict=False) if title["text"]]
    x_layouts = [_x_axis_layout(panel.axis, compress_waits_over, x_max, unit_px) for panel in panels]
    spacing_px = NARROW_PANEL_PX * (domains[1][0] - domains[0][1]) / (domains[0][1] - domains[0][0])
    x_layouts[0] = _clear_of_next(x_layouts[0], x_layouts[1], unit_px, spacing_px)
    for column, (side, panel, x_layout) in enumerate(zip(timelines, panels, x_layouts, strict=True), start=1):
        figure.add_traces(panel.traces)
        annotations += panel.annotations if side.calls else [_empty_note(column)]
        figure.update_xaxes(x_layout, row=1, col=column)
    figure.update_yaxes(_lane_axis(lanes))
    figure.update_layout(**_base_layout(title, len(lanes)))
    lines = max((note["text"].count("<br>") + 1 for note in titles), default=0)
    # Room for the lifted panel titles, their lines stacked upwards from the panels' top edge.
    figure.layout.margin.t = (COMPARE_MARGIN_TITLED if title else COMPARE_MARGIN_TOP) + PANEL_TITLE_LINE_PX * lines
    # Assign the lists whole: update_layout would merge them item by item into
    # what the layout holds, and add_shape per item validates the figure each time.
    figure.layout.shapes = shapes
    figure.layout.annotations = annotations
    return figure


def panel_title(label: str) -> dict[str, Any]:
    """A comparison panel's title as annotation properties: the parts of ``label`` between " · " each on a
    line of its own, each cut in the middle (:func:`dashboard.text_fit.cut_in_middle`) to ``NARROW_PANEL_PX``,
    escaped; a title cut anywhere holds the whole label, escaped, in its hover."""
    parts = label.split(PANEL_TITLE_PARTS)
    lines = [cut_in_middle(part, NARROW_PANEL_PX, PANEL_TITLE_FONT) for part in parts]
    title: dict[str, Any] = {
        "text": "<br>".join(escape(line) for line in lines),
        "font": {"size": PANEL_TITLE_FONT},
    }
    if lines != parts:
        title["hovertext"] = escape(label)
    return title


def _title_note(title: dict[str, Any], domain: Sequence[float]) -> dict[str, Any]:
    """A panel's title (:func:`panel_title`) over the middle of its x ``domain``, its lines rising from
    16 px above the panel's top edge."""
    position = {"xref": "paper", "yref": "paper", "x": (domain[0] + domain[1]) / 2, "y": 1.0, "yshift": 16}
    return {**title, **position, "xanchor": "center", "yanchor": "bottom", "showarrow": False}


def _lane_axis(lanes: Sequence[str]) -> dict[str, Any]:
    """The y axis of the lanes: the first lane on top.

    Plotly lists categories from the bottom up, so the array is reversed. A reversed axis would show
    the same, but Plotly 4 (Streamlit's) draws WebGL lines on a reversed axis at its bottom edge: a
    long run's segments would all lie there.

    Each lane is named on the axis by its name cut in the middle to ``LANE_LABEL_PX`` (a lecture's research
    lanes carry their subtopic, up to 120 characters; whole, one would take the plot's width): the
    categories stay the whole names, so two lanes cut alike stay apart, and a bar's hover names its lane whole.
    """
    order = list(reversed(lanes))
    shown = [escape(cut_in_middle(html.unescape(lane), LANE_LABEL_PX, LANE_FONT_PX)) for lane in order]
    if shown == order:
        return {"categoryorder": "array", "categoryarray": order}
    return {"categoryorder": "array", "categoryarray": order, "tickmode": "array", "tickvals": order, "ticktext": shown}


def _empty_note(column: int) -> dict[str, Any]:
    suffix = "" if column == 1 else str(column)
    return {
        "text": t("timeline.empty"),
        "xref": f"x{suffix} domain",
        "yref": f"y{suffix} domain",
        "x": 0.5,
        "y": 0.5,
        "showarrow": False,
        "font": {"size": 14, "color": "#666"},
    }
