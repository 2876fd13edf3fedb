"""The thread lifecycle: every status of every agent, and every unfinished one in the inbox."""

from __future__ import annotations

import json
import re

import pytest
from langgraph.types import Command

from agents import lifecycle, readmodel, runs, runtime
from agents.errors import RunFailedError
from agents.leases import thread_lease
from agents.refund import ledger
from agents.registry import get_agent
from tests.factories import answer_robot, inbox_ids, pause_robot, start_refund

pytestmark = pytest.mark.usefixtures("backend")


def _write_as(store, agent, thread, values, as_node):
    """A raw update_state through the compiled graph: what no product path may do, to make a bad state."""
    graph = runtime.graph(store, agent)
    graph.update_state(runs.run_config(get_agent(agent), thread), values, as_node=as_node)


def _status(store, thread):
    found = lifecycle.thread_status(store, thread)
    assert found is not None
    return found


def test_every_status_of_every_agent_and_each_unfinished_one_is_in_the_inbox(store, settings):
    pause_robot(store, settings, "r-waiting")
    answer_robot(store, settings, "r-yes", "yes")
    answer_robot(store, settings, "r-no", "Yes")
    answer_robot(store, settings, "r-edited", "no")
    first_pause = readmodel.checkpoint_chain(store, "r-edited")[2]
    runs.update_thread(
        store, settings, "r-edited", {"decision": "yes"}, as_node="approval", checkpoint_id=first_pause.checkpoint_id
    )
    answer_robot(store, settings, "r-raised", "yes")
    input_checkpoint = readmodel.checkpoint_chain(store, "r-raised")[0]
    runs.update_thread(
        store, settings, "r-raised", {"decision": "x"}, as_node="approval", checkpoint_id=input_checkpoint.checkpoint_id
    )
    with pytest.raises(RunFailedError, match="KeyError"):
        runs.continue_thread(store, settings, "r-raised")
    pause_robot(store, settings, "r-skipped")
    runs.update_thread(store, settings, "r-skipped", {"decision": "yes"}, as_node="execute")  # execute skipped
    start_refund(store, settings, "W")
    start_refund(store, settings, "P", 50_000)
    start_refund(store, settings, "J")
    runs.resume_thread(store, settings, "refund-J", {"action": "reject", "approver": "lee"})
    start_refund(store, settings, "Q")
    _write_as(store, "refund", "refund-Q", {"decision": "approve", "approver": "kim"}, "review")  # a crash
    start_refund(store, settings, "Z")
    _write_as(store, "refund", "refund-Z", {"outcome": "paid"}, "settle")  # "done" with nothing paid

    expected = {
        "r-waiting": ("waiting", "", "question", "answer"),
        "r-yes": ("done", "executed", "", ""),
        "r-no": ("done", "refused", "", ""),
        "r-edited": ("attention", "", "edited", "continue"),
        "r-raised": ("attention", "", "error", "rerun"),
        "r-skipped": ("attention", "", "inconsistent", "rerun"),
        "refund-W": ("waiting", "", "question", "answer"),
        "refund-P": ("done", "paid", "", ""),
        "refund-J": ("done", "rejected", "", ""),
        "refund-Q": ("attention", "", "edited", "continue"),
        "refund-Z": ("attention", "", "inconsistent", "rerun"),
    }
    for thread, want in expected.items():
        status = _status(store, thread)
        assert (status.status, status.outcome, status.reason_code, status.action) == want, thread
    assert "neither a payout nor a rejection" in _status(store, "refund-Z").reason
    assert "KeyError" in _status(store, "r-raised").reason
    assert _status(store, "r-waiting").reason == "Execute this? (yes/no)"
    assert "without the robot's final message" in _status(store, "r-skipped").reason

    inbox = inbox_ids(store)
    unfinished = {t for t, (status, *_) in expected.items() if status != "done"}
    assert set(inbox) == unfinished
    assert inbox == sorted(inbox, key=lambda t: _status(store, t).head_checkpoint_id)  # oldest first


def test_a_thread_with_a_live_lease_is_running_and_shown(store, settings):
    pause_robot(store, settings)
    with thread_lease(store, "hitl_demo"):
        status = _status(store, "hitl_demo")
        assert (status.status, status.action) == ("running", "wait")
        assert inbox_ids(store) == ["hitl_demo"]
    assert _status(store, "hitl_demo").status == "waiting"


def test_a_refund_finished_as_paid_without_a_ledger_row_is_inconsistent_and_so_is_a_paid_rejection(store, settings):
    start_refund(store, settings, "A")
    _write_as(store, "refund", "refund-A", {"decision": "reject", "approver": "kim", "outcome": "rejected"}, "reject")
    assert _status(store, "refund-A").outcome == "rejected"
    ledger.pay(
        store, case_id="A", thread_id="refund-A", customer="c", requested_amount=500_000, amount=1, approver="kim"
    )
    status = _status(store, "refund-A")
    assert status.status == "attention" and "the ledger holds a payout of 1 KRW" in status.reason


def test_the_lecture_planner_is_done_only_with_a_saved_plan_or_a_rejection(store, settings):
    spec = get_agent("lecture")
    values = {field.name: field.default for field in spec.run.start_fields}
    result = runs.start_run(store, settings, "lecture", values, thread_id="lec")
    if result.status == "waiting":
        result = runs.resume_thread(store, settings, "lec", {"action": "save"})
    assert result.status == "done" and result.outcome in ("saved", "saved_as_is")
    _write_as(store, "lecture", "lec", {"outcome": None, "final_plan": None}, "save")
    assert _status(store, "lec").reason_code == "inconsistent"


def test_cli_inbox_and_threads_use_the_same_statuses(run_cli, store, settings):
    answer_robot(store, settings, "r-yes", "yes")
    pause_robot(store, settings, "r-waiting")
    start_refund(store, settings, "L1", 9_000_000)
    runs.update_thread(store, settings, "refund-L1", {"amount": 50_000})
    result = run_cli("inbox", "--json")
    assert result.code == 0, result.err
    items = json.loads(result.out)
    assert [(i["thread_id"], i["agent"], i["status"]) for i in items] == [
        ("r-waiting", "robot", "waiting"),
        ("refund-L1", "refund", "waiting"),
    ]
    assert {"thread_id", "agent", "status", "reason", "action"} <= set(items[0])
    assert "pay 50,000 KRW (requested 9,000,000)" in items[1]["reason"]
    threads = {t["thread_id"]: t for t in json.loads(run_cli("threads", "--json").out)}
    assert threads["r-yes"]["status"] == "done" and threads["r-yes"]["outcome"] == "executed"
    assert threads["refund-L1"]["status"] == "waiting"
    text = run_cli("inbox").out
    assert re.search(r"refund-L1\trefund\twaiting\tanswer\twaiting [0-9]+ s\tRefund L1", text)
    run_cli("resume", "r-waiting", "yes")
    run_cli("resume", "refund-L1", '{"action": "approve", "approver": "kim"}')
    assert run_cli("inbox").out.strip() == "nothing is waiting for a human"


def test_a_thread_deleted_while_its_status_is_read_is_gone_not_inconsistent(store, settings, monkeypatch):
    answer_robot(store, settings, "r-yes", "yes")
    head = readmodel.head_checkpoint_id(store, "r-yes")
    runs.delete_thread(store, "r-yes")
    # As when another session deletes it between reading the head and reading the state.
    monkeypatch.setattr(readmodel, "head_checkpoint_id", lambda store, thread_id: head)
    assert lifecycle.thread_status(store, "r-yes") is None


@pytest.mark.parametrize("answered", [True, False], ids=["finished", "asking"])
@pytest.mark.parametrize(("metadata", "named"), [({"agent": "forecaster"}, "'forecaster'"), ({}, "'unknown'")])
def test_a_thread_of_an_agent_not_run_here_needs_attention_and_is_in_every_inbox(
    run_cli, store, settings, metadata, named, answered
):
    """A graph this dashboard does not run cannot say what runs next, nor take an answer to its question
    (``resume`` finds no agent to run it): the thread is shown with the way out, never done or waiting."""
    graph = runtime.graph(store, "robot")  # any graph will do: only the metadata names the agent
    config = {"configurable": {"thread_id": "elsewhere"}, "metadata": metadata}
    graph.invoke({}, config)
    if answered:
        graph.invoke(Command(resume="yes"), config)  # as finished as it can be: still not known to be done
    found = _status(store, "elsewhere")
    assert (found.status, found.reason_code, found.action, found.outcome) == (
        "attention",
        "unknown_agent",
        "delete",
        "",
    )
    assert f"it belongs to {named}, which this dashboard does not run" in found.reason
    assert "python -m agents delete elsewhere" in found.reason
    assert "elsewhere" in inbox_ids(store)
    listed = {item["thread_id"]: item for item in json.loads(run_cli("inbox", "--json").out)}
    assert listed["elsewhere"]["status"] == "attention" and listed["elsewhere"]["action"] == "delete"
    assert run_cli("delete", "elsewhere", "--yes").code == 0  # the action the reason names resolves it
    assert lifecycle.thread_status(store, "elsewhere") is None


def test_a_node_with_several_tasks_left_is_named_once_with_their_count():
    code, reason, action = lifecycle._unfinished("loop", ("research", "research", "research", "draft"), [])
    assert (code, action) == ("stopped", "continue")
    assert str(reason).startswith("its run stopped before research ×3, draft finished")
