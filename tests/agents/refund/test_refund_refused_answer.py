"""A refused answer on the path that checks nothing first asks again; it never locks the case.

LangGraph's own tooling (``langgraph dev``, LangGraph Studio, ``Command(resume=...)`` on the compiled graph
as ``agents/langgraph_app.py`` builds it) hands the answer to the graph unchecked. ``review`` and each
``item`` task check it there: a refused answer (no approver, the agent's own name, an edit out of range,
four eyes) is not taken and the question is asked again, under the same interrupt id, with the reason in
its ``error`` (in the run's language); the next correct answer decides the case, paid exactly once. A
case an earlier release left failed on a refused answer (LangGraph saved that answer beside the error) is
answered the same way.
"""

from __future__ import annotations

import datetime as dt
import json
from typing import Any

import pytest
from langgraph.types import Command

from agents import lifecycle, runs
from agents.identity import Identity
from agents.notify import scan
from agents.refund import item_ledger, ledger
from agents.refund.graph import build_graph
from agents.refund.rules import answer_schema
from tests.agents.notify.conftest import notifying
from tests.factories import button_by_key, start_refund

THREAD = "refund-R1"
CASE = {"case_id": "R1", "customer": "kim", "requested_amount": 500_000, "reason": "broken"}
NO_APPROVER = {"decisions": [{"type": "approve"}]}
APPROVE = {"decisions": [{"type": "approve"}], "approver": "kim"}


def config(lang: str = "en", thread: str = THREAD) -> dict[str, Any]:
    """A run's config as LangGraph's tooling sends it: no identity, no mark of answers checked."""
    return {"configurable": {"thread_id": thread}, "metadata": {"agent": "refund", "lang": lang}}


@pytest.fixture
def graph(store):
    return build_graph(store.saver, store=store)


def waiting(graph, lang: str = "en") -> Any:
    """The question the case waits on."""
    (question,) = graph.get_state(config(lang)).interrupts
    return question


def start(graph, lang: str = "en") -> Any:
    graph.invoke(dict(CASE), config(lang))
    return waiting(graph, lang)


@pytest.mark.parametrize(
    ("refused", "reason"),
    [
        (NO_APPROVER, "approver: is required: who decides?"),
        ({"action": "edit", "amount": 900_000, "approver": "kim"}, "amount: must be between 1 and the requested"),
        ({"decisions": [{"type": "approve"}], "approver": "automatic"}, "approver: 'automatic' is reserved"),
        (
            {"decisions": [{"type": "edit", "edited_action": {"name": "pay_refund", "args": {"amount": 0}}}]},
            "approver: is required",
        ),
    ],
    ids=["no-approver", "edit-out-of-range", "reserved-name", "edit-without-approver"],
)
def test_a_refused_answer_asks_again_with_the_reason_and_the_next_answer_pays_once(store, graph, refused, reason):
    first = start(graph)
    asked = graph.invoke(Command(resume=refused), config())
    (again,) = asked["__interrupt__"]
    assert again.value["error"].startswith(reason), again.value["error"]
    assert again.id == first.id, "the same question, asked again"
    assert lifecycle.thread_status(store, THREAD).status == "waiting"
    assert ledger.ledger_rows(store) == []

    done = graph.invoke(Command(resume=APPROVE), config())
    assert (done["outcome"], done["paid_amount"], done["approver"]) == ("paid", 500_000, "kim")
    assert [(row["case_id"], row["paid_amount"]) for row in ledger.ledger_rows(store)] == [("R1", 500_000)]
    assert lifecycle.thread_status(store, THREAD).status == "done"


def test_the_question_asked_again_keeps_its_shape_and_adds_the_reason(graph):
    first = start(graph)
    graph.invoke(Command(resume=NO_APPROVER), config())
    again = waiting(graph)
    kept = ("error", "action_requests")
    assert {key: value for key, value in again.value.items() if key not in kept} == {
        key: value for key, value in first.value.items() if key not in kept
    }
    assert again.response_schema == first.response_schema == answer_schema(first.value)
    (action,), (asked,) = again.value["action_requests"], first.value["action_requests"]
    assert {**action, "description": ""} == {**asked, "description": ""}
    # What Agent Inbox shows of the question (its description) says first why the last answer did nothing.
    refused = "The last answer was refused: approver: is required: who decides?"
    assert action["description"] == f"{refused}\n\n{asked['description']}"
    assert asked["description"] == first.value["question"]


def test_the_reason_is_in_the_language_the_run_started_in(graph):
    start(graph, "ko")
    graph.invoke(Command(resume=NO_APPROVER), config("ko"))
    assert waiting(graph, "ko").value["error"] == "approver: 필수 항목입니다. 누가 결정하나요?"
    description = waiting(graph, "ko").value["action_requests"][0]["description"]
    assert description.startswith(
        "직전 답변은 받아들여지지 않았습니다: approver: 필수 항목입니다. 누가 결정하나요?\n\n"
    )
    graph.invoke(Command(resume={"action": "edit", "amount": 900_000, "approver": "kim"}), config("ko"))
    assert waiting(graph, "ko").value["error"] == "amount: 1에서 요청 금액 500,000원 사이여야 합니다. 입력값: 900,000"


def test_a_refused_answer_is_not_kept_so_answers_by_id_and_a_continue_still_ask(store, graph):
    first = start(graph)
    graph.invoke(Command(resume=NO_APPROVER), config())
    graph.invoke(None, config())  # a continue with no answer: still asking, nothing decided
    assert waiting(graph).value["error"].startswith("approver: ")
    assert ledger.ledger_rows(store) == []
    done = graph.invoke(Command(resume={first.id: {"action": "reject", "approver": "lee"}}), config())
    assert (done["outcome"], done["decision"], done["approver"]) == ("rejected", "reject", "lee")
    assert ledger.ledger_rows(store) == []


def test_an_answer_refused_on_the_tooling_path_is_not_acted_on_under_the_next_persons_answer(store, settings):
    """The answer ``runs`` then checks is the one recorded: nothing of the refused one is replayed to the node
    (``runs`` marks its answers checked, so a replayed one would pass unchecked)."""
    kim = Identity("kim@example.com", "Kim", "approver", 1_000_000)
    values = {"case_id": "R1", "customer": "c", "amount": 500_000, "reason": "r"}
    thread = runs.start_run(store, settings, "refund", values, actor=kim).thread_id
    tooling = build_graph(store.saver, store=store)
    asked = tooling.invoke(Command(resume={"action": "approve", "approver": "Kim"}), config(thread=thread))
    assert "four eyes" in asked["__interrupt__"][0].value["error"]  # the requester's own name: refused

    done = runs.resume_thread(store, settings, thread, {"action": "reject", "approver": "lee"})
    assert (done.outcome, done.values["decision"], done.values["approver"]) == ("rejected", "reject", "lee")
    assert ledger.ledger_rows(store) == []


ITEMS = [{"item": "A-1", "amount": 300_000}, {"item": "A-2", "amount": 80_000}, {"item": "A-3", "amount": 200_000}]


def test_a_refused_item_asks_again_while_the_item_answered_beside_it_is_paid(store, graph):
    graph.invoke({**CASE, "requested_amount": 580_000, "items": ITEMS}, config())
    ids = {question.value["item"]: question.id for question in graph.get_state(config()).interrupts}
    accept = [{"type": "accept", "args": {"action": "pay_refund", "args": {"amount": 300_000}}}]  # Agent Inbox's
    edit = [{"type": "edit", "args": {"action": "pay_refund", "args": {"amount": "150000", "approver": "kim"}}}]
    graph.invoke(Command(resume={ids["A-1"]: accept, ids["A-3"]: edit}), config())

    (again,) = graph.get_state(config()).interrupts
    assert (again.value["item"], again.id) == ("A-1", ids["A-1"])
    assert again.value["error"].startswith("approver: ")
    paid = {row["item"]: row["paid_amount"] for row in item_ledger.item_payouts(store, "R1")}
    assert paid == {"A-2": 80_000, "A-3": 150_000}
    assert lifecycle.thread_status(store, THREAD).status == "waiting"

    done = graph.invoke(Command(resume={again.id: {"action": "approve", "approver": "lee"}}), config())
    assert (done["outcome"], done["paid_amount"]) == ("paid", 530_000)
    paid = [(row["item"], row["paid_amount"], row["approver"]) for row in item_ledger.item_payouts(store, "R1")]
    assert sorted(paid) == [("A-1", 300_000, "lee"), ("A-2", 80_000, "automatic"), ("A-3", 150_000, "kim")]


def _failed_as_an_earlier_release_left_it(store, graph, refused: Any) -> None:
    """The case as a release whose ``review`` raised on a refused answer left it: LangGraph saved the answer
    the task took beside the task's error, and handed it back to the task on every later resume."""
    head = store.saver.get_tuple({"configurable": {"thread_id": THREAD, "checkpoint_ns": ""}})
    (task,) = graph.get_state(config()).tasks
    writes = [("__resume__", [refused]), ("__error__", "InputError('approver: is required: who decides?')")]
    store.saver.put_writes(head.config, writes, task.id)
    assert graph.get_state(config()).tasks[0].error is not None


@pytest.mark.parametrize("by_id", [False, True], ids=["plain", "by-interrupt-id"])
def test_a_case_an_earlier_release_left_failed_on_a_refused_answer_takes_a_correct_one(store, graph, by_id):
    first = start(graph)
    _failed_as_an_earlier_release_left_it(store, graph, NO_APPROVER)
    answer = {first.id: APPROVE} if by_id else APPROVE
    done = graph.invoke(Command(resume=answer), config())
    assert (done["outcome"], done["paid_amount"], done["approver"]) == ("paid", 500_000, "kim")
    assert len(ledger.ledger_rows(store)) == 1


def test_a_case_an_earlier_release_left_failed_asks_again_on_a_continue(store, graph):
    start(graph)
    _failed_as_an_earlier_release_left_it(store, graph, NO_APPROVER)
    graph.invoke(None, config())
    again = waiting(graph)
    assert again.value["error"] == "approver: is required: who decides?"
    done = graph.invoke(Command(resume={again.id: APPROVE}), config())
    assert done["outcome"] == "paid" and len(ledger.ledger_rows(store)) == 1


def _events(store) -> list[str]:
    with store.read() as cursor:
        cursor.execute("SELECT kind FROM notify_outbox WHERE kind != 'cursor'")
        return [row[0] for row in cursor.fetchall()]


def test_a_question_asked_again_is_the_same_wait_in_the_inbox_and_the_notifications(store, settings, run_cli):
    """The question asked again is the one the thread waited on: the same waiting episode (no second
    "waiting" message), the inbox's question, and a decision through ``runs`` then pays once."""
    settings = notifying(settings, HITL_NOTIFY_WEBHOOK="http://127.0.0.1:9/hook")
    start_refund(store, settings, "R1", lang="ko")
    now = dt.datetime.now(dt.UTC)
    assert scan.scan(store, settings, now) == 1
    waited = lifecycle.thread_status(store, THREAD)

    build_graph(store.saver, store=store).invoke(Command(resume=NO_APPROVER), config("ko"))
    asked = lifecycle.thread_status(store, THREAD)
    assert (asked.status, asked.waiting_since) == ("waiting", waited.waiting_since)
    assert asked.payload["error"] == "approver: 필수 항목입니다. 누가 결정하나요?"
    assert asked.reason_in("ko") == waited.reason_in("ko")  # the inbox shows the question, as for the lecture
    assert scan.scan(store, settings, now + dt.timedelta(seconds=5)) == 0
    (item,) = json.loads(run_cli("inbox", "--json").out)
    assert (item["thread_id"], item["status"], item["action"]) == (THREAD, "waiting", "answer")

    done = runs.resume_thread(store, settings, THREAD, {"action": "approve", "approver": "lee"})
    assert (done.status, done.outcome) == ("done", "paid")
    assert [(row["paid_amount"], row["approver"]) for row in ledger.ledger_rows(store)] == [(500_000, "lee")]
    scan.scan(store, settings, now + dt.timedelta(seconds=10))
    assert sorted(_events(store)) == ["decided", "waiting"]  # one wait, told once


def test_the_refund_page_decides_a_question_asked_again(app, store, settings):
    start_refund(store, settings, "R1")
    build_graph(store.saver, store=store).invoke(Command(resume=NO_APPROVER), config())
    at = app("app_pages/refund.py")
    assert not at.exception, at.exception
    at.text_input(key="refund-approver").input("kim")
    button_by_key(at, "refund-approve").click().run()
    assert not at.exception, at.exception
    assert [(row["paid_amount"], row["approver"]) for row in ledger.ledger_rows(store)] == [(500_000, "kim")]
