"""The thread index and its caches: what a rerun reuses, and that nothing it shows is ever stale."""

from __future__ import annotations

import pytest

from agents import lifecycle, readcache, readmodel, runs, threadindex
from agents.readsql import SqliteQueries
from agents.refund import ledger
from agents.runtime import open_store
from tests.factories import answer_robot, pause_robot, sqlite_plan, start_refund

pytestmark = pytest.mark.usefixtures("backend")


def test_the_index_lists_every_thread_newest_first_with_its_agent_and_what_waits(store, settings):
    answer_robot(store, settings, "r-done")
    pause_robot(store, settings, "r-wait")
    start_refund(store, settings, "C1")
    index = threadindex.thread_index(store)
    assert [(s.thread_id, s.agent) for s in index.threads] == [
        ("refund-C1", "refund"),
        ("r-wait", "robot"),
        ("r-done", "robot"),
    ]
    assert [s.checkpoint_count for s in index.threads] == [3, 3, 5]
    assert [(p.thread_id, p.node) for p in index.pending] == [("r-wait", "approval"), ("refund-C1", "review")]
    assert index.pending[0].payload["question"] == "Execute this? (yes/no)" and index.pending[0].interrupt_id


def test_a_write_by_another_connection_is_seen_on_the_next_read(store, settings, db_location):
    pause_robot(store, settings, "r1")
    assert [p.thread_id for p in threadindex.pending_interrupts(store)] == ["r1"]
    other = open_store(db_location)  # another process's handle on the same database
    try:
        runs.resume_thread(other, settings, "r1", "yes")
        pause_robot(other, settings, "r2")
    finally:
        other.close()
    assert [p.thread_id for p in threadindex.pending_interrupts(store)] == ["r2"]
    statuses = {s.thread_id: (s.status, s.outcome) for s in lifecycle.thread_statuses(store)}
    assert statuses == {"r1": ("done", "executed"), "r2": ("waiting", "")}
    assert [s.thread_id for s in threadindex.list_threads(store)] == ["r2", "r1"]


def test_deleting_a_thread_removes_it_from_every_list(store, settings):
    pause_robot(store, settings, "r1")
    assert lifecycle.inbox(store)
    runs.delete_thread(store, "r1")
    assert threadindex.list_threads(store) == [] and lifecycle.inbox(store) == []
    assert lifecycle.thread_status(store, "r1") is None


def test_an_unchanged_database_reuses_the_index_and_the_statuses(store, settings, db_location):
    if store.change_token() is None:
        pytest.skip("this backend cannot tell when it changed: every read reads again")
    pause_robot(store, settings, "r1")
    first = threadindex.thread_index(store)
    assert threadindex.thread_index(store) is first
    assert lifecycle.thread_statuses(store) == lifecycle.thread_statuses(store)
    start_refund(store, settings, "C2")  # a commit on the shared connection changes the token too
    assert threadindex.thread_index(store) is not first
    assert {s.thread_id for s in threadindex.list_threads(store)} == {"r1", "refund-C2"}


def test_a_read_after_a_write_keeps_the_summaries_of_the_threads_that_did_not_move(store, settings, db_location):
    pause_robot(store, settings, "r1")
    pause_robot(store, settings, "r2")
    before = {s.thread_id: s for s in threadindex.thread_index(store).threads}
    other = open_store(db_location)
    try:
        runs.resume_thread(other, settings, "r1", "yes")
    finally:
        other.close()
    after = {s.thread_id: s for s in threadindex.thread_index(store).threads}
    assert after["r2"] == before["r2"]
    assert after["r1"].head_checkpoint_id != before["r1"].head_checkpoint_id
    assert after["r1"].checkpoint_count == before["r1"].checkpoint_count + 2
    assert [s.thread_id for s in threadindex.thread_index(store).threads] == ["r1", "r2"]  # r1 moved: newest
    assert after["r1"] == threadindex.thread_of(store, "r1").threads[0]  # as read for itself


def test_the_change_token_moves_with_commits_only(store, settings, db_location):
    if store.change_token() is None:
        pytest.skip("this backend cannot tell when it changed")
    before = store.change_token()
    threadindex.thread_index(store)
    lifecycle.thread_statuses(store)
    assert store.change_token() == before  # reads change nothing
    pause_robot(store, settings, "r1")
    assert store.change_token() != before


def test_a_finished_head_is_decoded_once_and_its_outcome_checked_each_time(store, settings):
    start_refund(store, settings, "A")
    runs.resume_from_fields(store, settings, "refund-A", {"action": "reject", "approver": "kim"})
    assert lifecycle.thread_status(store, "refund-A").outcome == "rejected"
    with store.read() as cursor:
        cursor.execute("SELECT status, outcome FROM thread_summaries WHERE thread_id = 'refund-A'")
        assert cursor.fetchall() == [("done", "rejected")]
    # The ledger is the agent's own table: a payout appearing later is seen although the head is the same.
    ledger.pay(store, case_id="A", thread_id="refund-A", customer="c", requested_amount=500_000, amount=1, approver="k")
    assert lifecycle.thread_status(store, "refund-A").reason_code == "inconsistent"


def test_head_values_are_the_checkpoints_state(store, settings):
    answer_robot(store, settings, "r1")
    head = readmodel.head_checkpoint_id(store, "r1")
    detail = readmodel.checkpoint_detail(store, "r1", head)
    assert threadindex.head_values(store, "r1", head) == detail.values
    assert threadindex.head_values(store, "r1", "1f000000-0000-6000-8000-000000000000") is None


def test_while_unchanged_reads_again_after_a_write(store, settings):
    pause_robot(store, settings, "r1")
    calls = []

    def chain():
        calls.append(1)
        return readmodel.checkpoint_chain(store, "r1")

    first = threadindex.while_unchanged(store, "chain", "r1", chain)
    again = threadindex.while_unchanged(store, "chain", "r1", chain)
    assert again == first
    runs.resume_thread(store, settings, "r1", "no")
    after = threadindex.while_unchanged(store, "chain", "r1", chain)
    assert len(after) == len(first) + 2
    assert len(calls) == (3 if store.change_token() is None else 2)


def test_the_bounded_cache_drops_the_least_recently_used():
    cache = readcache.BoundedCache(size=2)
    cache.put("a", 1)
    cache.put("b", 2)
    assert cache.lookup("a") == 1  # "a" is now the most recent
    cache.put("c", 3)
    assert cache.lookup("b") is None and cache.lookup("a") == 1 and cache.get("c", lambda: 0) == 3
    assert cache.get("d", lambda: 4) == 4 and len(cache) == 2


def test_one_threads_entry_read_alone_equals_its_entry_in_the_index(store, settings):
    answer_robot(store, settings, "r-done")
    pause_robot(store, settings, "r-wait")
    start_refund(store, settings, "C1")
    index = threadindex.thread_index(store)
    for summary in index.threads:
        alone = threadindex.thread_of(store, summary.thread_id)
        assert alone.threads == (summary,)
        assert alone.pending == tuple(p for p in index.pending if p.thread_id == summary.thread_id)
    assert threadindex.thread_of(store, "no-such-thread") == threadindex.ThreadIndex((), ())
    assert lifecycle.thread_status(store, "r-wait").status == "waiting"


@pytest.mark.parametrize("one_thread", [None, "r-wait"])
def test_the_head_interrupts_query_seeks_the_heads_writes_and_never_scans_them(tmp_path, one_thread):
    """SQLite reads the heads from the checkpoints' key, then each head's writes by the writes' key."""
    plan = sqlite_plan(tmp_path, lambda cursor: SqliteQueries().head_interrupts(cursor, one_thread))
    assert (
        "SEARCH w USING" in plan
        and "sqlite_autoindex_writes_1 (thread_id=? AND checkpoint_ns=? AND checkpoint_id=?)" in plan
    ), plan
    assert "AUTOMATIC" not in plan and "SCAN w" not in plan and "SCAN writes" not in plan, plan
