"""Thread leases: one process changes a thread at a time; a dead owner's lease is taken over."""

from __future__ import annotations

import subprocess
import sys
import threading
import time

import pytest

from agents import readmodel, runs
from agents.leases import HOST, ThreadBusyError, thread_lease

pytestmark = pytest.mark.usefixtures("backend")


def _dead_pid() -> int:
    child = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                           capture_output=True, text=True, check=True)
    return int(child.stdout)


def test_delete_of_a_running_thread_is_refused(store, settings):
    runs.start_run(store, settings, "robot", {})
    holding, release = threading.Event(), threading.Event()

    def hold() -> None:
        with runs.thread_guard(store, "hitl_demo"):
            holding.set()
            release.wait(10)

    worker = threading.Thread(target=hold)
    worker.start()
    assert holding.wait(10)
    try:
        with pytest.raises(ThreadBusyError):
            runs.delete_thread(store, "hitl_demo")
    finally:
        release.set()
        worker.join()
    assert readmodel.head_checkpoint_id(store, "hitl_demo") is not None
    runs.delete_thread(store, "hitl_demo")
    assert readmodel.head_checkpoint_id(store, "hitl_demo") is None


def test_a_live_lease_of_another_process_blocks(store):
    with store.transaction() as cursor:
        cursor.execute(
            "INSERT INTO thread_leases (thread_id, owner, host, pid, acquired_at) VALUES ('t', 'other', ?, ?, ?)",
            (HOST, 1, time.time()),  # pid 1 is alive
        )
    with pytest.raises(ThreadBusyError), thread_lease(store, "t", wait=False):
        pass


def test_the_lease_of_a_killed_process_is_taken_over(store):
    with store.transaction() as cursor:
        cursor.execute(
            "INSERT INTO thread_leases (thread_id, owner, host, pid, acquired_at) VALUES ('t', 'gone', ?, ?, ?)",
            (HOST, _dead_pid(), time.time()),
        )
    with thread_lease(store, "t", wait=False):
        with store.read() as cursor:
            cursor.execute("SELECT owner FROM thread_leases WHERE thread_id = 't'")
            assert cursor.fetchone()[0] != "gone"
    with store.read() as cursor:
        cursor.execute("SELECT COUNT(*) FROM thread_leases")
        assert cursor.fetchone()[0] == 0
