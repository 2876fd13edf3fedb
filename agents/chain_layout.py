"""Pure layout of a thread's parent-chained checkpoint graph.

Every checkpoint LangGraph saves points at its parent, so one thread is a tree:
a straight line while the graph simply runs, with a branch wherever
`update_state`, a `__copy__` fork or a replay from an old checkpoint gave a
parent a second child. This module turns that tree into lanes and x positions
that the checkpoint explorer figure and `python -m agents graph THREAD --json`
share. It needs neither Streamlit nor a database: the input is any sequence of
objects shaped like `agents.readmodel.ChainCheckpoint` (see `ChainPoint`).

Lane rule (`layout_columns`):
    Checkpoints are walked oldest first. Checkpoint ids are time-ordered uuid6
    strings, so the walk sorts by id; a checkpoint whose parent sorts after it
    (never produced by LangGraph, but possible in damaged data) is walked right
    after its parent instead. The first root starts lane 0, the main line. A
    checkpoint takes its parent's lane if it is the parent's first (oldest)
    child; a later child of the same parent starts a branch in the next free
    lane, and its own descendants continue in that lane until they fork again.
    A checkpoint whose parent is not in the chain (an orphan, e.g. after a
    partial deletion) also starts a new lane and is listed in `ChainColumns.orphans`;
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

Window (`link_tree`, `window_rows`, `window_columns`):
    A long thread is drawn a window at a time. The lanes come from the whole
    tree, read as (id, parent) pairs only; the window is the checkpoints
    nearest a centre along the links, plus the oldest root, the rows asked to
    be kept and the nearest fork points and orphans, so its size is bounded.
    Only the window's checkpoints are then read in full. A drawn checkpoint
    links to its nearest drawn ancestor, counting the checkpoints left out.

Subgraph namespaces: the read-model hands over the root namespace only
(`checkpoint_ns == ''`). Every public function here filters defensively to
that namespace, so a subgraph checkpoint that slips through is left out
rather than drawn as a bogus orphan lane.
"""

from __future__ import annotations

from collections import defaultdict, deque
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, Protocol, TypeVar

ROOT_NAMESPACE = ""
#: Checkpoints a window draws around its centre (nearest along the links first).
WINDOW_SIZE = 200
#: Fork points and orphans a window draws besides, the nearest to its centre first.
WINDOW_LANDMARKS = 40


class Linked(Protocol):
    """What the lanes and x positions need of a checkpoint."""

    @property
    def checkpoint_id(self) -> str: ...

    @property
    def parent_checkpoint_id(self) -> str | None: ...

    @property
    def step(self) -> int: ...

    @property
    def checkpoint_ns(self) -> str: ...


P = TypeVar("P", bound=Linked)
Q = TypeVar("Q", bound=Linked)


class ChainPoint(Linked, Protocol):
    """What the layout needs from a checkpoint (`ChainCheckpoint` fits)."""

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


@dataclass(frozen=True, slots=True)
class LaidOutCheckpoint:
    """A checkpoint with its place in the drawing.

    Attributes:
        checkpoint: The checkpoint as given (a `ChainCheckpoint` from the
            read-model, or anything else shaped like a `ChainPoint`).
        lane: Lane number, 0 is the main line (see module docstring).
        x: Horizontal position, step pushed right to stay after the parent.
    """

    checkpoint: ChainPoint
    lane: int
    x: int


@dataclass(frozen=True, slots=True)
class Link:
    """A checkpoint as its parent column tells it: enough for the lanes (laid out, its x is its depth)."""

    checkpoint_id: str
    parent_checkpoint_id: str | None
    step: int = 0
    checkpoint_ns: str = ROOT_NAMESPACE


@dataclass(frozen=True, slots=True)
class ChainColumns(Generic[P]):
    """The layout as columns: entry ``i`` of each list is about ``points[i]``, in walk order.

    What the figure draws from, without one object per checkpoint.

    Attributes:
        points: The root-namespace checkpoints, oldest first with every parent before its children.
        lanes: Lane of each point.
        xs: x of each point.
        parents: Index of each point's parent, -1 for a root or an orphan (no link is drawn).
            In a window (`window_columns`): of its nearest drawn ancestor.
        children: Number of children of each point.
        orphans: Indices of the points whose parent is missing, in walk order.
        hidden: In a window, the checkpoints left out on each point's link to its parent (empty:
            nothing is left out).
    """

    points: list[P]
    lanes: list[int]
    xs: list[int]
    parents: list[int]
    children: list[int]
    orphans: list[int]
    hidden: list[int] = field(default_factory=list)


def root_namespace_points(chain: Iterable[P]) -> list[P]:
    """The root-namespace checkpoints (`checkpoint_ns == ''`) of one thread's chain, in input order.

    Raises:
        ValueError: A checkpoint id occurs twice: the tree would be ambiguous, a bug in whoever built the chain.
    """
    points = [p for p in chain if p.checkpoint_ns == ROOT_NAMESPACE]
    seen: set[str] = set()
    for point in points:
        if point.checkpoint_id in seen:
            raise ValueError(f"duplicate checkpoint id {point.checkpoint_id!r}")
        seen.add(point.checkpoint_id)
    return points


def _parents_first(points: Sequence[P]) -> list[P]:
    """Order checkpoints oldest id first, but never a child before its parent."""
    present = {p.checkpoint_id for p in points}
    placed: set[str] = set()
    # Children whose parent sorts later wait here until the parent is walked.
    parked: dict[str, list[P]] = defaultdict(list)
    order: list[P] = []

    def place(first: P) -> None:
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


def layout_columns(chain: Iterable[P]) -> ChainColumns[P]:
    """Lanes and x positions of one thread's checkpoints (any order; subgraph ones left out) as
    `ChainColumns`, in one O(n log n) pass (the sort, when needed, dominates).

    Raises:
        ValueError: If a checkpoint id occurs twice.
    """
    points = chain if isinstance(chain, list) else list(chain)
    # LangGraph's ids are time-ordered and a parent is always older, so a chain read oldest first
    # (as the read-model returns it) is walked as it is; only another order is sorted first.
    columns = _walk(points, in_order=True)
    if columns is None:
        columns = _walk(_parents_first(root_namespace_points(points)), in_order=False)
        assert columns is not None  # only a walk that checks the order gives up
    return columns


def _walk(points: Sequence[P], *, in_order: bool) -> ChainColumns[P] | None:
    """The columns of root-namespace ``points`` walked in the order given.

    ``in_order``: the points are taken to be in walk order (ids strictly rising, every parent's id
    below its child's, so the ids are unique too), and None is returned as soon as one is not.
    """
    order: list[P] = []
    index: dict[str, int] = {}
    lanes: list[int] = []
    xs: list[int] = []
    parents: list[int] = []
    children: list[int] = []
    orphans: list[int] = []
    lane_count = 0
    previous = ""
    for point in points:
        if point.checkpoint_ns != ROOT_NAMESPACE:
            continue
        node_id, parent = point.checkpoint_id, point.parent_checkpoint_id
        if in_order:
            if node_id <= previous or (parent is not None and parent >= node_id):
                return None
            previous = node_id
        position = len(order)
        order.append(point)
        children.append(0)
        # Not in `index`: a missing parent, or one on a cycle (walked later).
        at = -1 if parent is None else index.get(parent, -1)
        if at >= 0:
            children[at] += 1
            step, after_parent = point.step, xs[at] + 1
            xs.append(step if step > after_parent else after_parent)
            # Only the parent's first (oldest) child stays in the parent's lane.
            if children[at] == 1:
                lanes.append(lanes[at])
            else:
                lanes.append(lane_count)
                lane_count += 1
        else:
            xs.append(point.step)
            if parent is not None:
                orphans.append(position)
            lanes.append(lane_count)
            lane_count += 1
        parents.append(at)
        index[node_id] = position
    return ChainColumns(order, lanes, xs, parents, children, orphans)


def link_tree(links: Iterable[tuple[str, str | None]]) -> ChainColumns[Link]:
    """The layout of a thread's tree from its (checkpoint id, parent id) pairs alone.

    Lanes, parents, children and orphans are those of `layout_columns` on the whole chain (they need
    no step); x is each checkpoint's depth (0 for a root or an orphan), which `window_columns` counts
    the left-out checkpoints by.
    """
    return layout_columns([Link(checkpoint_id, parent) for checkpoint_id, parent in links])


def window_rows(
    tree: ChainColumns[Any],
    centre: int,
    *,
    keep: Iterable[int] = (),
    size: int = WINDOW_SIZE,
    landmarks: int = WINDOW_LANDMARKS,
) -> list[int]:
    """Rows of the tree a window draws, in walk order; every row when there are at most ``size``.

    The window holds the ``size`` checkpoints nearest ``centre`` along the parent links (breadth
    first from ``centre``, which is always in it), the rows of ``keep`` (the head, the selected
    checkpoint), the oldest root, and up to ``landmarks`` fork points and orphans, those nearest
    ``centre`` in walk order first. So its size is bounded by ``size + landmarks + 1 + len(keep)``,
    whatever the thread's length.
    """
    count = len(tree.points)
    if count <= size:
        return list(range(count))
    parents = tree.parents
    kids: list[list[int]] = [[] for _ in range(count)]
    for child, parent in enumerate(parents):
        if parent >= 0:
            kids[parent].append(child)
    chosen = {centre}
    queue = deque([centre])
    while queue and len(chosen) < size:
        row = queue.popleft()
        for near in ([parents[row]] if parents[row] >= 0 else []) + kids[row]:
            if near not in chosen and len(chosen) < size:
                chosen.add(near)
                queue.append(near)
    marks = [row for row, n in enumerate(tree.children) if n > 1 and row not in chosen]
    marks += [row for row in tree.orphans if row not in chosen]
    marks.sort(key=lambda row: abs(row - centre))
    chosen.update(marks[:landmarks])
    chosen.update(row for row in keep if 0 <= row < count)
    chosen.add(0)
    return sorted(chosen)


def window_columns(tree: ChainColumns[Any], rows: Sequence[int], points: Iterable[Q]) -> ChainColumns[Q]:
    """The layout of a window: the checkpoints of ``rows`` (``points``, read for them) placed as in the tree.

    Each point keeps its lane in the whole tree and its number of children; its parent is its nearest
    drawn ancestor, and ``hidden`` counts the checkpoints left out between them (0: a plain link).
    x is the step, pushed right past the drawn parent and what is hidden:
    ``x = max(step, parent_x + hidden + 1)``. A row whose checkpoint is missing from ``points``
    (deleted since the tree was read) is left out.
    """
    by_id = {point.checkpoint_id: point for point in points}
    kept = [row for row in rows if tree.points[row].checkpoint_id in by_id]
    at = {row: index for index, row in enumerate(kept)}
    orphaned = set(tree.orphans)
    drawn: list[Q] = []
    lanes: list[int] = []
    xs: list[int] = []
    parents: list[int] = []
    children: list[int] = []
    orphans: list[int] = []
    hidden: list[int] = []
    for index, row in enumerate(kept):
        point = by_id[tree.points[row].checkpoint_id]
        above = tree.parents[row]
        while above >= 0 and above not in at:
            above = tree.parents[above]
        parent = at.get(above, -1)
        skipped = tree.xs[row] - tree.xs[above] - 1 if parent >= 0 else 0
        drawn.append(point)
        lanes.append(tree.lanes[row])
        xs.append(max(point.step, xs[parent] + skipped + 1) if parent >= 0 else point.step)
        parents.append(parent)
        children.append(tree.children[row])
        hidden.append(skipped)
        if row in orphaned:
            orphans.append(index)
    return ChainColumns(drawn, lanes, xs, parents, children, orphans, hidden)


def layout_chain(chain: Iterable[ChainPoint]) -> list[LaidOutCheckpoint]:
    """Lay out a thread's checkpoint tree (any order; subgraph checkpoints left out) for drawing:
    one `LaidOutCheckpoint` per checkpoint, oldest first with every parent before its children.

    Raises:
        ValueError: If a checkpoint id occurs twice.
    """
    columns = layout_columns(chain)
    laid = zip(columns.points, columns.lanes, columns.xs, strict=True)
    return [LaidOutCheckpoint(point, lane, x) for point, lane, x in laid]


def chain_to_json(chain: Iterable[ChainPoint]) -> list[dict[str, Any]]:
    """The laid-out chain in plain JSON types, as `python -m agents graph THREAD --json` prints it.

    One dict per checkpoint, in `layout_chain` order, with the keys `checkpoint_id`,
    `parent_checkpoint_id`, `step`, `source`, `lane`, `writers` (list), `next` (list), `is_head`
    and `is_waiting`.
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
