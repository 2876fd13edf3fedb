"""Thread leases: one process at a time changes a thread.

The in-process lock in :mod:`agents.runs` serialises threads of one process;
a lease row in the shared database serialises processes (the dashboard and
the CLI, or two dashboards). A lease names its owner's host and process id,
so a lease left behind by a killed process is taken over at once rather than
after a timeout: crash recovery never waits, and nothing is lost.
"""

from __future__ import annotations

import os
import socket
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager

from agents.db import Store
from agents.errors import UserError

HOST = socket.gethostname()
#: A lease of another machine's process (which cannot be checked) is taken over after this long.
LEASE_MAX_AGE_SECONDS = 3600.0
#: How long an operation waits for another process's lease before giving up.
LEASE_WAIT_SECONDS = 120.0


class ThreadBusyError(UserError):
    """Another process is changing this thread right now."""

    def __init__(self, thread_id: str) -> None:
        super().__init__(
            f"thread {thread_id!r} is being changed by another session or process right now; "
            "nothing was done. Try again when it has finished."
        )
        self.thread_id = thread_id


def _alive(host: str, pid: int) -> bool:
    if host != HOST:
        return True  # another machine's process cannot be checked; rely on the age limit
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _try_acquire(store: Store, thread_id: str, owner: str) -> bool:
    """Takes a free lease, or one whose owner is gone, with a compare-and-swap on the owner.

    Portable SQL (no ``FOR UPDATE``, no ``INSERT OR REPLACE``): of two
    processes racing for the same lease, exactly one insert or one update
    matches, on SQLite and PostgreSQL alike.
    """
    now = time.time()
    with store.transaction() as cursor:
        cursor.execute(
            "INSERT INTO thread_leases (thread_id, owner, host, pid, acquired_at) VALUES (?, ?, ?, ?, ?)"
            " ON CONFLICT (thread_id) DO NOTHING",
            (thread_id, owner, HOST, os.getpid(), now),
        )
        if cursor.rowcount == 1:
            return True
        cursor.execute("SELECT owner, host, pid, acquired_at FROM thread_leases WHERE thread_id = ?", (thread_id,))
        row = cursor.fetchone()
        if row is None:
            return False  # released in between; the next attempt inserts
        holder, host, pid, acquired_at = row
        if _alive(host, pid) and (host == HOST or now - acquired_at < LEASE_MAX_AGE_SECONDS):
            return False
        cursor.execute(
            "UPDATE thread_leases SET owner = ?, host = ?, pid = ?, acquired_at = ?"
            " WHERE thread_id = ? AND owner = ?",
            (owner, HOST, os.getpid(), now, thread_id, holder),
        )
        return cursor.rowcount == 1


def live_leases(store: Store) -> set[str]:
    """The threads whose lease is held by a live process right now (they are ``running``)."""
    now = time.time()
    with store.read() as cursor:
        cursor.execute("SELECT thread_id, host, pid, acquired_at FROM thread_leases")
        rows = cursor.fetchall()
    return {thread_id for thread_id, host, pid, acquired_at in rows
            if _alive(host, pid) and (host == HOST or now - acquired_at < LEASE_MAX_AGE_SECONDS)}


@contextmanager
def thread_lease(store: Store, thread_id: str, *, wait: bool = True) -> Iterator[None]:
    """Holds the thread's lease for the duration of the block.

    Args:
        store: The shared database.
        thread_id: The thread to lease.
        wait: Wait (up to :data:`LEASE_WAIT_SECONDS`) for another process's lease;
            when False, refuse at once.

    Raises:
        ThreadBusyError: Another live process holds the lease.
    """
    owner = uuid.uuid4().hex
    deadline = time.monotonic() + (LEASE_WAIT_SECONDS if wait else 0.0)
    delay = 0.01
    while not _try_acquire(store, thread_id, owner):
        if time.monotonic() >= deadline:
            raise ThreadBusyError(thread_id)
        time.sleep(delay)  # another process's run is in progress; poll its lease with backoff
        delay = min(delay * 2, 0.25)
    try:
        yield
    finally:
        with store.transaction() as cursor:
            cursor.execute("DELETE FROM thread_leases WHERE thread_id = ? AND owner = ?", (thread_id, owner))
