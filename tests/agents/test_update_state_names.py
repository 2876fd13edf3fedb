"""``update_state`` writes are named as LangGraph's ``get_state_history`` names them, in the chain and the details."""

from __future__ import annotations

import pytest

from agents import readmodel, runs, runtime
from agents.tasknames import UPDATE_WRITER
from tests.factories import answer_robot, pause_robot, start_refund

pytestmark = pytest.mark.usefixtures("backend")

FIELDS = ("parent_checkpoint_id", "step", "source", "writers", "next", "is_head", "is_waiting")


def _history_points(store, agent, thread_id):
    """Each checkpoint as get_state_history shows it, oldest first: (id, field values)."""
    graph = runtime.graph(store, agent)
    history = list(graph.get_state_history({"configurable": {"thread_id": thread_id}}))[::-1]
    return [
        (
            h.config["configurable"]["checkpoint_id"],
            {
                "parent_checkpoint_id": (h.parent_config or {}).get("configurable", {}).get("checkpoint_id"),
                "step": h.metadata["step"],
                "source": h.metadata["source"],
                "writers": tuple(dict.fromkeys(t.name for t in h.tasks if t.result is not None)),
                "next": tuple(h.next),
                "is_head": index == len(history) - 1,
                # Only the head waits: an older interrupt was answered (or left) on the way to it.
                "is_waiting": index == len(history) - 1 and any(t.interrupts and t.result is None for t in h.tasks),
            },
        )
        for index, h in enumerate(history)
    ]


def _assert_agrees(store, agent, thread_id):
    chain = readmodel.checkpoint_chain(store, thread_id)
    history = _history_points(store, agent, thread_id)
    assert [c.checkpoint_id for c in chain] == [checkpoint_id for checkpoint_id, _ in history]
    for point, (_, theirs) in zip(chain, history, strict=True):
        assert {name: getattr(point, name) for name in FIELDS} == theirs, point.checkpoint_id
    details = list(readmodel.iter_checkpoint_details(store, thread_id))
    assert [detail.next for _, detail in details] == [point.next for point in chain]
    for entry, detail in details:
        assert readmodel.checkpoint_detail(store, thread_id, entry.checkpoint_id) == detail
    return chain, details


def _update(store, thread_id, values, as_node, agent="robot"):
    graph = runtime.graph(store, agent)
    graph.update_state({"configurable": {"thread_id": thread_id}}, values, as_node=as_node)


@pytest.mark.parametrize("as_node", ["propose", "approval", "execute"])
def test_an_update_at_a_robot_pause_is_named_as_langgraph_names_it(store, settings, as_node):
    pause_robot(store, settings)
    _update(store, "hitl_demo", {"decision": "no"}, as_node)
    chain, details = _assert_agrees(store, "robot", "hitl_demo")
    paused = chain[-2]
    assert paused.next == ("approval",)
    # As the paused node, the update is that node's task; as another node, LangGraph lists no task for it.
    assert paused.writers == (("approval",) if as_node == "approval" else ())
    update_nodes = {w.node for w in details[-2][1].writes if w.channel == "decision"}
    assert update_nodes == ({"approval"} if as_node == "approval" else {UPDATE_WRITER})


@pytest.mark.parametrize("as_node", ["propose", "approval", "execute"])
def test_an_update_of_a_finished_robot_is_no_task_of_its_checkpoint(store, settings, as_node):
    answer_robot(store, settings)
    _update(store, "hitl_demo", {"decision": "no"}, as_node)
    chain, _ = _assert_agrees(store, "robot", "hitl_demo")
    assert (chain[-2].writers, chain[-2].next, chain[-1].source) == ((), (), "update")


def test_an_update_as_a_node_that_has_not_run_is_named_after_it(store, settings):
    """The second update reuses the task of ``execute``, which never ran: no node-log row names it."""
    pause_robot(store, settings)
    _update(store, "hitl_demo", {"decision": "yes"}, "approval")
    _update(store, "hitl_demo", {"decision": "no"}, "execute")
    chain, details = _assert_agrees(store, "robot", "hitl_demo")
    assert (chain[-2].writers, chain[-2].next) == (("execute",), ("execute",))
    assert {w.node for w in details[-2][1].writes} == {"execute"}


def test_an_update_is_named_without_the_node_log(store, settings):
    """The reused task's own writes name it when the node log has no row (e.g. deleted)."""
    pause_robot(store, settings)
    _update(store, "hitl_demo", {"decision": "no"}, "approval")
    with store.transaction() as cursor:
        cursor.execute("DELETE FROM node_log")
    chain, _ = _assert_agrees(store, "robot", "hitl_demo")
    assert chain[-2].writers == ("approval",)


@pytest.mark.parametrize("as_node", [None, "review"])
def test_a_refund_edit_is_named_as_langgraph_names_it(store, settings, as_node):
    start_refund(store, settings)
    runs.update_thread(store, settings, "refund-C1", {"amount": 50_000}, as_node=as_node)
    chain, _ = _assert_agrees(store, "refund", "refund-C1")
    assert "update" in [c.source for c in chain]
    assert all(UPDATE_WRITER not in c.writers + c.next for c in chain)
