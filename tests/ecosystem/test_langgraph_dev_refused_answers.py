"""On LangGraph's own server (``langgraph dev``) a refused refund answer asks again; it never locks the case.

That server hands an answer to the graph unchecked. A refund answer the graph refuses there (a decision
that names no approver, an edit out of range) is not taken: the thread stays ``interrupted``, its question
is asked again with the refusal in its ``error``, and the next correct answer, plain or by the question's
interrupt id, decides the case, paid once (the ledger is in the project's database). With several items,
Agent Inbox's accept without an approver for one item beside a valid edit of another pays the edited item
and asks the refused one again. What Agent Inbox shows of a question asked again (its description) starts with
the refusal; an Agent Inbox edit of what the lecture gate shows for reading (its score) is refused so too,
never run as a rework that drops it.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from typing import Any

import pytest
from langgraph_sdk import get_sync_client

from agents.refund.item_ledger import item_payouts
from agents.refund.ledger import ledger_rows
from tests.agents.lecture.test_lecture_agent_inbox_edits import inbox_edit
from tests.ecosystem.conftest import DevServer
from tests.ecosystem.test_langgraph_dev import LECTURE_REQUEST, project_database

pytestmark = pytest.mark.slow

NO_APPROVER = {"decisions": [{"type": "approve"}]}
APPROVE = {"decisions": [{"type": "approve"}], "approver": "kim"}


@pytest.fixture
def client(langgraph_dev: DevServer) -> Iterator[Any]:
    """The SDK's synchronous client of the development server."""
    with get_sync_client(url=langgraph_dev.url, api_key=None) as sdk:
        yield sdk


def start_case(client: Any, **values: Any) -> tuple[str, str, dict[str, Any]]:
    """A new refund on a server-made thread: its thread id, its case id and its first question."""
    thread_id = client.threads.create()["thread_id"]
    case = f"DEV-R-{uuid.uuid4().hex[:6]}"
    request = {"case_id": case, "customer": "kim", "requested_amount": 500_000, "reason": "broken", **values}
    waiting = client.runs.wait(thread_id, "refund", input=request)
    return thread_id, case, waiting["__interrupt__"][0]


def paid(server: DevServer, case: str) -> list[tuple[int, str]]:
    store = project_database(server)
    try:
        return [(row["paid_amount"], row["approver"]) for row in ledger_rows(store) if row["case_id"] == case]
    finally:
        store.close()


def test_a_refused_answer_asks_again_with_its_reason_and_a_correct_one_pays_once(client, langgraph_dev):
    thread_id, case, question = start_case(client)
    refused = client.runs.wait(thread_id, "refund", command={"resume": NO_APPROVER})
    (again,) = refused["__interrupt__"]
    assert again["value"]["error"] == "approver: is required: who decides?"
    assert again["id"] == question["id"]
    (action,), (asked,) = again["value"]["action_requests"], question["value"]["action_requests"]
    assert {**action, "description": ""} == {**asked, "description": ""}
    # Agent Inbox shows the description: it says first why the last answer did nothing.
    refusal = f"The last answer was refused: {again['value']['error']}"
    assert action["description"] == f"{refusal}\n\n{asked['description']}"
    assert client.threads.get(thread_id)["status"] == "interrupted", "waiting, not failed"
    (shown,) = client.threads.get_state(thread_id)["interrupts"]
    assert shown["value"]["error"] == again["value"]["error"]
    assert paid(langgraph_dev, case) == []

    done = client.runs.wait(thread_id, "refund", command={"resume": APPROVE})
    assert (done["outcome"], done["paid_amount"], done["approver"]) == ("paid", 500_000, "kim")
    assert client.threads.get(thread_id)["status"] == "idle"
    assert paid(langgraph_dev, case) == [(500_000, "kim")]


def test_an_edit_out_of_range_asks_again_and_a_continue_keeps_asking(client, langgraph_dev):
    thread_id, case, question = start_case(client)
    out_of_range = {"action": "edit", "amount": 900_000, "approver": "kim"}
    refused = client.runs.wait(thread_id, "refund", command={"resume": out_of_range})
    assert refused["__interrupt__"][0]["value"]["error"].startswith("amount: must be between 1 and the requested")
    continued = client.runs.wait(thread_id, "refund", input=None)
    assert continued["__interrupt__"][0]["value"]["error"].startswith("amount: ")
    assert client.threads.get(thread_id)["status"] == "interrupted"

    answer = {question["id"]: {"action": "edit", "amount": 300_000, "approver": "kim"}}  # by its interrupt id
    done = client.runs.wait(thread_id, "refund", command={"resume": answer})
    assert (done["outcome"], done["paid_amount"]) == ("paid", 300_000)
    assert paid(langgraph_dev, case) == [(300_000, "kim")]


def test_agent_inbox_accept_without_approver_beside_a_valid_edit_pays_the_edit_and_asks_again(client, langgraph_dev):
    items = [{"item": "A-1", "amount": 300_000}, {"item": "A-2", "amount": 80_000}, {"item": "A-3", "amount": 200_000}]
    thread_id, case, _ = start_case(client, requested_amount=580_000, items=items)
    ids = {question["value"]["item"]: question["id"] for question in client.threads.get_state(thread_id)["interrupts"]}
    accept = [{"type": "accept", "args": {"action": "pay_refund", "args": {"amount": 300_000}}}]
    edit = [{"type": "edit", "args": {"action": "pay_refund", "args": {"amount": "150000", "approver": "kim"}}}]
    client.runs.wait(thread_id, "refund", command={"resume": {ids["A-1"]: accept, ids["A-3"]: edit}})

    assert client.threads.get(thread_id)["status"] == "interrupted"
    (again,) = client.threads.get_state(thread_id)["interrupts"]
    assert (again["value"]["item"], again["id"]) == ("A-1", ids["A-1"])
    assert again["value"]["error"] == "approver: is required: who decides?"
    store = project_database(langgraph_dev)
    try:
        assert {row["item"]: row["paid_amount"] for row in item_payouts(store, case)} == {"A-2": 80_000, "A-3": 150_000}
    finally:
        store.close()

    named = [{"type": "accept", "args": {"action": "pay_refund", "args": {"amount": 300_000}}, "approver": "lee"}]
    done = client.runs.wait(thread_id, "refund", command={"resume": {again["id"]: named}})
    assert (done["outcome"], done["paid_amount"]) == ("paid", 530_000)
    store = project_database(langgraph_dev)
    try:
        payouts = sorted((row["item"], row["paid_amount"], row["approver"]) for row in item_payouts(store, case))
    finally:
        store.close()
    assert payouts == [("A-1", 300_000, "lee"), ("A-2", 80_000, "automatic"), ("A-3", 150_000, "kim")]
    assert client.threads.get(thread_id)["status"] == "idle"


def test_agent_inbox_s_edit_of_the_lecture_gate_s_score_asks_again_saying_why_first(client):
    thread_id = client.threads.create()["thread_id"]
    (gate,) = client.runs.wait(thread_id, "lecture", input={"request": LECTURE_REQUEST})["__interrupt__"]
    refused = client.runs.wait(thread_id, "lecture", command={"resume": inbox_edit(gate["value"], score="95")})
    (again,) = refused["__interrupt__"]
    assert again["value"]["error"].startswith("score: is shown for reading and an edit cannot change it")
    assert again["value"]["action_requests"][0]["description"].startswith(
        f"The last answer was refused: {again['value']['error']}\n\n"
    )
    assert (refused["round"], refused.get("reworks", 0)) == (1, 0), "no rework ran"

    done = client.runs.wait(thread_id, "lecture", command={"resume": inbox_edit(gate["value"], notes="휴식 추가")})
    assert (done["outcome"], done["reworks"], done["human_notes"]) == ("saved", 1, "휴식 추가")
