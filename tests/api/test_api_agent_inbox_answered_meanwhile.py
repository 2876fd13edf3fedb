"""Agent Inbox's accept of a refund item someone else decided after Agent Inbox loaded the thread.

Agent Inbox's answer names no question: the server gives it to the item first in line when it arrives.
Its accept carries the action request it showed (``{"type": "accept", "args": {"action", "args"}}``), so
when that is not what the item first in line asks (another item's amount), the item it showed was
decided meanwhile: the accept is refused (409), saying what changed and to reload, and nothing is paid.
After a reload, the accept of what is shown now decides it. Through the official SDK and plain HTTP
against the real server, without sign-in, with the approver ``HITL_LOCAL_APPROVER`` names.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from langgraph_sdk import get_sync_client

from agents.hitl_shape import accepted_changes
from tests.api.conftest import Server, start_server, stop_server

ITEMS = [{"item": "A-1", "amount": 300_000}, {"item": "A-3", "amount": 200_000}]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A server whose decisions that name no approver are kim's, as Agent Inbox's are."""
    running = start_server(tmp_path_factory.mktemp("api-inbox-meanwhile"), HITL_LOCAL_APPROVER="kim")
    yield running
    stop_server(running)


def start_case(client: Any, case: str) -> str:
    thread_id = f"refund-{case}"
    client.threads.create(thread_id=thread_id)
    values = {"case_id": case, "customer": "kim", "reason": "r", "items": ITEMS}
    assert len(client.runs.wait(thread_id, "refund", input=values)["__interrupt__"]) == 2
    return thread_id


def inbox_accept(client: Any, thread_id: str) -> tuple[str, list[dict[str, Any]]]:
    """What Agent Inbox shows when it opens the thread (its first interrupt) and the accept it would send."""
    shown = next(iter(client.threads.get(thread_id)["interrupts"].values()))[0]["value"]
    request = shown["action_requests"][0]
    return shown["item"], [{"type": "accept", "args": {"action": request["name"], "args": request["arguments"]}}]


def stream_answer(server: Server, thread_id: str, answer: Any) -> Any:
    """Agent Inbox's submit: ``runs.stream`` with the response and ``streamMode: "events"``."""
    body = {"assistant_id": "refund", "command": {"resume": answer}, "stream_mode": "events"}
    with server.client() as http:
        return http.post(f"/threads/{thread_id}/runs/stream", json=body)


def paid_items(client: Any, thread_id: str) -> dict[str, Any]:
    values = client.threads.get_state(thread_id)["values"]
    return {r["item"]: r.get("paid_amount") for r in values.get("item_results") or []}


def test_an_accept_of_an_item_decided_meanwhile_is_refused_and_pays_nothing(server: Server) -> None:
    with get_sync_client(url=server.url, api_key=None, headers=server.headers) as client:
        thread_id = start_case(client, "IM1")
        item, accept = inbox_accept(client, thread_id)  # Agent Inbox loads the thread: it shows A-1
        assert item == "A-1" and accept[0]["args"]["args"] == {"amount": 300_000}
        # someone else decides A-1 by its id in the meantime
        first = next(iter(client.threads.get(thread_id)["interrupts"].values()))[0]["id"]
        client.runs.wait(thread_id, "refund", command={"resume": {first: {"action": "approve", "approver": "lee"}}})
        head = client.threads.get_state(thread_id)["checkpoint_id"]

        answer = stream_answer(server, thread_id, accept)
        assert answer.status_code == 409, answer.text
        body = answer.json()
        assert body["field"] == "command.resume", body
        assert "amount 300000" in body["detail"] and "amount 200000" in body["detail"], body
        assert "item A-3" in body["detail"] and "reload the thread" in body["detail"], body
        assert paid_items(client, thread_id) == {"A-1": 300_000}, "nothing else was paid"
        state = client.threads.get_state(thread_id)
        assert state["checkpoint_id"] == head and [i["value"]["item"] for i in state["interrupts"]] == ["A-3"]

        item, accept = inbox_accept(client, thread_id)  # reloaded: it shows A-3, and its accept decides it
        assert item == "A-3"
        assert stream_answer(server, thread_id, accept).status_code == 200
        done = client.threads.get(thread_id)
        assert done["status"] == "idle" and done["values"]["outcome"] == "paid", done["values"]
        assert paid_items(client, thread_id) == {"A-1": 300_000, "A-3": 200_000}


def test_an_accept_of_the_item_first_in_line_decides_it_and_one_without_args_is_not_compared(
    server: Server,
) -> None:
    with get_sync_client(url=server.url, api_key=None, headers=server.headers) as client:
        thread_id = start_case(client, "IM2")
        item, accept = inbox_accept(client, thread_id)
        typed_back = [{"type": "accept", "args": {"action": "pay_refund", "args": {"amount": "300000"}}}]
        assert item == "A-1" and accepted_changes(typed_back[0], _first_question(client, thread_id)) == {}
        one = client.runs.wait(thread_id, "refund", command={"resume": typed_back})
        assert [i["value"]["item"] for i in one["__interrupt__"]] == ["A-3"]
        done = client.runs.wait(thread_id, "refund", command={"resume": [{"type": "accept", "args": None}]})
        assert done["outcome"] == "paid" and "__interrupt__" not in done
        assert paid_items(client, thread_id) == {"A-1": 300_000, "A-3": 200_000}


def _first_question(client: Any, thread_id: str) -> dict[str, Any]:
    return dict(next(iter(client.threads.get(thread_id)["interrupts"].values()))[0]["value"])


def test_an_accept_is_compared_with_the_action_request_the_question_carries() -> None:
    question = {
        "action_requests": [{"name": "pay_refund", "args": {"amount": 200_000}, "arguments": {"amount": 200_000}}]
    }
    accept = {"type": "accept", "args": {"action": "pay_refund", "args": {"amount": 300_000}}}
    assert accepted_changes(accept, question) == {"amount": (300_000, 200_000)}
    assert accepted_changes({**accept, "args": {"action": "approve_plan", "args": {}}}, question) == {
        "action": ("approve_plan", "pay_refund")
    }
    typed_back = {"type": "accept", "args": {"action": "pay_refund", "args": {"amount": "200000"}}}
    assert accepted_changes(typed_back, question) == {}, "a box's text is the same value"
    gate = {"action_requests": [{"name": "save_lecture_plan", "arguments": {"round": 1, "score": 72.0, "notes": ""}}]}
    same = {"type": "accept", "args": {"action": "save_lecture_plan", "args": {"round": 1, "score": 72, "notes": ""}}}
    assert accepted_changes(same, gate) == {}
    assert accepted_changes({"type": "edit", "args": accept["args"]}, question) == {}, "an edit's args are its own"
    assert accepted_changes(accept, {"action": "x", "question": "Execute this? (yes/no)"}) == {}, "no action request"
