"""The node log: one row per node call, in the shared database, written off the hot path.

Every node of every agent is wrapped by :func:`logged_node`. A call is queued
when it starts and again when it ends (``ok``, ``error`` or ``interrupted``), and
written in batches (``agents.nodelog_queue``). A node that pauses on ``interrupt()``
therefore shows as ``interrupted``, and its re-entry on resume as a second row.

The queue is written at once (``agents.nodelog_queue.flush``), before the wrapper returns or
raises, when a call ends in an interrupt or an error (so a thread's status may
rely on the log for an error LangGraph could not save), at the end of every run
(``agents.runs``), before this module's readers read, and at exit. So a process
killed with ``kill -9`` loses at most the rows of the calls queued in its last
``agents.nodelog_queue.FLUSH_INTERVAL`` seconds (a call that was running may then be missing, or
left ``running``, instead of showing how it ended): timing rows, never a
checkpoint, a payout or a status, which LangGraph's own commits and the
project's other tables hold. (A lost ``running`` row of a task whose previous
call ended in such an error leaves that error as the thread's reason, instead
of "stopped": ``attention`` either way.)

SQLite's write lock and busy timeout, and PostgreSQL's transactions, make several
processes' writers safe; parallel nodes (threads) only append to the queue, under its lock.
"""

from __future__ import annotations

import functools
import inspect
import time
from collections.abc import Callable
from typing import Any

from langchain_core.runnables import RunnableConfig

from agents import nodelog_queue
from agents.db import DatabaseError, Store, db_text
from agents.loaded import is_instance
from agents.nodelog_queue import Call, flush
from agents.schema import NODE_LOG_COLUMNS

#: How a node names its call in the log: ``label_of(state) -> str``.
LabelFunction = Callable[[Any], str]


def _call_identity(config: RunnableConfig) -> tuple[str, str, str, int]:
    """Thread id, run id, task id and superstep of the current node call."""
    configurable = config.get("configurable", {})
    metadata = config.get("metadata", {})
    namespace = str(metadata.get("langgraph_checkpoint_ns", ""))
    # The task's namespace is "node:task_id" (nested graphs join levels with "|").
    task_id = namespace.split("|")[-1].rpartition(":")[2]
    return (
        str(configurable.get("thread_id", "")),
        str(metadata.get("run_id", "")),
        task_id,
        int(metadata.get("langgraph_step", 0)),
    )


def _start(store: Store, agent: str, node: str, label: str, config: RunnableConfig) -> Call:
    """Queues the call's ``running`` row (before the node's body runs); returns the call.

    Raises:
        DatabaseError: The store is read-only (as a write to it would).
    """
    if store.read_only:
        raise DatabaseError(db_text("read_only_change", path=store.path))
    thread_id, run_id, task_id, step = _call_identity(config)
    call = Call((agent, thread_id, run_id, node, task_id, step, label, time.time(), "running"))
    nodelog_queue.writer(store).start(call)
    return call


def _finish(store: Store, call: Call, status: str, error: str = "") -> None:
    """Queues the call's end; an interrupt or an error is written before this returns."""
    writer = nodelog_queue.writer(store)
    writer.end(call, (time.time(), status, error[:2000]))
    if status != "ok":
        writer.flush()


def _outcome(error: BaseException) -> tuple[str, str]:
    if is_instance(error, "langgraph.errors", "GraphBubbleUp"):
        # interrupt() and Command(goto=...) bubble up; neither is a failure.
        return "interrupted", ""
    return "error", f"{type(error).__name__}: {error}"


def logged_node(
    store: Store,
    agent: str,
    node: Callable[..., Any],
    *,
    name: str | None = None,
    label_of: LabelFunction | None = None,
) -> Callable[..., Any]:
    """Wraps a node (sync or async) so that every call is written to the node log.

    Args:
        store: The database the log lives in.
        agent: The agent's registry name.
        node: The node function ``(state)`` or ``(state, config)``.
        name: The node name (defaults to the function's name).
        label_of: Gives the row's label from the node's input, e.g. a subtopic.

    Returns:
        A callable with the signature ``(state, config)`` that LangGraph can run.
    """
    node_name = name or node.__name__
    takes_config = len(inspect.signature(node).parameters) > 1

    if inspect.iscoroutinefunction(node):

        async def async_wrapper(state: Any, config: RunnableConfig) -> Any:
            call = _begin(store, agent, node_name, label_of, state, config)
            try:
                result = await (node(state, config) if takes_config else node(state))
            except BaseException as error:
                _finish(store, call, *_outcome(error))
                raise
            _finish(store, call, "ok")
            return result

        async_wrapper.__name__ = node_name
        return async_wrapper

    wrapper = functools.partial(_logged_call, store, agent, node_name, node, takes_config, label_of)
    wrapper.__name__ = node_name  # type: ignore[attr-defined]
    return wrapper


def _logged_call(
    store: Store,
    agent: str,
    name: str,
    node: Callable[..., Any],
    takes_config: bool,
    label_of: LabelFunction | None,
    state: Any,
    config: RunnableConfig,
) -> Any:
    """One call of a sync logged node, written to the node log; ``logged_node`` binds all but the last two.

    A ``functools.partial`` of this function rather than a closure: compiling a graph looks for subgraphs
    among the values a node function reaches, by reading its bytecode (about a third of a graph's compile
    for a closure over the store); a partial is not read, and a logged node has no subgraph of its own to
    find (the node it wraps is called, never handed to LangGraph). Its signature is ``(state, config)``:
    LangGraph reads it to decide whether to pass the config, and a logged node always needs it.
    """
    call = _begin(store, agent, name, label_of, state, config)
    try:
        result = node(state, config) if takes_config else node(state)
    except BaseException as error:
        _finish(store, call, *_outcome(error))
        raise
    _finish(store, call, "ok")
    return result


def _begin(
    store: Store, agent: str, name: str, label_of: LabelFunction | None, state: Any, config: RunnableConfig
) -> Call:
    """The ``running`` row of a node's call, labelled from its input."""
    return _start(store, agent, name, label_of(state) if label_of else "", config)


def node_runs(
    store: Store,
    *,
    thread_id: str | None = None,
    run_id: str | None = None,
    agent: str | None = None,
) -> list[dict[str, Any]]:
    """Node-log rows as dicts (keys :data:`NODE_LOG_COLUMNS`), oldest start first (this process's queued ones too)."""
    flush(store)
    clauses, params = [], []
    for column, value in (("thread_id", thread_id), ("run_id", run_id), ("agent", agent)):
        if value is not None:
            clauses.append(f"{column} = ?")
            params.append(value)
    where = f"WHERE {' AND '.join(clauses)}" if clauses else ""
    with store.read() as cursor:
        cursor.execute(
            f"SELECT {', '.join(NODE_LOG_COLUMNS)} FROM node_log {where} ORDER BY started_at, id",
            params,
        )
        return [dict(zip(NODE_LOG_COLUMNS, row, strict=True)) for row in cursor.fetchall()]


def latest_calls(store: Store, thread_id: str, task_ids: list[str]) -> dict[str, tuple[str, str]]:
    """Task id → (status, error) of its latest call in the log, for those of ``task_ids`` that have one.

    The log has a node's error even when LangGraph could not save it with the task (an exception its
    serializer refuses): the row is ended before the error reaches LangGraph. A latest call still
    ``running`` is in flight or was killed: its end, when it comes, updates the row (adds none).
    """
    if not task_ids:
        return {}
    flush(store)
    marks = ", ".join("?" * len(task_ids))
    with store.read() as cursor:
        cursor.execute(
            f"SELECT task_id, status, error FROM node_log WHERE thread_id = ? AND task_id IN ({marks})"
            " ORDER BY started_at, id",
            [thread_id, *task_ids],
        )
        return {task_id: (status, error) for task_id, status, error in cursor.fetchall()}


#: Threads per query of :func:`latest_row_ids`.
_THREADS_PER_QUERY = 400


def latest_row_ids(store: Store, thread_ids: list[str]) -> dict[str, int]:
    """Thread id → the id of its newest node-log row (a row is added per call), for those with one."""
    flush(store)
    found: dict[str, int] = {}
    with store.read() as cursor:
        for start in range(0, len(thread_ids), _THREADS_PER_QUERY):
            chunk = thread_ids[start : start + _THREADS_PER_QUERY]
            cursor.execute(
                f"SELECT thread_id, MAX(id) FROM node_log WHERE thread_id IN ({', '.join('?' * len(chunk))})"
                " GROUP BY thread_id",
                chunk,
            )
            found.update((thread_id, int(row_id)) for thread_id, row_id in cursor.fetchall())
    return found


def delete_node_runs(cursor: Any, thread_id: str) -> None:
    """Removes a thread's node-log rows inside the caller's transaction, and forgets its queued ones."""
    nodelog_queue.drop_thread(thread_id)
    cursor.execute("DELETE FROM node_log WHERE thread_id = ?", (thread_id,))
