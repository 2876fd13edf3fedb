"""Many writers on one SQLite file: 8 threads in this process and 2 CLI processes at once.

Nothing is lost (every finished robot thread has its 5 checkpoints, every paid
refund case one ledger row), no "database is locked" reaches a user (no
exception, CLI exit codes 0), and a delete racing a run is either refused
(ThreadBusyError) or wins cleanly: a deleted thread stays gone.
"""

from __future__ import annotations

import queue
import subprocess
import sys
import threading

import pytest

from agents import readmodel, runs
from agents.errors import NotWaitingError, ThreadNotFoundError
from agents.leases import ThreadBusyError
from agents.nodelog import node_runs
from agents.refund import ledger
from tests.conftest import PROJECT_ROOT

pytestmark = pytest.mark.usefixtures("backend")

THREADS = 8
ROBOT_RUNS = 50  # per in-process thread
REFUND_RUNS = 5  # per in-process thread
CLI_PROCESSES = 2
CLI_RUNS = 25  # per process, each a full `run robot --answer yes --json` through the CLI's main()

CLI_CHILD = """
import contextlib, io, sys
from agents.cli import main
db, prefix, count = sys.argv[1], sys.argv[2], int(sys.argv[3])
codes = []
for i in range(count):
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(["--db", db, "run", "robot", "--thread", f"{prefix}-{i}", "--answer", "yes", "--json"])
    codes.append(code)
    if code != 0:
        print(err.getvalue(), file=sys.stderr)
print(" ".join(map(str, codes)))
"""


def test_threads_and_processes_share_one_file_and_lose_nothing(store, settings, db_location):
    children = [
        subprocess.Popen(
            [sys.executable, "-c", CLI_CHILD, db_location, f"cli{k}", str(CLI_RUNS)],
            cwd=PROJECT_ROOT,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            stdin=subprocess.DEVNULL,
        )
        for k in range(CLI_PROCESSES)
    ]
    errors: list[BaseException] = []
    started: queue.Queue[str | None] = queue.Queue()
    deleted: list[str] = []
    refused: list[str] = []
    vanished: list[str] = []  # the victim's threads deleted between its start and its resume
    taken: list[str] = []  # the victim's threads the deleter held just after their resume finished

    def worker(index: int) -> None:
        try:
            for j in range(ROBOT_RUNS):
                thread = f"t{index}-{j}"
                runs.start_run(store, settings, "robot", {}, thread_id=thread)
                if index == 0:
                    started.put(thread)  # the deleter races this thread's resume
                try:
                    result = runs.resume_thread(store, settings, thread, "yes")
                    if result.status == "running":  # read once the resume let go: the deleter held it then
                        assert index == 0
                        taken.append(thread)
                    else:
                        assert result.status == "done"
                except (ThreadNotFoundError, NotWaitingError):  # deleted before (or as) the resume looked
                    assert index == 0
                    vanished.append(thread)
            for j in range(REFUND_RUNS):
                case = f"c{index}-{j}"
                result = runs.start_run(
                    store, settings, "refund", {"case_id": case, "customer": "lee", "amount": 500_000, "reason": "late"}
                )
                assert result.status == "waiting"
                result = runs.resume_from_fields(
                    store, settings, f"refund-{case}", {"action": "approve", "approver": "kim"}
                )
                assert result.values["outcome"] == "paid"
        except BaseException as error:  # noqa: BLE001 - collected and reported by the test
            errors.append(error)
        finally:
            if index == 0:
                started.put(None)

    def deleter() -> None:
        try:
            while (thread := started.get()) is not None:
                try:
                    runs.delete_thread(store, thread)
                    deleted.append(thread)
                except ThreadBusyError:
                    refused.append(thread)
        except BaseException as error:  # noqa: BLE001
            errors.append(error)

    workers = [threading.Thread(target=worker, args=(i,)) for i in range(THREADS)]
    workers.append(threading.Thread(target=deleter))
    for w in workers:
        w.start()
    for w in workers:
        w.join(timeout=300)
    outputs = [child.communicate(timeout=300) for child in children]

    assert not errors, errors
    for child, (out, err) in zip(children, outputs, strict=True):
        assert child.returncode == 0, err
        assert out.split() == ["0"] * CLI_RUNS, err
        assert "locked" not in err

    finished = 0
    for index in range(THREADS):
        for j in range(ROBOT_RUNS):
            thread = f"t{index}-{j}"
            count = len(readmodel.checkpoint_chain(store, thread))
            if thread in deleted:
                # a delete won: no late write of the run brought the thread back
                assert count == 0 and node_runs(store, thread_id=thread) == [], thread
            else:
                assert count == 5, (thread, count)
                finished += 1
    assert set(vanished) <= set(deleted)
    assert set(taken) <= set(deleted)  # read as running while the delete held them, then deleted
    for k in range(CLI_PROCESSES):
        for i in range(CLI_RUNS):
            assert len(readmodel.checkpoint_chain(store, f"cli{k}-{i}")) == 5
            finished += 1
    paid = {row["case_id"] for row in ledger.ledger_rows(store)}
    assert paid == {f"c{i}-{j}" for i in range(THREADS) for j in range(REFUND_RUNS)}
    assert all(row["repeat_attempts"] == 0 for row in ledger.ledger_rows(store))
    with store.read() as cursor:
        cursor.execute("SELECT COUNT(*) FROM thread_leases")
        assert cursor.fetchone()[0] == 0  # every lease was given back
    print(
        f"concurrent runs completed: {finished} robot + {len(paid)} refund; "
        f"deletes won {len(deleted)}, refused (busy) {len(refused)}, runs lost 0"
    )
