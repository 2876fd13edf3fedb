"""Plotly figure of a thread's parent-chained checkpoint graph.

A pure function `chain -> go.Figure` for the checkpoint explorer page; it
imports no Streamlit, so tests look inside the figure directly. Positions come
from `agents.chain_layout.layout_columns`: x is the step (pushed right so a
child is always right of its parent), y is minus the lane's row (0 = main line
at the top, each fork or orphan a branch below it, at -1, -2, ...).

What the figure shows:
    * one point per checkpoint; colour AND symbol encode the source, one
      legend entry per source present (colour-blind safe Okabe-Ito colours);
    * one line trace for all parent links (NaN-separated segments); a fork
      link runs diagonally from the parent's lane down to the branch lane;
    * a large black ring on the head, a hexagon ring on checkpoints waiting
      for a human, a halo behind the selected checkpoint;
    * writer nodes in hover, and as text beside the points that have room for
      it (`dashboard.checkpoint_labels.place_labels`, in pixels of the
      narrowest the plot is drawn): above or below the point, on the side no
      link of the point crosses, keeping clear of the labels beside it, which
      along a crowded lane alternate above and below; a label without room is
      left out. No text at all above `TEXT_LABEL_LIMIT` points;
    * the x axis opened on every step drawn, or for a window of a long thread
      (`columns_figure` on `agents.chain_layout.window_columns`) on
      `view_steps` steps around the selected checkpoint, with room past the
      outermost points for their halo and labels; in a window, only the lanes
      drawn and a dotted link with the number of checkpoints left out wherever
      some are.

Every point trace (sources, head, waiting, selected, labels) carries the full
checkpoint id as 1-D `customdata`, so a Streamlit `on_select` event maps back
with ``event.selection.points[i]["customdata"]``.

Subgraph namespaces: the chain is expected to be the root namespace only
(`checkpoint_ns == ''`, as `agents.readmodel.checkpoint_chain` returns it);
anything else is filtered out by `layout_chain`, never drawn.
"""

from __future__ import annotations

import html
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import plotly.graph_objects as go

from agents.chain_layout import ChainColumns, ChainPoint, layout_columns
from agents.collector import collector_paused
from dashboard.checkpoint_hover import PointRows, label_text, lane_label, point_rows
from dashboard.checkpoint_labels import (
    BOTTOM,
    LABEL_FONT_PX,
    TOP,
    Obstacle,
    XView,
    edge_room,
    label_widths,
    place_labels,
    row_pitch_px,
    x_view,
)
from dashboard.text_fit import text_px

# Above this many points no writer label is drawn at all: placing them costs time, and so few would have
# room on the narrowest plot that the hover tells more.
TEXT_LABEL_LIMIT = 300

# Known LangGraph sources first, in the order a run produces them.
SOURCE_STYLES: dict[str, tuple[str, str]] = {
    "input": ("#0072B2", "square"),
    "loop": ("#009E73", "circle"),
    "update": ("#E69F00", "diamond"),
    "fork": ("#CC79A7", "triangle-up"),
}
UNKNOWN_SOURCE_STYLE = ("#7F7F7F", "x")

# English defaults; the page passes translated strings through `labels`.
DEFAULT_LABELS: dict[str, str] = {
    "head": "head",
    "waiting": "waiting for a human",
    "selected": "selected",
    "links": "parent link",
    "main": "main",
    "branch": "branch {n}",
    "step": "step",
    "lane": "lane",
    "writers": "writers",
    "next": "next",
    "orphan": "parent missing",
    "empty": "No checkpoints in this thread yet.",
    "hidden": "checkpoints not drawn",
    "hidden_count": "{n} not drawn",
    "source.input": "input",
    "source.loop": "loop",
    "source.update": "update",
    "source.fork": "fork",
}

# A window opens on this many steps around the selected checkpoint (`columns_figure`'s view_steps).
VIEW_STEPS = 30

# Up to this many steps wide, every step gets its own x tick.
SMALL_X_SPAN = 20


def checkpoint_figure(
    chain: Iterable[ChainPoint],
    *,
    selected_id: str | None = None,
    webgl_threshold: int = 2000,
    labels: Mapping[str, str] | None = None,
) -> go.Figure:
    """Draw a thread's checkpoint tree.

    Args:
        chain: Checkpoints of one thread (`ChainCheckpoint`-like), any order.
            Only the root namespace (`checkpoint_ns == ''`) is drawn.
        selected_id: Full id of the checkpoint to highlight; ignored if it is
            not in the chain (e.g. deleted since the selection was made).
        webgl_threshold: Above this many checkpoints, points and links use
            `go.Scattergl` so the browser stays responsive.
        labels: Overrides for `DEFAULT_LABELS` (UI language).

    Returns:
        The figure; an empty chain gives an empty figure with a notice.
    """
    with collector_paused():
        columns = layout_columns(chain)
        return columns_figure(columns, selected_id=selected_id, webgl_threshold=webgl_threshold, labels=labels)


def columns_figure(
    columns: ChainColumns[ChainPoint],
    *,
    selected_id: str | None = None,
    webgl_threshold: int = 2000,
    labels: Mapping[str, str] | None = None,
    view_steps: int | None = None,
) -> go.Figure:
    """Draw laid-out checkpoints: a whole chain (`layout_columns`) or a window of one (`window_columns`).

    Args:
        columns: The layout; lanes with no point drawn are left out of the y axis.
        selected_id, webgl_threshold, labels: As for `checkpoint_figure`.
        view_steps: When the drawn steps span more than this, the x axis opens on this many
            steps around the selected checkpoint (else the head); panning or a double click
            shows the rest.

    Returns:
        The figure; no points give an empty figure with a notice.
    """
    # A whole long thread makes tens of thousands of objects here, none of them garbage until the
    # figure is (see agents.collector).
    with collector_paused():
        return _columns_figure(columns, selected_id, webgl_threshold, labels, view_steps)


def _columns_figure(
    columns: ChainColumns[ChainPoint],
    selected_id: str | None,
    webgl_threshold: int,
    labels: Mapping[str, str] | None,
    view_steps: int | None,
) -> go.Figure:
    """:func:`columns_figure`, with the collector as it is."""
    text = {**DEFAULT_LABELS, **(labels or {})}
    points = columns.points
    if not points:
        return _empty_figure(text["empty"])
    scatter = "scattergl" if len(points) > webgl_threshold else "scatter"
    shown = sorted(set(columns.lanes))
    row_of = {lane: row for row, lane in enumerate(shown)}
    rows = point_rows(columns, text)
    drawn = _Drawn(
        x=np.array(columns.xs, dtype=np.int64),
        # A whole chain's lanes are dense (0, 1, 2, ...): each lane is its row. Row r is drawn at y = -r.
        y=-np.array(
            columns.lanes if shown[-1] == len(shown) - 1 else [row_of[lane] for lane in columns.lanes], dtype=np.int64
        ),
        ids=np.array(rows.ids, dtype=object),
        hover=np.array(rows.hover, dtype=object),
    )
    hidden = columns.hidden or [0] * len(points)
    traces = [_link_trace(columns.parents, hidden, drawn, scatter, text["links"], solid=True)]
    if any(hidden):
        traces.append(_link_trace(columns.parents, hidden, drawn, scatter, text["hidden"], solid=False))
        traces.append(_hidden_counts(columns.parents, hidden, drawn, scatter, text["hidden_count"]))
    selected = [i for i, checkpoint_id in enumerate(rows.ids) if checkpoint_id == selected_id]
    if selected:
        # Drawn before the source markers so the halo sits behind the point.
        halo = {"size": HALO_SIZE, "color": "rgba(255, 200, 0, 0.55)", "symbol": "circle"}
        traces.append(_overlay_trace(selected, drawn, scatter, text["selected"], halo))
    traces += _source_traces(rows.by_source, len(points), drawn, scatter, text)
    for name, ringed, marker in _ring_specs(text, rows):
        if ringed:
            traces.append(_overlay_trace(ringed, drawn, scatter, name, marker))
    focus = selected[0] if selected else rows.heads[0] if rows.heads else len(points) - 1
    writers = [label_text(p.writers) for p in points] if len(points) <= TEXT_LABEL_LIMIT else None
    widths = None if writers is None else label_widths(writers)
    view = x_view(columns.xs, columns.xs[focus], view_steps, edge_room(columns.xs, widths, HALO_SIZE))
    height = figure_height(len(shown))
    if writers is not None and widths is not None:
        sizes = [
            HALO_SIZE if i in selected else HEAD_SIZE if p.is_head else WAITING_SIZE if p.is_waiting else MARKER_SIZE
            for i, p in enumerate(points)
        ]
        first = [*selected, *rows.heads, *rows.waiting]
        row_px = row_pitch_px(len(shown), height, HALO_SIZE)
        placed = _placed_labels(columns, drawn, widths, sizes, first, view, row_px, text["hidden_count"])
        if any(placed):
            traces.append(_label_trace(drawn, writers, sizes, placed, scatter, text["writers"]))
    layout = _layout([lane_label(lane, text) for lane in shown], text, view, height)
    return _figure_of(traces, layout)


#: Marker sizes of the halo and the rings: a label keeps clear of the largest on its point.
HALO_SIZE, HEAD_SIZE, WAITING_SIZE, MARKER_SIZE = 30, 28, 21, 12
#: The stroke of the rings (head, waiting), in pixels.
RING_LINE_PX = 3
#: The font size of the number of checkpoints left out, written over a dotted link.
HIDDEN_COUNT_FONT_PX = 11


def figure_height(lanes: int) -> int:
    """The figure's height in pixels with ``lanes`` lanes drawn."""
    return min(900, 220 + 70 * lanes)


def _placed_labels(
    columns: ChainColumns[ChainPoint],
    drawn: _Drawn,
    widths: list[float],
    sizes: list[int],
    first: list[int],
    view: XView,
    row_px: float,
    count_text: str,
) -> list[str | None]:
    """Each point's label side, or None where it is left out (`place_labels`): clear of the links, of the
    rings and halo of its neighbours, and of the counts (``count_text``) over the dotted links."""
    rows = (-drawn.y).tolist()
    xs = columns.xs
    obstacles = [
        Obstacle(xs[i], rows[i], side, size + RING_LINE_PX, owner=i)
        for i, size in enumerate(sizes)
        if size > MARKER_SIZE
        for side in (TOP, BOTTOM)
    ]
    hidden = columns.hidden or ()
    for i, count in enumerate(hidden):
        parent = columns.parents[i]
        if count and parent >= 0 and rows[parent] == rows[i]:
            width = text_px(count_text.format(n=f"{count:,}"), HIDDEN_COUNT_FONT_PX)
            obstacles.append(Obstacle((xs[parent] + xs[i]) / 2, rows[i], TOP, width))
    links = [(parent, child) for child, parent in enumerate(columns.parents) if parent >= 0]
    return place_labels(
        xs,
        rows,
        widths,
        view.unit_px,
        links=links,
        row_px=row_px,
        ring_px=HALO_SIZE,
        first=first,
        obstacles=obstacles,
    )


def _label_trace(
    drawn: _Drawn, labels: list[str], sizes: list[int], placed: list[str | None], scatter: str, name: str
) -> dict[str, object]:
    """The writer labels that have room (``placed``), as their own trace.

    Its markers are invisible and sized like the largest marker on each point (ring or halo), so
    Plotly sets each label clear of it; it takes no hover, so a click still selects the point.
    """
    shown = [i for i, side in enumerate(placed) if side is not None]
    marker = {"size": [sizes[i] for i in shown], "opacity": 0, "color": "#FFFFFF"}
    trace = _overlay_trace(shown, drawn, scatter, name, marker)
    trace.update(mode="markers+text", hoverinfo="skip", showlegend=False, textposition=[placed[i] for i in shown])
    trace["text"] = [labels[i] for i in shown]  # short: labels stand close, and must not run together
    trace["textfont"] = {"size": LABEL_FONT_PX}  # the size they were placed for, in presenter mode too
    del trace["hovertemplate"], trace["hovertext"]
    return trace


#: Trace properties that hold one entry per point (or per link end).
_ARRAYS = ("x", "y", "customdata", "hovertext", "text")


def _figure_of(traces: list[dict[str, object]], layout: dict[str, object]) -> go.Figure:
    """The figure of trace dicts and a layout, its per-point arrays set on the figure's own traces.

    ``go.Figure(data=...)`` deep-copies every trace's properties, element by element
    for object arrays (ids, hover); an array set on a trace of the figure afterwards
    is validated but not copied.
    """
    arrays = [{key: trace.pop(key) for key in _ARRAYS if key in trace} for trace in traces]
    figure = go.Figure(data=traces, layout=layout)
    for drawn, columns in zip(figure.data, arrays, strict=True):
        drawn.update(columns)
    return figure


@dataclass(frozen=True, slots=True)
class _Drawn:
    """Per-point arrays, in walk order, that every point trace takes its rows from."""

    x: np.ndarray
    y: np.ndarray  # minus the point's row: see _layout
    ids: np.ndarray
    hover: np.ndarray


def _ring_specs(text: Mapping[str, str], rows: PointRows) -> list[tuple[str, list[int], dict]]:
    """Legend name, ringed points and marker of each ring overlay.

    Plotly strokes an `-open` symbol with `marker.color` (its `line.color` is
    ignored), so the ring colour goes there and `line.width` sets the stroke.
    """
    waiting = {"size": WAITING_SIZE, "symbol": "hexagon-open", "color": "#D55E00"}
    head = {"size": HEAD_SIZE, "symbol": "circle-open", "color": "#000000"}
    return [
        (text["waiting"], rows.waiting, {**waiting, "line": {"width": RING_LINE_PX}}),
        (text["head"], rows.heads, {**head, "line": {"width": RING_LINE_PX}}),
    ]


def _link_trace(
    parents: Sequence[int], hidden: Sequence[int], drawn: _Drawn, scatter: str, name: str, *, solid: bool
) -> dict[str, object]:
    """The parent links as one line trace, segments separated by NaN: the plain ones (``solid``), or
    the dotted ones over left-out checkpoints.

    One trace instead of one per edge keeps 10,000-checkpoint threads fast. The gaps are NaN in
    float arrays, which Plotly sends to the browser as binary typed arrays and draws as breaks in
    the line (SVG and WebGL alike); None gaps needed object arrays, which it writes out number by
    number: about 120 ms more JSON per 10,000 links.
    """
    up = np.array(parents, dtype=np.int64)
    skipped = np.array(hidden, dtype=np.int64)
    children = np.flatnonzero((up >= 0) & ((skipped == 0) if solid else (skipped > 0)))  # roots: no link
    xs = np.full(3 * len(children), np.nan)
    ys = np.full(3 * len(children), np.nan)
    xs[0::3], xs[1::3] = drawn.x[up[children]], drawn.x[children]
    ys[0::3], ys[1::3] = drawn.y[up[children]], drawn.y[children]
    line = {"color": "#9A9A9A", "width": 1.5} if solid else {"color": "#9A9A9A", "width": 1.5, "dash": "dot"}
    return {
        "type": scatter,
        "x": xs,
        "y": ys,
        "mode": "lines",
        "name": name,
        "line": line,
        "hoverinfo": "skip",
        "showlegend": not solid,
    }


def _hidden_counts(
    parents: Sequence[int], hidden: Sequence[int], drawn: _Drawn, scatter: str, template: str
) -> dict[str, object]:
    """The number of left-out checkpoints written at the middle of each dotted link."""
    rows = [i for i, n in enumerate(hidden) if n > 0 and parents[i] >= 0]
    return {
        "type": scatter,
        "x": [(drawn.x[parents[i]] + drawn.x[i]) / 2 for i in rows],
        "y": [(drawn.y[parents[i]] + drawn.y[i]) / 2 for i in rows],
        "text": [template.format(n=f"{hidden[i]:,}") for i in rows],
        "mode": "text",
        "textposition": "top center",
        "textfont": {"color": "#6A6A6A", "size": HIDDEN_COUNT_FONT_PX},
        "hoverinfo": "skip",
        "showlegend": False,
        "name": template.format(n=""),
    }


def _source_traces(
    by_source: dict[str, list[int]], count: int, drawn: _Drawn, scatter: str, text: Mapping[str, str]
) -> list[dict[str, object]]:
    """One marker trace per source present, known sources first, named in the UI's language."""
    known = [s for s in SOURCE_STYLES if s in by_source]
    unknown = sorted(s for s in by_source if s not in SOURCE_STYLES)
    # Dense threads: smaller markers without the white outline, which would
    # otherwise paint the crowded main line white.
    size, outline = (MARKER_SIZE, 1) if count <= TEXT_LABEL_LIMIT else (7, 0)
    traces = []
    for source in known + unknown:
        color, symbol = SOURCE_STYLES.get(source, UNKNOWN_SOURCE_STYLE)
        marker = {"size": size, "color": color, "symbol": symbol, "line": {"width": outline, "color": "#FFFFFF"}}
        name = text.get(f"source.{source}", source)
        traces.append(_overlay_trace(by_source[source], drawn, scatter, name, marker))
    return traces


def _overlay_trace(rows: list[int], drawn: _Drawn, scatter: str, name: str, marker: dict) -> dict[str, object]:
    """Markers of the points at ``rows``, with their full-id customdata and hover, clickable.

    NumPy arrays rather than lists, because Plotly validates a list element by
    element, which made a 10,000-point figure several times slower.
    """
    at = np.array(rows, dtype=np.int64)
    return {
        "type": scatter,
        "x": drawn.x[at],
        "y": drawn.y[at],
        "customdata": drawn.ids[at],
        "hovertext": drawn.hover[at],
        "hovertemplate": "%{hovertext}<extra></extra>",
        "mode": "markers",
        "name": name,
        "marker": marker,
    }


def _layout(lane_names: list[str], text: Mapping[str, str], view: XView, height: int) -> dict[str, object]:
    """Axes, legend and interaction settings shared by every non-empty figure; one row per lane drawn."""
    xaxis: dict[str, object] = {
        "title": {"text": text["step"]},
        "zeroline": False,
        # Steps are whole numbers; without this a short thread gets 0.5 ticks.
        "dtick": 1 if view.steps <= SMALL_X_SPAN else None,
        "range": list(view.range),
    }
    return dict(
        # Clicking a point selects it (Streamlit `on_select`); dragging pans,
        # because a long thread needs panning and a box selection would pick
        # many checkpoints where the explorer shows one.
        clickmode="event+select",
        dragmode="pan",
        hovermode="closest",
        height=height,
        margin={"l": 10, "r": 10, "t": 40, "b": 40},
        xaxis=xaxis,
        # The lane's word sits over the lane names, level: an axis title is drawn turned on its side, which
        # Korean (레인) does not read that way.
        annotations=[
            {
                "text": text["lane"],
                "xref": "paper",
                "yref": "paper",
                "x": 0,
                "y": 1,
                "xanchor": "right",
                "yanchor": "bottom",
                "textangle": 0,
                "showarrow": False,
            }
        ],
        yaxis={
            "tickmode": "array",
            # Main line on top, branches below it, like a git log graph: row r is drawn at y = -r. A
            # reversed axis would show the same, but Plotly 4 (Streamlit's) draws WebGL lines on a
            # reversed axis at its bottom edge: a long thread's links would all lie there.
            "tickvals": [-row for row in range(len(lane_names))],
            "ticktext": lane_names,
            "zeroline": False,
        },
    )


def _empty_figure(message: str) -> go.Figure:
    """Empty figure with a centred notice instead of blank axes."""
    figure = go.Figure()
    figure.add_annotation(
        text=html.escape(message),
        showarrow=False,
        xref="paper",
        yref="paper",
        x=0.5,
        y=0.5,
    )
    figure.update_layout(xaxis={"visible": False}, yaxis={"visible": False}, height=240)
    return figure
