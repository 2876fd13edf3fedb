"""Thread leases: one process at a time changes a thread.

The in-process lock (:func:`thread_lock`) serialises threads of one process;
a lease row in the shared database serialises processes (the dashboard and
the CLI, or two dashboards). A lease names its owner's host, process id and
process start time, so a lease left behind by a killed process is taken over
at once rather than after a timeout: crash recovery never waits, and nothing
is lost.

Liveness rule (the same for taking a lease and for :func:`live_leases`):

* Another host's lease is live until :data:`LEASE_MAX_AGE_SECONDS` have passed
  (its process cannot be checked from here).
* On this host a lease is live while a process with its PID exists **and** is
  the same process: its start time (``/proc/<pid>/stat`` field 22, in clock
  ticks since boot, qualified by the boot id) equals the one recorded. A PID
  that was reused (certain for PID 1 after a container restart, possible for
  any PID after a reboot) is another process, and its lease is taken over.
* A lease row of the previous release has no start time: it is live while
  the PID exists and that process started no later than the lease was taken
  (plus :data:`START_SLACK_SECONDS`); a process that started afterwards cannot
  be its owner.
* Without ``/proc`` (not Linux), or when the process's entry cannot be read
  (``hidepid``), the PID alone decides, as before.
* A lease of this very process (its PID and start time) is live only while one of
  its operations holds it (:data:`_HELD`). A release that the database refused (busy past its timeout,
  full) leaves the row behind: this process takes it for dead at once, and it
  deletes the row at its next lease read or attempt, so no other process waits
  on it for longer than the database stays unwritable.
"""

from __future__ import annotations

import logging
import os
import socket
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from agents.db import DatabaseError, Store
from agents.errors import UserError

logger = logging.getLogger(__name__)
HOST = socket.gethostname()
#: A lease of another machine's process (which cannot be checked) is taken over after this long.
LEASE_MAX_AGE_SECONDS = 3600.0
#: How long an operation waits for another process's lease before giving up.
LEASE_WAIT_SECONDS = 120.0
#: Clock jitter allowed when a previous-release lease (no start time) is compared with its process's start.
START_SLACK_SECONDS = 1.0


def _read_boot_id() -> str:
    try:
        return Path("/proc/sys/kernel/random/boot_id").read_text().strip()
    except OSError:
        return ""


#: Changes at every boot: start times in clock ticks since boot are only comparable within one boot.
BOOT_ID = _read_boot_id()
#: The owners of the leases this process's operations hold right now.
_HELD: set[str] = set()
#: Leases this process let go of but could not delete, as (thread, owner): deleted at the next chance.
_LEFT_BEHIND: set[tuple[str, str]] = set()


class ThreadBusyError(UserError):
    """Another process is changing this thread right now."""

    def __init__(self, thread_id: str) -> None:
        super().__init__(
            f"thread {thread_id!r} is being changed by another session or process right now; "
            "nothing was done. Try again when it has finished."
        )
        self.thread_id = thread_id


#: This process's start time (``_start_ticks("self")``) by PID: read once, as it never changes (a forked
#: child has another PID, so it reads its own). Every lease taken reads it; ``/proc`` is slow on a busy host.
_OWN_START: dict[int, int] = {}


def _start_ticks(pid: int | str) -> int | None:
    """The process's start time in clock ticks since boot (``/proc/<pid>/stat`` field 22), or None.

    ``pid`` may be ``"self"``: the calling process, even where ``/proc`` belongs to a parent PID namespace.
    """
    if pid == "self":
        own = os.getpid()
        if own not in _OWN_START and (ticks := _read_start_ticks("self")) is not None:
            _OWN_START[own] = ticks
        return _OWN_START.get(own)
    return _read_start_ticks(pid)


def _read_start_ticks(pid: int | str) -> int | None:
    try:
        stat = Path(f"/proc/{pid}/stat").read_bytes()
        # Field 2 (the command name, in parentheses) may hold spaces and parentheses; field 3 follows the last ')'.
        return int(stat[stat.rindex(b")") + 2 :].split()[19])
    except (OSError, ValueError, IndexError):
        return None


def _process_start(ticks: int | None) -> str | None:
    """A start time as recorded with a lease: the boot id and the clock ticks since that boot."""
    return None if ticks is None else f"{BOOT_ID}:{ticks}"


def _started_after(ticks: int, moment: float) -> bool:
    """Whether a process that started ``ticks`` after boot started after the wall-clock ``moment``."""
    try:
        uptime = float(Path("/proc/uptime").read_text().split()[0])
        started = time.time() - uptime + ticks / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return False
    return started > moment + START_SLACK_SECONDS


def _alive(owner: str, host: str, pid: int, process_start: str | None, acquired_at: float) -> bool:
    """Whether the lease's owner may still be running (the rule in the module docstring)."""
    if host != HOST:
        return time.time() - acquired_at < LEASE_MAX_AGE_SECONDS
    if pid == os.getpid() and process_start is not None and process_start == _process_start(_start_ticks("self")):
        return owner in _HELD  # this very process (not another PID namespace's process of the same PID)
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        pass  # another user's process: it exists
    ticks = _start_ticks(pid)
    if ticks is None:
        return True  # no /proc, or the entry is hidden: the PID alone decides
    if process_start is not None:
        return process_start == _process_start(ticks)
    return not _started_after(ticks, acquired_at)  # a lease row of the previous release


def this_process() -> tuple[str, int, str | None]:
    """This process as a lease records it: (host, PID, start time)."""
    return HOST, os.getpid(), _process_start(_start_ticks("self"))


def process_running(host: str, pid: int, process_start: str | None) -> bool:
    """Whether the process a claim names may still run: another host's cannot be checked (True); on this
    host, a process with that PID and, where ``/proc`` tells, that start time (a reused PID is another)."""
    if host != HOST:
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        pass
    ticks = _start_ticks(pid)
    return ticks is None or process_start is None or process_start == _process_start(ticks)


def _try_acquire(store: Store, thread_id: str, owner: str) -> bool:
    """Takes a free lease, or one whose owner is gone, with a compare-and-swap on the owner.

    Portable SQL (no ``FOR UPDATE``, no ``INSERT OR REPLACE``): of two
    processes racing for the same lease, exactly one insert or one update
    matches, on SQLite and PostgreSQL alike.
    """
    _delete_left_behind(store)
    now, pid = time.time(), os.getpid()
    process_start = _process_start(_start_ticks("self"))
    with store.transaction() as cursor:
        cursor.execute(
            "INSERT INTO thread_leases (thread_id, owner, host, pid, process_start, acquired_at)"
            " VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (thread_id) DO NOTHING",
            (thread_id, owner, HOST, pid, process_start, now),
        )
        if cursor.rowcount == 1:
            return True
        cursor.execute(
            "SELECT owner, host, pid, process_start, acquired_at FROM thread_leases WHERE thread_id = ?", (thread_id,)
        )
        row = cursor.fetchone()
        if row is None:
            return False  # released in between; the next attempt inserts
        holder = row[0]
        if _alive(*row):
            return False
        cursor.execute(
            "UPDATE thread_leases SET owner = ?, host = ?, pid = ?, process_start = ?, acquired_at = ?"
            " WHERE thread_id = ? AND owner = ?",
            (owner, HOST, pid, process_start, now, thread_id, holder),
        )
        return cursor.rowcount == 1


def live_leases(store: Store) -> set[str]:
    """The threads whose lease is held by a live process right now (they are ``running``)."""
    if not store.read_only:
        _delete_left_behind(store)
    with store.read() as cursor:
        cursor.execute("SELECT thread_id, owner, host, pid, process_start, acquired_at FROM thread_leases")
        rows = cursor.fetchall()
    return {thread_id for thread_id, *held in rows if _alive(*held)}


def lease_alive(cursor: Any, thread_id: str) -> bool:
    """Whether a live process holds ``thread_id``'s lease, read with ``cursor`` (inside the caller's transaction)."""
    cursor.execute(
        "SELECT owner, host, pid, process_start, acquired_at FROM thread_leases WHERE thread_id = ?", (thread_id,)
    )
    row = cursor.fetchone()
    return row is not None and _alive(*row)


def _release(store: Store, thread_id: str, owner: str) -> None:
    with store.transaction() as cursor:
        cursor.execute("DELETE FROM thread_leases WHERE thread_id = ? AND owner = ?", (thread_id, owner))


def _delete_left_behind(store: Store) -> None:
    """Deletes the lease rows this process could not delete when it let them go (a busy database)."""
    for thread_id, owner in list(_LEFT_BEHIND):
        try:
            _release(store, thread_id, owner)
        except DatabaseError:
            return  # still refused: the next read or attempt tries again
        _LEFT_BEHIND.discard((thread_id, owner))


@contextmanager
def thread_lease(store: Store, thread_id: str, *, wait: bool = True) -> Iterator[None]:
    """Holds the thread's lease for the duration of the block.

    ``wait``: wait (up to :data:`LEASE_WAIT_SECONDS`) for another process's lease; when False,
    refuse at once.

    Raises:
        ThreadBusyError: Another live process holds the lease.
    """
    owner = uuid.uuid4().hex
    deadline = time.monotonic() + (LEASE_WAIT_SECONDS if wait else 0.0)
    delay = 0.01
    _HELD.add(owner)  # before its row exists: another thread here must never see the row as left behind
    try:
        while not _try_acquire(store, thread_id, owner):
            if time.monotonic() >= deadline:
                raise ThreadBusyError(thread_id)
            time.sleep(delay)  # another process's run is in progress; poll its lease with backoff
            delay = min(delay * 2, 0.25)
    except BaseException:
        _HELD.discard(owner)
        raise
    try:
        yield
    finally:
        _HELD.discard(owner)  # let go here, whether or not the row can be deleted now
        try:
            _release(store, thread_id, owner)
        except DatabaseError as error:  # what the operation did stands; only the row outlives it, for now
            logger.warning("thread %s: its lease could not be released yet: %s", thread_id, error)
            _LEFT_BEHIND.add((thread_id, owner))


_thread_locks: dict[str, threading.Lock] = {}
_thread_locks_guard = threading.Lock()


def thread_lock(thread_id: str) -> threading.Lock:
    """The in-process lock that serialises changes to one thread."""
    with _thread_locks_guard:
        return _thread_locks.setdefault(thread_id, threading.Lock())


@contextmanager
def thread_guard(
    store: Store, thread_id: str, *, wait: bool = True, check: Callable[[], object] | None = None
) -> Iterator[None]:
    """Exclusive right to change a thread: the in-process lock, then the cross-process lease.

    Operations that check a drawn-at head wait their turn and then find the
    head moved (a stale form). A delete does not wait: deleting a thread that
    is running is refused, so no late write of that run can bring it back.

    Args:
        store: The shared database.
        thread_id: The thread to change.
        wait: Wait for another holder; when False, refuse at once.
        check: Refuses the operation by raising; run before the lease is taken
            (so a refused request writes nothing, not even a lease row) and
            again under it (so the answer cannot change before the operation runs).
            A refusal before the lease, when waiting, is asked again under this
            process's lock for the thread (still writing nothing), and that answer
            stands: an operation running here may have been half-way (its node's
            writes saved, its next checkpoint not yet), and what the request saw then
            was neither the state before it nor the state after. Two tabs approving
            at once: the second waits, then finds the head moved.
    """
    lock = thread_lock(thread_id)
    if check is not None:
        try:
            check()
        except UserError:
            if not wait:
                raise
            with lock:
                check()
    if not lock.acquire(blocking=wait):
        raise ThreadBusyError(thread_id)
    try:
        with thread_lease(store, thread_id, wait=wait):
            if check is not None:
                check()
            yield
    finally:
        lock.release()
