"""A database another process keeps locked is its own exit code (75, sysexits' EX_TEMPFAIL), and a command
waits for the lock about the busy timeout in all, not once per write.

Exit 2 is bad input (README, "Command line"): cron must tell "try again later" from a mistake. The lock is held
by a real second process (:class:`LockHolder`: ``BEGIN EXCLUSIVE`` on the file, held until it is told to stop);
the busy timeout is shortened for each test (``HITL_DB_BUSY_TIMEOUT``).
"""

from __future__ import annotations

import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from agents import leases, readmodel
from tests.factories import answer_robot, pause_robot

BUSY = "is busy: another process held its write lock for too long; nothing was changed, try again"
#: ``HITL_DB_BUSY_TIMEOUT`` of the test that counts how long a command waits in all.
TIMEOUT = 1.0

#: Takes the write lock of the file ``argv[1]`` when it reads a line, says ``held``, and keeps it until its input
#: ends (then it exits, and SQLite lets the lock go).
HOLDER = """
import sqlite3, sys
holder = sqlite3.connect(sys.argv[1], isolation_level=None, timeout=30)
sys.stdin.readline()
holder.execute("BEGIN EXCLUSIVE")
print("held", flush=True)
sys.stdin.read()
"""


class LockHolder:
    """Another process that takes the database's write lock when asked (:meth:`take`) and keeps it to the end."""

    def __init__(self, path: Path) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-c", HOLDER, str(path)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )

    def take(self) -> None:
        """Returns once the other process holds the lock."""
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.write("take\n")
        self.process.stdin.flush()
        assert self.process.stdout.readline().strip() == "held", self.process.stderr

    def stop(self) -> None:
        assert self.process.stdin is not None
        self.process.stdin.close()
        self.process.wait(timeout=30)


@pytest.fixture
def holder(db_path: Path) -> Iterator[LockHolder]:
    found = LockHolder(db_path)
    yield found
    found.stop()


@pytest.mark.parametrize(
    "command",
    [("run", "robot", "--thread", "new-one"), ("resume", "hitl_demo", "yes"), ("notify", "--once")],
    ids=["run", "resume", "notify-once"],
)
def test_a_busy_database_exits_75_with_its_message(run_cli, store, settings, holder, monkeypatch, command):
    pause_robot(store, settings)  # a question waits (resume), and a waiting event to record (notify --once)
    head = readmodel.head_checkpoint_id(store, "hitl_demo")
    monkeypatch.setenv("HITL_DB_BUSY_TIMEOUT", "0.2")
    monkeypatch.setenv("HITL_NOTIFY_WEBHOOK", "http://127.0.0.1:9/never-called")  # busy before any send
    holder.take()
    refused = run_cli(*command)
    assert refused.code == 75, (refused.code, refused.err)
    assert BUSY in refused.err and refused.out == "", refused.err
    holder.stop()
    assert readmodel.head_checkpoint_id(store, "hitl_demo") == head  # nothing was changed
    assert readmodel.head_checkpoint_id(store, "new-one") is None


def test_bad_input_still_exits_2(run_cli, store, settings):
    pause_robot(store, settings)
    assert run_cli("resume", "hitl_demo", '{"not": "an answer"}').code == 2


def test_a_command_waits_about_the_busy_timeout_in_all_when_the_lock_is_taken_while_it_runs(
    run_cli, store, settings, holder, monkeypatch
):
    """The lock is taken just after ``run robot`` took its thread's lease: the start over of ``hitl_demo`` (its
    node log), then the lease's release, each used to wait the whole timeout. Now the first waits it, the
    second tries once: the command says busy about one timeout after the lock was taken."""
    answer_robot(store, settings, answer="no")  # finished: a new start starts it over (a waiting one is refused)
    head = readmodel.head_checkpoint_id(store, "hitl_demo")
    monkeypatch.setenv("HITL_DB_BUSY_TIMEOUT", str(TIMEOUT))
    took = leases._try_acquire
    taken_at: list[float] = []

    def lock_once_leased(*args: object) -> bool:
        leased = took(*args)  # type: ignore[arg-type]
        if leased and not taken_at:
            holder.take()
            taken_at.append(time.monotonic())
        return leased

    monkeypatch.setattr(leases, "_try_acquire", lock_once_leased)
    refused = run_cli("run", "robot")
    waited = time.monotonic() - taken_at[0]
    assert refused.code == 75 and BUSY in refused.err, (refused.code, refused.err)
    assert TIMEOUT * 0.9 <= waited < TIMEOUT * 1.6, waited  # one busy timeout, not one per write
    holder.stop()
    assert readmodel.head_checkpoint_id(store, "hitl_demo") == head  # the start over deleted nothing
    assert run_cli("run", "robot").code == 0  # the lease row it could not let go is deleted by its next attempt
