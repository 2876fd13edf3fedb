"""How the read-model names a thread's tasks, as LangGraph's ``get_state_history`` names them.

A task's writes carry its id and its task path. A node run by the graph has the path
``~__pregel_pull, <node>``, which names it; a ``Send``'s task has ``~__pregel_push, ...``,
and is named by its row in the node log (:mod:`agents.nodelog`), found by task id. ``update_state`` writes with the path
``~__interrupt__, <i>``, which names no node: as a node the checkpoint schedules, it reuses
that node's task id; as any other node, LangGraph derives a fresh id from the checkpoint id
and ``i`` (:func:`is_fresh_update`), and ``get_state_history`` lists no task for those
writes. A reused id whose node has not run is named by the tasks LangGraph prepares at that
checkpoint (:func:`prepared_task_names`): the graph's public ``get_state(config).tasks``, asked through
the resolver a higher layer registers (:func:`register_task_resolver`), since only it knows the graphs.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from agents.loaded import is_instance
from agents.readsql import Rows

PULL_PREFIX = "~__pregel_pull, "
PUSH_PREFIX = "~__pregel_push"
UPDATE_PREFIX = "~__interrupt__, "
INTERRUPT = "__interrupt__"
#: The node named for writes of an ``update_state`` that took no task (:func:`is_fresh_update`).
UPDATE_WRITER = "(update_state)"
#: The name of a write made outside any node (the resume value LangGraph writes for the whole thread).
OUTSIDE_NODE = "(outside a node)"


def node_of(task_id: str, task_path: str, known: dict[str, str]) -> str:
    """The node of a task: the graph's name in its pull path, else its node-log row (``known``: a ``Send``'s task)."""
    if task_path.startswith(PULL_PREFIX):
        return task_path[len(PULL_PREFIX) :]
    if task_id in known:
        return known[task_id]
    if task_path.startswith(PUSH_PREFIX):
        return "send"
    return UPDATE_WRITER if task_path.startswith(UPDATE_PREFIX) else OUTSIDE_NODE


def is_fresh_update(checkpoint_id: str, task_id: str, task_path: str) -> bool:
    """Whether a task's writes are an ``update_state`` that took no task of the checkpoint.

    ``update_state`` saves its writes on the checkpoint it builds on, with the task path
    ``~__interrupt__, <i>``. As a node the checkpoint schedules, it reuses that node's task id
    (the writes are that task's); as any other node, it takes the id LangGraph derives from the
    checkpoint id and ``i`` alone, and ``get_state_history`` lists no task for those writes.
    """
    if not task_path.startswith(UPDATE_PREFIX):
        return False
    index = int(task_path[len(UPDATE_PREFIX) :] or 0)
    name = INTERRUPT if index == 0 else f"{INTERRUPT}:{index}"
    return task_id == str(uuid.uuid5(uuid.UUID(checkpoint_id), name))


#: Task id → node of the tasks a checkpoint prepares, given (store, thread id, checkpoint id).
TaskResolver = Callable[[Any, str, str], dict[str, str]]
_resolvers: list[TaskResolver] = []


def register_task_resolver(resolver: TaskResolver) -> None:
    """Sets how :func:`prepared_task_names` asks a thread's graph for the tasks of a checkpoint.

    The read model sits below the registry and knows no graph; the layer that builds the graphs
    (:mod:`agents.runtime`) registers a resolver that asks the thread's graph through LangGraph's
    public ``get_state``. A later registration replaces an earlier one.
    """
    _resolvers[:] = [resolver]


def prepared_task_names(store: Any, thread_id: str, checkpoint_id: str) -> dict[str, str]:
    """Task id → node of the tasks a checkpoint prepares, as its graph's ``get_state(config).tasks`` lists them.

    Names an ``update_state`` that reused the task of a node that has not run (so neither the
    node log nor a task path names it). Empty when no resolver is registered or the thread's graph
    cannot say (its agent is no longer registered): the writes are then named :data:`UPDATE_WRITER`.
    """
    return _resolvers[0](store, thread_id, checkpoint_id) if _resolvers else {}


def scheduled_nodes_of(values: dict[str, Any]) -> tuple[str, ...]:
    """Nodes a leaf checkpoint schedules, from its decoded channel values (empty: the run ended)."""
    names = ["__start__"] if "__start__" in values else []
    names += [channel.removeprefix("branch:to:") for channel in values if channel.startswith("branch:to:")]
    names += [task.node for task in values.get("__pregel_tasks", []) if is_instance(task, "langgraph.types", "Send")]
    return tuple(dict.fromkeys(names))


@dataclass
class Tasks:
    """A thread's tasks per checkpoint: the nodes of all, of the completed ones, and who is interrupted."""

    scheduled: dict[str, tuple[str, ...]]
    completed: dict[str, tuple[str, ...]]
    interrupted: set[str]


def tasks_by_checkpoint(rows: Rows, known: dict[str, str], names_of: Callable[[str], dict[str, str]]) -> Tasks:
    """The tasks of the rows of ``queries.tasks``, named as ``get_state_history`` names them.

    The database groups the writes per task, which hands Python one row per
    task instead of one per write. A task is completed when it wrote a channel
    that is not bookkeeping, and interrupted when it wrote ``__interrupt__``
    but nothing else yet. A checkpoint's tasks are ordered by task path and id, as
    LangGraph orders them; most checkpoints have one, and share its one-name tuple.
    An ``update_state`` that took no task of its checkpoint is no task (:func:`is_fresh_update`);
    one that reused the task of a node that has not run is named by the tasks its checkpoint prepares
    (``names_of(checkpoint_id)``: task id → node, :func:`prepared_task_names`).
    """
    scheduled: dict[str, tuple[str, ...]] = {}
    completed: dict[str, tuple[str, ...]] = {}
    interrupted: set[str] = set()
    alone: dict[str, tuple[str]] = {}  # pull path or node → (node,), shared
    first: dict[str, tuple[Any, ...]] = {}  # checkpoint → its first task row
    several: dict[str, list[tuple[Any, ...]]] = {}
    unnamed: set[str] = set()
    for row in rows:
        checkpoint_id, task_id, task_path, done, asked = row
        path = task_path or ""
        names = alone.get(path)  # a pull task: its path names the node
        if names is not None:
            node = names[0]
        elif path.startswith(PULL_PREFIX):
            node = path[len(PULL_PREFIX) :]
            alone[path] = (node,)
        elif task_id in known:
            node = known[task_id]
        elif path.startswith(UPDATE_PREFIX):
            if is_fresh_update(checkpoint_id, task_id, path):
                continue
            unnamed.add(checkpoint_id)
            node = _UNNAMED + task_id  # replaced below, from the checkpoint's prepared tasks
        else:
            node = node_of(task_id, path, known)
        if not done and asked:
            interrupted.add(checkpoint_id)
        if checkpoint_id in scheduled:
            group = several.get(checkpoint_id)
            if group is None:
                _, first_id, first_path, first_done, _ = first[checkpoint_id]
                group = several[checkpoint_id] = [
                    (first_path or "", first_id, scheduled[checkpoint_id][0], bool(first_done))
                ]
            group.append((path, task_id, node, done))
            continue
        if names is None:
            names = alone.get(node) or alone.setdefault(node, (node,))
        scheduled[checkpoint_id] = names
        if done:
            completed[checkpoint_id] = names
        first[checkpoint_id] = row
    for checkpoint_id, group in several.items():
        group.sort()
        scheduled[checkpoint_id] = _unique(node for _, _, node, _ in group)
        completed[checkpoint_id] = _unique(node for _, _, node, done in group if done)
    for checkpoint_id in unnamed:
        prepared = names_of(checkpoint_id)
        for listed in (scheduled, completed):
            if checkpoint_id in listed:
                listed[checkpoint_id] = _unique(_named(node, prepared) for node in listed[checkpoint_id])
    return Tasks(scheduled, completed, interrupted)


#: Marks a task id that stands in for a node name until the checkpoint's prepared tasks name it.
_UNNAMED = "\x00"


def _named(node: str, names_of: dict[str, str]) -> str:
    """A node name, or the name of the task whose id stands in for one (:func:`_tasks_by_checkpoint`)."""
    return names_of.get(node[1:], UPDATE_WRITER) if node.startswith(_UNNAMED) else node


def _unique(names: Iterable[str]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(names))
