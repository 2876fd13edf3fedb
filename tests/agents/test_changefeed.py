"""The change feed: the database notes every thread's changes, whoever writes, and a read after a write
reads those threads alone."""

from __future__ import annotations

import sqlite3
import textwrap
from contextlib import contextmanager
from pathlib import Path
from unittest import mock

import pytest

from agents import changefeed, lifecycle, runs, summarytable, threadindex
from agents.robot.graph import build_graph
from agents.runtime import open_store
from tests.factories import answer_robot, pause_robot, start_refund
from tests.fresh_process import run_code

pytestmark = pytest.mark.usefixtures("backend")
ROOT = Path(__file__).resolve().parents[2]


def computed(store):
    """Every status read through LangGraph, no kept row used (the oracle)."""
    no_rows = mock.patch.object(summarytable, "stored_rows", return_value=({}, set()))
    with no_rows, mock.patch.object(summarytable, "save"):
        index = threadindex._read(store, None)
        pending = {p.thread_id: p.payload for p in reversed(index.pending)}
        return lifecycle.with_counts(lifecycle._statuses(store, list(index.threads), pending, set()), index.pending)


def served(store):
    """Home's reads, checked against the oracle; thread id → status."""
    every = lifecycle.thread_statuses(store)
    assert every == computed(store)
    assert lifecycle.inbox(store) == lifecycle.unfinished(every)
    for agent in ("robot", "refund", "lecture"):
        assert lifecycle.thread_statuses(store, agent=agent) == [s for s in every if s.agent == agent]
        assert lifecycle.inbox(store, agent=agent) == lifecycle.unfinished([s for s in every if s.agent == agent])
    return {s.thread_id: s for s in every}


def test_a_read_after_one_write_reads_that_thread_alone(store, settings):
    for number in range(4):
        answer_robot(store, settings, f"done-{number}")
    pause_robot(store, settings, "w1")
    served(store)
    runs.resume_thread(store, settings, "w1", "no")
    with mock.patch.object(lifecycle, "_statuses", wraps=lifecycle._statuses) as reads:
        assert served(store)["w1"].outcome == "refused"
    first = reads.call_args_list[0]
    assert [s.thread_id for s in first.args[1]] == ["w1"]  # the write's thread, not the five
    runs.delete_thread(store, "done-0")
    assert "done-0" not in served(store)


_WRITE_ELSEWHERE = """
import sys
sys.path.insert(0, {root!r})
from agents import runs
from agents.runtime import load_settings, open_store
store = open_store({db!r})
settings = load_settings(db_override={db!r}, secrets={{}})
runs.resume_thread(store, settings, "w1", "yes")
runs.update_thread(store, settings, "w2", {{"decision": "no"}})
runs.delete_thread(store, "done-0")
runs.start_run(store, settings, "robot", {{}}, thread_id="w3")
store.close()
"""


def write_elsewhere(db_location: str) -> None:
    """Another process answers w1, updates w2, deletes done-0 and starts the robot on w3, through this project."""
    code = textwrap.dedent(_WRITE_ELSEWHERE).format(root=str(ROOT), db=db_location)
    done = run_code(code, cwd=ROOT)
    assert done.returncode == 0, done.stderr


def test_writes_by_another_process_are_seen_by_a_reader_that_read_before(store, settings, db_location):
    answer_robot(store, settings, "done-0")
    pause_robot(store, settings, "w1")
    pause_robot(store, settings, "w2")
    served(store)
    write_elsewhere(db_location)
    statuses = served(store)
    assert statuses["w1"].outcome == "executed"
    assert statuses["w2"].reason_code == "edited"
    assert statuses["w3"].status == "waiting"
    assert "done-0" not in statuses


@contextmanager
def langgraph_saver(store, db_location):
    """LangGraph's own saver on its own connection: no code of this project writes through it."""
    if store.backend == "sqlite":
        from langgraph.checkpoint.sqlite import SqliteSaver

        conn = sqlite3.connect(db_location, check_same_thread=False)
        try:
            yield SqliteSaver(conn)
        finally:
            conn.close()
    else:
        from langgraph.checkpoint.postgres import PostgresSaver

        with PostgresSaver.from_conn_string(db_location) as saver:
            yield saver


def test_a_langgraph_program_writing_without_this_project_is_seen(store, settings, db_location):
    pause_robot(store, settings, "w1")
    answer_robot(store, settings, "done-0")
    assert served(store)["w1"].status == "waiting"
    with langgraph_saver(store, db_location) as saver:
        graph = build_graph(saver)  # the robot's graph, without the store: no node log, no project code
        graph.update_state({"configurable": {"thread_id": "w1"}}, {"decision": "no"})
        saver.delete_thread("done-0")
    statuses = served(store)
    assert statuses["w1"].reason_code == "edited"
    assert "done-0" not in statuses


def test_a_ledger_row_written_by_another_connection_is_seen(store, settings, db_location):
    start_refund(store, settings, "A")
    runs.resume_from_fields(store, settings, "refund-A", {"action": "reject", "approver": "kim"})
    assert served(store)["refund-A"].outcome == "rejected"
    other = open_store(db_location)
    try:
        with other.transaction() as cursor:  # a payout of a rejected case: the outcome is not believable
            cursor.execute(
                "INSERT INTO refund_ledger (case_id, thread_id, customer, requested_amount, paid_amount, approver,"
                " paid_at) VALUES ('A', 'refund-A', 'c', 500000, 1, 'k', '2026-01-01T00:00:00+00:00')"
            )
    finally:
        other.close()
    assert served(store)["refund-A"].reason_code == "inconsistent"


def statements_of_a_cold_read(db_location):
    """The SQL statements a new process runs to read every status (SQLite's trace)."""
    fresh = open_store(db_location)
    seen = []
    try:
        fresh.conn.set_trace_callback(seen.append)
        lifecycle.thread_statuses(fresh)
        for agent in ("robot", "refund", "lecture"):
            lifecycle.thread_statuses(fresh, agent=agent)
        fresh.conn.set_trace_callback(None)
    finally:
        fresh.close()
    return [statement for statement in seen if statement not in ("BEGIN", "ROLLBACK", "COMMIT")]


def test_a_cold_read_of_kept_statuses_asks_the_same_queries_however_many_threads(store, settings, db_location):
    if store.backend != "sqlite":
        pytest.skip("SQLite's statement trace")

    def finished_refunds(first, count):
        for number in range(first, first + count):
            start_refund(store, settings, f"C{number}")
            runs.resume_from_fields(store, settings, f"refund-C{number}", {"action": "reject", "approver": "kim"})
        lifecycle.thread_statuses(store)  # their rows kept

    finished_refunds(0, 2)
    few = statements_of_a_cold_read(db_location)
    finished_refunds(2, 6)
    many = statements_of_a_cold_read(db_location)
    assert len(many) == len(few), "\n".join(many)


def test_a_database_of_the_release_before_gets_the_feed_when_opened(store, settings, db_location):
    pause_robot(store, settings, "w1")
    answer_robot(store, settings, "done-0")
    with store.transaction() as cursor:  # as the release before the summary table left it
        for name in changefeed.fed_tables(store.backend, store.tables):
            if store.backend == "sqlite":
                for event in ("insert", "update", "delete"):
                    cursor.execute(f"DROP TRIGGER {name}_noted_{event}")
            else:
                cursor.execute(f"DROP TRIGGER {name}_noted ON {name}")
        cursor.execute("DROP TABLE thread_changes")
        cursor.execute("DROP TABLE thread_summaries")
        cursor.execute("DROP TABLE notify_outbox")
        cursor.execute("DROP TABLE refund_item_ledger")
        previous = "c5095c9699d40a98" if store.backend == "sqlite" else "3e04912705cf24df"
        cursor.execute("UPDATE hitl_meta SET value = ? WHERE key = 'schema_fingerprint'", (previous,))
    reopened = open_store(db_location)
    try:
        assert reopened.notes_changes
        assert served(reopened)["w1"].status == "waiting"
        with langgraph_saver(reopened, db_location) as saver:
            build_graph(saver).update_state({"configurable": {"thread_id": "w1"}}, {"decision": "no"})
        assert served(reopened)["w1"].reason_code == "edited"
    finally:
        reopened.close()


def test_a_store_opened_with_some_tables_only_has_no_feed_and_langgraph_still_writes(tmp_path):
    """A SQLite file of its own, whatever the module's backend: a store of the node log alone (a benchmark's)."""
    from langgraph.graph import END, START, StateGraph
    from typing_extensions import TypedDict

    from agents.db_sqlite import SqliteStore
    from agents.schema import META_TABLE, NODE_LOG_TABLE, SUMMARY_TABLE

    class State(TypedDict):
        n: int

    store = SqliteStore(tmp_path / "some.sqlite", tables=(META_TABLE, NODE_LOG_TABLE))
    try:
        builder = StateGraph(State)
        builder.add_node("step", lambda state: {"n": state["n"] + 1})
        builder.add_edge(START, "step")
        builder.add_edge("step", END)
        graph = builder.compile(checkpointer=store.saver)
        assert graph.invoke({"n": 1}, {"configurable": {"thread_id": "t"}}) == {"n": 2}
        assert not store.notes_changes and changefeed.position(store) is None
        names = {row[0] for row in store.conn.execute("SELECT name FROM sqlite_master")}
        assert "thread_changes" not in names and SUMMARY_TABLE.name not in names
    finally:
        store.close()
