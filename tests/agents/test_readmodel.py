"""The read-model on a real temp database."""

from __future__ import annotations

import pytest

from agents import lifecycle, readmodel, runs, runtime, threadindex
from agents.nodelog import node_runs
from tests.factories import pause_robot

pytestmark = pytest.mark.usefixtures("backend")


def test_chain_of_a_paused_thread(store, settings):
    pause_robot(store, settings)
    chain = readmodel.checkpoint_chain(store, "hitl_demo")
    assert [c.step for c in chain] == [-1, 0, 1]
    assert [c.source for c in chain] == ["input", "loop", "loop"]
    assert chain[0].parent_checkpoint_id is None
    assert [c.parent_checkpoint_id for c in chain[1:]] == [c.checkpoint_id for c in chain[:-1]]
    assert [c.writers for c in chain] == [("__start__",), ("propose",), ()]
    assert chain[-1].next == ("approval",)
    assert chain[-1].is_head and chain[-1].is_waiting
    assert not any(c.is_head or c.is_waiting for c in chain[:-1])


def test_chain_matches_get_state_history(store, settings):
    pause_robot(store, settings)
    runs.resume_thread(store, settings, "hitl_demo", "yes")
    graph = runtime.graph(store, "robot")
    history = list(graph.get_state_history({"configurable": {"thread_id": "hitl_demo"}}))[::-1]
    chain = readmodel.checkpoint_chain(store, "hitl_demo")
    assert [c.checkpoint_id for c in chain] == [h.config["configurable"]["checkpoint_id"] for h in history]
    assert [c.next for c in chain] == [tuple(h.next) for h in history]
    assert [c.step for c in chain] == [h.metadata["step"] for h in history]


def test_writes_at_the_paused_checkpoint(store, settings):
    pause_robot(store, settings)
    head = readmodel.checkpoint_chain(store, "hitl_demo")[-1]
    detail = readmodel.checkpoint_detail(store, "hitl_demo", head.checkpoint_id)
    assert [(w.node, w.channel) for w in detail.writes] == [("approval", "__interrupt__")]
    assert detail.writes[0].value[0].value["question"] == "Execute this? (yes/no)"
    assert detail.next == ("approval",)
    assert detail.values["pending_action"] == "Business trip request: Busan, 2 days, budget 800,000 KRW"
    assert detail.metadata["agent"] == "robot"


def test_writes_after_resume_include_the_resume_value(store, settings):
    pause_robot(store, settings)
    paused_id = readmodel.head_checkpoint_id(store, "hitl_demo")
    runs.resume_thread(store, settings, "hitl_demo", "yes")
    channels = [w.channel for w in readmodel.checkpoint_detail(store, "hitl_demo", paused_id).writes]
    assert "__resume__" in channels and "__interrupt__" in channels and "decision" in channels


def test_list_threads_with_status_and_counts(store, settings):
    pause_robot(store, settings, "a")
    pause_robot(store, settings, "b")
    runs.resume_thread(store, settings, "b", "no")
    threads = {t.thread_id: t for t in threadindex.list_threads(store)}
    assert threads["a"].checkpoint_count == 3 and threads["b"].checkpoint_count == 5
    statuses = {s.thread_id: s.status for s in lifecycle.thread_statuses(store)}
    assert statuses == {"a": "waiting", "b": "done"}
    assert {t.agent for t in threads.values()} == {"robot"}
    assert threadindex.list_threads(store, agent="refund") == []


def test_pending_interrupts_across_threads(store, settings):
    pause_robot(store, settings, "a")
    pause_robot(store, settings, "b")
    runs.resume_thread(store, settings, "b", "yes")
    waiting = threadindex.pending_interrupts(store)
    assert [(w.thread_id, w.agent, w.node) for w in waiting] == [("a", "robot", "approval")]
    assert waiting[0].payload["question"] == "Execute this? (yes/no)"


def test_update_then_attention_status(store, settings):
    pause_robot(store, settings)
    runs.resume_thread(store, settings, "hitl_demo", "no")
    first = readmodel.checkpoint_chain(store, "hitl_demo")[2]
    runs.update_thread(
        store, settings, "hitl_demo", {"decision": "yes"}, as_node="approval", checkpoint_id=first.checkpoint_id
    )
    chain = readmodel.checkpoint_chain(store, "hitl_demo")
    assert chain[-1].source == "update" and chain[-1].parent_checkpoint_id == first.checkpoint_id
    assert chain[-1].next == ("execute",)
    (status,) = lifecycle.thread_statuses(store)
    assert (status.status, status.reason_code, status.action) == ("attention", "edited", "continue")
    done = runs.continue_thread(store, settings, "hitl_demo")
    assert done.values["messages"][-1].content.startswith("Executed")


def test_node_log_shows_interrupt_then_second_call(store, settings):
    pause_robot(store, settings)
    runs.resume_thread(store, settings, "hitl_demo", "yes")
    rows = node_runs(store, thread_id="hitl_demo")
    assert [(r["node"], r["status"]) for r in rows] == [
        ("propose", "ok"),
        ("approval", "interrupted"),
        ("approval", "ok"),
        ("execute", "ok"),
    ]
    assert rows[1]["task_id"] == rows[2]["task_id"] != ""
    assert rows[1]["run_id"] != rows[2]["run_id"]
    assert all(r["ended_at"] >= r["started_at"] for r in rows)


def test_checkpoint_time_is_decoded_from_the_id(store, settings):
    pause_robot(store, settings)
    summary = threadindex.list_threads(store)[0]
    assert summary.updated_at.year >= 2024
    assert summary.updated_at == readmodel.checkpoint_time(summary.head_checkpoint_id)
