"""The node log: one row per node call, in the shared database, written off the hot path.

Every node of every agent is wrapped by :func:`logged_node`. A call is queued
when it starts and again when it ends (``ok``, ``error`` or ``interrupted``);
one writer per store and process (a thread) drains the queue in batches, one
transaction per batch, at most :data:`FLUSH_INTERVAL` seconds after a call was
queued. A call that ended before its batch was written is written as one
finished row; one still running is written ``running`` and completed later.
A node that pauses on ``interrupt()`` therefore shows as ``interrupted``, and
its re-entry on resume as a second row.

The queue is written at once (:func:`flush`), before the wrapper returns or
raises, when a call ends in an interrupt or an error (so a thread's status may
rely on the log for an error LangGraph could not save), at the end of every run
(``agents.runs``), before this module's readers read, and at exit. So a process
killed with ``kill -9`` loses at most the rows of the calls queued in its last
:data:`FLUSH_INTERVAL` seconds (a call that was running may then be missing, or
left ``running``, instead of showing how it ended): timing rows, never a
checkpoint, a payout or a status, which LangGraph's own commits and the
project's other tables hold.

Rows are written by one writer per store in a process; SQLite's write lock and
busy timeout, and PostgreSQL's transactions, make several processes safe.
Parallel nodes (threads) only append to the queue, under its lock.
"""

from __future__ import annotations

import atexit
import inspect
import logging
import os
import threading
import time
import weakref
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from langchain_core.runnables import RunnableConfig

from agents.db import DatabaseError, Store, insert_sql
from agents.loaded import is_instance
from agents.schema import NODE_LOG_COLUMNS

logger = logging.getLogger(__name__)

#: How a node names its call in the log: ``label_of(state) -> str``.
LabelFunction = Callable[[Any], str]
#: At most this many seconds pass between a call being queued and its batch being written.
FLUSH_INTERVAL = 0.2


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


#: The columns of a call's row as :func:`_start` gives them, then those its end adds.
_START_COLUMNS = ("agent", "thread_id", "run_id", "node", "task_id", "step", "label", "started_at", "status")
_ROW_COLUMNS = (*_START_COLUMNS, "ended_at", "error")
_FINISH_SQL = "UPDATE node_log SET ended_at = ?, status = ?, error = ? WHERE id = ? AND started_at = ?"


@dataclass(eq=False, slots=True)
class Call:
    """One node call, as queued: its row's values, its end once it ended, its row id once written.

    The end write matches the row's id and its start time: SQLite gives a new row the largest id
    plus one, so when a thread's rows are the newest and the thread is deleted, their ids come
    back. A late end write (of a call whose thread was deleted under it) then changes nothing
    rather than the row that got its id.
    """

    values: tuple[Any, ...]
    end: tuple[float, str, str] | None = None
    row_id: int | None = None
    queued: bool = True
    dropped: bool = False

    @property
    def thread_id(self) -> str:
        return str(self.values[1])

    @property
    def started_at(self) -> float:
        return float(self.values[7])


class _Writer:
    """One store's queue in this process, and the thread that writes it in batches."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.queue: list[Call] = []
        self.queue_lock = threading.Lock()  # held for an append or a swap, never for a write
        self.write_lock = threading.Lock()  # one batch at a time, in queue order
        self.running = False
        self.thread: threading.Thread | None = None

    def start(self, call: Call) -> None:
        """Queues a call's start."""
        with self.queue_lock:
            self.queue.append(call)
            if self.running:
                return
            self.running = True
        self._start_thread()

    def end(self, call: Call, end: tuple[float, str, str]) -> None:
        """Records a call's end; queues the call again when its row was written without it."""
        with self.queue_lock:
            call.end = end
            if call.queued or call.dropped:
                return  # its queued start is written with this end, or not at all
            call.queued = True
            self.queue.append(call)
            if self.running:
                return
            self.running = True
        self._start_thread()

    def _start_thread(self) -> None:
        self.thread = threading.Thread(target=self._drain, name="node-log-writer", daemon=True)
        self.thread.start()

    def _drain(self) -> None:
        """Writes a batch every :data:`FLUSH_INTERVAL` seconds; ends when a wait found nothing queued."""
        while True:
            time.sleep(FLUSH_INTERVAL)
            with self.queue_lock:
                if not self.queue:
                    self.running = False
                    return
            try:
                self.flush()
            except Exception as error:  # timing rows: a refused batch is logged, not retried forever
                logger.warning("the node log could not write a batch to %s: %s", self.store.path, error)

    def flush(self) -> None:
        """Writes everything queued so far, in one transaction; returns once it is committed."""
        with self.write_lock:
            with self.queue_lock:
                batch, self.queue = self.queue, []
                taken = []
                for call in batch:
                    call.queued = False
                    if not call.dropped:
                        taken.append((call, call.end))  # the end as it was when taken
            if not taken:
                return
            with self.store.transaction() as cursor:
                for call, end in taken:
                    if call.row_id is None:
                        values = (*call.values, None, "") if end is None else _ended(call.values, end)
                        cursor.execute(f"{insert_sql('node_log', _ROW_COLUMNS)} RETURNING id", values)
                        call.row_id = int(cursor.fetchone()[0])
                    elif end is not None:
                        cursor.execute(_FINISH_SQL, (*end, call.row_id, call.started_at))

    def drop_thread(self, thread_id: str) -> None:
        """Forgets the queued, unwritten calls of a thread being deleted; their ends are not written."""
        with self.queue_lock:
            for call in self.queue:
                if call.row_id is None and call.thread_id == thread_id:
                    call.dropped = True


def _ended(values: tuple[Any, ...], end: tuple[float, str, str]) -> tuple[Any, ...]:
    """A finished call's whole row: its start values with the end's status, then its end time and error."""
    ended_at, status, error = end
    return (*values[:-1], status, ended_at, error)


_writers: weakref.WeakKeyDictionary[Store, _Writer] = weakref.WeakKeyDictionary()
_writers_lock = threading.Lock()


def _writer(store: Store) -> _Writer:
    with _writers_lock:
        found = _writers.get(store)
        if found is None:
            found = _writers[store] = _Writer(store)
        return found


def _forget_after_fork() -> None:
    """A forked child starts with no queue and no writer: the parent writes its own rows."""
    global _writers_lock
    _writers_lock = threading.Lock()
    _writers.clear()


os.register_at_fork(after_in_child=_forget_after_fork)


def flush(store: Store) -> None:
    """Writes this process's queued node-log rows of ``store`` now; returns once they are committed."""
    with _writers_lock:
        found = _writers.get(store)
    if found is not None:
        found.flush()


def _flush_at_exit() -> None:
    with _writers_lock:
        writers = list(_writers.values())
    for found in writers:
        try:
            found.flush()
        except Exception as error:  # a store closed before exit: its unwritten rows are lost, as on a kill
            logger.warning("the node log's last rows were not written to %s: %s", found.store.path, error)


atexit.register(_flush_at_exit)


def _start(store: Store, agent: str, node: str, label: str, config: RunnableConfig) -> Call:
    """Queues the call's ``running`` row (before the node's body runs); returns the call.

    Raises:
        DatabaseError: The store is read-only (as a write to it would).
    """
    if store.read_only:
        raise DatabaseError(f"{store.path} is read-only; nothing can be changed")
    thread_id, run_id, task_id, step = _call_identity(config)
    call = Call((agent, thread_id, run_id, node, task_id, step, label, time.time(), "running"))
    _writer(store).start(call)
    return call


def _finish(store: Store, call: Call, status: str, error: str = "") -> None:
    """Queues the call's end; an interrupt or an error is written before this returns."""
    writer = _writer(store)
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
        A function with the signature ``(state, config)`` that LangGraph can run.
    """
    node_name = name or node.__name__
    takes_config = len(inspect.signature(node).parameters) > 1

    def begin(state: Any, config: RunnableConfig) -> Call:
        label = label_of(state) if label_of else ""
        return _start(store, agent, node_name, label, config)

    if inspect.iscoroutinefunction(node):

        async def async_wrapper(state: Any, config: RunnableConfig) -> Any:
            call = begin(state, config)
            try:
                result = await (node(state, config) if takes_config else node(state))
            except BaseException as error:
                _finish(store, call, *_outcome(error))
                raise
            _finish(store, call, "ok")
            return result

        async_wrapper.__name__ = node_name
        return async_wrapper

    # No functools.wraps: LangGraph reads the signature to decide whether to
    # pass the config, and the wrapper always needs it.
    def wrapper(state: Any, config: RunnableConfig) -> Any:
        call = begin(state, config)
        try:
            result = node(state, config) if takes_config else node(state)
        except BaseException as error:
            _finish(store, call, *_outcome(error))
            raise
        _finish(store, call, "ok")
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
    with _writers_lock:
        writers = list(_writers.values())
    for found in writers:
        found.drop_thread(thread_id)
    cursor.execute("DELETE FROM node_log WHERE thread_id = ?", (thread_id,))
