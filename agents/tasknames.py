"""How the read-model names a thread's tasks, as LangGraph's ``get_state_history`` names them.

A task's writes carry its id and its task path. A node run by the graph has the path
``~__pregel_pull, <node>``, which names it; a ``Send``'s task has ``~__pregel_push, ...``,
and is named by its row in the node log (:mod:`agents.nodelog`), found by task id. ``update_state`` writes with the path
``~__interrupt__, <i>``, which names no node: as a node the checkpoint schedules, it reuses
that node's task id; as any other node, LangGraph derives a fresh id from the checkpoint id
and ``i`` (:func:`is_fresh_update`), and ``get_state_history`` lists no task for those
writes. A reused id whose node has not run is named by LangGraph's own task-id hash over
the nodes the checkpoint schedules (:func:`prepared_task_names`, one decoded blob).
"""

from __future__ import annotations

import binascii
import importlib
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
PULL = "__pregel_pull"
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


def prepared_task_names(saved: Any) -> dict[str, str]:
    """Task id → node of the tasks a decoded checkpoint schedules, by LangGraph's own task-id hash.

    Names an ``update_state`` that reused the task of a node that has not run (so neither the
    node log nor a task path names it). A scheduled node's triggers are its ``branch:to:``
    channel and the join channels that end in its name.
    """
    checkpoint = saved.checkpoint
    step = str(saved.metadata.get("step", -1) + 1)
    id_bytes = binascii.unhexlify(checkpoint["id"].replace("-", ""))
    # LangGraph's task-id hashes, imported when first needed: the module loads LangGraph's Pregel
    # loop and its SDK (about 300 ms), which a command that names no task never needs.
    hashes = importlib.import_module("langgraph.pregel._algo")
    task_id_of = hashes._xxhash_str if checkpoint.get("v", 1) > 1 else hashes._uuid5_str
    versions = checkpoint.get("channel_versions", {})
    names = {}
    for node in scheduled_nodes_of(checkpoint.get("channel_values", {})):
        branch, join_end = f"branch:to:{node}", f":{node}"
        triggers = (
            ("__start__",)
            if node == "__start__"
            else sorted({branch, *(c for c in versions if c.startswith("join:") and c.endswith(join_end))})
        )
        names[task_id_of(id_bytes, node, step, node, PULL, *triggers)] = node
    return names


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


def tasks_by_checkpoint(rows: Rows, known: dict[str, str], saved_of: Callable[[str], Any]) -> Tasks:
    """The tasks of the rows of ``queries.tasks``, named as ``get_state_history`` names them.

    The database groups the writes per task, which hands Python one row per
    task instead of one per write. A task is completed when it wrote a channel
    that is not bookkeeping, and interrupted when it wrote ``__interrupt__``
    but nothing else yet. A checkpoint's tasks are ordered by task path and id, as
    LangGraph orders them; most checkpoints have one, and share its one-name tuple.
    An ``update_state`` that took no task of its checkpoint is no task (:func:`is_fresh_update`);
    one that reused the task of a node that has not run is named from the checkpoint's blob
    (``saved_of(checkpoint_id)``: the decoded checkpoint, or None).
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
            node = _UNNAMED + task_id  # replaced below, from the checkpoint's blob
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
        saved = saved_of(checkpoint_id)
        names_of = prepared_task_names(saved) if saved is not None else {}
        for listed in (scheduled, completed):
            if checkpoint_id in listed:
                listed[checkpoint_id] = _unique(_named(node, names_of) for node in listed[checkpoint_id])
    return Tasks(scheduled, completed, interrupted)


#: Marks a task id that stands in for a node name until the checkpoint's blob names it.
_UNNAMED = "\x00"


def _named(node: str, names_of: dict[str, str]) -> str:
    """A node name, or the name of the task whose id stands in for one (:func:`_tasks_by_checkpoint`)."""
    return names_of.get(node[1:], UPDATE_WRITER) if node.startswith(_UNNAMED) else node


def _unique(names: Iterable[str]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(names))
