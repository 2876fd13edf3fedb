"""Plotly figure of a thread's parent-chained checkpoint graph.

A pure function `chain -> go.Figure` for the checkpoint explorer page; it
imports no Streamlit, so tests look inside the figure directly. Positions come
from `agents.chain_layout.layout_chain`: x is the step (pushed right so a
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

import numpy as np
import plotly.graph_objects as go

from agents.chain_layout import (
    ChainPoint,
    LaidOutCheckpoint,
    layout_chain,
)
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

ScatterType = type[go.Scatter] | type[go.Scattergl]


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
    points = layout_chain(chain)
    if not points:
        return _empty_figure(text["empty"])
    scatter: ScatterType = go.Scattergl if len(points) > webgl_threshold else go.Scatter
    hover = {p.checkpoint.checkpoint_id: _hover_text(p, text) for p in points}
    traces = [_link_trace(points, scatter, text["links"])]
    selected = [p for p in points if p.checkpoint.checkpoint_id == selected_id]
    if selected:
        # Drawn before the source markers so the halo sits behind the point.
        halo = {"size": 30, "color": "rgba(255, 200, 0, 0.55)", "symbol": "circle"}
        traces.append(_overlay_trace(selected, scatter, text["selected"], halo, hover))
    traces += _source_traces(points, scatter, hover)
    for name, wanted, marker in _ring_specs(text):
        ringed = [p for p in points if getattr(p.checkpoint, wanted)]
        if ringed:
            traces.append(_overlay_trace(ringed, scatter, name, marker, hover))
    # One Figure(data=...) call: add_trace would copy every trace's arrays again.
    figure = go.Figure(data=traces)
    x_span = max(p.x for p in points) - min(p.x for p in points)
    _apply_layout(figure, max(p.lane for p in points) + 1, x_span, text)
    return figure


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


def _hover_text(laid: LaidOutCheckpoint, text: Mapping[str, str]) -> str:
    """Hover lines of one checkpoint; names are escaped, never read as HTML."""
    point = laid.checkpoint
    lines = [
        f"<b>{text['step']} {point.step}</b> · {html.escape(point.source)}",
        f"id {html.escape(short_checkpoint_id(point.checkpoint_id))}",
        f"{text['writers']}: {_names(point.writers)}",
        f"{text['next']}: {_names(point.next)}",
        f"{text['lane']}: {html.escape(_lane_label(laid.lane, text))}",
    ]
    if point.is_waiting:
        lines.append(text["waiting"])
    if point.is_head:
        lines.append(text["head"])
    if laid.is_orphan:
        lines.append(text["orphan"])
    return "<br>".join(lines)


@functools.lru_cache(maxsize=1024)
def _names(names: tuple[str, ...]) -> str:
    """Comma-joined node names, escaped; a hyphen when there are none.

    Cached: a long thread repeats the same few name tuples thousands of times.
    """
    return html.escape(", ".join(names)) if names else "-"


def _lane_label(lane: int, text: Mapping[str, str]) -> str:
    """Axis label of a lane: "main" for 0, "branch n" otherwise."""
    return text["main"] if lane == 0 else text["branch"].format(n=lane)


def _link_trace(points: Sequence[LaidOutCheckpoint], scatter: ScatterType, name: str) -> go.Scatter | go.Scattergl:
    """All parent links as one line trace, segments separated by None.

    One trace instead of one per edge keeps 10,000-checkpoint threads fast.
    """
    position = {p.checkpoint.checkpoint_id: (p.x, p.lane) for p in points}
    xs: list[int | None] = []
    ys: list[int | None] = []
    for point in points:
        parent = position.get(point.checkpoint.parent_checkpoint_id or "")
        if parent is None:
            continue  # roots and orphans have no link to draw
        xs.extend((parent[0], point.x, None))
        ys.extend((parent[1], point.lane, None))
    return scatter(
        x=np.array(xs, dtype=object),  # object dtype keeps the None gaps
        y=np.array(ys, dtype=object),
        mode="lines",
        name=name,
        line={"color": "#9A9A9A", "width": 1.5},
        hoverinfo="skip",
        showlegend=False,
    )


def _source_traces(
    points: Sequence[LaidOutCheckpoint], scatter: ScatterType, hover: Mapping[str, str]
) -> list[go.Scatter | go.Scattergl]:
    """One marker trace per source present, known sources first."""
    by_source: dict[str, list[LaidOutCheckpoint]] = {}
    for point in points:
        by_source.setdefault(point.checkpoint.source, []).append(point)
    known = [s for s in SOURCE_STYLES if s in by_source]
    unknown = sorted(s for s in by_source if s not in SOURCE_STYLES)
    with_text = len(points) <= TEXT_LABEL_LIMIT
    # Dense threads: smaller markers without the white outline, which would
    # otherwise paint the crowded main line white.
    size, outline = (12, 1) if with_text else (7, 0)
    traces = []
    for source in known + unknown:
        group = by_source[source]
        color, symbol = SOURCE_STYLES.get(source, UNKNOWN_SOURCE_STYLE)
        traces.append(
            scatter(
                **_point_columns(group, hover),
                mode="markers+text" if with_text else "markers",
                name=source,
                marker={
                    "size": size,
                    "color": color,
                    "symbol": symbol,
                    "line": {"width": outline, "color": "#FFFFFF"},
                },
                text=[_names(p.checkpoint.writers) if p.checkpoint.writers else "" for p in group]
                if with_text
                else None,
                textposition="top center",
            )
        )
    return traces


def _overlay_trace(
    points: Sequence[LaidOutCheckpoint],
    scatter: ScatterType,
    name: str,
    marker: dict,
    hover: Mapping[str, str],
) -> go.Scatter | go.Scattergl:
    """Markers drawn on top of (or behind) existing points, clickable too."""
    return scatter(**_point_columns(points, hover), mode="markers", name=name, marker=marker)


def _point_columns(points: Sequence[LaidOutCheckpoint], hover: Mapping[str, str]) -> dict[str, object]:
    """Position, full-id customdata and hover of points, as trace arguments.

    NumPy arrays rather than lists, because Plotly validates a list element by
    element, which made a 10,000-point figure several times slower.
    """
    return {
        "x": np.fromiter((p.x for p in points), dtype=np.int64, count=len(points)),
        "y": np.fromiter((p.lane for p in points), dtype=np.int64, count=len(points)),
        "customdata": np.array([p.checkpoint.checkpoint_id for p in points], dtype=object),
        "hovertext": np.array([hover[p.checkpoint.checkpoint_id] for p in points], dtype=object),
        "hovertemplate": "%{hovertext}<extra></extra>",
    }


def _apply_layout(figure: go.Figure, lane_count: int, x_span: int, text: Mapping[str, str]) -> None:
    """Axes, legend and interaction settings shared by every non-empty figure."""
    figure.update_layout(
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
