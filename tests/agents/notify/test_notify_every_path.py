"""A thread changed by any path is announced: the CLI, the HTTP API and LangGraph's own tooling
(``langgraph dev`` runs the graph with no project code around it) all reach the receiver, because the
events are read from the statuses every path shares, not hooked into each.
"""

from __future__ import annotations

from fastapi.testclient import TestClient

from agents.api.app import create_app
from agents.notify.deliverer import Deliverer
from agents.refund.graph import build_graph
from agents.refund.spec import make_input
from tests.agents.notify.conftest import notifying


def test_threads_started_decided_and_deleted_on_every_path_are_announced(store, settings, receiver, run_cli):
    settings = notifying(settings, HITL_NOTIFY_WEBHOOK=receiver.url)
    case = {"customer": "홍길동", "amount": 500_000, "reason": "r"}
    assert (
        run_cli("run", "refund", "--case", "CLI1", "--customer", "kim", "--amount", "500000", "--reason", "r").code == 0
    )
    with TestClient(create_app(store, settings), base_url="http://127.0.0.1") as api:
        api.post("/threads", json={"thread_id": "refund-API1"}).raise_for_status()
        api.post(
            "/threads/refund-API1/runs/wait", json={"assistant_id": "refund", "input": {"case_id": "API1", **case}}
        ).raise_for_status()
        graph = build_graph(store.saver, store=store)
        config = {"configurable": {"thread_id": "refund-DEV1", "checkpoint_ns": ""}, "metadata": {"agent": "refund"}}
        graph.invoke(make_input({"case_id": "DEV1", **case}), config)
        Deliverer(store, settings).run_once()
        assert {item.body["thread_id"] for item in receiver.wait_for(3)} == {
            "refund-CLI1",
            "refund-API1",
            "refund-DEV1",
        }

        answer = {"assistant_id": "refund", "command": {"resume": {"action": "reject", "approver": "kim"}}}
        api.post("/threads/refund-API1/runs/wait", json=answer).raise_for_status()
    assert run_cli("delete", "refund-CLI1", "--yes", "--reason", "entered twice").code == 0
    Deliverer(store, settings).run_once()
    received = receiver.wait_for(5)
    kinds = sorted((item.body["event"], item.body["thread_id"]) for item in received)
    assert kinds == [
        ("decided", "refund-API1"),
        ("deleted", "refund-CLI1"),
        ("waiting", "refund-API1"),
        ("waiting", "refund-CLI1"),
        ("waiting", "refund-DEV1"),
    ]
    [decided] = [item.body for item in received if item.body["event"] == "decided"]
    assert decided["outcome"] == "rejected" and "Decided (rejected): Refund agent case API1" in decided["text"]
