"""Tests for the checkpoint graph figure (`dashboard.checkpoint_figure`)."""

from __future__ import annotations

import dataclasses
import gc
import math

import plotly.graph_objects as go

from agents.chain_layout import link_tree, window_columns
from dashboard import checkpoint_figure as figure_module
from dashboard.checkpoint_figure import TEXT_LABEL_LIMIT, checkpoint_figure, columns_figure
from tests.factories import Point, cid


def linear_chain(length: int) -> list[Point]:
    """Build a thread that simply ran: input at step -1, then a loop per step."""
    return [
        Point(
            cid(i),
            cid(i - 1) if i else None,
            step=i - 1,
            source="input" if i == 0 else "loop",
            writers=("propose",) if i else ("__start__",),
            next=("approval",),
            is_head=i == length - 1,
        )
        for i in range(length)
    ]


def update_fork_chain() -> list[Point]:
    """Build main 0..4, update_state on checkpoint 1 (id 5), a paused loop."""
    main = linear_chain(5)
    main[-1] = Point(cid(4), cid(3), step=3)
    update = Point(cid(5), cid(1), step=1, source="update", writers=("approval",))
    paused = Point(cid(6), cid(5), step=2, is_head=True, is_waiting=True)
    return [*main, update, paused]


def trace(figure: go.Figure, name: str) -> go.Scatter | go.Scattergl:
    """Return the one trace called `name`."""
    matches = [t for t in figure.data if t.name == name]
    assert len(matches) == 1, f"expected one {name!r} trace, got {len(matches)}"
    return matches[0]


def rows(ys) -> list:
    """The lane rows of drawn y values: row r is drawn at y = -r, so the main line (row 0) is on top."""
    return [-y for y in ys]


def link_segments(figure: go.Figure) -> list[tuple[tuple, tuple]]:
    """Read parent links as ((x0, row0), (x1, row1)) pairs from the link trace."""
    links = trace(figure, "parent link")
    xs, ys = list(links.x), rows(links.y)
    # Every third entry is the gap that ends a link: NaN, which Plotly draws as a break in the line.
    assert all(math.isnan(x) and math.isnan(y) for x, y in zip(xs[2::3], ys[2::3], strict=True))
    assert not any(math.isnan(v) for i, v in enumerate(xs + ys) if i % 3 != 2)
    return [((xs[i], ys[i]), (xs[i + 1], ys[i + 1])) for i in range(0, len(xs), 3)]


def point_traces(figure: go.Figure) -> list[go.Scatter | go.Scattergl]:
    """Every trace except the link lines."""
    return [t for t in figure.data if t.name != "parent link"]


def test_linear_chain_has_one_link_less_than_points() -> None:
    figure = checkpoint_figure(linear_chain(5))
    segments = link_segments(figure)
    assert len(segments) == 4
    assert all(start[1] == end[1] == 0 for start, end in segments)


def test_one_legend_entry_per_source_present() -> None:
    names = [t.name for t in checkpoint_figure(update_fork_chain()).data]
    assert {"input", "loop", "update"} <= set(names)
    assert "fork" not in names


def test_sources_differ_in_colour_and_symbol() -> None:
    figure = checkpoint_figure(update_fork_chain())
    markers = [trace(figure, name).marker for name in ("input", "loop", "update")]
    assert len({m.color for m in markers}) == 3
    assert len({m.symbol for m in markers}) == 3


def test_update_fork_draws_diagonal_link_into_lane_one() -> None:
    figure = checkpoint_figure(update_fork_chain())
    segments = link_segments(figure)
    assert len(segments) == 6
    assert ((0, 0), (1, 1)) in segments  # from checkpoint 1 (x 0, main) to the update
    assert list(figure.layout.yaxis.ticktext) == ["main", "branch 1"]
    assert list(figure.layout.yaxis.tickvals) == [0, -1]  # the main line on top
    assert figure.layout.yaxis.autorange != "reversed"  # Plotly 4 would draw WebGL links at the bottom


def test_head_and_waiting_rings_sit_on_the_newest_checkpoint() -> None:
    figure = checkpoint_figure(update_fork_chain())
    head = trace(figure, "head")
    waiting = trace(figure, "waiting for a human")
    assert (list(head.x), rows(head.y), list(head.customdata)) == ([2], [1], [cid(6)])
    assert (list(waiting.x), rows(waiting.y)) == ([2], [1])
    assert head.marker.symbol != waiting.marker.symbol


def test_rings_are_open_symbols_stroked_in_a_visible_colour() -> None:
    figure = checkpoint_figure(update_fork_chain())
    for name in ("head", "waiting for a human"):
        marker = trace(figure, name).marker
        # Plotly strokes open symbols with marker.color, so it must be opaque.
        assert marker.symbol.endswith("-open")
        assert marker.color.startswith("#") and marker.line.width >= 2


def test_no_waiting_entry_when_nothing_waits() -> None:
    names = [t.name for t in checkpoint_figure(linear_chain(3)).data]
    assert "waiting for a human" not in names
    assert "head" in names


def test_every_point_trace_carries_full_checkpoint_ids() -> None:
    chain = update_fork_chain()
    figure = checkpoint_figure(chain, selected_id=cid(2))
    seen = set()
    for point_trace in point_traces(figure):
        assert len(point_trace.customdata) == len(point_trace.x)
        seen.update(point_trace.customdata)
    assert seen == {p.checkpoint_id for p in chain}


def test_hover_gives_step_source_short_id_writers_and_next() -> None:
    figure = checkpoint_figure(linear_chain(3))
    loop = trace(figure, "loop")
    first = loop.hovertext[0]
    assert "step 0" in first and "loop" in first
    assert "id 0001abcd" in first
    assert "writers: propose" in first and "next: approval" in first


def test_node_names_are_escaped_not_rendered_as_html() -> None:
    chain = [Point(cid(0), None, step=0, writers=("<b>x</b>",), is_head=True)]
    loop = trace(checkpoint_figure(chain), "loop")
    assert "<b>x</b>" not in loop.hovertext[0]
    assert "&lt;b&gt;x&lt;/b&gt;" in loop.hovertext[0]
    assert trace(checkpoint_figure(chain), "writers").text[0] == "&lt;b&gt;x&lt;/b&gt;"


def test_small_chain_shows_writer_labels_large_chain_omits_them() -> None:
    small = trace(checkpoint_figure(linear_chain(3)), "writers")
    assert small.mode == "markers+text" and small.hoverinfo == "skip" and small.marker.opacity == 0
    assert list(small.text) == ["__start__", "propose", "propose"]
    large = checkpoint_figure(linear_chain(TEXT_LABEL_LIMIT + 1))
    assert "writers" not in [t.name for t in large.data]
    assert all(t.text is None for t in large.data)


def test_selected_checkpoint_is_highlighted() -> None:
    figure = checkpoint_figure(update_fork_chain(), selected_id=cid(5))
    selected = trace(figure, "selected")
    assert (list(selected.x), rows(selected.y)) == ([1], [1])
    assert list(selected.customdata) == [cid(5)]


def test_unknown_selected_id_adds_no_highlight() -> None:
    names = [t.name for t in checkpoint_figure(linear_chain(3), selected_id="gone").data]
    assert "selected" not in names


def test_webgl_used_only_above_threshold() -> None:
    chain = linear_chain(10)
    above = checkpoint_figure(chain, webgl_threshold=9)
    assert all(isinstance(t, go.Scattergl) for t in above.data)
    at = checkpoint_figure(chain, webgl_threshold=10)
    assert all(isinstance(t, go.Scatter) for t in at.data)


def test_layout_supports_point_selection() -> None:
    layout = checkpoint_figure(linear_chain(3)).layout
    assert layout.clickmode == "event+select"
    assert layout.dragmode == "pan"
    assert layout.xaxis.title.text == "step"
    assert layout.xaxis.dtick == 1  # whole steps, no 0.5 ticks on a short thread


def test_orphan_is_drawn_without_a_link_and_flagged_in_hover() -> None:
    chain = [p for p in linear_chain(5) if p.checkpoint_id != cid(2)]
    figure = checkpoint_figure(chain)
    assert len(link_segments(figure)) == 2
    orphan_hover = trace(figure, "loop").hovertext[1]
    assert "parent missing" in orphan_hover
    assert list(figure.layout.yaxis.ticktext) == ["main", "branch 1"]


def test_subgraph_checkpoints_are_not_drawn() -> None:
    chain = [
        *linear_chain(3),
        Point(cid(9), cid(1), step=1, checkpoint_ns="research:1"),
    ]
    figure = checkpoint_figure(chain)
    assert len(link_segments(figure)) == 2
    assert cid(9) not in {c for t in point_traces(figure) for c in t.customdata}


def test_labels_can_be_translated() -> None:
    labels = {"main": "메인", "branch": "분기 {n}", "head": "최신"}
    figure = checkpoint_figure(update_fork_chain(), labels=labels)
    assert list(figure.layout.yaxis.ticktext) == ["메인", "분기 1"]
    assert "최신" in [t.name for t in figure.data]


def test_the_lane_word_is_level_over_the_lane_names_not_a_sideways_axis_title() -> None:
    labels = {"main": "메인", "branch": "분기 {n}", "head": "최신", "lane": "레인"}
    figure = checkpoint_figure(update_fork_chain(), labels=labels)
    assert not figure.layout.yaxis.title.text  # an axis title is drawn turned by 90°: 레인 read sideways
    (lane,) = [a for a in figure.layout.annotations if a.text == "레인"]
    assert lane.textangle == 0 and (lane.xref, lane.yref) == ("paper", "paper")
    assert (lane.x, lane.y, lane.xanchor, lane.yanchor) == (0, 1, "right", "bottom")  # over the names, at the top


def test_empty_chain_gives_empty_figure_with_notice() -> None:
    figure = checkpoint_figure([])
    assert len(figure.data) == 0
    assert len(figure.layout.annotations) == 1
    assert "No checkpoints" in figure.layout.annotations[0].text


def test_ten_thousand_checkpoints_use_webgl_and_one_link_trace() -> None:
    figure = checkpoint_figure(linear_chain(10_000))
    links = trace(figure, "parent link")
    assert isinstance(links, go.Scattergl)
    assert len(links.x) == 3 * 9_999
    assert len(trace(figure, "loop").customdata) == 9_999


def test_the_figure_places_the_fork_labels_below_and_keeps_them_clear_of_the_rings():
    chain = update_fork_chain()
    chain[-1] = dataclasses.replace(chain[-1], writers=("approval",))  # the head, labelled
    figure = checkpoint_figure(chain, selected_id=cid(2))
    labels = trace(figure, "writers")
    by_id = dict(zip(labels.customdata, labels.textposition, strict=True))
    assert by_id[cid(5)] == "bottom center" and by_id[cid(1)] == "top center"
    sizes = dict(zip(labels.customdata, labels.marker.size, strict=True))
    assert sizes[cid(6)] == trace(figure, "head").marker.size
    assert sizes[cid(2)] == trace(figure, "selected").marker.size


def test_a_window_draws_its_lanes_only_and_dotted_links_over_what_it_leaves_out():
    main = [Point(cid(i), cid(i - 1) if i else None, step=i) for i in range(1_000)]
    first = Point(cid(1_000), cid(10), step=11, source="update")
    second = Point(cid(1_001), cid(600), step=601, source="fork")
    branch = [Point(cid(1_002 + i), cid(1_001 + i), step=602 + i, is_head=i == 9) for i in range(10)]
    points = [*main, first, second, *branch]
    tree = link_tree((p.checkpoint_id, p.parent_checkpoint_id) for p in points)
    rows = [0, 600, *range(1_001, 1_012)]  # root, the fork point and the second branch
    window = window_columns(tree, rows, [points[row] for row in rows])
    figure = columns_figure(window, selected_id=cid(1_011), view_steps=8)
    assert list(figure.layout.yaxis.ticktext) == ["main", "branch 2"]  # branch 1 is not drawn
    dotted = trace(figure, "checkpoints not drawn")
    assert dotted.line.dash == "dot" and list(dotted.x[:2]) == [0, 600]
    assert [t.text for t in figure.data if t.mode == "text"] == [("599 not drawn",)]
    assert len(link_segments(figure)) == 11  # the plain links: fork point -> branch, along the branch
    low, high = figure.layout.xaxis.range
    assert math.isclose(high - low, 8) and low <= 611 <= high  # opened around the selected checkpoint


def test_sources_in_the_legend_and_hover_are_translated():
    labels = {"source.loop": "루프", "source.input": "입력"}
    figure = checkpoint_figure(linear_chain(3), labels=labels)
    names = [t.name for t in figure.data]
    assert "루프" in names and "입력" in names and "loop" not in names
    assert "루프" in trace(figure, "루프").hovertext[0]


def test_the_figure_is_built_with_the_collector_paused_and_leaves_it_running(monkeypatch):
    seen = []
    original = figure_module.point_rows

    def watched(*args, **kwargs):
        seen.append(gc.isenabled())
        return original(*args, **kwargs)

    monkeypatch.setattr(figure_module, "point_rows", watched)
    figure = checkpoint_figure(linear_chain(5))
    assert seen == [False]  # the hover lines, one per point, are made with the collector paused
    assert len(figure.data[0].x) == 12  # four links of five points: two ends and a gap each
    assert gc.isenabled()


def test_a_label_of_several_writers_stays_short_and_the_hover_keeps_them_all() -> None:
    from dashboard.checkpoint_hover import label_text

    assert label_text(("research",) * 5) == "research ×5"  # never "research, research, …" into "write"
    assert label_text(("review_content", "review_time_allocation", "review_difficulty")) == "review ×3"
    assert label_text(("plan", "write")) == "plan +1"
    assert label_text(("write",)) == "write" and label_text(()) == ""
    assert label_text(("<b>",)) == "&lt;b&gt;"  # escaped, as the hover is
