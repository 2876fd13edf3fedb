"""Factories the unit tests share: a refund case, a paused or answered robot, a logged parallel run,
node-log rows and checkpoints made by hand, what an AppTest page shows, SQLite's plan of a read-model query,
and a file or folder that cannot be written.

Import them by name (``from tests.factories import start_refund``). A test file whose cases need other
defaults passes the arguments, or binds them once with :func:`functools.partial`.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from langgraph.types import Command

from agents import lifecycle, readmodel, runs, runtime
from agents.db import Store
from agents.errors import RunCancelled
from agents.nodelog import node_runs
from agents.registry import get_agent
from agents.runtime import load_settings, open_store
from agents.settings import Settings

#: The start time of :func:`insert_parallel_run`'s node-log rows (a fixed epoch second, so tests can compare).
PARALLEL_RUN_T0 = 1_750_000_000.0


def start_refund(
    store: Store,
    settings: Settings,
    case: str = "C1",
    amount: Any = 500_000,
    *,
    customer: str = "홍길동",
    reason: str = "r",
    lang: str = "en",
) -> runs.RunResult:
    """Starts a refund case on thread ``refund-<case>`` and returns its first result.

    500,000 KRW is above the automatic threshold, so by default the case waits for a human's decision;
    ``amount`` is passed as given (a test may hand in a string to see how it is read).
    """
    return runs.start_run(
        store,
        settings,
        "refund",
        {"case_id": case, "customer": customer, "amount": amount, "reason": reason},
        lang=lang,
    )


def pause_robot(store: Store, settings: Settings, thread: str = "hitl_demo", *, lang: str = "en") -> runs.RunResult:
    """Starts the robot on ``thread`` in ``lang``: it proposes and pauses at its question (status ``waiting``)."""
    return runs.start_run(store, settings, "robot", {}, thread_id=thread, lang=lang)


def answer_robot(
    store: Store, settings: Settings, thread: str = "hitl_demo", answer: str = "yes", *, lang: str = "en"
) -> runs.RunResult:
    """Starts the robot on ``thread`` and answers its question: two runs, and a finished thread.

    ``yes`` executes the proposal; any other answer (``Yes``, ``no``) is taken as it is typed.
    """
    pause_robot(store, settings, thread, lang=lang)
    return runs.resume_thread(store, settings, thread, answer)


def refuse_at_the_pause(thread_id: str, answer: Any, db_location: str, **environ: str) -> str:
    """Gives a waiting thread an answer its pause refuses, as LangGraph's own tooling would (it checks
    nothing first): the pause asks again with the refusal in its payload, which it returns. Every path
    of this project refuses such an answer before anything is written. ``environ``: the thread's settings."""
    store = open_store(db_location)
    try:
        settings = load_settings(db_override=db_location, environ={"HITL_MODEL_LATENCY": "0", **environ}, secrets={})
        spec = runs.thread_snapshot(store, settings, thread_id)[0]
        graph = runtime.graph(store, spec.name, **runtime.graph_options(settings, spec.name))
        config = runs.run_config(get_agent(spec.name), thread_id, lang=readmodel.thread_language(store, thread_id))
        waiting = graph.invoke(Command(resume=answer), config, durability="sync")
        return str(waiting["__interrupt__"][0].value.get("error", ""))
    finally:
        store.close()


def cancel_at(node: str) -> Callable[[dict[str, Any]], None]:
    """A run's event callback that cancels it as ``node`` starts, as the API's ``check_cancelled`` does once a
    cancel was asked (``RunCancelled`` from the stream callback): the thread is left stopped, as by a crash."""

    def cancel(event: dict[str, Any]) -> None:
        if event.get("name") == node:
            raise RunCancelled("run-1")

    return cancel


def stopped_status(store: Store, thread_id: str) -> lifecycle.ThreadStatus:
    """The status of a thread whose run stopped before it finished: ``attention``, resolved by ``continue``."""
    status = lifecycle.thread_status(store, thread_id)
    assert status is not None and (status.status, status.reason_code, status.action) == (
        "attention",
        "stopped",
        "continue",
    ), status
    return status


def thread_counts(store: Store, thread_id: str) -> tuple[int, int, str | None]:
    """Checkpoints, writes and the head of a thread: what a refused action must leave as it was."""
    with store.read() as cursor:
        checkpoints, writes = store.queries.counts(cursor, thread_id)
    return checkpoints, writes, readmodel.head_checkpoint_id(store, thread_id)


def inbox_ids(store: Store) -> list[str]:
    """The thread ids of the inbox, in its order (oldest first)."""
    return [item.thread_id for item in lifecycle.inbox(store)]


def run_ids(store: Store, thread_id: str = "hitl_demo") -> list[str]:
    """The ids of the thread's runs in the node log, first run first."""
    return list(dict.fromkeys(row["run_id"] for row in node_runs(store, thread_id=thread_id)))


def insert_parallel_run(store: Store, thread_id: str, run_id: str = "par-run", agent: str = "robot") -> None:
    """Logs a run whose three research tasks overlap fully (1 s each, step 2) after a 0.5 s plan (step 1).

    The rows go straight into ``node_log``, starting at :data:`PARALLEL_RUN_T0`; no graph runs.
    """
    rows = [
        ("plan", "", 1, 0.0, 0.5),
        ("research", "기초", 2, 0.5, 1.5),
        ("research", '심화, "quoted"', 2, 0.5, 1.5),
        ("research", "실습", 2, 0.5, 1.5),
    ]
    with store.transaction() as cursor:
        for index, (node, label, step, start, end) in enumerate(rows):
            times = (PARALLEL_RUN_T0 + start, PARALLEL_RUN_T0 + end)
            cursor.execute(
                "INSERT INTO node_log (agent, thread_id, run_id, node, task_id, step, label, started_at,"
                " ended_at, status) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 'ok')",
                (agent, thread_id, run_id, node, f"task-{index}", step, label, *times),
            )


def insert_long_run(
    store: Store, calls: int, thread_id: str = "hitl_demo", nodes: tuple[str, ...] = ("propose",)
) -> None:
    """Logs run ``long`` of ``calls`` one-call robot supersteps, 10 ms each, after every run logged so far.

    The calls take the ``nodes`` in turn (one lane each on the timeline).
    """
    with store.transaction() as cursor:
        start = time.time() + 60  # a minute after now: after every run a test made
        for index in range(calls):
            begin = start + 0.01 * index
            cursor.execute(
                "INSERT INTO node_log (agent, thread_id, run_id, node, task_id, step, label, started_at,"
                " ended_at, status) VALUES ('robot', ?, 'long', ?, ?, ?, '', ?, ?, 'ok')",
                (thread_id, nodes[index % len(nodes)], f"task-{index}", index + 1, begin, begin + 0.01),
            )


def messages(at: Any) -> str:
    """Every error, warning, success and info message an AppTest page shows, joined by spaces."""
    return " ".join(e.value for e in [*at.error, *at.warning, *at.success, *at.info])


def button_by_key(at: Any, key: str) -> Any:
    """The AppTest page's button with this widget key (``StopIteration`` when there is none)."""
    return next(b for b in at.button if b.key == key)


def open_quiz(at: Any, question: str, opened: bool = True) -> Any:
    """Opens (or closes) a robot quiz question's expander as the browser does: its value, then a run."""
    at.session_state[f"robot-quiz-{question}"] = opened
    return at.run()


#: An arbitrary epoch second for hand-made node-log rows, so timestamps are realistic.
T0 = 1_750_000_000.0


def node_log_row(
    row_id: int,
    node: str,
    start: float,
    end: float | None,
    *,
    step: int = 1,
    run_id: str = "run-1",
    label: str = "",
    status: str = "ok",
    error: str = "",
) -> dict[str, Any]:
    """A node-log row with the keys of ``agents.schema.NODE_LOG_COLUMNS``; times are offsets from :data:`T0`."""
    return {
        "id": row_id,
        "agent": "lecture",
        "thread_id": "thread-1",
        "run_id": run_id,
        "node": node,
        "task_id": f"task-{row_id}",
        "step": step,
        "label": label,
        "started_at": T0 + start,
        "ended_at": None if end is None else T0 + end,
        "status": status,
        "error": error,
    }


@dataclass(frozen=True)
class Point:
    """A hand-made checkpoint: a stand-in for ``agents.readmodel.ChainCheckpoint``."""

    checkpoint_id: str
    parent_checkpoint_id: str | None
    step: int
    source: str = "loop"
    writers: tuple[str, ...] = ()
    next: tuple[str, ...] = ()
    is_head: bool = False
    is_waiting: bool = False
    checkpoint_ns: str = ""


def cid(n: int) -> str:
    """A time-ordered fake checkpoint id: a larger ``n`` sorts later."""
    return f"1ef{n:05x}-0000-6000-8000-{n:04x}abcdef01"


def table_cells(at: Any) -> list[str]:
    """Every cell of every table (``st.dataframe``) an AppTest run drew, as text."""
    return [str(cell) for frame in at.dataframe for row in frame.value.itertuples(index=False) for cell in row]


def sqlite_plan(folder: Path, ask: Callable[[Any], Any]) -> str:
    """SQLite's plan of the first statement ``ask(cursor)`` runs, on an empty store: its steps joined by `` | ``.

    ``ask`` gets a cursor that records the statement (and answers no rows); the plan is then read on a
    real file with the project's tables.
    """
    seen: list[tuple[str, tuple]] = []

    class Recording:
        def execute(self, sql: str, params: tuple = ()) -> None:
            seen.append((sql, params))

        def fetchall(self) -> list:
            return []

    ask(Recording())
    store = open_store(folder / "plan.sqlite")
    try:
        with store.read() as cursor:
            cursor.execute("EXPLAIN QUERY PLAN " + seen[0][0], seen[0][1])
            return " | ".join(row[-1] for row in cursor.fetchall())
    finally:
        store.close()


def released_together(script: str, arguments: list[list[str]]) -> list[Any]:
    """Runs ``python -c script`` once per argument list and lets them all go at once; returns what each
    printed as JSON, in order.

    Each child prints ``ready`` when its start-up is done and waits for a line on stdin before it works,
    so the children race in their work, not in their imports.
    """
    from tests.conftest import PROJECT_ROOT

    pipes = {"stdin": subprocess.PIPE, "stdout": subprocess.PIPE, "stderr": subprocess.PIPE}
    children = [
        subprocess.Popen([sys.executable, "-c", script, *argv], cwd=PROJECT_ROOT, text=True, **pipes)
        for argv in arguments
    ]
    for child in children:
        assert child.stdout is not None and child.stdout.readline().strip() == "ready"
    for child in children:
        assert child.stdin is not None
        child.stdin.write("go\n")
        child.stdin.flush()
    results = []
    for child in children:
        out, err = child.communicate(timeout=600)
        assert child.returncode == 0, err
        results.append(json.loads(out))
    return results


@contextmanager
def unwritable(path: Path) -> Iterator[None]:
    """``path`` (a file, or a folder no file can be made in) made so it cannot be written: immutable
    (``chattr +i``, which refuses even root), or without write permission where the process is not root;
    made writable again afterwards. Skips the test where neither holds (root without ``chattr``)."""
    if subprocess.run(["chattr", "+i", str(path)], capture_output=True, check=False).returncode == 0:
        try:
            yield
        finally:
            subprocess.run(["chattr", "-i", str(path)], check=True)
        return
    mode = path.stat().st_mode
    path.chmod(mode & ~0o222)
    try:
        if os.access(path, os.W_OK):
            pytest.skip(f"{path} stays writable here (root without chattr)")
        yield
    finally:
        path.chmod(mode)


def edit(path: Path, text: str) -> None:
    """Writes ``text`` and moves the file's time on, as an edit a second later would (a write within the same
    clock tick keeps the time, and an edit of the same length the size)."""
    before = path.stat().st_mtime_ns
    path.write_text(text, encoding="utf-8")
    os.utime(path, ns=(before + 1_000_000_000, before + 1_000_000_000))
