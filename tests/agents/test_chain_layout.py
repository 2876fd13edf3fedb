"""Tests for the pure checkpoint-chain layout (`agents.chain_layout`)."""

from __future__ import annotations

import json
from collections import Counter

import pytest

from agents.chain_layout import (
    LaidOutCheckpoint,
    chain_to_json,
    layout_chain,
    layout_columns,
)
from agents.errors import short_checkpoint_id
from tests.factories import Point, cid


def assign_lanes(chain) -> dict[str, int]:
    """Checkpoint id -> lane, as `layout_columns` assigns them."""
    columns = layout_columns(chain)
    return {p.checkpoint_id: lane for p, lane in zip(columns.points, columns.lanes, strict=True)}


def orphan_ids(chain) -> list[str]:
    """The checkpoints whose parent is missing, in walk order."""
    columns = layout_columns(chain)
    return [columns.points[i].checkpoint_id for i in columns.orphans]


def linear_chain(length: int) -> list[Point]:
    """Build a thread that simply ran: input at step -1, then a loop per step."""
    return [
        Point(
            cid(i),
            cid(i - 1) if i else None,
            step=i - 1,
            source="input" if i == 0 else "loop",
            is_head=i == length - 1,
        )
        for i in range(length)
    ]


def update_fork_chain() -> list[Point]:
    """Build main 0..4, then update_state on checkpoint 1 (id 5) and a loop."""
    main = linear_chain(5)
    main[-1] = Point(cid(4), cid(3), step=3)  # no longer the head
    update = Point(cid(5), cid(1), step=1, source="update", writers=("approval",))
    paused = Point(cid(6), cid(5), step=2, is_head=True, is_waiting=True)
    return [*main, update, paused]


def test_linear_chain_stays_in_main_lane() -> None:
    lanes = assign_lanes(linear_chain(6))
    assert set(lanes.values()) == {0}
    assert len(lanes) == 6


def test_linear_chain_x_is_step_and_links_count_one_less() -> None:
    laid = layout_chain(linear_chain(6))
    assert [p.x for p in laid] == [p.checkpoint.step for p in laid] == list(range(-1, 5))
    assert layout_columns(linear_chain(6)).children == [1, 1, 1, 1, 1, 0]


def test_update_state_on_old_checkpoint_opens_lane_one() -> None:
    lanes = assign_lanes(update_fork_chain())
    assert [lanes[cid(i)] for i in range(5)] == [0] * 5
    assert lanes[cid(5)] == 1
    assert lanes[cid(6)] == 1  # the branch's descendants continue in its lane


def test_fork_point_and_flags_are_reported() -> None:
    columns = layout_columns(update_fork_chain())
    assert columns.children[[p.checkpoint_id for p in columns.points].index(cid(1))] == 2
    laid = {p.checkpoint.checkpoint_id: p for p in layout_chain(update_fork_chain())}
    assert laid[cid(6)].checkpoint.is_head and laid[cid(6)].checkpoint.is_waiting
    assert laid[cid(5)].checkpoint.writers == ("approval",)
    assert laid[cid(5)].x == 1 and laid[cid(6)].x == 2


def test_rerun_from_old_checkpoint_with_loop_source_opens_lane_one() -> None:
    chain = [*linear_chain(4), Point(cid(4), cid(1), step=1, source="loop")]
    lanes = assign_lanes(chain)
    assert lanes[cid(4)] == 1
    assert lanes[cid(2)] == 0  # the older child keeps the main lane


def test_two_forks_get_lanes_one_and_two_in_time_order() -> None:
    chain = [
        *linear_chain(5),
        Point(cid(5), cid(3), step=3, source="update"),
        Point(cid(6), cid(1), step=1, source="fork"),
        Point(cid(7), cid(6), step=2),
    ]
    lanes = assign_lanes(chain)
    assert lanes[cid(5)] == 1
    assert lanes[cid(6)] == 2
    assert lanes[cid(7)] == 2
    assert sorted(set(lanes.values())) == [0, 1, 2]


def test_fork_of_a_branch_opens_the_next_free_lane() -> None:
    chain = [
        *linear_chain(3),
        Point(cid(3), cid(0), step=0, source="update"),
        Point(cid(4), cid(3), step=1),
        Point(cid(5), cid(3), step=1, source="update"),
    ]
    lanes = assign_lanes(chain)
    assert (lanes[cid(3)], lanes[cid(4)], lanes[cid(5)]) == (1, 1, 2)


def test_orphan_starts_own_lane_and_is_reported() -> None:
    chain = [p for p in linear_chain(6) if p.checkpoint_id != cid(3)]
    lanes = assign_lanes(chain)
    assert orphan_ids(chain) == [cid(4)]
    assert lanes[cid(4)] == lanes[cid(5)] == 1
    laid = {p.checkpoint.checkpoint_id: p for p in layout_chain(chain)}
    columns = layout_columns(chain)
    assert [columns.points[i].checkpoint_id for i in columns.orphans] == [cid(4)]
    assert laid[cid(4)].x == laid[cid(4)].checkpoint.step


def test_child_repeating_parent_step_is_pushed_right() -> None:
    chain = [
        Point(cid(0), None, step=0),
        Point(cid(1), cid(0), step=0, source="fork"),
        Point(cid(2), cid(1), step=1),
    ]
    assert [p.x for p in layout_chain(chain)] == [0, 1, 2]


def test_input_order_does_not_matter() -> None:
    chain = update_fork_chain()
    assert assign_lanes(reversed(chain)) == assign_lanes(chain)
    assert [p.checkpoint.checkpoint_id for p in layout_chain(reversed(chain))] == [cid(i) for i in range(7)]


def test_child_with_older_id_than_parent_is_walked_after_parent() -> None:
    chain = [
        Point(cid(5), None, step=0, source="input"),
        Point(cid(2), cid(5), step=1),
        Point(cid(9), cid(2), step=2),
    ]
    laid = layout_chain(chain)
    assert [p.checkpoint.checkpoint_id for p in laid] == [cid(5), cid(2), cid(9)]
    assert {p.lane for p in laid} == {0}
    assert orphan_ids(chain) == []


def test_parent_cycle_is_drawn_once_without_hanging() -> None:
    chain = [Point(cid(1), cid(2), step=0), Point(cid(2), cid(1), step=1)]
    laid = layout_chain(chain)
    assert sorted(p.checkpoint.checkpoint_id for p in laid) == [cid(1), cid(2)]
    assert orphan_ids(chain) == [cid(1)]


def test_subgraph_namespace_checkpoints_are_left_out() -> None:
    chain = [
        *linear_chain(3),
        Point(cid(9), cid(1), step=1, checkpoint_ns="research:abc"),
    ]
    lanes = assign_lanes(chain)
    assert cid(9) not in lanes
    assert set(lanes.values()) == {0}


def test_duplicate_checkpoint_id_is_an_error() -> None:
    chain = [*linear_chain(2), Point(cid(1), cid(0), step=0)]
    with pytest.raises(ValueError, match="duplicate"):
        layout_chain(chain)


def test_laid_out_checkpoint_is_frozen_and_holds_the_given_checkpoint() -> None:
    chain = linear_chain(1)
    point = layout_chain(chain)[0]
    assert isinstance(point, LaidOutCheckpoint)
    assert point.checkpoint is chain[0]
    with pytest.raises(AttributeError):
        point.lane = 3  # type: ignore[misc]


def test_chain_to_json_has_the_cli_keys_and_plain_types() -> None:
    rows = chain_to_json(update_fork_chain())
    assert json.loads(json.dumps(rows)) == rows
    assert set(rows[0]) == {
        "checkpoint_id",
        "parent_checkpoint_id",
        "step",
        "source",
        "lane",
        "writers",
        "next",
        "is_head",
        "is_waiting",
    }
    branch = rows[5]
    assert branch["checkpoint_id"] == cid(5)
    assert branch["parent_checkpoint_id"] == cid(1)
    assert branch["lane"] == 1 and branch["writers"] == ["approval"]
    assert rows[6]["is_head"] is True and rows[6]["is_waiting"] is True


def test_empty_chain_lays_out_to_nothing() -> None:
    assert assign_lanes([]) == {}
    assert layout_chain([]) == []
    assert chain_to_json([]) == []


def test_short_checkpoint_id_uses_random_tail() -> None:
    assert short_checkpoint_id("1f1ec2ab-af5d-68b9-8000-ba680b978f07") == "ba680b97"
    assert short_checkpoint_id("plainidentifier") == "plainide"


def test_ten_thousand_checkpoints_lay_out_into_expected_lanes() -> None:
    main = linear_chain(8000)
    branches = []
    next_id = 8000
    for branch in range(20):
        parent_index = 100 + branch * 300  # fork points spread along the main line
        parent = main[parent_index]
        for offset in range(100):
            parent_id = parent.checkpoint_id if offset == 0 else cid(next_id - 1)
            branches.append(Point(cid(next_id), parent_id, step=parent.step + 1 + offset))
            next_id += 1
    chain = main + branches
    laid = layout_chain(chain)
    counts = Counter(p.lane for p in laid)
    assert counts[0] == 8000
    assert [counts[lane] for lane in range(1, 21)] == [100] * 20
    assert len({(p.lane, p.x) for p in laid}) == len(chain)  # no overlap in a lane
    assert sum(children > 1 for children in layout_columns(chain).children) == 20
