"""An answer whose run failed after the node took it is never used in place of the next answer.

When a node raises after ``interrupt()`` has returned (the node's own check refused the answer, or the
database refused the node log's last write), LangGraph saves the answer it took beside the error, and
on the next resume hands the task that saved answer before the new one. ``runs.resume_thread`` resumes
a copy of such a head, so the next person's answer is the one acted on, on every agent and every path
that answers through it (pages, CLI, API).
"""

from __future__ import annotations

from typing import Any, TypedDict

import pytest
from langgraph.graph import END, START, StateGraph
from langgraph.types import Command, interrupt

from agents import lifecycle, nodelog, readmodel, runs, runtime
from agents.db import DatabaseError
from agents.errors import RunFailedError
from agents.identity import Identity
from agents.lecture.inputs import DEFAULT_LECTURE_INPUT
from agents.refund import ledger
from agents.refund.graph import build_graph
from tests.factories import pause_robot


class TwoAnswers(TypedDict):
    answers: list[str]


KIM = Identity("kim@example.com", "Kim", "senior_approver")
LEE = Identity("lee@example.com", "Lee", "senior_approver")


@pytest.fixture
def refused_once(monkeypatch: pytest.MonkeyPatch) -> dict[str, bool]:
    """Arms the node log to refuse the next node's end once, as a database busy with another writer would."""
    armed = {"on": False}
    real = nodelog._finish

    def finish(store: Any, row_id: Any, status: str, error: str = "") -> None:
        if armed["on"] and status == "ok":
            armed["on"] = False
            raise DatabaseError("database is locked")
        real(store, row_id, status, error)

    monkeypatch.setattr(nodelog, "_finish", finish)
    return armed


def _refund_case(store, settings, case: str = "C1", requester: Identity = KIM) -> str:
    values = {"case_id": case, "customer": "c", "amount": 500_000, "reason": "r"}
    return runs.start_run(store, settings, "refund", values, actor=requester).thread_id


def test_an_approval_that_failed_is_not_carried_out_for_the_next_persons_rejection(store, settings, refused_once):
    thread = _refund_case(store, settings, requester=Identity("ann@example.com", "Ann", "approver", 1_000_000))
    refused_once["on"] = True
    with pytest.raises(DatabaseError):
        runs.resume_thread(store, settings, thread, {"action": "approve", "approver": "x"}, actor=KIM)
    assert readmodel.holds_a_taken_answer(store, thread)
    assert not ledger.ledger_rows(store)

    done = runs.resume_thread(store, settings, thread, {"action": "reject", "approver": "x"}, actor=LEE)
    assert (done.status, done.outcome) == ("done", "rejected")
    assert (done.values["decision"], done.values["approver"]) == ("reject", "lee@example.com")
    assert not ledger.ledger_rows(store)
    assert not readmodel.holds_a_taken_answer(store, thread)


def test_an_approval_refused_inside_the_node_on_the_tooling_path_is_not_paid_under_the_next_name(store, settings):
    thread = _refund_case(store, settings, requester=Identity("park@example.com", "Park", "approver", 1_000_000))
    config = {"configurable": {"thread_id": thread}, "metadata": {"agent": "refund"}}
    asked = build_graph(store.saver, store=store).invoke(  # the local operator typed the requester's own email
        Command(resume={"action": "approve", "approver": "park@example.com"}), config
    )
    assert "four eyes" in asked["__interrupt__"][0].value["error"]  # refused: the question is asked again
    assert lifecycle.thread_status(store, thread).status == "waiting"

    done = runs.resume_thread(store, settings, thread, {"action": "reject", "approver": "x"}, actor=LEE)
    assert (done.outcome, done.values["decision"], done.values["approver"]) == ("rejected", "reject", "lee@example.com")
    assert not ledger.ledger_rows(store)


def test_an_edit_that_failed_is_not_paid_when_the_next_person_approves_the_full_amount(store, settings, refused_once):
    thread = _refund_case(store, settings, requester=Identity("ann@example.com", "Ann", "approver", 1_000_000))
    refused_once["on"] = True
    with pytest.raises(DatabaseError):
        runs.resume_thread(store, settings, thread, {"action": "edit", "amount": 1_000, "approver": "x"}, actor=KIM)
    done = runs.resume_thread(store, settings, thread, {"action": "approve", "approver": "x"}, actor=LEE)
    assert (done.outcome, done.values["approver"]) == ("paid", "lee@example.com")
    assert [row["paid_amount"] for row in ledger.ledger_rows(store)] == [500_000]


def test_a_robot_yes_that_failed_is_not_carried_out_for_the_next_no(store, settings, refused_once):
    pause_robot(store, settings, "robot-f")
    refused_once["on"] = True
    with pytest.raises((DatabaseError, RunFailedError)):
        runs.resume_thread(store, settings, "robot-f", "yes")
    done = runs.resume_thread(store, settings, "robot-f", "no")
    assert (done.status, done.outcome, done.values["decision"]) == ("done", "refused", "no")


def test_a_lecture_save_that_failed_is_not_saved_for_the_next_reject(store, settings, refused_once):
    runs.start_run(store, settings, "lecture", dict(DEFAULT_LECTURE_INPUT), thread_id="lecture-f")
    refused_once["on"] = True
    with pytest.raises((DatabaseError, RunFailedError)):
        runs.resume_thread(store, settings, "lecture-f", {"action": "save"})
    done = runs.resume_thread(store, settings, "lecture-f", {"action": "reject"})
    assert (done.status, done.outcome) == ("done", "rejected")


def test_the_copy_keeps_the_history_and_a_normal_answer_makes_none(store, settings, refused_once):
    thread = _refund_case(store, settings, "C2", requester=Identity("ann@example.com", "Ann", "approver", 1_000_000))
    refused_once["on"] = True
    with pytest.raises(DatabaseError):
        runs.resume_thread(store, settings, thread, {"action": "approve", "approver": "x"}, actor=KIM)
    failed_head = readmodel.head_checkpoint_id(store, thread)
    runs.resume_thread(store, settings, thread, {"action": "reject", "approver": "x"}, actor=LEE)
    chain = {point.checkpoint_id: point for point in readmodel.checkpoint_chain(store, thread)}
    assert failed_head in chain  # the failed answer's checkpoint stays, beside the copy
    assert sum(point.source == "fork" for point in chain.values()) == 1

    clean = _refund_case(store, settings, "C3", requester=Identity("ann@example.com", "Ann", "approver", 1_000_000))
    runs.resume_thread(store, settings, clean, {"action": "reject", "approver": "x"}, actor=LEE)
    assert not any(point.source == "fork" for point in readmodel.checkpoint_chain(store, clean))
    graph = runtime.graph(store, "refund")
    assert graph.get_state({"configurable": {"thread_id": clean}}).values["decision"] == "reject"


def test_a_task_that_took_one_answer_and_asks_its_next_question_is_left_as_it_is(store):
    """A node with two questions keeps its first answer while it waits on the second: no copy drops it."""

    def two_questions(state: dict[str, Any]) -> dict[str, Any]:
        return {"answers": [interrupt("first?"), interrupt("second?")]}

    builder = StateGraph(TwoAnswers)
    builder.add_node("ask", two_questions)
    builder.add_edge(START, "ask")
    builder.add_edge("ask", END)
    graph = builder.compile(checkpointer=store.saver)
    config = {"configurable": {"thread_id": "two"}}
    graph.invoke({"answers": []}, config)
    graph.invoke(Command(resume="one"), config)  # the first answer taken, the second question asked
    assert graph.get_state(config).interrupts[0].value == "second?"
    assert not readmodel.holds_a_taken_answer(store, "two")
    assert graph.invoke(Command(resume="two"), config)["answers"] == ["one", "two"]
