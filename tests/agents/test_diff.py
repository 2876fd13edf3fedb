"""What a checkpoint changed: ``agents.diff.diff_values`` on hand-made states, ``checkpoint_diff`` on real threads."""

from __future__ import annotations

import pytest
from langchain_core.messages import AIMessage, HumanMessage

from agents import readmodel, runs
from agents.diff import Change, checkpoint_diff, diff_values
from agents.errors import InputError, ThreadNotFoundError
from agents.lecture.inputs import DEFAULT_LECTURE_INPUT
from tests.factories import answer_robot, pause_robot, thread_counts

ACTION = "Business trip request: Busan, 2 days, budget 800,000 KRW"
#: The tests that read a real thread run on SQLite and on PostgreSQL (their SQL differs).
on_both_backends = pytest.mark.usefixtures("backend")


def test_keys_added_changed_and_removed_are_named_in_order():
    before = {"a": 1, "b": "x", "gone": [1]}
    after = {"a": 2, "b": "x", "new": {"k": None}}
    assert diff_values(before, after) == [
        Change(("a",), "changed", before=1, after=2),
        Change(("gone",), "removed", before=[1]),
        Change(("new",), "added", after={"k": None}),
    ]
    assert [c.summary() for c in diff_values(before, after)] == ["changed", "removed", "added"]


def test_nested_dicts_are_compared_key_by_key():
    before = {"case": {"amount": 500_000, "customer": "홍길동", "meta": {"v": 1}}}
    after = {"case": {"amount": 50_000, "customer": "홍길동", "meta": {"v": 1, "w": 2}}}
    changes = diff_values(before, after)
    assert [(c.key, c.kind, c.before, c.after) for c in changes] == [
        ("case.amount", "changed", 500_000, 50_000),
        ("case.meta.w", "added", None, 2),
    ]


def test_a_list_that_grew_is_an_append_of_its_new_items():
    [change] = diff_values({"trace": ["a"]}, {"trace": ["a", "b", "c"]})
    assert (change.kind, change.after, change.count, change.messages) == ("appended", ["b", "c"], 2, False)
    assert change.summary() == "+2 items"
    assert diff_values({"t": ["a"]}, {"t": ["a", "b"]})[0].summary() == "+1 item"
    assert change.to_json() == {
        "path": ["trace"],
        "key": "trace",
        "change": "appended",
        "summary": "+2 items",
        "count": 2,
        "messages": False,
        "after": ["b", "c"],
    }


def test_a_list_that_shrank_or_was_rewritten_is_changed_whole():
    assert diff_values({"t": ["a", "b"]}, {"t": ["a"]}) == [Change(("t",), "changed", ["a", "b"], ["a"])]
    assert diff_values({"t": ["a", "b"]}, {"t": ["x", "b", "c"]})[0].kind == "changed"


def test_messages_appended_read_as_messages():
    first = HumanMessage("Start the task")
    before = {"messages": [first]}
    after = {"messages": [HumanMessage("Start the task"), AIMessage("Executed: x")]}
    [change] = diff_values(before, after)
    assert change.summary() == "+1 message" and change.messages
    assert change.to_json()["after"] == [{"type": "ai", "content": "Executed: x"}]
    two = {"messages": [first, AIMessage("a"), AIMessage("b")]}
    assert diff_values(before, two)[0].summary() == "+2 messages"


def test_identical_states_have_no_change():
    state = {"messages": [HumanMessage("hi")], "n": {"a": [1, 2]}}
    assert diff_values(state, {"messages": [HumanMessage("hi")], "n": {"a": [1, 2]}}) == []
    assert diff_values({}, {}) == []


@on_both_backends
def test_the_head_is_compared_with_its_parent_by_default(store, settings):
    answer_robot(store, settings)
    chain = readmodel.checkpoint_chain(store, "hitl_demo")
    found = checkpoint_diff(store, "hitl_demo")
    assert (found.before.checkpoint_id, found.after.checkpoint_id) == (chain[-2].checkpoint_id, chain[-1].checkpoint_id)
    assert found.relation == "parent" and found.common_ancestor == chain[-2].checkpoint_id
    assert [(c.key, c.summary()) for c in found.changes] == [("messages", "+1 message")]
    assert found.changes[0].after[0].content == f"Executed: {ACTION}"
    assert [(w.node, w.channel) for w in found.writes] == [("execute", "messages")]
    assert {w.produced for w in found.writes} == {chain[-1].checkpoint_id}


@on_both_backends
def test_an_update_state_shows_its_change_and_its_writes(store, settings):
    pause_robot(store, settings)
    paused = readmodel.head_checkpoint_id(store, "hitl_demo")
    runs.update_thread(store, settings, "hitl_demo", {"pending_action": "Seoul, 1 day"})
    found = checkpoint_diff(store, "hitl_demo")
    assert found.before.checkpoint_id == paused and found.after.source == "update"
    assert [(c.key, c.kind, c.before, c.after) for c in found.changes] == [
        ("pending_action", "changed", ACTION, "Seoul, 1 day")
    ]
    # The update's own writes, not the interrupt the paused checkpoint also holds.
    assert [(w.node, w.channel, w.value) for w in found.writes] == [
        ("(update_state)", "pending_action", "Seoul, 1 day"),
        ("(update_state)", "branch:to:approval", None),
    ]


@on_both_backends
def test_a_fork_against_its_branch_point_and_the_other_branch(store, settings):
    answer_robot(store, settings)
    chain = readmodel.checkpoint_chain(store, "hitl_demo")
    old_head, branch_point = chain[-1].checkpoint_id, chain[2].checkpoint_id  # step 1: the question
    runs.update_thread(store, settings, "hitl_demo", {"pending_action": "Fork"}, checkpoint_id=branch_point)
    fork = readmodel.head_checkpoint_id(store, "hitl_demo")

    against_branch_point = checkpoint_diff(store, "hitl_demo", branch_point, fork)
    assert against_branch_point.relation == "parent" and against_branch_point.common_ancestor == branch_point
    assert [(c.key, c.kind, c.after) for c in against_branch_point.changes] == [("pending_action", "changed", "Fork")]

    across = checkpoint_diff(store, "hitl_demo", old_head, fork)
    assert across.relation == "branches" and across.common_ancestor == branch_point
    changed = {c.key: c for c in across.changes}
    assert changed["pending_action"].after == "Fork" and changed["pending_action"].before == ACTION
    assert changed["decision"].kind == "removed" and changed["messages"].kind == "changed"
    assert {w.produced for w in across.writes} <= {fork}  # only writes on the way down to the fork

    back = checkpoint_diff(store, "hitl_demo", fork, branch_point)
    assert back.relation == "descendant" and back.writes == ()
    assert [(c.key, c.before, c.after) for c in back.changes] == [("pending_action", "Fork", ACTION)]


@on_both_backends
def test_two_checkpoints_several_steps_apart_list_every_step_s_writes(store, settings):
    answer_robot(store, settings)
    chain = readmodel.checkpoint_chain(store, "hitl_demo")
    found = checkpoint_diff(store, "hitl_demo", chain[0].checkpoint_id, chain[-1].checkpoint_id)
    assert found.relation == "ancestor"
    assert {c.key for c in found.changes} == {"messages", "pending_action", "decision"}
    assert [w.produced for w in found.writes] == sorted(w.produced for w in found.writes)  # oldest first
    assert {"__start__", "propose", "approval", "execute"} <= {w.node for w in found.writes}


@on_both_backends
def test_a_checkpoint_compared_with_itself_changed_nothing(store, settings):
    pause_robot(store, settings)
    head = readmodel.head_checkpoint_id(store, "hitl_demo")
    found = checkpoint_diff(store, "hitl_demo", head, head)
    assert (found.relation, found.changes, found.writes) == ("same", (), ())


@on_both_backends
def test_the_first_checkpoint_is_compared_with_an_empty_state(store, settings):
    pause_robot(store, settings)
    first = readmodel.checkpoint_chain(store, "hitl_demo")[0].checkpoint_id
    found = checkpoint_diff(store, "hitl_demo", to_id=first)
    assert found.before is None and found.changes == () and found.writes == ()
    assert found.to_json()["from"] is None


@on_both_backends
def test_bad_ids_are_refused_by_name_and_change_nothing(store, settings):
    pause_robot(store, settings)
    counts = thread_counts(store, "hitl_demo")
    with pytest.raises(ThreadNotFoundError):
        checkpoint_diff(store, "no_such_thread")
    for field, kwargs in (("from", {"from_id": "nope"}), ("to", {"to_id": "1f0-abc"})):
        with pytest.raises(InputError) as refused:
            checkpoint_diff(store, "hitl_demo", **kwargs)
        assert refused.value.field == field and "no checkpoint" in str(refused.value)
    assert thread_counts(store, "hitl_demo") == counts


@on_both_backends
def test_langgraph_join_channels_are_not_state_keys(store, settings):
    runs.start_run(store, settings, "lecture", dict(DEFAULT_LECTURE_INPUT), thread_id="lec-1")
    found = checkpoint_diff(store, "lec-1")
    assert [c.key for c in found.changes] == ["scores"]  # not the reviewers' join:...:gate channel
    assert [(w.node, w.channel) for w in found.writes] == [("gate", "scores"), ("gate", "branch:to:decide")]
