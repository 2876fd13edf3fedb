"""An unfinished head's status is read from LangGraph once, and read again whenever its writes change."""

from __future__ import annotations

import types

import pytest

from agents import lifecycle, readmodel, runs, runtime
from agents.readsql import SqliteQueries
from tests.factories import pause_robot, sqlite_plan

pytestmark = pytest.mark.usefixtures("backend")

THREAD = "r-edited"
REAL_GRAPH = runtime.graph  # the tests' own reads, not counted


@pytest.fixture
def edited(store, settings, state_reads):
    """A robot thread edited at its pause and not continued: unfinished, asking nothing (the edit's
    result reads its status: the first read counted)."""
    pause_robot(store, settings, THREAD)
    runs.update_thread(store, settings, THREAD, {"decision": "no"})
    return readmodel.head_checkpoint_id(store, THREAD)


@pytest.fixture
def state_reads(monkeypatch):
    """The threads whose state the lifecycle asks LangGraph for, in order; ``before[0]`` runs first."""
    asked: list[str] = []
    before: list = []

    class Counting:
        def __init__(self, graph):
            self.graph = graph

        def get_state(self, config):
            asked.append(config["configurable"]["thread_id"])
            if before:
                before.pop(0)()
            return self.graph.get_state(config)

    # The lifecycle's own reads only (the runs read states too): its ``runtime`` is this stand-in.
    counted = types.SimpleNamespace(graph=lambda store, agent: Counting(REAL_GRAPH(store, agent)))
    monkeypatch.setattr(lifecycle, "runtime", counted)
    return asked, before


def _head_config(store, head):
    return {"configurable": {"thread_id": THREAD, "checkpoint_ns": "", "checkpoint_id": head}}


def _write_error(store, head, message):
    """A task's error written at the head, as a run that raised writes it (same task: replaced)."""
    snapshot = REAL_GRAPH(store, "robot").get_state(_head_config(store, head))
    store.saver.put_writes(_head_config(store, head), [("__error__", ValueError(message))], snapshot.tasks[0].id)


def test_an_unfinished_head_is_read_once_while_nothing_at_it_changes(store, settings, edited, state_reads):
    asked, _before = state_reads
    first = lifecycle.thread_statuses(store)
    pause_robot(store, settings, "another")  # a write elsewhere: the statuses are computed again
    again = lifecycle.thread_statuses(store)
    assert [s for s in again if s.thread_id == THREAD] == [s for s in first if s.thread_id == THREAD]
    assert (first[-1].status, first[-1].reason_code) == ("attention", "edited")
    assert asked.count(THREAD) == 1  # by the edit's own result


def test_an_error_written_at_the_same_head_is_seen_and_so_is_a_replaced_one(store, edited, state_reads):
    asked, _before = state_reads
    assert lifecycle.thread_status(store, THREAD).reason_code == "edited"
    _write_error(store, edited, "first failure")
    status = lifecycle.thread_status(store, THREAD)
    assert (status.reason_code, status.head_checkpoint_id) == ("error", edited)
    assert "first failure" in status.reason
    _write_error(store, edited, "second failure")  # the same key: the write is replaced, its count stays
    assert "second failure" in lifecycle.thread_status(store, THREAD).reason
    assert "second failure" in next(s for s in lifecycle.thread_statuses(store) if s.thread_id == THREAD).reason
    assert asked.count(THREAD) == 3


def test_a_state_read_while_a_write_landed_is_not_kept_under_the_mark_read_before(store, edited, state_reads):
    _asked, before = state_reads
    _write_error(store, edited, "A")
    before.append(lambda: _write_error(store, edited, "B"))  # lands between the mark and the state
    assert "B" in lifecycle.thread_status(store, THREAD).reason
    _write_error(store, edited, "A")  # the writes are as they were when the mark was read
    assert "ValueError('A')" in lifecycle.thread_status(store, THREAD).reason


def test_the_head_writes_query_seeks_each_head_by_the_primary_key(tmp_path):
    """SQLite keeps the pairs the outer loop: no scan and no automatic index of the whole writes table."""
    plan = sqlite_plan(tmp_path, lambda cursor: SqliteQueries().head_writes(cursor, [("a", "1"), ("b", "2")]))
    assert "SEARCH w USING INDEX sqlite_autoindex_writes_1" in plan, plan
    assert "AUTOMATIC" not in plan and "SCAN w" not in plan, plan
