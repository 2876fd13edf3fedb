"""The summary table: each thread's settled status is kept, and a row that no longer holds is never served."""

from __future__ import annotations

import signal
import sqlite3
import subprocess
import sys
import textwrap
from pathlib import Path
from unittest import mock

import pytest

from agents import lifecycle, readmodel, runs, runtime, summarytable, threadindex
from agents.db import DatabaseError
from agents.db_sqlite import SqliteStore
from agents.refund import ledger
from agents.runtime import open_store
from tests.factories import answer_robot, pause_robot, start_refund

pytestmark = pytest.mark.usefixtures("backend")
ROOT = Path(__file__).resolve().parents[2]


def computed(store):
    """Every status read through LangGraph, no kept row used (the oracle)."""
    no_rows = mock.patch.object(summarytable, "stored_rows", return_value=({}, set()))
    with no_rows, mock.patch.object(summarytable, "save"):
        index = threadindex._read(store, None)
        pending = {p.thread_id: p.payload for p in reversed(index.pending)}
        return lifecycle._statuses(store, list(index.threads), pending, set())


def forget_status_index(cursor):
    """Empties the index of statuses (``agents.statusindex``), so the next new process reads every thread."""
    cursor.execute("DELETE FROM thread_status_index")
    cursor.execute("DELETE FROM hitl_meta WHERE key = 'status_index_complete_at'")


def kept_rows(store):
    with store.read() as cursor:
        cursor.execute("SELECT thread_id, head_checkpoint_id, status, outcome, reason_code FROM thread_summaries")
        return {row[0]: row[1:] for row in cursor.fetchall()}


def assert_served_as_computed(store):
    served = lifecycle.thread_statuses(store)
    assert served == computed(store)
    heads = {s.thread_id: s.head_checkpoint_id for s in threadindex.list_threads(store)}
    for status in served:  # every settled thread's row is at its head
        if status.status == "done" or status.reason_code in ("edited", "stopped", "inconsistent"):
            row = kept_rows(store)[status.thread_id]
            assert row[:3] == (heads[status.thread_id], status.status, status.outcome), (status, row)
    return {s.thread_id: s for s in served}


def test_every_kind_of_write_leaves_each_status_as_computed_and_its_row_at_the_head(store, settings):
    pause_robot(store, settings, "r1")
    pause_robot(store, settings, "r2")
    answer_robot(store, settings, "r3", "no")
    assert assert_served_as_computed(store)["r3"].outcome == "refused"
    runs.resume_thread(store, settings, "r1", "yes")  # resume
    assert assert_served_as_computed(store)["r1"].outcome == "executed"
    runs.update_thread(store, settings, "r2", {"decision": "no"})  # update_state, not continued
    assert assert_served_as_computed(store)["r2"].reason_code == "edited"
    runs.continue_thread(store, settings, "r2")
    assert assert_served_as_computed(store)["r2"].reason_code != "edited"
    first_pause = readmodel.checkpoint_chain(store, "r3")[2].checkpoint_id
    runs.continue_thread(store, settings, "r3", checkpoint_id=first_pause)  # a fork from the pause
    assert assert_served_as_computed(store)["r3"].status == "waiting"
    runs.resume_thread(store, settings, "r3", "yes")
    assert assert_served_as_computed(store)["r3"].outcome == "executed"
    runs.delete_thread(store, "r1")  # delete
    assert "r1" not in assert_served_as_computed(store)
    pause_robot(store, settings, "r1")  # the same id again: a new head, never the deleted thread's row
    assert assert_served_as_computed(store)["r1"].status == "waiting"


def test_a_refund_outcome_is_kept_and_checked_against_the_ledger(store, settings):
    start_refund(store, settings, "A")
    runs.resume_from_fields(store, settings, "refund-A", {"action": "reject", "approver": "kim"})
    assert assert_served_as_computed(store)["refund-A"].outcome == "rejected"
    assert kept_rows(store)["refund-A"][1:3] == ("done", "rejected")
    ledger.pay(store, case_id="A", thread_id="refund-A", customer="c", requested_amount=500_000, amount=1, approver="k")
    assert assert_served_as_computed(store)["refund-A"].reason_code == "inconsistent"


def test_a_write_by_another_connection_is_seen_by_a_reader_that_kept_rows(store, settings, db_location):
    answer_robot(store, settings, "r1")
    pause_robot(store, settings, "r2")
    assert_served_as_computed(store)
    other = open_store(db_location)
    try:
        runs.update_thread(other, settings, "r1", {"pending_action": "other"}, as_node="approval")
        runs.resume_thread(other, settings, "r2", "no")
    finally:
        other.close()
    served = assert_served_as_computed(store)
    assert served["r1"].reason_code == "edited" and served["r2"].outcome == "refused"


def test_a_raw_write_to_a_kept_head_s_writes_is_seen(store, settings):
    """A stuck head's writes change while its head stays (a run resumed on it, killed): read again."""
    pause_robot(store, settings, "r1")
    runs.update_thread(store, settings, "r1", {"decision": "no"})
    assert assert_served_as_computed(store)["r1"].reason_code == "edited"
    head = readmodel.head_checkpoint_id(store, "r1")
    table = "writes" if store.backend == "sqlite" else "checkpoint_writes"
    value = "value" if store.backend == "sqlite" else "blob"
    error = store.saver.serde.dumps_typed(ValueError("disk on fire"))
    with store.transaction() as cursor:
        cursor.execute(
            f"INSERT INTO {table} (thread_id, checkpoint_ns, checkpoint_id, task_id, task_path, idx, channel,"
            f" type, {value}) VALUES (?, '', ?, 'task-x', '', 0, '__error__', ?, ?)",
            ("r1", head, error[0], error[1]),
        )
    lifecycle.thread_statuses(store)  # whatever it says, it is what LangGraph says now
    assert assert_served_as_computed(store)["r1"].reason_code == kept_rows(store)["r1"][3]


def test_a_stale_or_garbled_row_is_never_served(store, settings, db_location):
    answer_robot(store, settings, "r1", "yes")
    pause_robot(store, settings, "r2")
    runs.update_thread(store, settings, "r2", {"decision": "no"})
    assert_served_as_computed(store)
    old_head = readmodel.checkpoint_chain(store, "r1")[0].checkpoint_id
    with store.transaction() as cursor:  # as another process might leave them: a row of an older head,
        cursor.execute(  # one at the head whose marks do not match, and one that cannot be decoded
            "UPDATE thread_summaries SET head_checkpoint_id = ?, outcome = 'refused' WHERE thread_id = 'r1'",
            (old_head,),
        )
        cursor.execute("UPDATE thread_summaries SET head_mark = 'x', reason_code = 'stopped' WHERE thread_id = 'r2'")
        cursor.execute(
            "INSERT INTO thread_summaries (thread_id, head_checkpoint_id, agent, status, reason)"
            " VALUES ('r3', 'x', 'robot', 'done', '{not json')"
        )
        forget_status_index(cursor)  # so a new process reads the threads, and these rows
    pause_robot(store, settings, "r3")
    fresh = open_store(db_location)  # no row mirrored in the process
    try:
        served = assert_served_as_computed(fresh)
        assert (served["r1"].outcome, served["r2"].reason_code, served["r3"].status) == (
            "executed",
            "edited",
            "waiting",
        )
    finally:
        fresh.close()


def test_a_restart_reads_no_state_for_threads_whose_rows_hold(store, settings, db_location):
    answer_robot(store, settings, "r1")
    pause_robot(store, settings, "r2")
    runs.update_thread(store, settings, "r2", {"decision": "no"})
    before = lifecycle.thread_statuses(store)
    again = open_store(db_location)
    try:
        with mock.patch.object(runtime, "graph", side_effect=AssertionError("a state was read")):
            assert lifecycle.thread_statuses(again) == before
    finally:
        again.close()


def test_home_reads_every_status_once_for_all_agents(store, settings):
    answer_robot(store, settings, "r1")
    start_refund(store, settings, "A")
    forget_rows(store)  # the first read keeps r1's status again: that write alone does not make the others read again
    with mock.patch.object(lifecycle, "_statuses", wraps=lifecycle._statuses) as reads:
        lifecycle.inbox(store)
        for agent in ("robot", "refund", "lecture"):
            lifecycle.thread_statuses(store, agent=agent)
    assert reads.call_count == 1  # on both backends: the database notes what changed
    assert [s.thread_id for s in lifecycle.thread_statuses(store, agent="refund")] == ["refund-A"]


def forget_rows(store):
    with store.transaction() as cursor:
        cursor.execute("DELETE FROM thread_summaries")


def test_a_row_that_cannot_be_written_leaves_the_read_as_it_is(store, settings, db_location, monkeypatch):
    answer_robot(store, settings, "r1")
    forget_rows(store)
    monkeypatch.setattr(type(store), "write_if_free", mock.Mock(side_effect=RuntimeError("locked")))
    reader = open_store(db_location)
    try:
        assert lifecycle.thread_status(reader, "r1").outcome == "executed"
        assert lifecycle.thread_statuses(reader)[0].outcome == "executed"
    finally:
        reader.close()
    assert kept_rows(store) == {}


def test_a_locked_or_read_only_file_is_read_without_waiting_for_its_lock(store, settings, db_location):
    if store.backend != "sqlite":
        pytest.skip("SQLite's write lock and read-only files")
    answer_robot(store, settings, "r1")
    forget_rows(store)
    holder = sqlite3.connect(db_location)
    holder.execute("BEGIN IMMEDIATE")  # another process holds the write lock
    try:
        reader = open_store(db_location, busy_timeout=30)
        try:
            assert lifecycle.thread_status(reader, "r1").outcome == "executed"  # not 30 s: the row is skipped
        finally:
            reader.close()
    finally:
        holder.rollback()
        holder.close()
    assert kept_rows(store) == {}
    read_only = SqliteStore(db_location, tables=store.tables, read_only=True)
    try:
        assert lifecycle.thread_status(read_only, "r1").outcome == "executed"
    finally:
        read_only.close()


_KILLED_AFTER_ITS_CHECKPOINT = """
import os, signal, sys
sys.path.insert(0, {root!r})
from agents import lifecycle, runs
from agents.runtime import load_settings, open_store
store = open_store({db!r})
settings = load_settings(environ={{"HITL_DB": {db!r}, "HITL_MODEL_LATENCY": "0"}}, secrets={{}})
assert lifecycle.thread_status(store, "r1").status == "waiting"  # its row is not kept: it waits
assert lifecycle.thread_status(store, "r2").outcome == "executed"  # kept at this head
runs.update_thread(store, settings, "r2", {{"pending_action": "again"}}, as_node="approval")
os.kill(os.getpid(), signal.SIGKILL)  # after the new checkpoint, before any read keeps a row for it
"""


@pytest.mark.slow  # a kill test: a child process kills itself after its checkpoint
def test_a_process_killed_between_its_checkpoint_and_any_row_leaves_nothing_stale(store, settings, db_location):
    pause_robot(store, settings, "r1")
    answer_robot(store, settings, "r2")
    assert lifecycle.thread_status(store, "r2").outcome == "executed"
    code = textwrap.dedent(_KILLED_AFTER_ITS_CHECKPOINT).format(root=str(ROOT), db=db_location)
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=False)
    assert done.returncode == -signal.SIGKILL, done.stderr
    assert assert_served_as_computed(store)["r2"].reason_code == "edited"


def test_a_read_only_file_of_the_release_before_the_table_is_read_once_brought_up_to_date(store, settings, db_location):
    if store.backend != "sqlite":
        pytest.skip("only a SQLite file is opened read-only")
    answer_robot(store, settings, "r1")
    pause_robot(store, settings, "r2")
    store.close()
    with sqlite3.connect(db_location) as conn:  # as the release before this table left it
        conn.execute("DROP TABLE thread_summaries")
        conn.execute("UPDATE hitl_meta SET value = 'c5095c9699d40a98' WHERE key = 'schema_fingerprint'")
    with pytest.raises(DatabaseError, match="earlier release"):  # its tables cannot be brought up to date
        SqliteStore(db_location, tables=store.tables, read_only=True)
    open_store(db_location).close()
    read_only = SqliteStore(db_location, tables=store.tables, read_only=True)
    try:
        statuses = {s.thread_id: (s.status, s.outcome) for s in lifecycle.thread_statuses(read_only)}
        assert statuses == {"r1": ("done", "executed"), "r2": ("waiting", "")}
    finally:
        read_only.close()
