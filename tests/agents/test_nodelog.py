"""When node-log rows become durable: the running row before the node runs, each end as it happens."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
import textwrap

import pytest
from langgraph.errors import GraphInterrupt

from agents.db import DatabaseError, SqliteStore
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


def test_running_row_is_committed_before_the_node_body_runs(store, db_path):
    seen_inside = []

    def work(state):
        seen_inside.extend(_seen_by_another_connection(db_path))
        return {}

    logged_node(store, "robot", work)({}, CONFIG)
    assert seen_inside == [("work", "running", 0)]


def test_every_end_is_committed_when_the_call_ends(store, db_path):
    logged_node(store, "robot", lambda state: {}, name="work")({}, CONFIG)
    assert _seen_by_another_connection(db_path) == [("work", "ok", 1)]
    rows = node_runs(store, thread_id="t1")
    assert [(r["node"], r["status"], r["task_id"], r["step"]) for r in rows] == [("work", "ok", "task-1", 4)]


def test_interrupted_and_error_ends_are_recorded(store, db_path):
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
    """The node log's two single-statement writes on either backend: a failure leaves no open transaction."""
    first = logged_node(store, "robot", lambda state: {}, name="first")
    first({}, CONFIG)
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


def test_kill_mid_run_loses_no_row(db_path):
    """A real SIGKILL in the middle of the fourth call: three ok rows with ends, one running row."""
    script = textwrap.dedent(f"""
        import os, signal, sys
        sys.path.insert(0, {str(PROJECT_ROOT)!r})
        from typing import TypedDict
        from langgraph.graph import END, START, StateGraph
        from agents.db import SqliteStore
        from agents.nodelog import logged_node

        class S(TypedDict):
            count: int

        def tick(state):
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
    assert _seen_by_another_connection(db_path) == [("tick", "ok", 1)] * 3 + [("tick", "running", 0)]
