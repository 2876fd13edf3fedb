"""A refund on a thread the server names, through LangGraph's clients, on both backends.

The Python SDK makes a thread with ``threads.create()`` and starts a refund on it as LangGraph's own
server takes it (``runs.create(thread_id, "refund", input={case})``); a second thread for the same case
is refused with a 422 naming the case and the thread that holds it. Two servers (two processes) on one
database starting one case on two server-made threads at the same moment (a barrier, no sleeping) make
one case: one start waits for its approver, the other is refused naming the winner's thread. The winner
is decided through the JS client as Agent Inbox decides it, and each case is paid exactly once.
"""

from __future__ import annotations

import threading
import uuid
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx
import pytest
from langgraph_sdk import get_sync_client

from agents.refund import cases, ledger
from tests.api.conftest import Server, start_server, stop_server
from tests.ecosystem.test_js_client import run_flow

pytestmark = [pytest.mark.usefixtures("backend"), pytest.mark.slow]


def case_input(case: str) -> dict[str, Any]:
    return {"case_id": case, "customer": "홍길동", "requested_amount": 500_000, "reason": "파손된 상품"}


@pytest.fixture
def two_servers(tmp_path: Path, db_location: str) -> Iterator[tuple[Server, Server]]:
    """Two API processes on the test's database, deciding as the local approver kim."""
    first = start_server(tmp_path / "a", HITL_DB=db_location, HITL_LOCAL_APPROVER="kim")
    try:
        second = start_server(tmp_path / "b", HITL_DB=db_location, HITL_LOCAL_APPROVER="kim")
    except BaseException:
        stop_server(first)
        raise
    yield first, second
    stop_server(second)
    stop_server(first)


def start(url: str, thread_id: str, case: str) -> httpx.Response | dict[str, Any]:
    """``runs.create`` then ``runs.join`` through the SDK: the joined values, or the refusal's response."""
    with get_sync_client(url=url, api_key=None) as sdk:
        try:
            run = sdk.runs.create(thread_id, "refund", input=case_input(case))
        except httpx.HTTPStatusError as refused:
            return refused.response
        return dict(sdk.runs.join(thread_id, run["run_id"]))


def test_a_server_made_thread_holds_its_case_and_a_second_thread_is_refused_naming_both(two_servers, store):
    server, _ = two_servers
    case = f"SDK-{uuid.uuid4().hex[:6]}"
    with get_sync_client(url=server.url, api_key=None) as sdk:
        thread_id = sdk.threads.create()["thread_id"]
        other = sdk.threads.create()["thread_id"]
    waiting = start(server.url, thread_id, case)
    assert isinstance(waiting, dict) and waiting["__interrupt__"][0]["value"]["case_id"] == case
    refused = start(server.url, other, case)
    assert isinstance(refused, httpx.Response) and refused.status_code == 422
    body = refused.json()
    assert body["field"] == "case_id" and repr(case) in body["detail"] and repr(thread_id) in body["detail"]
    with get_sync_client(url=server.url, api_key=None) as sdk:
        assert sdk.threads.get_history(other, limit=5) == []  # nothing saved on the refused thread
    trace = run_flow(server.url, "inbox-decide", threadId=thread_id, decisions=[{"label": "accept", "type": "accept"}])
    state = next(e for e in trace if e["call"] == "state after accept")["shape"]
    assert state == {"outcome": "paid", "paid_amount": 500_000, "approver": "kim", "waiting": 0}
    assert [(r["case_id"], r["thread_id"]) for r in ledger.ledger_rows(store)] == [(case, thread_id)]
    assert cases.case_of_thread(store, thread_id) == case


def test_two_servers_starting_one_case_on_two_threads_at_once_make_one_case_and_one_payout(two_servers, store):
    servers = two_servers
    case_ids = [f"RACE-{n}-{uuid.uuid4().hex[:4]}" for n in range(6)]
    threads: dict[str, list[str]] = {}
    for case in case_ids:
        threads[case] = []
        for server in servers:
            with get_sync_client(url=server.url, api_key=None) as sdk:
                threads[case].append(sdk.threads.create()["thread_id"])
    barrier = threading.Barrier(2)

    def starts(side: int) -> list[httpx.Response | dict[str, Any]]:
        found = []
        for case in case_ids:
            barrier.wait(timeout=120)  # both servers get this case's start at the same moment
            found.append(start(servers[side].url, threads[case][side], case))
        return found

    with ThreadPoolExecutor(2) as pool:
        results = list(pool.map(starts, (0, 1)))
    for index, case in enumerate(case_ids):
        pair = [results[0][index], results[1][index]]
        won = [side for side, result in enumerate(pair) if isinstance(result, dict)]
        assert len(won) == 1, (case, pair)
        winner, loser = threads[case][won[0]], pair[1 - won[0]]
        assert isinstance(loser, httpx.Response) and loser.status_code == 422, loser
        assert loser.json()["field"] == "case_id" and repr(winner) in loser.json()["detail"]
        trace = run_flow(
            servers[1 - won[0]].url, "inbox-decide", threadId=winner, decisions=[{"label": "ok", "type": "accept"}]
        )
        assert next(e for e in trace if e["call"] == "state after ok")["shape"]["outcome"] == "paid"
    audit = [row for row in ledger.audit_rows(store) if row.case_id in case_ids]
    assert len(audit) == len(case_ids)  # one thread per case
    payouts = [row for row in ledger.ledger_rows(store) if row["case_id"] in case_ids]
    assert sorted(row["case_id"] for row in payouts) == sorted(case_ids)  # one payout each
    assert all(row["repeat_attempts"] == 0 for row in payouts)
