"""Which writer labels the checkpoint graph draws, on which side of their points, and the x range it opens on.

Pure functions for :mod:`dashboard.checkpoint_figure`, reckoned in pixels of the narrowest the graph is drawn
(:data:`NARROW_PLOT_PX`). Plotly never measures text for us, so a label's width is estimated
(:func:`dashboard.text_fit.text_px`, which errs wide), as the timeline does for its step and tick labels.

A label sits above or below its point (Plotly's ``top center`` / ``bottom center``), beside the labels on the
same side of the same lane. Two of them must keep :data:`LABEL_GAP_PX` apart, and clear of a neighbour's ring
or halo and of the links between lanes, and a label keeps off the side of its point that a link leaves or
reaches it from; a label that cannot is left out, and the point's hover still names its writers. So along a
crowded lane the labels drawn alternate above and below, and where even that leaves no room, every other one
or fewer is drawn: never text printed over text. On a wider plot the same labels stand further apart.
"""

from __future__ import annotations

import bisect
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from dashboard.text_fit import text_px

#: The size of the writer labels' type. The figure sets it, so it stays 12 px in presenter mode too, where
#: Streamlit would draw a chart's text at 0.75rem of a 22 px root: labels placed for 12 px text would run
#: together at 16.5 px.
LABEL_FONT_PX = 12
#: The narrowest the graph's plot area is drawn: on a 1280 px page with the sidebar open, beside the legend's
#: longest entry ("waiting for a human", "checkpoints not drawn"), about 590 px; in presenter mode, whose
#: larger type widens the legend and the margins, about 475 px. Labels are placed, and the x range given room,
#: for a little less.
NARROW_PLOT_PX = 460
#: The height of one line of label text, and the least room in pixels kept between two labels (or a label and
#: a ring) side by side.
LABEL_LINE_PX = 16
LABEL_GAP_PX = 6
#: Room in pixels kept between the outermost points' halo or labels and the plot's edge.
EDGE_GAP_PX = 4

TOP, BOTTOM = "top center", "bottom center"


@dataclass(frozen=True, slots=True)
class XView:
    """The x range a figure opens on, and the pixels one step takes there on a plot `NARROW_PLOT_PX` wide.

    Attributes:
        range: The x axis range.
        unit_px: Pixels a step takes in that range at `NARROW_PLOT_PX`.
        steps: How many steps the range is opened on (for its ticks).
    """

    range: tuple[float, float]
    unit_px: float
    steps: float


def label_widths(labels: Sequence[str]) -> list[float]:
    """Each label's estimated width in pixels (:func:`dashboard.text_fit.text_px`); 0 for an empty one."""
    return [text_px(label, LABEL_FONT_PX) if label else 0.0 for label in labels]


def edge_room(xs: Sequence[int], widths: Sequence[float] | None, halo_px: float) -> tuple[float, float]:
    """Pixels kept left of the leftmost points and right of the rightmost: room for a halo ``halo_px``
    wide and for half of their labels' estimated ``widths`` (none: halos only), never over a quarter of the
    narrowest plot."""
    first, last = min(xs), max(xs)
    left = right = halo_px / 2
    if widths is not None:
        for x, width in zip(xs, widths, strict=True):
            if x == first:
                left = max(left, width / 2)
            if x == last:
                right = max(right, width / 2)
    most = NARROW_PLOT_PX / 4
    return min(left + EDGE_GAP_PX, most), min(right + EDGE_GAP_PX, most)


def x_view(xs: Sequence[int], at: int, view_steps: int | None, edges: tuple[float, float]) -> XView:
    """The x range the figure opens on: every step drawn, or, when they span more than ``view_steps``, a
    range ``view_steps`` wide around ``at``; with ``edges`` (left, right) pixels of room past the outermost
    points at `NARROW_PLOT_PX`, so a halo or label there is not cut off by the plot's edge."""
    first, last = min(xs), max(xs)
    steps = last - first
    left, right = edges
    if view_steps is not None and steps > view_steps:
        unit_px = NARROW_PLOT_PX / view_steps
        low, high = first - left / unit_px, last + right / unit_px
        start = min(max(at - view_steps / 2, low), high - view_steps)
        return XView((start, start + view_steps), unit_px, view_steps)
    unit_px = (NARROW_PLOT_PX - left - right) / max(steps, 1)
    low, high = first - left / unit_px, last + right / unit_px
    extra = (NARROW_PLOT_PX / unit_px - (high - low)) / 2  # a single step: centred in one step's width
    return XView((low - extra, high + extra), unit_px, steps)


#: Pixels the figure's frame takes off its height (margins, x axis title and tick labels), and the share of
#: the rows' span Plotly's autorange adds above and below them.
FRAME_PX = 130
AUTORANGE_PAD = 0.05
#: The width of a link's line, in pixels.
LINK_PX = 2


def row_pitch_px(lanes: int, height: float, ring_px: float) -> float:
    """About the least pixels between two neighbouring lanes' rows on a figure ``height`` pixels high whose
    largest marker is ``ring_px`` wide (infinite for one lane)."""
    if lanes < 2:
        return math.inf
    return (height - FRAME_PX - ring_px) / ((lanes - 1) * (1 + 2 * AUTORANGE_PAD))


@dataclass(frozen=True, slots=True)
class Obstacle:
    """Something a label must keep clear of: ``width`` pixels at step ``x``, over (``side`` `TOP`) or under
    (`BOTTOM`) row ``row``; ``owner``: the point whose own label may ignore it (-1: none)."""

    x: float
    row: int
    side: str
    width: float
    owner: int = -1


class _Slot:
    """The pixel spans taken on one side of one lane (or in one gap between two lanes), sorted by start."""

    __slots__ = ("ends", "owners", "starts", "widest")

    def __init__(self) -> None:
        self.starts: list[float] = []
        self.ends: list[float] = []
        self.owners: list[int] = []
        self.widest = 0.0

    def free(self, low: float, high: float, owner: int) -> bool:
        """Whether ``low``..``high`` keeps `LABEL_GAP_PX` clear of every span but ``owner``'s."""
        first = bisect.bisect_left(self.starts, low - LABEL_GAP_PX - self.widest)
        last = bisect.bisect_left(self.starts, high + LABEL_GAP_PX)
        return all(self.ends[k] + LABEL_GAP_PX <= low or self.owners[k] == owner for k in range(first, last))

    def take(self, low: float, high: float, owner: int) -> None:
        at = bisect.bisect_right(self.starts, low)
        self.starts.insert(at, low)
        self.ends.insert(at, high)
        self.owners.insert(at, owner)
        self.widest = max(self.widest, high - low)


def link_obstacles(
    xs: Sequence[int], rows: Sequence[int], links: Iterable[tuple[int, int]], unit_px: float, depth: float
) -> list[Obstacle]:
    """Where the links between lanes pass through the room over and under the rows they cross: a link from
    one row to another is a straight line, so over (under) each row it reaches (leaves) it takes the stretch
    of x it covers within ``depth`` rows of it. The stretches beside a link's own ends belong to those
    points (their labels keep off that side by choice, see `place_labels`)."""
    found = []
    for one, other in links:
        if rows[one] == rows[other]:
            continue
        upper, lower = (one, other) if rows[one] < rows[other] else (other, one)
        x0, row0, row1 = xs[upper], rows[upper], rows[lower]
        slope = (xs[lower] - x0) / (row1 - row0)  # steps along x a row down
        for row in range(row0, row1 + 1):
            for side, near in ((TOP, row - depth), (BOTTOM, row + depth)):
                if (side == TOP and row == row0) or (side == BOTTOM and row == row1):
                    continue
                owner = upper if row == row0 else lower if row == row1 else -1
                start, end = sorted((x0 + slope * (row - row0), x0 + slope * (near - row0)))
                found.append(Obstacle((start + end) / 2, row, side, (end - start) * unit_px + LINK_PX, owner))
    return found


def place_labels(
    xs: Sequence[int],
    rows: Sequence[int],
    widths: Sequence[float],
    unit_px: float,
    *,
    links: Sequence[tuple[int, int]] = (),
    row_px: float = math.inf,
    ring_px: float = 0.0,
    first: Iterable[int] = (),
    obstacles: Iterable[Obstacle] = (),
) -> list[str | None]:
    """Where each point's label goes: `TOP`, `BOTTOM`, or None (left out, or no label: width 0).

    Args:
        xs, rows: Each point's step and lane row (0 on top).
        widths: Each label's estimated width in pixels; 0 for a point without one.
        unit_px: Pixels a step takes.
        links: The (parent, child) pairs drawn as lines. A label keeps off the side of its point a link leaves
            or reaches it from (below, when both are), and clear of the links crossing other rows.
        row_px: Pixels between two neighbouring rows (`row_pitch_px`). When the rows stand closer than two
            labels' reach, a label under one row and one over the next share the gap between them.
        ring_px: The largest marker's width: a label stands up to half of it from its point.
        first: Points placed before the others, in this order (the selected one, the head): they keep their
            labels. The others follow along x, from the top row down.
        obstacles: More spans labels keep clear of (rings and halos of the points, other text).

    A point takes the first side, above before below, with room: a label on the same side of the same row
    (or in the same gap) that it would come nearer than `LABEL_GAP_PX` to, an obstacle or a link leave it no
    room there.
    """
    reach = ring_px / 2 + LABEL_LINE_PX
    apart = row_px >= 2 * reach
    slots: dict[tuple[int, int], _Slot] = {}

    def slot(row: int, side: str) -> _Slot:
        key = (row, 0 if side == TOP else 1) if apart else (row + (side == BOTTOM), 0)
        found = slots.get(key)
        if found is None:
            found = slots[key] = _Slot()
        return found

    above, below = [False] * len(xs), [False] * len(xs)
    for parent, child in links:
        if rows[parent] != rows[child]:
            down = rows[parent] < rows[child]
            (above if down else below)[child] = True  # the link reaches the child from the parent's side
            (below if down else above)[parent] = True
    depth = min(1.0, reach / row_px)
    for obstacle in [*obstacles, *link_obstacles(xs, rows, links, unit_px, depth)]:
        middle = obstacle.x * unit_px
        slot(obstacle.row, obstacle.side).take(middle - obstacle.width / 2, middle + obstacle.width / 2, obstacle.owner)
    positions: list[str | None] = [None] * len(xs)
    leading = list(dict.fromkeys(first))
    chosen = set(leading)
    rest = sorted((i for i in range(len(xs)) if i not in chosen), key=lambda i: (xs[i], rows[i]))
    for i in leading + rest:
        if widths[i] <= 0:
            continue
        sides = (
            (BOTTOM, TOP) if above[i] and below[i] else (BOTTOM,) if above[i] else (TOP,) if below[i] else (TOP, BOTTOM)
        )
        middle, half = xs[i] * unit_px, widths[i] / 2
        for side in sides:
            taken = slot(rows[i], side)
            if taken.free(middle - half, middle + half, i):
                taken.take(middle - half, middle + half, i)
                positions[i] = side
                break
    return positions
