"""Streams of a thread whose id is not ASCII (``refund-환불…``), through the official ``langgraph-sdk`` client.

A stream's answer names the run in its ``Content-Location`` and ``Location`` headers, which go on the wire
as latin-1: a raw Korean id there made every stream of such a thread a 500, after its run had started (a
refund answered "internal error" and paid). The ids are percent-encoded now, one path segment each.
"""

from __future__ import annotations

import uuid
from typing import Any
from urllib.parse import quote

import pytest
from fastapi.testclient import TestClient

from agents.api import run_routes
from agents.api.app import create_app
from agents.db import Store
from agents.refund.ledger import ledger_rows
from agents.runtime import open_store
from agents.settings import Settings
from tests.api.conftest import Server


@pytest.fixture(scope="module")
def server(shared_server: Server) -> Server:
    """The worker's shared server: these tests make threads and refund cases of their own ids and read only those."""
    return shared_server


def suffix() -> str:
    return uuid.uuid4().hex[:8]


def refund_case(case_id: str) -> dict[str, Any]:
    """A case above the threshold, so it waits for a human."""
    return {"case_id": case_id, "customer": "홍길동", "amount": 500_000, "reason": "파손된 상품"}


def events_of(parts: list[Any]) -> list[str]:
    return [part.event for part in parts]


def test_a_refund_on_a_korean_thread_is_decided_through_runs_stream_and_paid_once(client: Any, server: Server) -> None:
    case_id = f"환불{suffix()}"
    thread_id = f"refund-{case_id}"
    client.threads.create(thread_id=thread_id)
    assert client.runs.wait(thread_id, "refund", input=refund_case(case_id))["__interrupt__"]

    approve = {"action": "approve", "approver": "park"}
    decided = list(client.runs.stream(thread_id, "refund", command={"resume": approve}, stream_mode="values"))
    assert events_of(decided)[0] == "metadata" and "error" not in events_of(decided)
    assert decided[-1].data["outcome"] == "paid" and decided[-1].data["approver"] == "park"
    store = open_store(server.db)
    try:
        paid = [(row["paid_amount"], row["approver"]) for row in ledger_rows(store) if row["case_id"] == case_id]
    finally:
        store.close()
    assert paid == [(500_000, "park")]


def test_a_fresh_start_on_a_korean_thread_streams_its_run(client: Any) -> None:
    thread_id = f"로봇-{suffix()}"
    created: list[Any] = []
    parts = list(
        client.runs.stream(
            thread_id,
            "robot",
            input={},
            stream_mode="updates",
            if_not_exists="create",
            on_run_created=created.append,
        )
    )
    assert events_of(parts)[0] == "metadata" and "error" not in events_of(parts)
    assert any("__interrupt__" in part.data for part in parts if part.event == "updates")
    run_id = parts[0].data["run_id"]
    # The SDK reads the run from the Content-Location header, as it does from LangGraph's server.
    assert [meta["run_id"] for meta in created] == [run_id]
    assert client.runs.get(thread_id, run_id)["status"] == "success"
    assert client.threads.get(thread_id)["status"] == "interrupted"


def test_join_stream_follows_a_run_on_a_korean_thread(client: Any) -> None:
    thread_id = f"환불-{suffix()}"
    client.threads.create(thread_id=thread_id)
    run = client.runs.create(thread_id, "robot", input={}, stream_mode="values")
    client.runs.join(thread_id, run["run_id"])
    replayed = list(client.runs.join_stream(thread_id, run["run_id"], last_event_id="-1"))
    assert events_of(replayed)[0] == "metadata" and "values" in events_of(replayed)
    assert replayed[0].data["run_id"] == run["run_id"]


def test_the_location_headers_are_the_percent_encoded_path(client: Any, server: Server) -> None:
    thread_id = f"환불-{suffix()}"
    client.threads.create(thread_id=thread_id)
    path = f"/threads/{quote(thread_id, safe='')}/runs"
    with server.client() as http:
        answer = http.post(f"{path}/stream", json={"assistant_id": "robot", "input": {}, "stream_mode": "values"})
        assert answer.status_code == 200, answer.text
        run_id = client.runs.list(thread_id)[0]["run_id"]
        assert answer.headers["content-location"] == f"{path}/{run_id}"
        assert answer.headers["location"] == f"{path}/{run_id}/stream"
        # The header names the run as a client asks for it.
        assert http.get(answer.headers["content-location"]).json()["run_id"] == run_id
        joined = http.get(answer.headers["location"], headers={"Last-Event-ID": "-1"})
        assert joined.status_code == 200 and "event: metadata" in joined.text


def test_a_stream_whose_answer_cannot_be_built_runs_nothing(
    store: Store, settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    """In process: the answer is built before the run starts, so its failure (a 500) leaves nothing done."""
    started: list[str] = []
    start_run = run_routes.runs.start_run

    def recorded_start(*args: Any, thread_id: str, **kwargs: Any) -> Any:
        started.append(thread_id)
        return start_run(*args, thread_id=thread_id, **kwargs)

    def unbuildable(*args: object, **kwargs: object) -> None:
        raise RuntimeError("the answer cannot be built")

    monkeypatch.setattr(run_routes.runs, "start_run", recorded_start)
    monkeypatch.setattr(run_routes.RunStream, "__init__", unbuildable)
    body = {"assistant_id": "robot", "input": {}, "if_not_exists": "create"}
    with TestClient(create_app(store, settings), base_url="http://127.0.0.1", raise_server_exceptions=False) as api:
        answer = api.post("/threads/stream-unbuilt/runs/stream", json=body)
    assert answer.status_code == 500
    assert started == []
