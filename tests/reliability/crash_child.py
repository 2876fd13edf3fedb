"""Child process for test_kill_points: runs a scenario and SIGKILLs itself at one kill point.

Usage: ``python crash_child.py DB AGENT THREAD SCENARIO NODE PHASE OCCURRENCE``, or
``python crash_child.py --serve``: a parent that has imported the agents and their graphs once, then
forks one child per line of arguments (a JSON list) read from stdin, and writes for each a JSON line
(``returncode``, negative for a signal as ``subprocess`` has it, ``stdout``, ``stderr``). Each child is a
process of its own, killed as the script's is; it is spared only the interpreter's start and the imports.

* SCENARIO: ``auto`` (start only), ``approve``/``reject``/``yes`` (start, then resume with
  that answer), chosen so the target node is reached.
* PHASE: ``before`` (after the node's running row, before its body), ``after`` (after its
  end row, before LangGraph saves the checkpoint), ``mid-settle`` (right after the refund
  ledger's payout commit, inside ``settle``).
* OCCURRENCE: kill at the n-th call of NODE (1 = first pass, 2 = the re-entry on resume).

The node log is written (``nodelog.flush``) just before a kill in ``before`` and ``after``, so the killed
call's row is on disk and the test can find it by its printed id: the kill lands right after one of the
log's writes. A kill between two writes loses the rows queued since the last one (``tests/agents/test_nodelog.py``).

The patches live here only (test side); production code is not changed.
"""

from __future__ import annotations

import importlib
import json
import os
import signal
import sys
import tempfile
import threading
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from agents import nodelog, runs  # noqa: E402
from agents.refund import ledger  # noqa: E402
from agents.runtime import (
    load_settings,  # noqa: E402
    open_store,  # noqa: E402
)

ANSWERS = {
    "yes": "yes",
    "approve": {"action": "approve", "approver": "kim"},
    "reject": {"action": "reject", "approver": "kim"},
    "save": "save",
}


def start_values(agent: str, thread: str) -> dict:
    if agent == "refund":
        amount = 50_000 if thread.endswith("-small") else 500_000
        return {"case_id": thread.removeprefix("refund-"), "customer": "lee", "amount": amount, "reason": "broken"}
    if agent == "lecture":
        from agents.lecture.inputs import DEFAULT_LECTURE_INPUT

        return dict(DEFAULT_LECTURE_INPUT)
    return {}


def main(argv: list[str]) -> None:
    db, agent, thread, scenario, node, phase, occurrence = argv
    wanted = int(occurrence)
    calls: dict[str, int] = {}
    rows: dict[int, str] = {}
    kill = lambda: os.kill(os.getpid(), signal.SIGKILL)  # noqa: E731

    original_start, original_finish, original_pay = nodelog._start, nodelog._finish, ledger.pay

    def start(store, agent_name, name, label, config):
        call = original_start(store, agent_name, name, label, config)
        rows[call] = name
        if name == node:
            calls[name] = calls.get(name, 0) + 1
            if phase == "before" and calls[name] == wanted:
                nodelog.flush(store)
                print(f"KILL {call.started_at!r}", flush=True)  # its row: the node's call that started then
                kill()
        return call

    def finish(store, call, status, error=""):
        original_finish(store, call, status, error)
        if phase == "after" and rows.get(call) == node and calls.get(node) == wanted:
            nodelog.flush(store)
            print(f"KILL {call.started_at!r}", flush=True)  # its row: the node's call that started then
            kill()

    def pay(store, **kwargs):
        payout = original_pay(store, **kwargs)
        if phase == "mid-settle":
            print("KILL 0", flush=True)
            kill()
        return payout

    nodelog._start, nodelog._finish, ledger.pay = start, finish, pay
    store = open_store(db)
    settings = load_settings(db_override=db, secrets={})
    result = runs.start_run(store, settings, agent, start_values(agent, thread), thread_id=thread)
    if scenario != "auto" and result.status == "waiting":
        runs.resume_thread(store, settings, thread, ANSWERS[scenario])
    print("NOT KILLED", flush=True)


def _forked(argv: list[str]) -> dict[str, object]:
    """Runs ``main(argv)`` in a forked child; its exit status and what it printed."""
    # A fork copies only the forking thread: with another thread running, a lock it held would stay held.
    assert threading.active_count() == 1, threading.enumerate()
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        sys.stdout.flush()
        sys.stderr.flush()
        pid = os.fork()
        if pid == 0:  # the child: its own output files, then the scenario, then the exit a script makes
            code = 0
            try:
                os.dup2(out.fileno(), 1)
                os.dup2(err.fileno(), 2)
                main(argv)
            except BaseException:  # noqa: BLE001 - reported as the interpreter would, then exit 1
                import traceback

                traceback.print_exc()
                code = 1
            finally:
                sys.stdout.flush()
                sys.stderr.flush()
                os._exit(code)
        _, status = os.waitpid(pid, 0)
        out.seek(0)
        err.seek(0)
        returncode = -os.WTERMSIG(status) if os.WIFSIGNALED(status) else os.WEXITSTATUS(status)
        return {"returncode": returncode, "stdout": out.read().decode(), "stderr": err.read().decode()}


def serve() -> None:
    """Imports every agent's graph module, then runs each line of arguments on stdin in a forked child."""
    from agents.registry import AGENTS

    for spec in AGENTS.values():
        importlib.import_module(spec.run.build_graph.__module__)
    results = os.fdopen(os.dup(1), "w")
    for line in sys.stdin:
        print(json.dumps(_forked(json.loads(line))), file=results, flush=True)


if __name__ == "__main__":
    if sys.argv[1:] == ["--serve"]:
        serve()
    else:
        main(sys.argv[1:8])
