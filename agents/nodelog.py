"""The node log: one row per node call, in the shared database.

Every node of every agent is wrapped by :func:`logged_node`. The wrapper
inserts a ``running`` row when the call starts and completes it with ``ok``,
``error`` or ``interrupted`` when the call ends. A node that pauses on
``interrupt()`` therefore shows as ``interrupted``, and its re-entry on
resume as a second row. A crash leaves the row ``running`` with no end time,
which is exactly what happened. Each write is committed at once, as one
statement: the ``running`` row before the node's body runs, the end before
LangGraph saves the node's writes (two commits per call; see
``benchmarks/bench_nodelog.py`` for why neither can share one of LangGraph's, and
what each costs).

Rows are written under the store's lock, so parallel nodes (threads) are safe;
SQLite's write lock and busy timeout make several processes safe.
"""

from __future__ import annotations

import inspect
import time
from collections.abc import Callable
from typing import Any

from langchain_core.runnables import RunnableConfig
from langgraph.errors import GraphBubbleUp

from agents.db import Store
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


#: The columns :func:`_start` writes, in the order of its values.
_START_COLUMNS = ("agent", "thread_id", "run_id", "node", "task_id", "step", "label", "started_at", "status")
_FINISH_SQL = "UPDATE node_log SET ended_at = ?, status = ?, error = ? WHERE id = ? AND started_at = ?"


class RowId(int):
    """A node-log row's id, with its start time.

    The end write matches both: SQLite gives a new row the largest id plus one, so when a
    thread's rows are the newest and the thread is deleted, their ids come back. A late end
    write (of a call whose thread was deleted under it) then changes nothing rather than the
    row that got its id.
    """

    started_at: float


def _start(store: Store, agent: str, node: str, label: str, config: RunnableConfig) -> RowId:
    """Commits the call's ``running`` row (before the node's body runs); returns its id."""
    thread_id, run_id, task_id, step = _call_identity(config)
    started_at = time.time()
    values = (agent, thread_id, run_id, node, task_id, step, label, started_at, "running")
    row_id = RowId(store.insert("node_log", _START_COLUMNS, values))
    row_id.started_at = started_at
    return row_id


def _finish(store: Store, row_id: RowId, status: str, error: str = "") -> None:
    """Commits the call's end (before LangGraph saves the node's writes)."""
    store.execute_one(_FINISH_SQL, (time.time(), status, error[:2000], int(row_id), row_id.started_at))


def _outcome(error: BaseException) -> tuple[str, str]:
    if isinstance(error, GraphBubbleUp):
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
        A function with the signature ``(state, config)`` that LangGraph can run.
    """
    node_name = name or node.__name__
    takes_config = len(inspect.signature(node).parameters) > 1

    def begin(state: Any, config: RunnableConfig) -> RowId:
        label = label_of(state) if label_of else ""
        return _start(store, agent, node_name, label, config)

    if inspect.iscoroutinefunction(node):

        async def async_wrapper(state: Any, config: RunnableConfig) -> Any:
            row_id = begin(state, config)
            try:
                result = await (node(state, config) if takes_config else node(state))
            except BaseException as error:
                _finish(store, row_id, *_outcome(error))
                raise
            _finish(store, row_id, "ok")
            return result

        async_wrapper.__name__ = node_name
        return async_wrapper

    # No functools.wraps: LangGraph reads the signature to decide whether to
    # pass the config, and the wrapper always needs it.
    def wrapper(state: Any, config: RunnableConfig) -> Any:
        row_id = begin(state, config)
        try:
            result = node(state, config) if takes_config else node(state)
        except BaseException as error:
            _finish(store, row_id, *_outcome(error))
            raise
        _finish(store, row_id, "ok")
        return result

    wrapper.__name__ = node_name
    return wrapper


def node_runs(
    store: Store,
    *,
    thread_id: str | None = None,
    run_id: str | None = None,
    agent: str | None = None,
) -> list[dict[str, Any]]:
    """Node-log rows as dicts (keys :data:`NODE_LOG_COLUMNS`), oldest start first."""
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
    """Removes a thread's node-log rows inside the caller's transaction."""
    cursor.execute("DELETE FROM node_log WHERE thread_id = ?", (thread_id,))
