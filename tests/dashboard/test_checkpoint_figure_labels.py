"""The checkpoint graph's writer labels, measured as the narrowest plot draws them: no label prints over
another or over a link of its own point, the halo and the labels at the ends are not cut off by the plot's
edge (`dashboard.checkpoint_figure`, `dashboard.checkpoint_labels`).

Widths are the project's estimates (`dashboard.text_fit.text_px`, which err wide), at
`NARROW_PLOT_PX`: about the plot's width on a 1280 px page in presenter mode, its narrowest.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import plotly.graph_objects as go

from agents.chain_layout import layout_columns
from dashboard.checkpoint_figure import HALO_SIZE, VIEW_STEPS, checkpoint_figure, columns_figure
from dashboard.checkpoint_labels import (
    BOTTOM,
    LABEL_FONT_PX,
    LABEL_LINE_PX,
    NARROW_PLOT_PX,
    TOP,
    Obstacle,
    place_labels,
    row_pitch_px,
)
from dashboard.text_fit import text_px
from tests.factories import Point, cid

#: How far apart two lanes' rows are drawn in these tests' reckoning, in pixels (they have one or few lanes).
ROW_PX = 100


def robot_thread(updates: int) -> list[Point]:
    """A robot thread edited ``updates`` times at its head, as the tester's 263-checkpoint thread: every other
    update written as ``approval`` (labelled), the ones between as ``propose`` with no writer to show."""
    points = [Point(cid(0), None, step=-1, source="input", writers=("__start__",))]
    points.append(Point(cid(1), cid(0), step=0, writers=("propose",)))
    for n in range(updates):
        i = n + 2
        writers = ("approval",) if n % 2 == 0 else ()
        points.append(Point(cid(i), cid(i - 1), step=i - 1, source="update", writers=writers))
    points[-1] = Point(cid(len(points) - 1), cid(len(points) - 2), step=len(points) - 2, is_head=True)
    return points


def lecture_thread() -> list[Point]:
    """A lecture reworked from two of its checkpoints: the main line and two branches forked at odd steps."""
    names = ["__start__", "validate", "plan", "research", "write", "review ×3", "gate", "decide", "write"]
    names += ["review ×3", "gate", "save"]
    main = [
        Point(cid(i), cid(i - 1) if i else None, step=i - 1, writers=(name,), is_head=i == len(names) - 1)
        for i, name in enumerate(names)
    ]
    first = [Point(cid(20), cid(4), step=4, source="fork", writers=("write",))]  # forked from "write" (x 3)
    first += [Point(cid(21 + k), cid(20 + k), step=5 + k, writers=(name,)) for k, name in enumerate(names[5:8])]
    second = [Point(cid(30), cid(6), step=6, source="fork", writers=("decide",))]  # forked from "gate" (x 5)
    second += [Point(cid(31), cid(30), step=7, writers=("write",))]
    return [*main, *first, *second]


@dataclass(frozen=True)
class Box:
    """A label's box in pixels at `NARROW_PLOT_PX`: x to the right, y downwards from the top row."""

    text: str
    left: float
    right: float
    top: float
    bottom: float


def trace(figure: go.Figure, name: str) -> go.Scatter:
    (found,) = [t for t in figure.data if t.name == name]
    return found


def unit_px(figure: go.Figure) -> float:
    low, high = figure.layout.xaxis.range
    return NARROW_PLOT_PX / (high - low)


def label_boxes(figure: go.Figure) -> list[Box]:
    """Every writer label's box, as Plotly places it: centred on its point, above or below the point's
    marker (the label trace's, sized as the largest marker on the point)."""
    labels = trace(figure, "writers")
    unit = unit_px(figure)
    boxes = []
    for x, y, text, side, size in zip(
        labels.x, labels.y, labels.text, labels.textposition, labels.marker.size, strict=True
    ):
        middle, row, width = x * unit, -y * ROW_PX, text_px(text, LABEL_FONT_PX)
        top = row - size / 2 - LABEL_LINE_PX if side == TOP else row + size / 2
        boxes.append(Box(text, middle - width / 2, middle + width / 2, top, top + LABEL_LINE_PX))
    return boxes


def in_view(figure: go.Figure, boxes: list[Box]) -> list[Box]:
    """The boxes the plot opens on shows (a label past its edges shows when panned to)."""
    low, high = figure.layout.xaxis.range
    unit = unit_px(figure)
    return [box for box in boxes if box.right > low * unit and box.left < high * unit]


def overlapping(boxes: list[Box]) -> list[tuple[Box, Box]]:
    return [
        (one, other)
        for index, one in enumerate(boxes)
        for other in boxes[index + 1 :]
        if min(one.right, other.right) > max(one.left, other.left)
        and min(one.bottom, other.bottom) > max(one.top, other.top)
    ]


def test_a_long_threads_labels_in_the_window_never_print_over_each_other():
    chain = robot_thread(261)
    figure = columns_figure(layout_columns(chain), selected_id=cid(262), view_steps=VIEW_STEPS)
    boxes = label_boxes(figure)
    assert overlapping(boxes) == []
    shown = in_view(figure, boxes)
    assert len(shown) >= 6, shown  # labels are drawn where they have room: neither all nor none
    assert {TOP, BOTTOM} <= set(trace(figure, "writers").textposition)  # both sides of the crowded lane


def test_a_long_thread_drawn_whole_keeps_a_few_labels_apart_and_leaves_out_the_rest():
    chain = robot_thread(261)
    figure = checkpoint_figure(chain, selected_id=cid(262))
    boxes = label_boxes(figure)
    assert overlapping(boxes) == []
    assert 4 <= len(boxes) < 40  # 263 checkpoints in a few hundred pixels: most labels left out
    loop = trace(figure, "update")
    left_out = set(loop.customdata) - set(trace(figure, "writers").customdata)
    hover = dict(zip(loop.customdata, loop.hovertext, strict=True))
    assert any("writers: approval" in hover[checkpoint] for checkpoint in left_out)  # the hover names them


def test_labels_narrower_than_a_step_all_stay_above_their_points_in_the_size_they_were_placed_for():
    chain = [Point(cid(i), cid(i - 1) if i else None, step=i, writers=("ask",), is_head=i == 5) for i in range(6)]
    labels = trace(checkpoint_figure(chain), "writers")
    assert list(labels.textposition) == [TOP] * 6
    # Set on the trace: Streamlit's theme would draw chart text at 0.75rem, 16.5 px in presenter mode.
    assert labels.textfont.size == LABEL_FONT_PX


def crossed(figure: go.Figure, boxes: list[Box]) -> list[tuple[str, tuple[float, float]]]:
    """The labels a link's line passes through, and where: each link from the link trace, a straight line
    between its ends in the same pixels as the boxes (a pixel's rounding is no crossing)."""
    links, unit = trace(figure, "parent link"), unit_px(figure)
    found = []
    for k in range(0, len(links.x), 3):
        (x0, x1), (y0, y1) = (
            (links.x[k] * unit, links.x[k + 1] * unit),
            (-links.y[k] * ROW_PX, -links.y[k + 1] * ROW_PX),
        )
        for box in boxes:
            top, bottom = box.top + 1, box.bottom - 1
            if y0 == y1 or max(y0, y1) <= top or min(y0, y1) >= bottom:
                continue  # a link along a lane runs between the labels over and under it
            ends = [x0 + (x1 - x0) * (min(max(y, min(y0, y1)), max(y0, y1)) - y0) / (y1 - y0) for y in (top, bottom)]
            if min(ends) < box.right - 1 and max(ends) > box.left + 1:
                found.append((box.text, (box.left, box.top)))
    return found


def test_no_fork_link_crosses_a_label():
    figure = checkpoint_figure(lecture_thread())
    labels = trace(figure, "writers")
    side = dict(zip(labels.customdata, labels.textposition, strict=True))
    # The forks' parents ("write" at x 3, "gate" at x 5) send a link down: their labels go above, or none.
    assert side.get(cid(4), TOP) == TOP and side.get(cid(6), TOP) == TOP
    assert side[cid(20)] == BOTTOM and side[cid(30)] == BOTTOM  # a branch's first point: its link comes from above
    boxes = label_boxes(figure)
    assert overlapping(boxes) == [] and crossed(figure, boxes) == []


def test_the_plot_leaves_room_at_its_edges_for_the_halo_and_the_end_labels():
    chain = robot_thread(261)
    window = columns_figure(layout_columns(chain), selected_id=cid(262), view_steps=VIEW_STEPS)
    low, high = window.layout.xaxis.range
    assert (high - 261) * unit_px(window) >= HALO_SIZE / 2  # the head's halo and ring, whole
    whole = checkpoint_figure(robot_thread(20), selected_id=cid(21))
    low, high = whole.layout.xaxis.range
    unit = unit_px(whole)
    assert (high - 20) * unit >= HALO_SIZE / 2
    assert (-1 - low) * unit >= text_px("__start__", LABEL_FONT_PX) / 2  # the first label, whole
    assert all(low * unit <= box.left and box.right <= high * unit for box in label_boxes(whole))


def test_a_short_thread_opens_on_all_of_it_with_whole_steps():
    figure = checkpoint_figure([Point(cid(0), None, step=-1, writers=("__start__",), is_head=True)])
    low, high = figure.layout.xaxis.range
    assert low < -1 < high and math.isclose(low + high, -2)  # one point, in the middle
    assert figure.layout.xaxis.dtick == 1


def test_place_labels_alternates_only_among_the_labels_drawn():
    xs, rows = list(range(8)), [0] * 8
    # One label a step apart at 40 px a step: 30 px fit side by side, 60 px alternate, 100 px leave some out.
    assert place_labels(xs, rows, [30] * 8, 40) == [TOP] * 8
    assert place_labels(xs, rows, [60] * 8, 40) == [TOP, BOTTOM] * 4
    assert place_labels(xs, rows, [100] * 8, 40) == [TOP, BOTTOM, None, TOP, BOTTOM, None, TOP, BOTTOM]
    # Every other point labelled (the others have none): the labels drawn still alternate.
    widths = [60, 0] * 4
    assert place_labels(xs, rows, widths, 20) == [TOP, None, BOTTOM, None, TOP, None, BOTTOM, None]


def test_place_labels_keeps_off_the_side_a_link_leaves_or_reaches_its_point_from():
    # The middle point of a lane sends a link down to the next lane: above or nothing.
    down = place_labels([0, 1, 2, 2], [0, 0, 0, 1], [60, 60, 60, 0], 40, links=[(1, 3)], row_px=100)
    assert down == [TOP, None, TOP, None]
    # A link reaches the middle point from the lane above: below.
    up = place_labels([0, 1, 2, 0], [1, 1, 1, 0], [60, 60, 60, 0], 60, links=[(3, 1)], row_px=100)
    assert up == [TOP, BOTTOM, TOP, None]
    # Reached from above and leaving below: below, as a branch's first point's label always went.
    both = place_labels([0, 1, 2], [0, 1, 2], [0, 30, 0], 40, links=[(0, 1), (1, 2)], row_px=100)
    assert both == [None, BOTTOM, None]


def test_place_labels_keeps_clear_of_a_link_crossing_the_lane():
    # A fork link from row 0 to row 4 crosses row 2 at x 1, right where that point's label would stand.
    xs, rows, widths = [0, 2, 1], [0, 4, 2], [0, 0, 30]
    assert place_labels(xs, rows, widths, 40, row_px=100) == [None, None, TOP]
    assert place_labels(xs, rows, widths, 40, links=[(0, 1)], row_px=100) == [None, None, None]


def test_place_labels_places_the_first_points_first_and_keeps_clear_of_obstacles():
    xs, rows = [0, 1, 2], [0, 0, 0]
    assert place_labels(xs, rows, [100] * 3, 40) == [TOP, BOTTOM, None]
    assert place_labels(xs, rows, [100] * 3, 40, first=[2]) == [BOTTOM, None, TOP]  # the head keeps its own
    ring = [Obstacle(1, 0, side, 31, owner=1) for side in (TOP, BOTTOM)]  # a head's ring at x 1
    assert place_labels(xs, rows, [40] * 3, 40, obstacles=ring) == [None, TOP, None]


def test_neighbouring_lanes_share_the_gap_between_them_only_when_they_stand_close():
    # A label under row 1 (its point's link comes from above) and one over row 2 a step on.
    case = ([-1, 0, 1], [0, 1, 2], [0, 90, 90], 40)
    assert place_labels(*case, links=[(0, 1)], row_px=30) == [None, BOTTOM, BOTTOM]  # one gap: kept apart
    assert place_labels(*case, links=[(0, 1)], row_px=100) == [None, BOTTOM, TOP]
    assert row_pitch_px(1, 290, HALO_SIZE) == math.inf
    assert row_pitch_px(3, 430, HALO_SIZE) > 2 * (HALO_SIZE / 2 + LABEL_LINE_PX) > row_pitch_px(20, 900, HALO_SIZE)
