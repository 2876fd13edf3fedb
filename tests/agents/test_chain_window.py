"""Tests for the window of a long thread (`agents.chain_layout.link_tree`, `window_rows`, `window_columns`)
and the window's read (`agents.readmodel.chain_links`, `chain_points`)."""

from __future__ import annotations

import pytest

from agents import readmodel, runs
from agents.chain_layout import WINDOW_LANDMARKS, layout_columns, link_tree, window_columns, window_rows
from benchmarks._data import build_proposal_thread
from tests.factories import Point, cid, start_refund


def linear(length: int, start: int = 0, parent: int | None = None, step: int = 0) -> list[Point]:
    """``length`` checkpoints ``cid(start)``... in a line, the first a child of ``cid(parent)``."""
    return [
        Point(cid(start + i), cid(start + i - 1) if i else (None if parent is None else cid(parent)), step=step + i)
        for i in range(length)
    ]


def forked(main: int = 1000, at: int = 500, branch: int = 50) -> list[Point]:
    """A main line of ``main`` checkpoints and a branch of ``branch`` forked from checkpoint ``at``."""
    return [*linear(main), *linear(branch, start=main, parent=at, step=at + 1)]


def tree_of(points: list[Point]):
    return link_tree((p.checkpoint_id, p.parent_checkpoint_id) for p in points)


def test_the_tree_of_links_has_the_lanes_of_the_whole_chain_and_the_depth_as_x():
    points = forked()
    tree, full = tree_of(points), layout_columns(points)
    assert tree.lanes == full.lanes and tree.parents == full.parents and tree.children == full.children
    assert tree.xs == [p.step for p in points]  # depth = step on a chain LangGraph wrote


def test_a_short_thread_is_drawn_whole():
    tree = tree_of(linear(50))
    assert window_rows(tree, 10, size=50) == list(range(50))


def test_the_window_is_the_nearest_checkpoints_along_the_links_and_bounded():
    tree = tree_of(linear(10_000))
    rows = window_rows(tree, 5_000, size=200, keep=[9_999])
    assert 5_000 in rows and 9_999 in rows and 0 in rows  # centre, head, the oldest root
    assert set(range(4_901, 5_100)) <= set(rows)  # both directions along the line
    assert len(rows) == 200 + 2 and rows == sorted(rows)


def test_the_window_at_the_head_follows_the_parents():
    tree = tree_of(linear(1_000))
    rows = window_rows(tree, 999, size=100)
    assert rows == [0, *range(900, 1_000)]


def test_the_window_at_a_fork_point_spreads_along_both_children():
    points = forked()
    tree = tree_of(points)
    rows = set(window_rows(tree, 500, size=31))
    branch = {1_000 + i for i in range(10)}
    assert branch <= rows and {501, 510} <= rows and 490 in rows


def test_far_fork_points_are_kept_as_landmarks_nearest_first_up_to_a_bound():
    points = linear(10_000)
    for n in range(100):  # a one-checkpoint branch every 100 checkpoints
        points.append(Point(cid(10_000 + n), cid(n * 100), step=n * 100 + 1))
    tree = tree_of(points)
    head = len(points) - 1
    rows = window_rows(tree, 9_999, size=200, keep=[head])
    forks = sorted(row for row in rows if tree.children[row] > 1 and row > 0)
    assert forks == list(range(forks[0], 9_901, 100))  # the nearest ones, none skipped
    # 9,900 is among the 200 nearest (its branch is the head), the others are landmarks: bounded.
    assert len(forks) == WINDOW_LANDMARKS + 1
    assert len(rows) <= 200 + WINDOW_LANDMARKS + 2


def test_window_columns_link_each_point_to_its_nearest_drawn_ancestor_and_count_what_is_left_out():
    points = forked()
    tree = tree_of(points)
    rows = [0, 500, 998, 999, 1_000 + 49]  # root, the fork point, the main line's end, the branch's end
    window = window_columns(tree, rows, [points[row] for row in rows])
    ids = [p.checkpoint_id for p in window.points]
    assert ids == [cid(0), cid(500), cid(998), cid(999), cid(1_049)]
    assert window.parents == [-1, 0, 1, 2, 1]
    assert window.hidden == [0, 499, 497, 0, 49]
    assert window.lanes == [0, 0, 0, 0, 1]
    assert window.xs == [0, 500, 998, 999, 550]
    assert window.children[1] == 2


def test_window_columns_leave_out_a_checkpoint_deleted_since_the_tree_was_read():
    points = linear(10)
    tree = tree_of(points)
    window = window_columns(tree, [0, 5, 9], [points[0], points[9]])
    assert [p.checkpoint_id for p in window.points] == [cid(0), cid(9)]
    assert window.parents == [-1, 0] and window.hidden == [0, 8]


@pytest.mark.usefixtures("backend")
def test_the_window_read_equals_the_whole_chain_read(store):
    build_proposal_thread(store, "long", 300, agent="robot")
    chain = readmodel.checkpoint_chain(store, "long")
    links = readmodel.chain_links(store, "long")
    assert links == [(c.checkpoint_id, c.parent_checkpoint_id) for c in chain]
    tree = link_tree(links)
    rows = window_rows(tree, 100, keep=[len(chain) - 1])
    ids = [tree.points[row].checkpoint_id for row in rows]
    parents = {c.parent_checkpoint_id for c in chain}
    read = readmodel.chain_points(store, "long", ids, head_id=chain[-1].checkpoint_id, parents=parents)
    by_id = {c.checkpoint_id: c for c in chain}
    assert read == [by_id[i] for i in ids]
    assert read[-1].is_head


@pytest.mark.usefixtures("backend")
def test_a_done_thread_has_no_checkpoint_waiting_for_a_human(store, settings):
    start_refund(store, settings, "D1")
    runs.update_thread(store, settings, "refund-D1", {"amount": 50_000})  # an edit while it waits
    runs.resume_from_fields(store, settings, "refund-D1", {"action": "approve", "approver": "kim"})
    chain = readmodel.checkpoint_chain(store, "refund-D1")
    assert not any(c.is_waiting for c in chain)  # the interrupt under the older checkpoint was answered later
    start_refund(store, settings, "D2")
    waiting = readmodel.checkpoint_chain(store, "refund-D2")
    assert [c.is_waiting for c in waiting] == [False] * (len(waiting) - 1) + [True]
