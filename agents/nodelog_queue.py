"""The node log's queue: calls queued off the hot path and written in batches, one writer per store.

``agents.nodelog.logged_node`` queues a call when it starts and again when it ends; one writer per
store and process (a thread, running while there is something to write) writes the queue in
batches, one transaction each, at most :data:`FLUSH_INTERVAL` seconds after a call was queued: a
call that ended before its batch as one finished row, one still running as ``running``, completed
by a later batch. :func:`flush` writes the queue at once; every reader of the node log calls it
first, so a read in this process sees every call this process made. What a killed process loses
is what was queued since its writer's last batch (see ``agents.nodelog``).
"""

from __future__ import annotations

import atexit
import logging
import os
import threading
import time
import weakref
from dataclasses import dataclass
from typing import Any

from agents.db import Store, insert_sql

logger = logging.getLogger(__name__)

#: At most this many seconds pass between a call being queued and its batch being written.
FLUSH_INTERVAL = 0.2


#: The columns of a call's row as ``agents.nodelog`` queues it, then those its end adds.
_START_COLUMNS = ("agent", "thread_id", "run_id", "node", "task_id", "step", "label", "started_at", "status")
_ROW_COLUMNS = (*_START_COLUMNS, "ended_at", "error")
_INSERT_SQL = insert_sql("node_log", _ROW_COLUMNS)
_FINISH_SQL = "UPDATE node_log SET ended_at = ?, status = ?, error = ? WHERE id = ? AND started_at = ?"


@dataclass(eq=False, slots=True)
class Call:
    """One node call, as queued: its row's values, its end once it ended, its row id once written running.

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
                # Calls that ended before their batch (nearly all) are inserted together, in queue
                # order: no id is read back, as nothing is written to their rows again.
                ended: list[tuple[Any, ...]] = []
                for call, end in taken:
                    if call.row_id is None and end is not None:
                        ended.append(_ended(call.values, end))
                        continue
                    if ended:
                        cursor.executemany(_INSERT_SQL, ended)
                        ended = []
                    if call.row_id is None:
                        cursor.execute(f"{_INSERT_SQL} RETURNING id", (*call.values, None, ""))
                        call.row_id = int(cursor.fetchone()[0])
                    elif end is not None:
                        cursor.execute(_FINISH_SQL, (*end, call.row_id, call.started_at))
                if ended:
                    cursor.executemany(_INSERT_SQL, ended)

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


def writer(store: Store) -> _Writer:
    """The store's writer in this process (made on first use)."""
    found = _writers.get(store)  # every node call asks: no lock once the writer exists
    if found is None:
        with _writers_lock:
            found = _writers.setdefault(store, _Writer(store))
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


def drop_thread(thread_id: str) -> None:
    """Forgets every store's queued, unwritten calls of a thread being deleted (this process's)."""
    with _writers_lock:
        writers = list(_writers.values())
    for found in writers:
        found.drop_thread(thread_id)


def _flush_at_exit() -> None:
    with _writers_lock:
        writers = list(_writers.values())
    for found in writers:
        try:
            found.flush()
        except Exception as error:  # a store closed before exit: its unwritten rows are lost, as on a kill
            logger.warning("the node log's last rows were not written to %s: %s", found.store.path, error)


atexit.register(_flush_at_exit)
