"""Kill points: a process SIGKILLed at a chosen node and phase loses nothing, and a new process finishes the run.

A child process (``crash_child.py``, forked by one parent per module that has imported the agents
once) runs a scenario and kills itself with SIGKILL at one point: right after a node's ``running`` row
(before its body), right after its end row (before LangGraph saves the checkpoint), or, for the
refund agent, inside ``settle`` right after the ledger's payout commit. A NEW
Store on the same file then finishes the run (``continue_thread``, or
``resume_thread`` when the thread waits). Checked: the run is done, finished
work is not redone, the refund ledger holds exactly one payout (none on a
rejection), and the checkpoint chain has no gap.

The kill inside the lecture's research fan-out is covered by
``tests/agents/lecture/test_crash_resume.py``.
"""

from __future__ import annotations

import json
import select
import signal
import subprocess
import sys
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from agents import lifecycle, readmodel, runs
from agents.nodelog import node_runs
from agents.refund import ledger
from agents.runtime import load_settings, open_store

CHILD = Path(__file__).with_name("crash_child.py")
ANSWERS = {
    "yes": "yes",
    "approve": {"action": "approve", "approver": "kim"},
    "reject": {"action": "reject", "approver": "kim"},
    "save": "save",
    "auto": None,
}

# (agent, thread, scenario, node, occurrence, phases)
_POINTS = [
    ("robot", "robot-k", "yes", "propose", 1, ("before", "after")),
    ("robot", "robot-k", "yes", "approval", 1, ("before", "after")),  # first pass (pauses)
    ("robot", "robot-k", "yes", "approval", 2, ("before", "after")),  # re-entry on resume
    ("robot", "robot-k", "yes", "execute", 1, ("before", "after")),
    ("refund", "refund-k-small", "auto", "assess", 1, ("before", "after")),
    ("refund", "refund-k-small", "auto", "settle", 1, ("before", "after", "mid-settle")),
    ("refund", "refund-k-big", "approve", "review", 1, ("before", "after")),
    ("refund", "refund-k-big", "approve", "review", 2, ("before", "after")),
    ("refund", "refund-k-big", "approve", "settle", 1, ("before", "after", "mid-settle")),
    ("refund", "refund-k-big", "reject", "reject", 1, ("before", "after")),
    ("lecture", "lecture-k", "save", "validate", 1, ("before", "after")),
    ("lecture", "lecture-k", "save", "plan", 1, ("before", "after")),
    ("lecture", "lecture-k", "save", "write", 1, ("before", "after")),
    ("lecture", "lecture-k", "save", "review_content", 1, ("before", "after")),
    ("lecture", "lecture-k", "save", "gate", 1, ("before", "after")),
    ("lecture", "lecture-k", "save", "decide", 2, ("before", "after")),
    ("lecture", "lecture-k", "save", "save", 1, ("before", "after")),
]
KILL_POINTS = [
    pytest.param(
        agent,
        thread,
        scenario,
        node,
        occurrence,
        phase,
        id=f"{agent}-{scenario}-{node}{'' if occurrence == 1 else '-resume'}-{phase}",
    )
    for agent, thread, scenario, node, occurrence, phases in _POINTS
    for phase in phases
]


def test_kill_point_count():
    print(f"kill points covered: {len(KILL_POINTS)} (+1 mid fan-out in tests/agents/lecture/test_crash_resume.py)")
    assert len(KILL_POINTS) >= 20


#: How long one child may take (a lecture's run to its kill point is a few seconds).
CHILD_TIMEOUT = 120


@pytest.fixture(scope="module")
def kill_child() -> Iterator[Callable[..., dict]]:
    """Runs ``crash_child.py``'s scenario with the given arguments in a child process of its own, forked
    by ``crash_child.py --serve`` (started once for the module): returns the child's ``returncode``
    (negative for a signal), ``stdout`` and ``stderr``."""
    parent = subprocess.Popen(
        [sys.executable, str(CHILD), "--serve"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    )
    stdin, stdout = parent.stdin, parent.stdout
    assert stdin is not None and stdout is not None

    def run(*args: str) -> dict:
        stdin.write(json.dumps(list(args)) + "\n")
        stdin.flush()
        ready, _, _ = select.select([stdout], [], [], CHILD_TIMEOUT)
        assert ready, f"no child finished within {CHILD_TIMEOUT} s: {args}"
        line = stdout.readline()
        assert line, f"the forking parent ended (exit {parent.wait()})"
        return dict(json.loads(line))

    try:
        yield run
    finally:
        stdin.close()
        try:
            parent.wait(timeout=CHILD_TIMEOUT)
        except subprocess.TimeoutExpired:
            parent.kill()
            parent.wait()


def _ok_keys(rows: list[dict]) -> Counter:
    return Counter((r["node"], r["label"], r["step"]) for r in rows if r["status"] == "ok")


@pytest.mark.parametrize(("agent", "thread", "scenario", "node", "occurrence", "phase"), KILL_POINTS)
def test_killed_run_resumes_in_a_new_process_and_loses_nothing(
    kill_child, db_path, agent, thread, scenario, node, occurrence, phase
):
    child = kill_child(str(db_path), agent, thread, scenario, node, phase, str(occurrence))
    assert child["returncode"] == -signal.SIGKILL, (child["stdout"], child["stderr"])
    assert child["stdout"].startswith("KILL"), child["stdout"]
    killed_at = float(child["stdout"].split()[1])  # the killed call's start (a finished row is written without its id)

    store = open_store(db_path)  # a NEW store: nothing of the killed process survives but the file
    try:
        settings = load_settings(db_override=str(db_path), secrets={})
        before = node_runs(store, thread_id=thread)
        killed = next((r for r in before if r["node"] == node and r["started_at"] == killed_at), None)
        if phase == "before":
            assert killed is not None and killed["status"] == "running"
        elif phase == "after":
            assert killed is not None and killed["status"] in ("ok", "interrupted")

        # Nothing waits unseen: the killed thread is in the inbox, waiting or needing attention
        # (a kill between review and settle leaves an approved case to be continued, not hidden).
        status = lifecycle.thread_status(store, thread)
        assert status is not None and status.status in ("waiting", "attention"), status
        assert thread in {item.thread_id for item in lifecycle.inbox(store)}
        if status.status == "attention":
            assert (status.reason_code, status.action) == ("stopped", "continue"), status

        result = runs.current_result(store, settings, thread)
        for _ in range(3):  # at most: continue after the kill, answer the pause, and done
            if result.status == "done":
                break
            if result.status == "waiting":
                result = runs.resume_thread(store, settings, thread, ANSWERS[scenario])
            else:
                result = runs.continue_thread(store, settings, thread)
        assert result.status == "done"
        assert (
            lifecycle.thread_status(store, thread).outcome
            == {
                "yes": "executed",
                "auto": "paid",
                "approve": "paid",
                "reject": "rejected",
                "save": "saved_as_is",
            }[scenario]
        )

        after = node_runs(store, thread_id=thread)
        assert not [r for r in after if r["status"] == "error"], after
        # Work finished before the kill is not redone. Exception: the killed node itself (killed
        # after its ok row, before its checkpoint) and its parallel siblings of the same superstep.
        same_superstep = {(killed["run_id"], killed["step"])} if killed else set()
        strict = [r for r in before if (r["run_id"], r["step"]) not in same_superstep]
        counts_after = _ok_keys(after)
        for key in _ok_keys(strict):
            assert counts_after[key] == 1, (key, counts_after[key])
        for key, count in _ok_keys(before).items():
            assert count <= counts_after[key] <= count + 1
        redone = {key for key, count in counts_after.items() if count > 1}
        assert all(key[2] == killed["step"] for key in redone), redone  # only the killed superstep ran twice
        if phase == "before":  # killed before its body: it never finished, so it is done exactly once
            assert (killed["node"], killed["label"], killed["step"]) not in redone

        if agent == "refund":
            rows = [r for r in ledger.ledger_rows(store) if r["thread_id"] == thread]
            assert len(rows) == (0 if scenario == "reject" else 1)
            assert result.values["outcome"] in ("paid", "already paid", "rejected")
            if phase == "mid-settle":
                assert result.values["outcome"] == "already paid" and rows[0]["repeat_attempts"] == 1

        chain = readmodel.checkpoint_chain(store, thread)
        ids = {c.checkpoint_id for c in chain}
        assert all(c.parent_checkpoint_id is None or c.parent_checkpoint_id in ids for c in chain)
        assert sum(c.parent_checkpoint_id is None for c in chain) == 1
    finally:
        store.close()
