"""A wait that begins and is decided between two scans is still told: its ``waiting`` and ``decided`` events
are read from the checkpoint history, on every path that writes a thread (the CLI, the HTTP API, LangGraph
itself), with the same event ids a scan that saw the wait live would have made; history from before
notifications were first on is not news.
"""

from __future__ import annotations

import datetime as dt
import json

import pytest
from fastapi.testclient import TestClient
from langgraph.types import Command

from agents import readmodel, runs
from agents.api.app import create_app
from agents.notify import outbox
from agents.notify.deliverer import Deliverer
from agents.refund.graph import build_graph
from agents.refund.spec import make_input
from tests.agents.notify.conftest import notifying
from tests.factories import start_refund

pytestmark = pytest.mark.usefixtures("backend")

CASE = {"customer": "홍길동", "amount": 500_000, "reason": "r"}
REJECT = {"action": "reject", "approver": "kim"}


def first_wait(store, thread_id: str) -> str:
    """The ``waiting_since`` of the thread's first wait: the time of the checkpoint it waited at."""
    with store.read() as cursor:
        [(_thread, checkpoint_id, _type, _blob), *_] = store.queries.interrupt_writes(cursor, [thread_id])
    return readmodel.checkpoint_time(checkpoint_id).isoformat()


def events(receiver, count: int) -> list[tuple[str, str]]:
    return sorted((item.body["event"], item.body["thread_id"]) for item in receiver.wait_for(count))


def test_a_wait_begun_and_decided_between_two_scans_is_told_on_every_path(store, settings, receiver, run_cli):
    settings = notifying(settings, HITL_NOTIFY_WEBHOOK=receiver.url)
    Deliverer(store, settings).run_once()  # notifications on: the scans' place is kept from here

    started = run_cli("run", "refund", "--case", "CLI1", "--customer", "kim", "--amount", "500000", "--reason", "r")
    assert started.code == 0 and run_cli("resume", "refund-CLI1", json.dumps(REJECT)).code == 0
    with TestClient(create_app(store, settings), base_url="http://127.0.0.1") as api:
        api.post("/threads", json={"thread_id": "refund-API1"}).raise_for_status()
        run = {"assistant_id": "refund", "input": {"case_id": "API1", **CASE}}
        api.post("/threads/refund-API1/runs/wait", json=run).raise_for_status()
        answer = {"assistant_id": "refund", "command": {"resume": {"action": "approve", "approver": "kim"}}}
        api.post("/threads/refund-API1/runs/wait", json=answer).raise_for_status()
    graph = build_graph(store.saver, store=store)
    config = {"configurable": {"thread_id": "refund-DEV1", "checkpoint_ns": ""}, "metadata": {"agent": "refund"}}
    graph.invoke(make_input({"case_id": "DEV1", **CASE}), config)
    graph.invoke(Command(resume=REJECT), config)

    report = Deliverer(store, settings).run_once()
    assert report.recorded == 6 and report.sent == 6
    assert events(receiver, 6) == [
        ("decided", "refund-API1"),
        ("decided", "refund-CLI1"),
        ("decided", "refund-DEV1"),
        ("waiting", "refund-API1"),
        ("waiting", "refund-CLI1"),
        ("waiting", "refund-DEV1"),
    ]
    by_key = {item.key: item.body for item in receiver.received}
    since = first_wait(store, "refund-API1")
    waiting, decided = by_key[f"waiting:refund-API1:{since}"], by_key[f"decided:refund-API1:{since}"]
    assert waiting["amount"] == 500_000 and "Refund agent case API1 (홍길동, 500,000 KRW)" in waiting["text"]
    assert "Refund API1 for 홍길동: pay 500,000 KRW" in waiting["text"]  # the question, from the history
    assert decided["outcome"] == "paid" and waiting["waited_seconds"] == decided["waited_seconds"]

    Deliverer(store, settings).run_once()  # found again, recorded once
    assert len(receiver.received) == 6 and outbox.open_episodes(store) == []


def test_a_wait_seen_live_then_decided_is_not_told_twice(store, settings, receiver):
    settings = notifying(settings, HITL_NOTIFY_WEBHOOK=receiver.url)
    start_refund(store, settings, "L1")
    Deliverer(store, settings).run_once()
    runs.resume_thread(store, settings, "refund-L1", REJECT)
    Deliverer(store, settings).run_once()
    Deliverer(store, settings).run_once()
    assert events(receiver, 2) == [("decided", "refund-L1"), ("waiting", "refund-L1")]
    assert len(receiver.received) == 2


def test_history_from_before_notifications_were_on_is_not_news(store, settings, receiver, run_cli):
    settings = notifying(settings, HITL_NOTIFY_WEBHOOK=receiver.url)
    start_refund(store, settings, "OLD1")
    run_cli("resume", "refund-OLD1", json.dumps(REJECT))
    start_refund(store, settings, "NOW1")

    Deliverer(store, settings).run_once()  # the first scan: what waits now, not what was decided before
    assert events(receiver, 1) == [("waiting", "refund-NOW1")]
    Deliverer(store, settings, lambda: dt.datetime.now(dt.UTC) + dt.timedelta(hours=1)).run_once()
    assert len(receiver.received) == 1


def test_a_wait_followed_by_another_between_two_scans_is_closed_and_only_the_last_is_decided(
    store, settings, receiver, run_cli
):
    settings = notifying(settings, HITL_NOTIFY_WEBHOOK=receiver.url)
    Deliverer(store, settings).run_once()
    start_refund(store, settings, "E1")
    assert run_cli("update", "refund-E1", "--values", '{"amount": 50000}').code == 0  # it waits again, anew
    assert run_cli("resume", "refund-E1", json.dumps(REJECT)).code == 0

    assert Deliverer(store, settings).run_once().sent == 3
    received = sorted(receiver.wait_for(3), key=lambda item: item.body["happened_at"])
    assert [item.body["event"] for item in received] == ["waiting", "waiting", "decided"]
    first, second, decided = (item.body for item in received)
    assert first["waiting_since"] < second["waiting_since"] == decided["waiting_since"]
    assert first["amount"] == 500_000 and second["amount"] == 50_000 and decided["outcome"] == "rejected"
    assert outbox.open_episodes(store) == []  # the first wait is closed without a message of its own
    Deliverer(store, settings).run_once()
    assert len(receiver.received) == 3
