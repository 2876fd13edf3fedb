"""Plotly figure of a thread's parent-chained checkpoint graph.

A pure function `chain -> go.Figure` for the checkpoint explorer page; it
imports no Streamlit, so tests look inside the figure directly. Positions come
from `agents.chain_layout.layout_columns`: x is the step (pushed right so a
child is always right of its parent), y is the lane (0 = main line at the top,
each fork or orphan a branch below it).

What the figure shows:
    * one point per checkpoint; colour AND symbol encode the source, one
      legend entry per source present (colour-blind safe Okabe-Ito colours);
    * one line trace for all parent links (None-separated segments); a fork
      link runs diagonally from the parent's lane down to the branch lane;
    * a large black ring on the head, a hexagon ring on checkpoints waiting
      for a human, a halo behind the selected checkpoint;
    * writer nodes as text beside each point (only up to `TEXT_LABEL_LIMIT`
      points, because text is slow and unreadable beyond that) and in hover.

Every point trace (sources, head, waiting, selected) carries the full
checkpoint id as 1-D `customdata`, so a Streamlit `on_select` event maps back
with ``event.selection.points[i]["customdata"]``.

Subgraph namespaces: the chain is expected to be the root namespace only
(`checkpoint_ns == ''`, as `agents.readmodel.checkpoint_chain` returns it);
anything else is filtered out by `layout_chain`, never drawn.
"""

from __future__ import annotations

import functools
import html
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import plotly.graph_objects as go

from agents.chain_layout import ChainColumns, ChainPoint, layout_columns
from agents.errors import short_checkpoint_id

# Above this many points, text labels are left out: they cost render time and
# overlap into noise long before WebGL is needed.
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
}

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
    text = {**DEFAULT_LABELS, **(labels or {})}
    columns = layout_columns(chain)
    points = columns.points
    if not points:
        return _empty_figure(text["empty"])
    scatter = "scattergl" if len(points) > webgl_threshold else "scatter"
    drawn = _Drawn(
        x=np.array(columns.xs, dtype=np.int64),
        y=np.array(columns.lanes, dtype=np.int64),
        ids=np.array([p.checkpoint_id for p in points], dtype=object),
        hover=np.array(_hover_texts(columns, text), dtype=object),
    )
    traces = [_link_trace(columns, drawn, scatter, text["links"])]
    selected = [i for i, p in enumerate(points) if p.checkpoint_id == selected_id]
    if selected:
        # Drawn before the source markers so the halo sits behind the point.
        halo = {"size": 30, "color": "rgba(255, 200, 0, 0.55)", "symbol": "circle"}
        traces.append(_overlay_trace(selected, drawn, scatter, text["selected"], halo))
    traces += _source_traces(points, drawn, scatter)
    for name, wanted, marker in _ring_specs(text):
        ringed = [i for i, p in enumerate(points) if getattr(p, wanted)]
        if ringed:
            traces.append(_overlay_trace(ringed, drawn, scatter, name, marker))
    x_span = max(columns.xs) - min(columns.xs)
    return _figure_of(traces, _layout(max(columns.lanes) + 1, x_span, text))


#: Trace properties that hold one entry per point (or per link end).
_ARRAYS = ("x", "y", "customdata", "hovertext", "text")


def _figure_of(traces: list[dict[str, object]], layout: dict[str, object]) -> go.Figure:
    """The figure of trace dicts and a layout, its per-point arrays set on the figure's own traces.

    ``go.Figure(data=...)`` deep-copies every trace's properties, element by element
    for object arrays (ids, hover, the None-separated links); an array set on a trace
    of the figure afterwards is validated but not copied.
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
    y: np.ndarray
    ids: np.ndarray
    hover: np.ndarray


def _ring_specs(text: Mapping[str, str]) -> list[tuple[str, str, dict]]:
    """Legend name, checkpoint flag and marker of each ring overlay.

    Plotly strokes an `-open` symbol with `marker.color` (its `line.color` is
    ignored), so the ring colour goes there and `line.width` sets the stroke.
    """
    waiting = {"size": 21, "symbol": "hexagon-open", "color": "#D55E00"}
    head = {"size": 28, "symbol": "circle-open", "color": "#000000"}
    return [
        (text["waiting"], "is_waiting", {**waiting, "line": {"width": 3}}),
        (text["head"], "is_head", {**head, "line": {"width": 3}}),
    ]


def _hover_texts(columns: ChainColumns, text: Mapping[str, str]) -> list[str]:
    """Hover lines of every point; names are escaped, never read as HTML.

    One f-string per point from pieces made once: a long thread repeats the same
    few sources and (writers, next, lane) lines thousands of times.
    """
    step, writers, next_, lane = text["step"], text["writers"], text["next"], text["lane"]
    lane_names = [html.escape(_lane_label(n, text)) for n in range(max(columns.lanes) + 1)]
    sources: dict[str, str] = {}
    tails: dict[tuple[tuple[str, ...], tuple[str, ...], int], str] = {}
    orphans = set(columns.orphans)
    hover: list[str] = []
    append = hover.append
    for i, (point, lane_of) in enumerate(zip(columns.points, columns.lanes, strict=True)):
        source = sources.get(point.source)
        if source is None:
            source = sources[point.source] = html.escape(point.source)
        key = (point.writers, point.next, lane_of)
        tail = tails.get(key)
        if tail is None:
            tail = tails[key] = (
                f"<br>{writers}: {_names(point.writers)}<br>{next_}: {_names(point.next)}"
                f"<br>{lane}: {lane_names[lane_of]}"
            )
        short = short_checkpoint_id(point.checkpoint_id)
        if not short.isalnum():  # LangGraph's ids are hex; anything else is escaped
            short = html.escape(short)
        line = f"<b>{step} {point.step}</b> · {source}<br>id {short}{tail}"
        if point.is_waiting or point.is_head or i in orphans:
            flags = (text["waiting"], text["head"], text["orphan"])
            wanted = (point.is_waiting, point.is_head, i in orphans)
            line += "".join(f"<br>{flag}" for flag, on in zip(flags, wanted, strict=True) if on)
        append(line)
    return hover


@functools.lru_cache(maxsize=1024)
def _names(names: tuple[str, ...]) -> str:
    """Comma-joined node names, escaped; a hyphen when there are none.

    Cached: a long thread repeats the same few name tuples thousands of times.
    """
    return html.escape(", ".join(names)) if names else "-"


def _lane_label(lane: int, text: Mapping[str, str]) -> str:
    """Axis label of a lane: "main" for 0, "branch n" otherwise."""
    return text["main"] if lane == 0 else text["branch"].format(n=lane)


def _link_trace(columns: ChainColumns, drawn: _Drawn, scatter: str, name: str) -> dict[str, object]:
    """All parent links as one line trace, segments separated by None.

    One trace instead of one per edge keeps 10,000-checkpoint threads fast.
    """
    parents = np.array(columns.parents, dtype=np.int64)
    children = np.flatnonzero(parents >= 0)  # roots and orphans have no link to draw
    xs = np.full(3 * len(children), None, dtype=object)  # object dtype keeps the None gaps
    ys = np.full(3 * len(children), None, dtype=object)
    xs[0::3], xs[1::3] = drawn.x[parents[children]].tolist(), drawn.x[children].tolist()
    ys[0::3], ys[1::3] = drawn.y[parents[children]].tolist(), drawn.y[children].tolist()
    return {
        "type": scatter,
        "x": xs,
        "y": ys,
        "mode": "lines",
        "name": name,
        "line": {"color": "#9A9A9A", "width": 1.5},
        "hoverinfo": "skip",
        "showlegend": False,
    }


def _source_traces(points: Sequence[ChainPoint], drawn: _Drawn, scatter: str) -> list[dict[str, object]]:
    """One marker trace per source present, known sources first."""
    by_source: dict[str, list[int]] = {}
    for i, point in enumerate(points):
        rows = by_source.get(point.source)
        if rows is None:
            by_source[point.source] = [i]
        else:
            rows.append(i)
    known = [s for s in SOURCE_STYLES if s in by_source]
    unknown = sorted(s for s in by_source if s not in SOURCE_STYLES)
    with_text = len(points) <= TEXT_LABEL_LIMIT
    # Dense threads: smaller markers without the white outline, which would
    # otherwise paint the crowded main line white.
    size, outline = (12, 1) if with_text else (7, 0)
    traces = []
    for source in known + unknown:
        rows = by_source[source]
        color, symbol = SOURCE_STYLES.get(source, UNKNOWN_SOURCE_STYLE)
        marker = {"size": size, "color": color, "symbol": symbol, "line": {"width": outline, "color": "#FFFFFF"}}
        trace = _overlay_trace(rows, drawn, scatter, source, marker)
        trace["mode"] = "markers+text" if with_text else "markers"
        if with_text:
            trace["text"] = [_names(points[i].writers) if points[i].writers else "" for i in rows]
            trace["textposition"] = "top center"
        traces.append(trace)
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


def _layout(lane_count: int, x_span: int, text: Mapping[str, str]) -> dict[str, object]:
    """Axes, legend and interaction settings shared by every non-empty figure."""
    return dict(
        # Clicking a point selects it (Streamlit `on_select`); dragging pans,
        # because a long thread needs panning and a box selection would pick
        # many checkpoints where the explorer shows one.
        clickmode="event+select",
        dragmode="pan",
        hovermode="closest",
        height=min(900, 200 + 60 * lane_count),
        margin={"l": 10, "r": 10, "t": 40, "b": 40},
        xaxis={
            "title": {"text": text["step"]},
            "zeroline": False,
            # Steps are whole numbers; without this a short thread gets 0.5 ticks.
            "dtick": 1 if x_span <= SMALL_X_SPAN else None,
        },
        yaxis={
            "title": {"text": text["lane"]},
            "tickmode": "array",
            "tickvals": list(range(lane_count)),
            "ticktext": [_lane_label(lane, text) for lane in range(lane_count)],
            # Main line on top, branches below it, like a git log graph.
            "autorange": "reversed",
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
