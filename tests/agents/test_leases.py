"""Thread leases: one process changes a thread at a time; a dead owner's lease is taken over."""

from __future__ import annotations

import os
import queue
import shutil
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from agents import leases, lifecycle, readmodel, runs
from agents.db import DatabaseError
from agents.errors import NotWaitingError, StaleFormError, UserError
from agents.leases import BOOT_ID, HOST, ThreadBusyError, live_leases, thread_guard, thread_lease
from agents.runtime import load_settings, open_store
from agents.schema_check import RELEASED_TABLES
from tests.conftest import PROJECT_ROOT

pytestmark = pytest.mark.usefixtures("backend")


def _dead_pid() -> int:
    child = subprocess.run(
        [sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True, check=True
    )
    return int(child.stdout)


def test_delete_of_a_running_thread_is_refused(store, settings):
    runs.start_run(store, settings, "robot", {})
    holding, release = threading.Event(), threading.Event()

    def hold() -> None:
        with thread_guard(store, "hitl_demo"):
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
    # A row as the previous release wrote it (no start time): pid 1 is alive and started before the lease.
    with store.transaction() as cursor:
        cursor.execute(
            "INSERT INTO thread_leases (thread_id, owner, host, pid, acquired_at) VALUES ('t', 'other', ?, ?, ?)",
            (HOST, 1, time.time()),  # pid 1 is alive
        )
    with pytest.raises(ThreadBusyError), thread_lease(store, "t", wait=False):
        pass
    assert live_leases(store) == {"t"}


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


# --- PID reuse: the owner is its PID and its start time -------------------------------------------------------

needs_proc = pytest.mark.skipif(
    not Path("/proc/self/stat").exists(), reason="no /proc here: a lease's owner is recognised by its PID alone"
)


def _insert_lease(store, pid: int, process_start: str | None, acquired_at: float | None = None) -> None:
    with store.transaction() as cursor:
        cursor.execute(
            "INSERT INTO thread_leases (thread_id, owner, host, pid, process_start, acquired_at)"
            " VALUES ('t', 'other', ?, ?, ?, ?)",
            (HOST, pid, process_start, time.time() if acquired_at is None else acquired_at),
        )


def _lease_row(store, thread_id: str = "t") -> tuple | None:
    with store.read() as cursor:
        cursor.execute("SELECT owner, pid, process_start FROM thread_leases WHERE thread_id = ?", (thread_id,))
        return cursor.fetchone()


def _ticks(pid: int | str) -> int:
    return int(Path(f"/proc/{pid}/stat").read_bytes().rsplit(b")", 1)[1].split()[19])


@needs_proc
def test_a_lease_records_its_owners_start_time(store):
    with thread_lease(store, "t", wait=False):
        _owner, pid, process_start = _lease_row(store)
        assert (pid, process_start) == (os.getpid(), f"{BOOT_ID}:{_ticks('self')}")
        assert live_leases(store) == {"t"}


@needs_proc
def test_a_live_lease_with_its_owners_start_time_blocks(store):
    _insert_lease(store, 1, f"{BOOT_ID}:{_ticks(1)}")
    assert live_leases(store) == {"t"}
    with pytest.raises(ThreadBusyError), thread_lease(store, "t", wait=False):
        pass


@needs_proc
@pytest.mark.parametrize("reused", ["same-boot", "after-reboot"])
def test_the_lease_of_a_reused_pid_is_taken_over_at_once(store, reused):
    # PID 1 is alive, but it is not the process that took the lease: another start time (a container
    # restart), or the same clock ticks counted from another boot (a reboot).
    ticks = _ticks(1)
    recorded = f"{BOOT_ID}:{ticks + 1}" if reused == "same-boot" else f"another-boot:{ticks}"
    _insert_lease(store, 1, recorded)
    os.kill(1, 0)  # alive: the PID alone would keep this lease forever
    assert live_leases(store) == set()
    with thread_lease(store, "t", wait=False):
        owner, pid, process_start = _lease_row(store)
        assert owner != "other" and pid == os.getpid() and process_start == f"{BOOT_ID}:{_ticks('self')}"
    assert _lease_row(store) is None


@needs_proc
def test_a_previous_release_lease_of_a_pid_started_after_it_is_taken_over(store):
    # No start time recorded (the previous release): PID 1 started after the lease was taken, so it is not its owner.
    uptime = float(Path("/proc/uptime").read_text().split()[0])
    pid1_started = time.time() - uptime + _ticks(1) / os.sysconf("SC_CLK_TCK")
    _insert_lease(store, 1, None, acquired_at=pid1_started - 60)
    assert live_leases(store) == set()
    with thread_lease(store, "t", wait=False):
        assert _lease_row(store)[0] != "other"


def test_without_proc_the_pid_alone_decides(store, monkeypatch):
    monkeypatch.setattr(leases, "_start_ticks", lambda pid: None)  # as on a platform without /proc
    _insert_lease(store, 1, f"{BOOT_ID}:-1")  # a start time that cannot be checked
    assert live_leases(store) == {"t"}
    with pytest.raises(ThreadBusyError), thread_lease(store, "t", wait=False):
        pass
    with store.transaction() as cursor:
        cursor.execute("UPDATE thread_leases SET pid = ?", (_dead_pid(),))
    assert live_leases(store) == set()
    with thread_lease(store, "t", wait=False):
        assert _lease_row(store)[2] is None


_PREVIOUS_LEASES_TABLE = (
    "CREATE TABLE thread_leases (thread_id TEXT PRIMARY KEY, owner TEXT NOT NULL,"
    " host TEXT NOT NULL, pid INTEGER NOT NULL, acquired_at DOUBLE PRECISION NOT NULL)"
)
#: The fingerprint the first release wrote, per backend (its leases had no process_start).
FIRST_RELEASE = {backend: next(iter(released)) for backend, released in RELEASED_TABLES.items()}
_PREVIOUS_INSERT = "INSERT INTO thread_leases (thread_id, owner, host, pid, acquired_at) VALUES (?, ?, ?, ?, ?)"


def _make_previous_release(store, rows) -> None:
    """Turns the test's database into one the previous release wrote: its leases table, its fingerprint."""
    with store.transaction() as cursor:
        cursor.execute("DROP TABLE thread_leases")
        cursor.execute(_PREVIOUS_LEASES_TABLE)
        cursor.executemany(_PREVIOUS_INSERT, rows)
        cursor.execute(
            "UPDATE hitl_meta SET value = ? WHERE key = 'schema_fingerprint'", (FIRST_RELEASE[store.backend],)
        )
    store.close()


def test_a_database_of_the_previous_release_gets_the_column_when_opened(store, db_location):
    _make_previous_release(
        store, [("dead", "gone", HOST, _dead_pid(), time.time()), ("live", "other", HOST, 1, time.time())]
    )
    reopened = open_store(db_location)
    try:
        with reopened.read() as cursor:
            cursor.execute("SELECT thread_id, process_start FROM thread_leases ORDER BY thread_id")
            assert cursor.fetchall() == [("dead", None), ("live", None)]  # the rows are kept
        assert live_leases(reopened) == {"live"}
        with thread_lease(reopened, "dead", wait=False):
            assert _lease_row(reopened, "dead")[1] == os.getpid()
        with reopened.transaction() as cursor:  # the previous release still writes its rows
            cursor.execute(_PREVIOUS_INSERT, ("old", "o", HOST, _dead_pid(), time.time()))
        assert live_leases(reopened) == {"live"}
    finally:
        reopened.close()
    open_store(db_location).close()  # opening it again is a no-op


def test_a_read_only_file_of_the_previous_release_is_refused_until_it_is_opened_writable(store, db_location, backend):
    if backend != "sqlite":
        pytest.skip("only a SQLite file is opened read-only")
    from agents.db_sqlite import SqliteStore

    _make_previous_release(store, [("live", "other", HOST, 1, time.time())])
    with pytest.raises(DatabaseError, match="earlier release.*open it once with write access"):
        SqliteStore(db_location, tables=store.tables, read_only=True)
    open_store(db_location).close()  # brought up to date
    read_only = SqliteStore(db_location, tables=store.tables, read_only=True)
    try:
        assert live_leases(read_only) == {"live"}
    finally:
        read_only.close()


# --- The reproduction: PID 1 of a PID namespace, SIGKILLed while it holds the lease ----------------------------

#: Runs a lecture; at its first ``plan`` node (so under the thread's lease) says HOLDING and blocks until killed.
_PID1_CHILD = """
import os, sys
from agents import nodelog, runs
from agents.lecture.inputs import DEFAULT_LECTURE_INPUT
from agents.runtime import load_settings, open_store

db, thread = sys.argv[1:3]
original = nodelog._start

def start(store, agent, node, label, config):
    row = original(store, agent, node, label, config)
    if node == "plan":
        print("HOLDING", os.getpid(), flush=True)
        sys.stdin.readline()  # until SIGKILL
    return row

nodelog._start = start
store = open_store(db)
runs.start_run(store, load_settings(db_override=db, secrets={}), "lecture", dict(DEFAULT_LECTURE_INPUT),
               thread_id=thread)
print("NOT KILLED", flush=True)
"""
_UNSHARE = ["unshare", "--pid", "--fork", "--mount-proc"]


def _pid_namespace_unavailable() -> str | None:
    if not sys.platform.startswith("linux"):
        return "PID namespaces are Linux only"
    if shutil.which("unshare") is None:
        return "unshare (util-linux) is not installed"
    if os.geteuid() != 0:
        return "unshare --pid --mount-proc needs root (CAP_SYS_ADMIN)"
    probe = subprocess.run([*_UNSHARE, "true"], capture_output=True, text=True, check=False)
    if probe.returncode != 0:
        return f"unshare --pid --fork --mount-proc fails here: {probe.stderr.strip()}"
    return None


@pytest.mark.slow  # a kill test: a child process in its own PID namespace is killed
def test_a_killed_pid_1_of_another_pid_namespace_does_not_lock_its_thread(db_location):
    reason = _pid_namespace_unavailable()
    if reason:
        pytest.skip(reason)
    thread = "lecture-pid1"
    unshare = subprocess.Popen(
        [*_UNSHARE, sys.executable, "-c", _PID1_CHILD, db_location, thread],
        cwd=PROJECT_ROOT,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    lines: queue.Queue[str] = queue.Queue()
    reader = threading.Thread(target=lambda: [lines.put(line) for line in unshare.stdout], daemon=True)
    reader.start()
    output = []
    try:
        while not (output and output[-1].startswith("HOLDING")):
            output.append(lines.get(timeout=120))
        assert output[-1].split() == ["HOLDING", "1"], output  # PID 1 in its namespace
        # "kill -9" the child (unshare's only child) from outside its namespace; unshare then exits too.
        child = int(Path(f"/proc/{unshare.pid}/task/{unshare.pid}/children").read_text().split()[0])
        os.kill(child, signal.SIGKILL)
        unshare.wait(timeout=60)
    finally:
        if unshare.poll() is None:
            unshare.kill()
            unshare.wait()
    reader.join(timeout=60)
    assert not any("NOT KILLED" in line for line in output), output

    store = open_store(db_location)
    try:
        # The lease is left behind; its PID is alive here (this namespace's PID 1), but it is another process.
        owner, pid, process_start = _lease_row(store, thread)
        assert pid == 1 and process_start.startswith(f"{BOOT_ID}:")
        os.kill(1, 0)
        assert process_start != f"{BOOT_ID}:{_ticks(1)}"
        assert thread not in live_leases(store)
        status = lifecycle.thread_status(store, thread)
        assert status is not None and status.status == "attention", status

        settings = load_settings(db_override=db_location, secrets={})
        result = runs.continue_thread(store, settings, thread)
        assert result.status == "waiting", result  # it ran on to the lecture's gate
        assert _lease_row(store, thread) is None
        runs.delete_thread(store, thread)
        assert readmodel.head_checkpoint_id(store, thread) is None
    finally:
        store.close()


def test_a_refusal_seen_while_an_operation_here_holds_the_thread_is_asked_again_after_it(store):
    """Half-way through another tab's run the thread asks nothing: the request waits, then gets the answer after."""
    thread_id = "refund-race"
    seen = threading.Event()
    moved = threading.Event()

    def check() -> None:
        if not moved.is_set():
            seen.set()
            raise NotWaitingError(thread_id, "settle runs next")  # the other tab's node wrote; no checkpoint yet
        raise StaleFormError(thread_id, "drawn", "new head")  # its run ended: the head moved

    outcome: list[object] = []

    def second_tab() -> None:
        try:
            with leases.thread_guard(store, thread_id, check=check):
                outcome.append("ran")
        except UserError as error:
            outcome.append(error)

    lock = leases.thread_lock(thread_id)
    lock.acquire()  # the first tab's operation, under way
    tab = threading.Thread(target=second_tab)
    tab.start()
    assert seen.wait(timeout=30)
    moved.set()
    lock.release()
    tab.join(timeout=30)
    assert len(outcome) == 1 and isinstance(outcome[0], StaleFormError), outcome
    assert live_leases(store) == set()  # a refused request leaves no lease row


def test_a_refusal_of_a_request_that_does_not_wait_is_at_once(store):
    def check() -> None:
        raise NotWaitingError("refund-now", "settle runs next")

    lock = leases.thread_lock("refund-now")
    lock.acquire()
    try:
        with pytest.raises(NotWaitingError), leases.thread_guard(store, "refund-now", wait=False, check=check):
            pass
    finally:
        lock.release()


def test_a_lease_of_this_process_is_live_from_the_moment_its_row_is_written(store, monkeypatch):
    """No thread of this process may see the row between its insert and its body and take it for left behind."""
    seen = []
    acquire = leases._try_acquire

    def acquire_and_look(store_, thread_id, owner):
        taken = acquire(store_, thread_id, owner)
        if taken:
            seen.append(live_leases(store_))  # what another session of this process would read right now
        return taken

    monkeypatch.setattr(leases, "_try_acquire", acquire_and_look)
    with thread_lease(store, "t", wait=False):
        pass
    assert seen == [{"t"}]
    assert live_leases(store) == set() and _lease_row(store) is None


def test_a_lease_the_database_would_not_let_go_leaves_no_thread_running(store, settings, monkeypatch, run_cli):
    """Another process holds the write lock as a run lets its lease go: the answer waits, shown as waiting."""
    if store.backend != "sqlite":
        pytest.skip("SQLite's write lock")
    store.conn.execute("PRAGMA busy_timeout = 50")  # the real 30 s, made short
    other = sqlite3.connect(store.path, isolation_level=None)
    release = leases._release

    def release_while_another_process_writes(*args: object) -> None:
        if not other.in_transaction:
            other.execute("BEGIN IMMEDIATE")  # another process takes the write lock just now
        release(*args)

    monkeypatch.setattr(leases, "_release", release_while_another_process_writes)
    started = runs.start_run(store, settings, "robot", {})  # what the run did stands: no error
    monkeypatch.setattr(leases, "_release", release)
    assert started.status == "waiting"
    with store.read() as cursor:
        cursor.execute("SELECT COUNT(*) FROM thread_leases")
        assert cursor.fetchone()[0] == 1  # the row is still there: the delete was refused
    assert live_leases(store) == set()  # this process let it go: not running here
    assert lifecycle.thread_status(store, "hitl_demo").status == "waiting"
    other.execute("ROLLBACK")  # the other process is done
    other.close()
    assert live_leases(store) == set()  # this read also deleted the row left behind
    inbox = run_cli("inbox").out  # another process sees it waiting, not running
    assert "hitl_demo\trobot\twaiting\tanswer" in inbox
    assert runs.resume_thread(store, settings, "hitl_demo", "yes").outcome == "executed"
