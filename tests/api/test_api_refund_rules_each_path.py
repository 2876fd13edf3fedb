"""The refund rules that some paths let through, on the HTTP API: the official ``langgraph-sdk`` client against
``python -m agents serve``. An ``update_state`` of the approver alone, amounts with decimals or written as
JSON text, an edit out of range, and the short interrupt id the pages show in ``POST /decisions``; each
refusal is a 422 naming the field, and nothing is saved. The CLI's and the pages' side is
``tests/agents/refund/test_refund_rules_each_path.py``.
"""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from langgraph_sdk.errors import UnprocessableEntityError

from tests.api.conftest import Server


def _case(case_id: str, **fields: Any) -> dict[str, Any]:
    return {"case_id": case_id, "customer": "kim", "amount": 500_000, "reason": "damaged", **fields}


def _waiting(client: Any, case_id: str) -> str:
    """Starts a case that waits for its approver; returns its thread."""
    thread = f"refund-{case_id}"
    client.threads.create(thread_id=thread)
    assert client.runs.wait(thread, "refund", input=_case(case_id))["__interrupt__"]
    return thread


def _refused(call: Any, *args: Any, **kwargs: Any) -> dict[str, Any]:
    """The 422 body of a call the server refuses."""
    with pytest.raises(httpx.HTTPStatusError) as refusal:
        call(*args, **kwargs)
    assert refusal.value.response.status_code == 422, refusal.value.response.text
    return refusal.value.response.json()


def test_an_update_of_the_approver_alone_is_refused(client: Any) -> None:
    thread = _waiting(client, "U2")
    before = client.threads.get_history(thread, limit=20)
    with pytest.raises(UnprocessableEntityError) as refusal:
        client.threads.update_state(thread, {"approver": "kim"})
    body = refusal.value.response.json()
    assert body["field"] == "approver" and "is given with a decision" in body["detail"], body
    assert client.threads.get_history(thread, limit=20) == before
    assert client.threads.get_state(thread)["values"].get("approver") is None


def test_an_edit_to_the_same_amount_is_refused(client: Any) -> None:
    """It changed nothing, yet the case waited again after it: its wait and deadline started anew."""
    thread = _waiting(client, "U3")
    before = client.threads.get_history(thread, limit=20)
    with pytest.raises(UnprocessableEntityError) as refusal:
        client.threads.update_state(thread, {"amount": 500_000})
    body = refusal.value.response.json()
    assert body["field"] == "amount" and "is already 500,000 KRW" in body["detail"], body
    assert client.threads.get_history(thread, limit=20) == before


@pytest.mark.parametrize(
    ("case_id", "graph_input", "field", "said"),
    [
        ("N1", _case("N1", amount=150_000.0), "amount", "without decimals"),
        ("N2", _case("N2", amount="150,000"), "amount", "not text"),
        (
            "N3",
            {"case_id": "N3", "customer": "kim", "requested_amount": "500,000", "reason": "r"},
            "requested_amount",
            "not text",
        ),
        (
            "N4",
            {"case_id": "N4", "customer": "kim", "requested_amount": 500_000.0, "reason": "r"},
            "requested_amount",
            "without decimals",
        ),
        ("N5", {**_case("N5"), "amount": None, "items": [{"item": "A", "amount": 99_999.0}]}, "items", "whole"),
    ],
    ids=["decimals", "text", "graph input text", "graph input decimals", "an item's decimals"],
)
def test_a_request_amount_is_a_json_whole_number(
    client: Any, case_id: str, graph_input: dict[str, Any], field: str, said: str
) -> None:
    thread = f"refund-{case_id}"
    client.threads.create(thread_id=thread)
    body = _refused(client.runs.wait, thread, "refund", input={k: v for k, v in graph_input.items() if v is not None})
    assert body["field"] == field and said in body["detail"], body
    assert client.threads.get_history(thread, limit=5) == []


def test_an_edit_is_a_json_whole_number_within_the_requested_amount(client: Any) -> None:
    thread = _waiting(client, "E1")
    before = client.threads.get_history(thread, limit=20)
    for amount, said in (
        (100_000.0, "without decimals"),
        ("100,000", "not text"),
        (0, "between 1 and the requested 500,000 KRW, got 0"),
    ):
        edit = {"action": "edit", "amount": amount, "approver": "kim"}
        body = _refused(client.runs.wait, thread, "refund", command={"resume": edit})
        assert body["field"] == "amount" and said in body["detail"], body
        with pytest.raises(UnprocessableEntityError) as updated:
            client.threads.update_state(thread, {"amount": amount})
        assert said in updated.value.response.json()["detail"]
    assert client.threads.get_history(thread, limit=20) == before
    typed = [{"type": "edit", "args": {"action": "pay_refund", "args": {"amount": "300,000"}}, "approver": "kim"}]
    done = client.runs.wait(thread, "refund", command={"resume": typed})  # Agent Inbox's edit, typed as text
    assert (done["outcome"], done["paid_amount"]) == ("paid", 300_000)


def test_a_batch_item_with_the_short_id_the_pages_show_is_refused_naming_the_waiting_ids(
    client: Any, server: Server
) -> None:
    thread = _waiting(client, "B9")
    (whole,) = [i["id"] for i in client.threads.get_state(thread)["interrupts"]]
    body = {"items": [f"{thread}:deadbeef", f"{thread}:{whole[:8]}"], "action": "approve", "approver": "kim"}
    with server.client() as http:
        answer = http.post("/decisions", json=body)
    assert answer.status_code == 200, answer.text
    results = answer.json()["results"]
    assert [(r["thread_id"], r["interrupt_id"], r["result"]) for r in results] == [
        (thread, "deadbeef", "refused"),
        (thread, whole[:8], "refused"),
    ]
    assert f"no question 'deadbeef' is waiting in '{thread}'; waiting: {whole}" in results[0]["reason"]
    assert "no thread named" not in results[1]["reason"]
    assert client.threads.get_state(thread)["values"].get("outcome") is None
