"""Pure layout of a thread's parent-chained checkpoint graph.

Every checkpoint LangGraph saves points at its parent, so one thread is a tree:
a straight line while the graph simply runs, with a branch wherever
`update_state`, a `__copy__` fork or a replay from an old checkpoint gave a
parent a second child. This module turns that tree into lanes and x positions
that the checkpoint explorer figure and `python -m agents graph THREAD --json`
share. It needs neither Streamlit nor a database: the input is any sequence of
objects shaped like `agents.readmodel.ChainCheckpoint` (see `ChainPoint`).

Lane rule (`assign_lanes`):
    Checkpoints are walked oldest first. Checkpoint ids are time-ordered uuid6
    strings, so the walk sorts by id; a checkpoint whose parent sorts after it
    (never produced by LangGraph, but possible in damaged data) is walked right
    after its parent instead. The first root starts lane 0, the main line. A
    checkpoint takes its parent's lane if it is the parent's first (oldest)
    child; a later child of the same parent starts a branch in the next free
    lane, and its own descendants continue in that lane until they fork again.
    A checkpoint whose parent is not in the chain (an orphan, e.g. after a
    partial deletion) also starts a new lane and is reported by `orphan_ids`;
    that lane is 0 when nothing older was walked (the thread's first
    checkpoints were deleted), so the oldest surviving line is still "main".
    Lane numbers are dense: 0, 1, 2, ...

X rule (`layout_chain`):
    x is the checkpoint's step, pushed right where needed so that a child is
    always strictly right of its parent: ``x = max(step, parent_x + 1)``.
    Roots and orphans use ``x = step``. In LangGraph 1.x every child already
    has a larger step than its parent (a loop or `update_state` checkpoint
    stores parent step + 1, a replay fork stores loaded step + 1, a
    `__copy__` fork stores copied step + 1 and hangs on the copied
    checkpoint's parent), so x normally equals step; the push only matters
    for older or damaged data where a child repeats its parent's step.
    Because a lane is a parent-to-child path, strictly growing x along each
    edge means no two checkpoints of one lane ever share a point.

Subgraph namespaces: the read-model hands over the root namespace only
(`checkpoint_ns == ''`). Every public function here filters defensively to
that namespace, so a subgraph checkpoint that slips through is left out
rather than drawn as a bogus orphan lane.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

ROOT_NAMESPACE = ""


class ChainPoint(Protocol):
    """What the layout needs from a checkpoint (`ChainCheckpoint` fits)."""

    @property
    def checkpoint_id(self) -> str: ...

    @property
    def parent_checkpoint_id(self) -> str | None: ...

    @property
    def step(self) -> int: ...

    @property
    def source(self) -> str: ...

    @property
    def writers(self) -> tuple[str, ...]: ...

    @property
    def next(self) -> tuple[str, ...]: ...

    @property
    def is_head(self) -> bool: ...

    @property
    def is_waiting(self) -> bool: ...

    @property
    def checkpoint_ns(self) -> str: ...


@dataclass(frozen=True, slots=True)
class LaidOutCheckpoint:
    """A checkpoint with its place in the drawing.

    Attributes:
        checkpoint: The checkpoint as given (a `ChainCheckpoint` from the
            read-model, or anything else shaped like a `ChainPoint`).
        lane: Lane number, 0 is the main line (see module docstring).
        x: Horizontal position, step pushed right to stay after the parent.
        is_fork_point: Has more than one child.
        children_count: Number of children in the chain.
        is_orphan: Its parent is missing from the chain.
    """

    checkpoint: ChainPoint
    lane: int
    x: int
    is_fork_point: bool
    children_count: int
    is_orphan: bool


@dataclass(frozen=True, slots=True)
class _Walk:
    """Result of one pass over the chain, shared by the public functions."""

    order: list[ChainPoint]
    lanes: dict[str, int]
    xs: dict[str, int]
    orphans: list[str]
    children_count: dict[str, int]


def root_namespace_points(chain: Iterable[ChainPoint]) -> list[ChainPoint]:
    """Keep only root-namespace checkpoints and check that ids are unique.

    Args:
        chain: Checkpoints of one thread, any order.

    Returns:
        The checkpoints with `checkpoint_ns == ''`, in input order.

    Raises:
        ValueError: If a checkpoint id occurs twice; the tree would be
            ambiguous, and that is a bug in whoever built the chain.
    """
    points = [p for p in chain if p.checkpoint_ns == ROOT_NAMESPACE]
    seen: set[str] = set()
    for point in points:
        if point.checkpoint_id in seen:
            raise ValueError(f"duplicate checkpoint id {point.checkpoint_id!r}")
        seen.add(point.checkpoint_id)
    return points


def _parents_first(points: Sequence[ChainPoint]) -> list[ChainPoint]:
    """Order checkpoints oldest id first, but never a child before its parent."""
    present = {p.checkpoint_id for p in points}
    placed: set[str] = set()
    # Children whose parent sorts later wait here until the parent is walked.
    parked: dict[str, list[ChainPoint]] = defaultdict(list)
    order: list[ChainPoint] = []

    def place(first: ChainPoint) -> None:
        stack = [first]  # explicit stack: a long parked chain must not recurse
        while stack:
            point = stack.pop()
            if point.checkpoint_id in placed:
                continue  # a parent cycle leads back to where it started
            order.append(point)
            placed.add(point.checkpoint_id)
            stack.extend(reversed(parked.pop(point.checkpoint_id, [])))

    by_age = sorted(points, key=lambda p: p.checkpoint_id)
    for point in by_age:
        parent = point.parent_checkpoint_id
        if parent in present and parent not in placed and parent != point.checkpoint_id:
            parked[parent].append(point)
        else:
            place(point)
    # Whatever is still unplaced sits on a parent cycle (damaged data only);
    # start each cycle at its oldest member so every checkpoint is drawn once.
    for point in by_age:
        if point.checkpoint_id not in placed:
            place(point)
    return order


def _walk(chain: Iterable[ChainPoint]) -> _Walk:
    """Assign lanes and x positions in one O(n log n) pass (the sort dominates)."""
    order = _parents_first(root_namespace_points(chain))
    lanes: dict[str, int] = {}
    xs: dict[str, int] = {}
    orphans: list[str] = []
    children_count: dict[str, int] = defaultdict(int)
    lane_count = 0
    for point in order:
        node_id, parent = point.checkpoint_id, point.parent_checkpoint_id
        inherited_lane: int | None = None
        # `parent in lanes` is False for a missing parent and for a cycle.
        if parent is not None and parent in lanes:
            children_count[parent] += 1
            xs[node_id] = max(point.step, xs[parent] + 1)
            # Only the parent's first (oldest) child stays in the parent's lane.
            if children_count[parent] == 1:
                inherited_lane = lanes[parent]
        else:
            xs[node_id] = point.step
            if parent is not None:
                orphans.append(node_id)
        if inherited_lane is None:
            lanes[node_id] = lane_count
            lane_count += 1
        else:
            lanes[node_id] = inherited_lane
    return _Walk(order, lanes, xs, orphans, dict(children_count))


def assign_lanes(chain: Iterable[ChainPoint]) -> dict[str, int]:
    """Give every root-namespace checkpoint a lane (see the module docstring).

    Args:
        chain: Checkpoints of one thread, any order.

    Returns:
        Checkpoint id -> lane; lane 0 is the main line, lanes are dense.

    Raises:
        ValueError: If a checkpoint id occurs twice.
    """
    return _walk(chain).lanes


def orphan_ids(chain: Iterable[ChainPoint]) -> list[str]:
    """List checkpoints whose parent is missing from the chain, oldest first.

    Each orphan starts a lane of its own; callers show this list so that a
    partly deleted thread is visible instead of silently redrawn.

    Args:
        chain: Checkpoints of one thread, any order.

    Returns:
        Ids of orphaned checkpoints in walk order.
    """
    return _walk(chain).orphans


def layout_chain(chain: Iterable[ChainPoint]) -> list[LaidOutCheckpoint]:
    """Lay out a thread's checkpoint tree for drawing.

    Args:
        chain: Checkpoints of one thread, any order; subgraph checkpoints
            (non-empty `checkpoint_ns`) are left out.

    Returns:
        One `LaidOutCheckpoint` per checkpoint, oldest first with every parent
        before its children.

    Raises:
        ValueError: If a checkpoint id occurs twice.
    """
    walk = _walk(chain)
    orphans = set(walk.orphans)
    laid_out = []
    for point in walk.order:
        node_id = point.checkpoint_id
        children = walk.children_count.get(node_id, 0)
        laid_out.append(
            LaidOutCheckpoint(
                checkpoint=point,
                lane=walk.lanes[node_id],
                x=walk.xs[node_id],
                is_fork_point=children > 1,
                children_count=children,
                is_orphan=node_id in orphans,
            )
        )
    return laid_out


def chain_to_json(chain: Iterable[ChainPoint]) -> list[dict[str, Any]]:
    """Describe the laid-out chain with plain JSON types.

    This is what `python -m agents graph THREAD --json` prints.

    Args:
        chain: Checkpoints of one thread, any order.

    Returns:
        One dict per checkpoint, in `layout_chain` order, with the keys
        `checkpoint_id`, `parent_checkpoint_id`, `step`, `source`, `lane`,
        `writers` (list), `next` (list), `is_head` and `is_waiting`.
    """
    return [_json_row(laid) for laid in layout_chain(chain)]


def _json_row(laid: LaidOutCheckpoint) -> dict[str, Any]:
    point = laid.checkpoint
    return {
        "checkpoint_id": point.checkpoint_id,
        "parent_checkpoint_id": point.parent_checkpoint_id,
        "step": point.step,
        "source": point.source,
        "lane": laid.lane,
        "writers": list(point.writers),
        "next": list(point.next),
        "is_head": point.is_head,
        "is_waiting": point.is_waiting,
    }
