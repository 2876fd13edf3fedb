"""Read-model over the save file, usable without Streamlit.

The dashboard's lists and charts read the checkpointer's own tables with
plain SQL (:mod:`agents.readsql`, one implementation per backend): the
metadata column is JSON and the parent id, channel and task columns are plain
text, so a whole thread's chain is read without deserialising a single
checkpoint blob. Blobs are decoded,
with LangGraph's own serializer, only where a value is shown: one selected
checkpoint, an interrupt payload, or a leaf checkpoint whose ``next`` cannot be
told from its writes.

All functions read the root namespace (``checkpoint_ns = ''``); subgraph
checkpoints, if any, are filtered out.

``python benchmarks/bench_checkpoint_graph.py`` measures the chain read this way against LangGraph's own
``get_state_history`` (every checkpoint decoded) for a thread of 10,000 checkpoints, from the database to
the explorer's figure, with the points of both compared first; ``benchmarks/bench_inspect.py`` the CLI's
``inspect --json`` built on it.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import json
from collections import defaultdict
from collections.abc import Callable, Container, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from langchain_core.messages import BaseMessage

from agents import nodelog_queue
from agents.collector import collector_paused
from agents.db import Store
from agents.errors import InputError
from agents.loaded import is_instance
from agents.readsql import ERROR_CHANNEL, NULL_TASK_ID, RESUME_CHANNEL, Rows
from agents.strings import STRINGS
from agents.tasknames import (
    PULL_PREFIX,
    UPDATE_PREFIX,
    UPDATE_WRITER,
    is_fresh_update,
    node_of,
    prepared_task_names,
    scheduled_nodes_of,
    tasks_by_checkpoint,
)
from agents.texts import language_or_default, text

#: How a task is named from its id and path (``pending_interrupts`` and the details use it too).
_node_of = node_of


class ChainCheckpoint(NamedTuple):
    """One checkpoint of a thread, as read from the metadata and parent columns.

    A named tuple, not a dataclass: :func:`checkpoint_chain` makes one per checkpoint, and a tuple is
    made in one step where a slotted dataclass takes one per field (10,000 of them: 2.5 ms against 6).
    """

    checkpoint_id: str
    parent_checkpoint_id: str | None
    step: int
    source: str
    writers: tuple[str, ...]
    next: tuple[str, ...]
    is_head: bool
    is_waiting: bool
    checkpoint_ns: str = ""


@dataclass(frozen=True)
class ThreadSummary:
    """A thread as listed on the home page."""

    thread_id: str
    agent: str
    updated_at: dt.datetime
    checkpoint_count: int
    head_checkpoint_id: str


@dataclass(frozen=True)
class WriteRecord:
    """One decoded row of the ``writes`` table."""

    task_id: str
    node: str
    channel: str
    value: Any


@dataclass(frozen=True)
class CheckpointDetail:
    """Everything stored for one checkpoint, decoded."""

    thread_id: str
    checkpoint_id: str
    parent_checkpoint_id: str | None
    metadata: dict[str, Any]
    values: dict[str, Any]
    next: tuple[str, ...]
    writes: tuple[WriteRecord, ...]
    created_at: str


@dataclass(frozen=True)
class PendingInterrupt:
    """A thread waiting for a human: what it asks."""

    thread_id: str
    agent: str
    checkpoint_id: str
    node: str
    payload: Any
    interrupt_id: str


def checkpoint_time(checkpoint_id: str) -> dt.datetime:
    """The creation time encoded in a LangGraph (uuid6) checkpoint id, in UTC."""
    digits = checkpoint_id.replace("-", "")
    ticks = (int(digits[0:8], 16) << 28) | (int(digits[8:12], 16) << 12) | int(digits[13:16], 16)
    # uuid6 counts 100 ns ticks since 1582-10-15, the Gregorian epoch.
    seconds = (ticks - 0x01B21DD213814000) / 10_000_000
    return dt.datetime.fromtimestamp(seconds, tz=dt.UTC)


def _task_nodes(cursor: Any, thread_id: str, task_ids: Sequence[str] | None = None) -> dict[str, str]:
    """Node names of a thread's tasks (of ``task_ids`` only, when given): from the node log, else from the task path."""
    if task_ids is None:
        cursor.execute("SELECT task_id, node FROM node_log WHERE thread_id = ? AND task_id != ''", (thread_id,))
    else:
        among = ", ".join("?" * max(1, len(task_ids)))
        cursor.execute(
            f"SELECT task_id, node FROM node_log WHERE thread_id = ? AND task_id IN ({among})",
            (thread_id, *(task_ids or ("",))),
        )  # the same table and columns on both backends
    return dict(cursor.fetchall())


def _unique(names: Iterable[str]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(names))


def _scheduled_nodes(store: Store, thread_id: str, checkpoint_id: str) -> tuple[str, ...]:
    """Nodes a leaf checkpoint schedules, read from its channel values (one blob)."""
    saved = _saved(store, thread_id, checkpoint_id)
    if saved is None:
        return ()
    return scheduled_nodes_of(saved.checkpoint.get("channel_values", {}))


def checkpoint_chain(store: Store, thread_id: str) -> list[ChainCheckpoint]:
    """A thread's checkpoints, oldest first, from the metadata, parent and writes columns.

    ``writers`` are the nodes whose completed writes are stored against the
    checkpoint (they produced its child); ``next`` are the nodes that ran, or
    are to run, from it. Only leaf checkpoints without writes decode a blob.
    A checkpoint is waiting for a human only when it is the head and one of its
    tasks wrote an interrupt and nothing else: an interrupt under an older
    checkpoint was answered, or left behind, on the way to the head (an
    ``update_state`` while waiting, a re-run from an earlier checkpoint).
    """
    nodelog_queue.flush(store)  # the node log names a Send's tasks: this process's queued calls too
    return _read_chain(store, thread_id)[0]


def chain_links(store: Store, thread_id: str) -> list[tuple[str, str | None]]:
    """(checkpoint id, parent id) of a thread's checkpoints, oldest first: the tree without its metadata."""
    with store.read() as cursor:
        return [(row[0], row[1]) for row in store.queries.links(cursor, thread_id)]


def chain_points(
    store: Store, thread_id: str, checkpoint_ids: Sequence[str], *, head_id: str, parents: Container[str]
) -> list[ChainCheckpoint]:
    """The entries of :func:`checkpoint_chain` of these checkpoints only, oldest first (what a window draws).

    Reads the metadata and writes of the listed checkpoints alone; ``head_id`` and ``parents`` (the ids
    that have a child) come from :func:`chain_links`, which tells them for the whole thread.
    """
    return _read_chain(store, thread_id, (checkpoint_ids, head_id, parents))[0]


#: Unnamed tasks whose node-log rows :func:`_read_chain` reads by id; beyond, it reads the thread's whole log.
NAMED_AT_ONCE = 500


def _read_chain(
    store: Store, thread_id: str, only: tuple[Sequence[str], str, Container[str]] | None = None
) -> tuple[list[ChainCheckpoint], dict[str, str]]:
    """The chain (see :func:`checkpoint_chain`) and the node-log task map it was named with.

    ``only``: (checkpoint ids, head id, ids with a child) to read those checkpoints alone.
    """
    with collector_paused():
        return _chain_of(store, thread_id, only)


def _chain_of(
    store: Store, thread_id: str, only: tuple[Sequence[str], str, Container[str]] | None
) -> tuple[list[ChainCheckpoint], dict[str, str]]:
    """:func:`_read_chain`, with the collector as it is."""
    with store.read() as cursor:
        if only is None:
            rows = store.queries.chain(cursor, thread_id)
            task_rows = store.queries.tasks(cursor, thread_id)
        else:
            rows = store.queries.chain_of(cursor, thread_id, only[0])
            task_rows = store.queries.tasks_of(cursor, thread_id, only[0])
        # Only a task whose path names no node (a Send's, an update's) needs the node log: its rows
        # alone are read, or the thread's whole log when there are too many to list. The whole chain's
        # map also names the whole graph's task (a write made outside any node, for the details).
        unnamed = [task_id for _, task_id, path, _, _ in task_rows if not (path or "").startswith(PULL_PREFIX)]
        if unnamed and only is None:
            unnamed.append(NULL_TASK_ID)
        listed = None if len(unnamed) > NAMED_AT_ONCE else unnamed
        known = {} if not unnamed else _task_nodes(cursor, thread_id, listed)
    if not rows:
        return [], known
    tasks = tasks_by_checkpoint(
        task_rows, known, lambda checkpoint_id: prepared_task_names(store, thread_id, checkpoint_id)
    )
    scheduled, completed, interrupted = tasks.scheduled, tasks.completed, tasks.interrupted
    head_id, parents = (rows[-1][0], {row[1] for row in rows}) if only is None else only[1:]
    chain: list[ChainCheckpoint] = []
    append, scheduled_of, completed_of = chain.append, scheduled.get, completed.get
    # tuple.__new__ with the fields in order is what ChainCheckpoint(...) does, without its keyword handling.
    new, point_type = tuple.__new__, ChainCheckpoint
    for checkpoint_id, parent_id, step, source in rows:
        next_nodes = scheduled_of(checkpoint_id, ())
        if not next_nodes and checkpoint_id not in parents:
            next_nodes = _scheduled_nodes(store, thread_id, checkpoint_id)
        is_head = checkpoint_id == head_id
        append(
            new(
                point_type,
                (
                    checkpoint_id,
                    parent_id,
                    step if step.__class__ is int else -1 if step is None else int(step),
                    source if source.__class__ is str and source else "unknown" if not source else str(source),
                    completed_of(checkpoint_id, ()),
                    next_nodes,
                    is_head,
                    is_head and checkpoint_id in interrupted,
                    "",
                ),
            )
        )
    return chain, known


def head_checkpoint_id(store: Store, thread_id: str) -> str | None:
    """The id of a thread's latest checkpoint, or None when the thread does not exist."""
    with store.read() as cursor:
        cursor.execute(
            "SELECT MAX(checkpoint_id) FROM checkpoints WHERE thread_id = ? AND checkpoint_ns = ''",
            (thread_id,),
        )  # the same table and columns on both backends
        row = cursor.fetchone()
    return row[0] if row else None


def has_checkpoint(store: Store, thread_id: str, checkpoint_id: str) -> bool:
    """Whether the thread has a (root-namespace) checkpoint with this id."""
    with store.read() as cursor:
        cursor.execute(
            "SELECT 1 FROM checkpoints WHERE thread_id = ? AND checkpoint_ns = '' AND checkpoint_id = ?",
            (thread_id, checkpoint_id),
        )
        return cursor.fetchone() is not None


def check_checkpoint(store: Store, thread_id: str, checkpoint_id: str | None) -> None:
    """Raises ``InputError`` naming ``checkpoint_id`` unless it is None or one of the thread's checkpoints."""
    if checkpoint_id is not None and not has_checkpoint(store, thread_id, checkpoint_id):
        raise InputError(
            "checkpoint_id",
            text(STRINGS, "error.no_checkpoint", checkpoint=repr(checkpoint_id), thread=repr(thread_id)),
        )


def holds_a_taken_answer(store: Store, thread_id: str) -> bool:
    """Whether a task at the thread's head took an answer from ``interrupt()`` and then failed.

    A run that failed after its node took the answer (the node raised, or the database refused the
    node's last write) leaves that answer saved with the task's error. Resumed again, LangGraph hands
    the task the saved answer before a new one: the next person's answer would be replaced by the
    earlier one and recorded under the next person's name. ``runs.resume_thread`` resumes a copy of
    such a head (LangGraph's ``__copy__`` update), which holds no writes, so the task asks afresh.
    A task that took one answer and asks its next question, with no error, is left as it is.
    """
    head = store.saver.get_tuple({"configurable": {"thread_id": thread_id, "checkpoint_ns": ""}})
    channels: dict[str, set[str]] = defaultdict(set)
    for task_id, channel, _ in (head.pending_writes or []) if head is not None else []:
        if task_id != NULL_TASK_ID:
            channels[task_id].add(channel)
    return any({RESUME_CHANNEL, ERROR_CHANNEL} <= found for found in channels.values())


def thread_agent(store: Store, thread_id: str) -> str | None:
    """The agent a thread belongs to, from its checkpoints' metadata; None when none names one (or no thread).

    Raises:
        DamagedValueError: None names one because the head's metadata cannot be read (read only then).
    """
    with store.read() as cursor:
        agent = store.queries.agent(cursor, thread_id)
    if agent is None:
        store.saver.get_tuple({"configurable": {"thread_id": thread_id, "checkpoint_ns": ""}})
    return agent


def thread_language(store: Store, thread_id: str) -> str:
    """The language a thread's run started in, from its checkpoints' metadata (English when none is recorded).

    Every later operation on the thread (resume, continue, update, fork) speaks it, whoever asks.
    """
    with store.read() as cursor:
        return language_or_default(store.queries.language(cursor, thread_id))


#: Checkpoints whose writes :func:`iter_checkpoint_details` reads in one query: bounds its memory.
DETAIL_BATCH = 200


def _saved(store: Store, thread_id: str, checkpoint_id: str) -> Any:
    return store.saver.get_tuple(
        {"configurable": {"thread_id": thread_id, "checkpoint_ns": "", "checkpoint_id": checkpoint_id}}
    )


def checkpoint_detail(store: Store, thread_id: str, checkpoint_id: str) -> CheckpointDetail | None:
    """One checkpoint decoded with LangGraph's serializer: values, metadata, next, writes.

    For every checkpoint of a thread, :func:`iter_checkpoint_details` reads the same in one pass.
    """
    nodelog_queue.flush(store)  # the node log names a Send's tasks: this process's queued calls too
    saved = _saved(store, thread_id, checkpoint_id)
    if saved is None:
        return None
    with store.read() as cursor:
        rows = [row[1:] for row in store.queries.writes_between(cursor, thread_id, checkpoint_id, checkpoint_id)]
        known = _task_nodes(cursor, thread_id, list(dict.fromkeys(row[0] for row in rows)))
    return _detail(store, thread_id, saved, rows, known, lambda child_of: _has_children(store, thread_id, child_of))


def iter_checkpoint_details(store: Store, thread_id: str) -> Iterator[tuple[ChainCheckpoint, CheckpointDetail]]:
    """Every checkpoint of a thread with its detail, oldest first; equal to :func:`checkpoint_detail` on each.

    Linear in the thread's size: the node-log task map is read once, the writes in
    batches of :data:`DETAIL_BATCH` checkpoints (so memory does not grow with the
    thread), and which checkpoints have children is known from the chain's parents.
    A checkpoint deleted while the thread is read is left out.
    """
    nodelog_queue.flush(store)  # the node log names a Send's tasks: this process's queued calls too
    chain, known = _read_chain(store, thread_id)
    parents = {entry.parent_checkpoint_id for entry in chain if entry.parent_checkpoint_id}
    for start in range(0, len(chain), DETAIL_BATCH):
        batch = chain[start : start + DETAIL_BATCH]
        with store.read() as cursor:
            rows = store.queries.writes_between(cursor, thread_id, batch[0].checkpoint_id, batch[-1].checkpoint_id)
        writes: dict[str, Rows] = defaultdict(list)
        for checkpoint_id, *write in rows:
            writes[checkpoint_id].append(tuple(write))
        for entry in batch:
            saved = _saved(store, thread_id, entry.checkpoint_id)
            if saved is not None:
                yield entry, _detail(store, thread_id, saved, writes[entry.checkpoint_id], known, parents.__contains__)


def _detail(
    store: Store,
    thread_id: str,
    saved: Any,
    rows: Rows,
    known: dict[str, str],
    has_children: Callable[[str], bool],
) -> CheckpointDetail:
    """A checkpoint's detail from its saved tuple and its write rows (task id, path, channel, type, blob).

    ``has_children(checkpoint_id)`` is asked only for a checkpoint without writes (a leaf, or a fork point).
    """
    checkpoint_id = saved.config["configurable"]["checkpoint_id"]
    serde = store.saver.serde
    nodes, next_nodes = _write_nodes(store, thread_id, checkpoint_id, rows, known)
    writes = tuple(
        WriteRecord(task_id, nodes[task_id], channel, serde.loads_typed((type_, blob)))
        for task_id, _path, channel, type_, blob in rows
    )
    channel_values = saved.checkpoint.get("channel_values", {})
    values = {k: v for k, v in channel_values.items() if not is_internal_channel(k)}
    if not next_nodes and not has_children(checkpoint_id):
        next_nodes = scheduled_nodes_of(channel_values)
    return CheckpointDetail(
        thread_id=thread_id,
        checkpoint_id=checkpoint_id,
        parent_checkpoint_id=(saved.parent_config or {}).get("configurable", {}).get("checkpoint_id"),
        metadata=dict(saved.metadata),
        values=values,
        next=next_nodes,
        writes=writes,
        created_at=str(saved.checkpoint.get("ts", "")),
    )


def _write_nodes(
    store: Store, thread_id: str, checkpoint_id: str, rows: Rows, known: dict[str, str]
) -> tuple[dict[str, str], tuple[str, ...]]:
    """Task id → node of a checkpoint's write rows, and the nodes of its tasks as the chain orders them.

    Named as :func:`agents.tasknames.tasks_by_checkpoint` names them: a task by its node-log row, else by its
    greatest task path; a fresh ``update_state`` (no task of LangGraph's) is not in the order.
    """
    paths: dict[str, str] = {}
    for task_id, path, *_ in rows:
        paths[task_id] = max(paths.get(task_id, ""), path or "")
    nodes: dict[str, str] = {}
    prepared: dict[str, str] | None = None
    for task_id, path in paths.items():
        unnamed = task_id not in known and path.startswith(UPDATE_PREFIX)
        if unnamed and not is_fresh_update(checkpoint_id, task_id, path):
            if prepared is None:
                prepared = prepared_task_names(store, thread_id, checkpoint_id)
            nodes[task_id] = prepared.get(task_id, UPDATE_WRITER)
        else:
            nodes[task_id] = _node_of(task_id, path, known)
    order = sorted(
        (path, task_id)
        for task_id, path in paths.items()
        if task_id != NULL_TASK_ID and not is_fresh_update(checkpoint_id, task_id, path)
    )
    return nodes, _unique(nodes[task_id] for _, task_id in order)


def _has_children(store: Store, thread_id: str, checkpoint_id: str) -> bool:
    with store.read() as cursor:
        cursor.execute(
            "SELECT 1 FROM checkpoints WHERE thread_id = ? AND checkpoint_ns = '' AND parent_checkpoint_id = ? LIMIT 1",
            (thread_id, checkpoint_id),
        )
        return cursor.fetchone() is not None


def is_internal_channel(name: str) -> bool:
    """Whether a channel is LangGraph's bookkeeping (branches, ``__start__``...), not agent state."""
    return name.startswith("branch:") or name.startswith("__")


def table_counts(store: Store, thread_id: str) -> dict[str, int]:
    """Row counts of a thread in LangGraph's two tables."""
    with store.read() as cursor:
        checkpoints, writes = store.queries.counts(cursor, thread_id)
    return {"checkpoints": int(checkpoints), "writes": int(writes)}


def to_jsonable(value: Any) -> Any:
    """Converts decoded state to JSON-ready data; a message becomes ``{"type", "content"}``."""
    if isinstance(value, BaseMessage):
        return {"type": value.type, "content": value.content}
    if is_instance(value, "langgraph.types", "Interrupt"):
        return {"value": to_jsonable(value.value), "id": value.id}
    if is_instance(value, "langgraph.types", "Send"):
        return {"send_to": value.node, "arg": to_jsonable(value.arg)}
    if isinstance(value, dict):
        return {str(k): to_jsonable(v) for k, v in value.items()}
    if isinstance(value, list | tuple | set | frozenset):
        return [to_jsonable(v) for v in value]
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return to_jsonable(dataclasses.asdict(value))
    if hasattr(value, "model_dump"):
        return to_jsonable(value.model_dump())
    if isinstance(value, dt.datetime | dt.date):
        return value.isoformat()
    if value is None or isinstance(value, str | int | float | bool):
        return value
    return repr(value)


def to_json(value: Any) -> str:
    """Pretty JSON of decoded data, Korean kept readable."""
    return json.dumps(to_jsonable(value), ensure_ascii=False, indent=2)


#: What :mod:`agents.threadindex` names tasks and reads checkpoints with: the same rules as here.
saved_tuple = _saved
task_nodes = _task_nodes
