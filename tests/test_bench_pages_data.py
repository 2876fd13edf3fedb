"""The page benchmark's database: the planned mix of agents and statuses, copies that read like the real
threads, and the big robot thread as the newest thread."""

from __future__ import annotations

from collections import Counter

from agents import lifecycle, readmodel
from agents.nodelog import node_runs
from agents.runtime import open_store
from benchmarks._data import BIG_THREAD, PLANS, built_database, expected_statuses, planned_threads, thread_name


def test_the_database_holds_the_planned_threads_and_the_big_thread_last(tmp_path):
    location = built_database(tmp_path, 20, 40, log=lambda _line: None)
    store = open_store(location)
    try:
        statuses = lifecycle.thread_statuses(store)
        mixed = Counter((x.agent, x.status) for x in statuses if x.thread_id != BIG_THREAD)
        assert mixed == expected_statuses(20)
        assert sum(mixed.values()) == 20
        for agent in ("robot", "refund", "lecture"):
            assert {status for (owner, status) in mixed if owner == agent} == {"waiting", "done", "attention"}
        newest = statuses[0]
        assert (newest.thread_id, newest.agent, newest.checkpoint_count) == (BIG_THREAD, "robot", 40)
        # One logged node call per checkpoint but the input, the start and the two update_state ones.
        assert len(node_runs(store, thread_id=BIG_THREAD)) == 40 - 4
        # A lecture thread past the first of its plan is a copy: the same checkpoints and node log.
        original, copy = thread_name("lecture", 0), thread_name("lecture", 4)
        assert readmodel.table_counts(store, copy) == readmodel.table_counts(store, original)
        assert len(node_runs(store, thread_id=copy)) == len(node_runs(store, thread_id=original)) > 0
    finally:
        store.close()
    assert built_database(tmp_path, 20, 40) == location  # built once, then reused


def test_the_small_database_holds_every_plan_once_and_a_small_big_thread(tmp_path):
    from benchmarks.bench_pages import SMALL_BIG_CHECKPOINTS, SMALL_THREADS

    planned = planned_threads(SMALL_THREADS)
    assert sorted((agent, plan.name) for _tid, agent, plan in planned) == sorted(
        (agent, plan.name) for agent, plans in PLANS.items() for plan in plans
    )
    location = built_database(tmp_path, SMALL_THREADS, SMALL_BIG_CHECKPOINTS, log=lambda _line: None)
    store = open_store(location)
    try:
        statuses = lifecycle.thread_statuses(store)
        assert Counter((x.agent, x.status) for x in statuses if x.thread_id != BIG_THREAD) == expected_statuses(
            SMALL_THREADS
        )
        newest = statuses[0]
        assert (newest.thread_id, newest.checkpoint_count) == (BIG_THREAD, SMALL_BIG_CHECKPOINTS)
    finally:
        store.close()
