"""Background bands and their labels on the node-call timeline: supersteps and compressed waits.

Pure functions ``statistics + axis -> Plotly layout shapes and annotations``
(plain dicts), used by :mod:`dashboard.timeline_figure`. The number of step
bands (``MAX_STEP_BANDS``) and of wait bands (``MAX_WAIT_BANDS``) is bounded,
so a run of ten thousand supersteps, or a thread of five thousand runs with a
wait before each, does not put ten thousand shapes in the figure's layout:
every shape is a separate object the browser lays out and Plotly validates,
and their JSON alone ran to megabytes. A panel therefore carries at most
``MAX_STEP_BANDS + MAX_WAIT_BANDS`` shapes and as many annotations.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any, TypeVar

from agents.durations import format_duration
from agents.timing import SuperstepStats
from dashboard import text_fit
from dashboard.i18n import t
from dashboard.timeline_axis import AxisSegment, TimeAxis

STEP_BAND_COLOR = "rgba(99, 110, 250, 0.07)"
STEP_LINE_COLOR = "rgba(0, 0, 0, 0.12)"
#: Supersteps narrower than this share of the axis get no "step N" label.
MIN_LABELLED_STEP = 0.03
#: The "step N" labels' font size, and the room in pixels kept between two neighbouring labels.
STEP_LABEL_FONT = 10
STEP_LABEL_GAP_PX = 4
#: At most this many step bands (shapes) per panel; above it neighbouring supersteps share a band.
MAX_STEP_BANDS = 200
WAIT_BAND_COLOR = "rgba(127, 127, 127, 0.18)"
#: At most this many wait bands (shapes) per panel; above it neighbouring compressed waits share a band.
MAX_WAIT_BANDS = 200

#: The catalogue key of a compressed wait's label, by its kind (``dashboard.timeline_axis.AxisSegment.kind``).
WAIT_LABELS = {"human wait": "timeline.wait.human_wait", "idle": "timeline.wait.idle"}

Item = TypeVar("Item")


def full_height(kind: str, xref: str, x0: float, x1: float, **style: Any) -> dict[str, Any]:
    """A rect or vertical line spanning the plot height behind the bars."""
    position = {"xref": xref, "yref": "paper", "x0": x0, "x1": x1, "y0": 0, "y1": 1}
    return {"type": kind, **position, "layer": "below", **style}


def note(text: str, xref: str, x: float, y: float, **style: Any) -> dict[str, Any]:
    """A text annotation at data x / paper y."""
    return {
        "text": text,
        "xref": xref,
        "yref": "paper",
        "x": x,
        "y": y,
        "showarrow": False,
        **style,
    }


def neighbour_groups(items: Sequence[Item], cap: int) -> list[Sequence[Item]]:
    """``items`` cut into runs of ``ceil(len / cap)`` neighbours: at most ``cap`` groups, in order.

    Up to ``cap`` items every group holds one item, so a bounded figure draws
    exactly what an unbounded one would.
    """
    per_band = max(1, math.ceil(len(items) / cap))
    return [items[index : index + per_band] for index in range(0, len(items), per_band)]


def _step_groups(supersteps: Sequence[SuperstepStats]) -> list[Sequence[SuperstepStats]]:
    """Consecutive supersteps (in first-start order) that share one band: at most ``MAX_STEP_BANDS`` groups."""
    return neighbour_groups(supersteps, MAX_STEP_BANDS)


def _band_label(group: Sequence[SuperstepStats]) -> str:
    first, last = group[0], group[-1]
    if len(group) == 1:
        return t("timeline.step_band", step=first.step)
    return t("timeline.steps_band", first=first.step, last=last.step)


def duration_text(seconds: float) -> str:
    """``850 ms``, ``4.2 s``, ``12 min 3 s`` (``12분 3초``), ``2 h 5 min`` (``2시간 5분``) in the session's language."""
    if seconds < 59.95:  # ms and s read the same in both languages
        return format_duration(seconds)
    whole = round(seconds)
    if whole < 3600:
        return t("timeline.minutes", minutes=whole // 60, seconds=whole % 60)
    return t("timeline.hours", hours=whole // 3600, minutes=whole % 3600 // 60)


def step_decorations(
    supersteps: Sequence[SuperstepStats], axis: TimeAxis, xref: str, *, unit_px: float | None = None
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Alternating background bands and a "step N" label per (run, step), at most ``MAX_STEP_BANDS``.

    The rule: with ``n`` supersteps (in first-start order), every band covers
    ``ceil(n / MAX_STEP_BANDS)`` consecutive ones, from the first one's start
    to the latest end among them. Up to ``MAX_STEP_BANDS`` supersteps that is
    one band per superstep; above it a band covers a few neighbours and its
    label reads "steps 12–17". Every other band is shaded, the ones between are
    marked by a thin line at their start, so neighbours stay distinct.

    Labels of bands narrower than ``MIN_LABELLED_STEP`` of the axis are left
    out (they would print over each other); the hover still names the step.
    With ``unit_px`` (the pixels one x unit takes on the panel, at the
    narrowest it is drawn), so is a label whose estimated width
    (:func:`dashboard.text_fit.text_px`) would reach within ``STEP_LABEL_GAP_PX`` of the label
    kept before it: two short steps side by side keep the first one's label.
    ``xref`` is the panel's x axis (``x`` or ``x2``). Returns ``(shapes, annotations)``.
    """
    shapes, annotations = [], []
    last_end = -math.inf  # where the label kept last ends, in x units
    for index, group in enumerate(_step_groups(supersteps)):
        x0 = axis.to_display(group[0].started_at)
        x1 = axis.to_display(max(stats.ended_at for stats in group))
        if index % 2 == 0:  # shade every other band so neighbours stay distinct
            band = full_height("rect", xref, x0, x1, fillcolor=STEP_BAND_COLOR)
            shapes.append({**band, "line": {"width": 0}})
        else:
            line = {"width": 1, "color": STEP_LINE_COLOR}
            shapes.append(full_height("line", xref, x0, x0, line=line))
        if x1 - x0 < MIN_LABELLED_STEP * axis.span:
            continue
        text, middle = _band_label(group), (x0 + x1) / 2
        if unit_px is not None:
            half = (text_fit.text_px(text, STEP_LABEL_FONT) + STEP_LABEL_GAP_PX) / 2 / unit_px
            if middle - half < last_end:
                continue
            last_end = middle + half
        label = note(text, xref, middle, 1.0, font={"size": STEP_LABEL_FONT, "color": "#555"})
        annotations.append({**label, "yanchor": "bottom"})
    return shapes, annotations


def _wait_label(group: Sequence[AxisSegment]) -> str:
    """``human wait 12 min 3 s`` for one wait; ``25 waits, 5 h 3 min in all`` for a merged band."""
    waited = sum(wait.real_end - wait.real_start for wait in group)
    if len(group) == 1:
        return t(WAIT_LABELS[group[0].kind], duration=duration_text(waited))
    return t("timeline.waits_band", count=len(group), total=duration_text(waited))


def wait_decorations(axis: TimeAxis, xref: str) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """A dashed band and its label per compressed wait, at most ``MAX_WAIT_BANDS`` of each.

    The rule, as for step bands: with ``n`` compressed waits (in time order),
    every band covers ``ceil(n / MAX_WAIT_BANDS)`` consecutive ones, from the
    first one's start to the last one's end on the x axis. Up to
    ``MAX_WAIT_BANDS`` waits that is one band per wait, labelled with its kind
    and real length ("human wait 12 min 3 s"); above it a band also spans the
    runs between its waits and its label gives their number and summed real
    length ("25 waits, 5 h 3 min in all"), so no waiting time goes unreported.
    ``xref`` is the panel's x axis (``x`` or ``x2``). Returns ``(shapes, annotations)``.
    """
    shapes, annotations = [], []
    for group in neighbour_groups(axis.waits, MAX_WAIT_BANDS):
        x0, x1 = group[0].display_start, group[-1].display_end
        line = {"width": 1, "dash": "dash", "color": "#888"}
        shapes.append(full_height("rect", xref, x0, x1, fillcolor=WAIT_BAND_COLOR, line=line))
        # Vertical text fits the narrow band; the white box keeps it readable.
        style = {"textangle": -90, "bgcolor": "rgba(255,255,255,0.8)"}
        font = {"size": 11, "color": "#444"}
        annotations.append(note(_wait_label(group), xref, (x0 + x1) / 2, 0.5, font=font, **style))
    return shapes, annotations
