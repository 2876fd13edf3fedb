"""The refund's human-in-the-loop request, its ``response_schema`` and LangChain's decisions, the same on
this server and on ``langgraph dev`` through the Python SDK (the rules that read a decision live in the
graph, so LangGraph's own server applies them too)."""

from __future__ import annotations

import uuid
from typing import Any

import pytest

pytestmark = pytest.mark.slow

EDIT = {"type": "edit", "edited_action": {"name": "pay_refund", "args": {"amount": 300_000}}}


def waiting_refund(client: Any, thread_id: str | None, case: str) -> tuple[str, dict[str, Any]]:
    thread = client.threads.create(thread_id=thread_id)["thread_id"]
    request = {"case_id": case, "customer": "홍길동", "requested_amount": 500_000, "reason": "파손"}
    client.runs.wait(thread, "refund", input=request)
    return thread, client.threads.get_state(thread)


def test_the_refund_question_and_its_schema_are_the_reference_servers(both: dict[str, Any]) -> None:
    found = {}
    for name, client in both.items():
        case = f"HS-{uuid.uuid4().hex[:6]}"
        thread, state = waiting_refund(client, f"refund-{case}" if name == "ours" else None, case)
        (question,) = state["interrupts"]
        schema = question["response_schema"]
        assert schema["anyOf"][1]["title"] == "HITLResponse"
        assert schema["anyOf"][0]["properties"]["amount"]["maximum"] == 500_000
        listed = client.threads.get(thread)["interrupts"]
        assert [i["response_schema"] for i in listed[next(iter(listed))]] == [schema]
        value = question["value"]
        found[name] = (schema, value["action_requests"][0]["args"], value["review_configs"])
        done = client.runs.wait(thread, "refund", command={"resume": {"decisions": [EDIT], "approver": "kim"}})
        assert (done["outcome"], done["paid_amount"], done["approver"]) == ("paid", 300_000, "kim"), name
    assert found["ours"] == found["langgraph dev"]
