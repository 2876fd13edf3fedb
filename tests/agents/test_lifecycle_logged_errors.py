"""A node's error that LangGraph could not save with its task is read from the node log.

LangGraph saves a task's error as a write; an exception its serializer refuses is not saved, and the
head then looks like a run that stopped. The node log wrote the error first, so the status says it.
"""

from __future__ import annotations

import pytest

from agents import lifecycle, readmodel, runs
from agents.db_sqlite import SqliteStore
from agents.errors import RunFailedError
from agents.nodelog import node_runs
from tests.factories import answer_robot

pytestmark = pytest.mark.usefixtures("backend")


def _raised_without_its_saved_error(store, settings, thread="r-raised"):
    """A robot thread whose node raised (KeyError), with the error write removed as if never saved."""
    answer_robot(store, settings, thread, "yes")
    input_checkpoint = readmodel.checkpoint_chain(store, thread)[0]
    runs.update_thread(
        store, settings, thread, {"decision": "x"}, as_node="approval", checkpoint_id=input_checkpoint.checkpoint_id
    )
    with pytest.raises(RunFailedError, match="KeyError"):
        runs.continue_thread(store, settings, thread)
    table = "writes" if isinstance(store, SqliteStore) else "checkpoint_writes"
    with store.transaction() as cursor:
        cursor.execute(f"DELETE FROM {table} WHERE thread_id = ? AND channel = '__error__'", (thread,))


def test_an_error_only_the_node_log_has_is_the_threads_error(store, settings):
    _raised_without_its_saved_error(store, settings)  # its status was read (and kept) before the run
    status = lifecycle.thread_status(store, "r-raised")
    assert (status.status, status.reason_code, status.action) == ("attention", "error", "rerun")
    assert "KeyError" in status.reason


def test_a_call_that_started_again_after_the_error_and_never_ended_is_not_that_error(store, settings):
    _raised_without_its_saved_error(store, settings)
    failed = node_runs(store, thread_id="r-raised")[-1]
    assert failed["status"] == "error"
    columns = [c for c in failed if c not in ("id", "ended_at", "error")]
    with store.transaction() as cursor:  # a later call of the same task, killed half-way
        cursor.execute(
            f"INSERT INTO node_log ({', '.join(columns)}) VALUES ({', '.join('?' * len(columns))})",
            [
                failed["started_at"] + 1 if c == "started_at" else "running" if c == "status" else failed[c]
                for c in columns
            ],
        )
    status = lifecycle.thread_status(store, "r-raised")  # its head is the edit: so it reads, as before the run
    assert (status.reason_code, status.action) == ("edited", "continue")


def test_a_reason_read_while_the_call_runs_is_not_kept_when_the_call_then_fails(store, settings):
    """A run with no lease (LangGraph's tooling) is read mid-call; the call's end then updates its row."""
    _raised_without_its_saved_error(store, settings)
    failed = node_runs(store, thread_id="r-raised")[-1]
    with store.transaction() as cursor:  # as it was while the call ran
        cursor.execute(
            "UPDATE node_log SET status = 'running', ended_at = NULL, error = '' WHERE id = ?", (failed["id"],)
        )
    assert lifecycle.thread_status(store, "r-raised").reason_code == "edited"
    with store.transaction() as cursor:  # the call ends in the error LangGraph could not save
        cursor.execute(
            "UPDATE node_log SET status = 'error', ended_at = ?, error = ? WHERE id = ?",
            (failed["ended_at"], failed["error"], failed["id"]),
        )
    status = lifecycle.thread_status(store, "r-raised")
    assert (status.reason_code, status.action) == ("error", "rerun")
    assert "KeyError" in status.reason
