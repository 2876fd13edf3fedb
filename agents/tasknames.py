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
import uuid
from typing import Any

from langgraph.pregel._algo import _uuid5_str, _xxhash_str  # LangGraph's task-id hashes
from langgraph.types import Send

PULL_PREFIX = "~__pregel_pull, "
PUSH_PREFIX = "~__pregel_push"
UPDATE_PREFIX = "~__interrupt__, "
INTERRUPT = "__interrupt__"
PULL = "__pregel_pull"
#: The node named for writes of an ``update_state`` that took no task (:func:`is_fresh_update`).
UPDATE_WRITER = "(update_state)"


def node_of(task_id: str, task_path: str, known: dict[str, str]) -> str:
    """The node of a task: the graph's name in its pull path, else its node-log row (``known``: a ``Send``'s task)."""
    if task_path.startswith(PULL_PREFIX):
        return task_path[len(PULL_PREFIX) :]
    if task_id in known:
        return known[task_id]
    if task_path.startswith(PUSH_PREFIX):
        return "send"
    return UPDATE_WRITER if task_path.startswith(UPDATE_PREFIX) else "(outside a node)"


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
    task_id_of = _xxhash_str if checkpoint.get("v", 1) > 1 else _uuid5_str
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
    names += [task.node for task in values.get("__pregel_tasks", []) if isinstance(task, Send)]
    return tuple(dict.fromkeys(names))
