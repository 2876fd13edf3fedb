"""When node-log rows become durable: queued off the hot path, written in batches by one writer, at once at an
interrupt, an error, a read and the end of a run."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
import textwrap
import threading

import pytest
from langgraph.errors import GraphInterrupt

from agents import nodelog, nodelog_queue
from agents.db import DatabaseError
from agents.db_sqlite import SqliteStore
from agents.nodelog import logged_node, node_runs
from tests.conftest import PROJECT_ROOT

CONFIG = {
    "configurable": {"thread_id": "t1"},
    "metadata": {"run_id": "r1", "langgraph_step": 4, "langgraph_checkpoint_ns": "work:task-1"},
}


def _seen_by_another_connection(db_path) -> list[tuple]:
    """What another process would read: committed rows only."""
    other = sqlite3.connect(db_path)
    try:
        return other.execute("SELECT node, status, ended_at IS NOT NULL FROM node_log ORDER BY id").fetchall()
    finally:
        other.close()


@pytest.fixture
def no_timer(monkeypatch):
    """The writer's timer never fires within a test: only the flush points write."""
    monkeypatch.setattr(nodelog_queue, "FLUSH_INTERVAL", 3600.0)


@pytest.mark.usefixtures("no_timer")
def test_an_ok_call_commits_nothing_on_the_hot_path(store, db_path):
    logged_node(store, "robot", lambda state: {}, name="work")({}, CONFIG)
    assert _seen_by_another_connection(db_path) == []
    nodelog.flush(store)  # before the store closes
    assert _seen_by_another_connection(db_path) == [("work", "ok", 1)]


@pytest.mark.usefixtures("no_timer")
def test_a_call_running_at_a_flush_is_written_running_then_completed(store, db_path):
    seen_inside = []

    def work(state):
        nodelog.flush(store)
        seen_inside.extend(_seen_by_another_connection(db_path))
        return {}

    logged_node(store, "robot", work)({}, CONFIG)
    assert seen_inside == [("work", "running", 0)]
    nodelog.flush(store)
    assert _seen_by_another_connection(db_path) == [("work", "ok", 1)]


@pytest.mark.usefixtures("no_timer")
def test_a_reader_in_the_same_process_sees_every_call_at_once(store, db_path):
    logged_node(store, "robot", lambda state: {}, name="work")({}, CONFIG)
    rows = node_runs(store, thread_id="t1")
    assert [(r["node"], r["status"], r["task_id"], r["step"]) for r in rows] == [("work", "ok", "task-1", 4)]
    assert _seen_by_another_connection(db_path) == [("work", "ok", 1)]


def test_the_writer_writes_queued_calls_on_its_own_and_then_stops(store, db_path):
    logged_node(store, "robot", lambda state: {}, name="work")({}, CONFIG)
    writer = nodelog_queue.writer(store)
    assert writer.thread is not None
    writer.thread.join(timeout=30)  # it writes the batch, finds nothing more queued, and ends
    assert not writer.thread.is_alive()
    assert _seen_by_another_connection(db_path) == [("work", "ok", 1)]


@pytest.mark.usefixtures("backend", "no_timer")
def test_parallel_callers_each_get_one_row_with_its_end(store):
    """Eight threads call nodes at once (as a fan-out's tasks do), with a flush between: one row per call."""

    def caller(index: int) -> None:
        node = logged_node(store, "lecture", lambda state: {}, name=f"n{index}")
        for call in range(40):
            node({}, {**CONFIG, "metadata": {**CONFIG["metadata"], "langgraph_checkpoint_ns": f"n:{index}-{call}"}})
            if call == 20:
                nodelog.flush(store)

    threads = [threading.Thread(target=caller, args=(index,)) for index in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    rows = node_runs(store, thread_id="t1")
    assert len(rows) == 320 and len({r["id"] for r in rows}) == 320
    assert {r["status"] for r in rows} == {"ok"} and all(r["ended_at"] >= r["started_at"] for r in rows)
    assert {r["task_id"] for r in rows} == {f"{index}-{call}" for index in range(8) for call in range(40)}


@pytest.mark.usefixtures("no_timer")
def test_interrupted_and_error_ends_are_committed_before_the_call_returns(store, db_path):
    def asks(state):
        raise GraphInterrupt(())  # what interrupt() raises inside a run

    def fails(state):
        raise RuntimeError("boom")

    logged_node(store, "robot", lambda state: {}, name="first")({}, CONFIG)
    with pytest.raises(GraphInterrupt):
        logged_node(store, "robot", asks)({}, CONFIG)
    with pytest.raises(RuntimeError):
        logged_node(store, "robot", fails)({}, CONFIG)
    assert _seen_by_another_connection(db_path) == [
        ("first", "ok", 1),
        ("asks", "interrupted", 1),
        ("fails", "error", 1),
    ]
    assert node_runs(store, thread_id="t1")[2]["error"] == "RuntimeError: boom"


@pytest.mark.usefixtures("backend")
def test_a_failed_write_is_rolled_back_and_the_next_one_commits(store):
    """The node log's batch writes on either backend: a failure leaves no open transaction."""
    first = logged_node(store, "robot", lambda state: {}, name="first")
    first({}, CONFIG)
    nodelog.flush(store)
    with pytest.raises(Exception, match="(?i)null"):  # status is NOT NULL
        store.execute_one("UPDATE node_log SET status = NULL WHERE node = ?", ("first",))
    assert [r["status"] for r in node_runs(store, thread_id="t1")] == ["ok"]  # a read begins its own snapshot
    first({}, CONFIG)
    rows = node_runs(store, thread_id="t1")
    assert [(r["node"], r["status"]) for r in rows] == [("first", "ok"), ("first", "ok")]
    assert rows[0]["id"] < rows[1]["id"]


def test_a_read_only_file_refuses_node_log_writes(store, db_path):
    read_only = SqliteStore(db_path, tables=store.tables, read_only=True)
    try:
        with pytest.raises(DatabaseError, match="read-only"):
            logged_node(read_only, "robot", lambda state: {}, name="work")({}, CONFIG)
        with pytest.raises(DatabaseError, match="read-only"):
            read_only.execute_one("DELETE FROM node_log", ())
    finally:
        read_only.close()
    assert _seen_by_another_connection(db_path) == []


@pytest.mark.slow  # a kill test: a child process is killed with SIGKILL inside a run
def test_a_kill_loses_only_the_rows_queued_since_the_last_write_never_a_checkpoint(db_path):
    """A real SIGKILL in the fourth call, the log last written in the third: two ok rows and the third's
    running row survive, the third's end and the fourth's start are lost; every checkpoint is kept."""
    script = textwrap.dedent(f"""
        import os, signal, sys
        sys.path.insert(0, {str(PROJECT_ROOT)!r})
        from typing import TypedDict
        from langgraph.graph import END, START, StateGraph
        from agents import nodelog, nodelog_queue
        from agents.db_sqlite import SqliteStore
        from agents.nodelog import logged_node

        nodelog_queue.FLUSH_INTERVAL = 3600.0  # only the flush below writes

        class S(TypedDict):
            count: int

        def tick(state):
            if state["count"] == 2:
                nodelog.flush(store)
            if state["count"] == 3:
                os.kill(os.getpid(), signal.SIGKILL)
            return {{"count": state["count"] + 1}}

        store = SqliteStore({str(db_path)!r})
        builder = StateGraph(S)
        builder.add_node("tick", logged_node(store, "bench", tick))
        builder.add_edge(START, "tick")
        builder.add_conditional_edges("tick", lambda s: "tick" if s["count"] < 10 else END, ["tick", END])
        graph = builder.compile(checkpointer=store.saver)
        config = {{"configurable": {{"thread_id": "k"}}, "metadata": {{"run_id": "killed"}}}}
        for _ in graph.stream({{"count": 0}}, config, stream_mode="tasks", durability="sync"):
            pass
    """)
    process = subprocess.run([sys.executable, "-c", script], capture_output=True, timeout=120)
    assert process.returncode == -9, process.stderr.decode()
    assert _seen_by_another_connection(db_path) == [("tick", "ok", 1)] * 2 + [("tick", "running", 0)]
    other = sqlite3.connect(db_path)
    try:
        sql = "SELECT metadata FROM checkpoints WHERE thread_id = 'k' ORDER BY checkpoint_id"
        steps = other.execute(sql).fetchall()
    finally:
        other.close()
    assert [json.loads(row[0])["step"] for row in steps] == [-1, 0, 1, 2, 3]  # one per finished call kept
