"""A refund with several items over the HTTP API: every waiting question with its id in ``get_state``
and ``threads.get``, ``command.resume`` as ``{interrupt_id: answer, ...}`` (a partial map leaves the rest
waiting), a plain answer with several waiting refused (422 listing the ids), and each item checked by the
same rules as every path (limit, four eyes, amount range, stale form), on both backends in-process and
with the official SDK against the real server."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from langgraph_sdk import get_sync_client

from agents import readmodel
from agents.api.app import create_app
from agents.db import Store
from agents.identity import token_hash
from agents.refund import item_ledger
from agents.roles_file import parse_roles
from agents.settings import Settings
from tests.api.conftest import Server


@pytest.fixture(scope="module")
def server(shared_server: Server) -> Server:
    """The worker's shared server (tests/api/conftest.py): this module's threads and cases have ids of its own."""
    return shared_server


ITEMS = [{"item": "A-1", "amount": 300_000}, {"item": "A-2", "amount": 80_000}, {"item": "A-3", "amount": 200_000}]
TOKENS = {"kim": "tok-kim-items-51c0", "lee": "tok-lee-items-8e21", "park": "tok-park-items-0c3d"}
ROLES_TEXT = f"""
[users]
"kim@example.com" = {{ role = "approver", limit_krw = 1_000_000 }}
"lee@example.com" = {{ role = "approver", limit_krw = 1_000_000 }}
"park@example.com" = {{ role = "approver", limit_krw = 250_000 }}

[tokens]
"kim" = {{ sha256 = "{token_hash(TOKENS["kim"])}", email = "kim@example.com" }}
"lee" = {{ sha256 = "{token_hash(TOKENS["lee"])}", email = "lee@example.com" }}
"park" = {{ sha256 = "{token_hash(TOKENS["park"])}", email = "park@example.com" }}
"""


@pytest.fixture
def api(store: Store, settings: Settings, backend: str) -> Iterator[TestClient]:
    with_roles = dataclasses.replace(settings, roles=parse_roles(ROLES_TEXT, "roles.toml"))
    with TestClient(create_app(store, with_roles), raise_server_exceptions=False) as client:
        yield client


def as_(who: str, **headers: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {TOKENS[who]}", **headers}


def start(api: TestClient, who: str = "kim") -> httpx.Response:
    values = {"case_id": "M1", "customer": "kim", "reason": "r", "items": ITEMS}
    body = {"assistant_id": "refund", "input": values, "if_not_exists": "create"}
    return api.post("/threads/refund-M1/runs/wait", json=body, headers=as_(who))


def resume(api: TestClient, who: str, value: Any, **headers: str) -> httpx.Response:
    body = {"assistant_id": "refund", "command": {"resume": value}}
    return api.post("/threads/refund-M1/runs/wait", json=body, headers=as_(who, **headers))


def waiting(api: TestClient) -> dict[str, str]:
    state = api.get("/threads/refund-M1/state", headers=as_("kim")).json()
    return {i["value"]["item"]: i["id"] for i in state["interrupts"]}


APPROVE = {"action": "approve", "approver": "typed"}


def test_every_waiting_item_is_listed_with_its_id_and_answered_by_it(api: TestClient, store: Store) -> None:
    started = start(api)
    assert started.status_code == 200, started.text
    assert sorted(i["value"]["item"] for i in started.json()["__interrupt__"]) == ["A-1", "A-3"]
    ids = waiting(api)
    thread = api.get("/threads/refund-M1", headers=as_("kim")).json()
    assert thread["status"] == "interrupted"
    listed = {i["id"] for found in thread["interrupts"].values() for i in found}
    assert listed == set(ids.values())
    plain = resume(api, "lee", APPROVE)
    assert plain.status_code == 422 and all(i in plain.text for i in ids.values()), plain.text
    partial = resume(api, "lee", {ids["A-3"]: {"action": "reject", "approver": "x"}})
    assert partial.status_code == 200, partial.text
    assert waiting(api) == {"A-1": ids["A-1"]}
    done = resume(api, "lee", {ids["A-1"]: APPROVE})
    assert done.status_code == 200 and done.json()["outcome"] == "partly paid"
    paid = {r["item"]: r["approver"] for r in item_ledger.item_payouts(store, "M1")}
    assert paid == {"A-1": "lee@example.com", "A-2": "automatic"}


def test_each_item_in_a_map_is_checked_and_one_refusal_writes_nothing(api: TestClient, store: Store) -> None:
    start(api)
    ids = waiting(api)
    head = readmodel.head_checkpoint_id(store, "refund-M1")
    both = {ids["A-1"]: APPROVE, ids["A-3"]: APPROVE}
    over_limit = resume(api, "park", both)  # A-1 (300,000) is above Park's 250,000; A-3 is within it
    assert over_limit.status_code == 403 and "250,000" in over_limit.text, over_limit.text
    four_eyes = resume(api, "kim", {ids["A-3"]: APPROVE})  # Kim requested the case
    assert four_eyes.status_code == 403 and "four eyes" in four_eyes.text
    out_of_range = resume(api, "lee", {ids["A-3"]: {"action": "edit", "amount": 250_000, "approver": "x"}})
    assert out_of_range.status_code == 422 and "amount" in out_of_range.text
    unknown = resume(api, "lee", {"0" * 32: APPROVE})
    assert unknown.status_code == 422 and "interrupt_id" in unknown.text
    assert readmodel.head_checkpoint_id(store, "refund-M1") == head
    assert [r["item"] for r in item_ledger.item_payouts(store, "M1")] == ["A-2"]
    assert resume(api, "park", {ids["A-3"]: APPROVE}, **{"If-Match": head}).status_code == 200
    stale = resume(api, "lee", {ids["A-3"]: APPROVE}, **{"If-Match": head})  # a second tab, same item
    assert stale.status_code == 409, stale.text
    assert sorted(r["item"] for r in item_ledger.item_payouts(store, "M1")) == ["A-2", "A-3"]


def test_the_official_sdk_starts_items_and_answers_them_by_id(server: Server) -> None:
    with get_sync_client(url=server.url, api_key=None, headers=server.headers) as client:
        values = {"case_id": "S1", "customer": "kim", "reason": "r", "items": ITEMS}
        client.threads.create(thread_id="refund-S1")
        first = client.runs.wait("refund-S1", "refund", input=values)
        assert len(first["__interrupt__"]) == 2
        state = client.threads.get_state("refund-S1")
        ids = {i["value"]["item"]: i["id"] for i in state["interrupts"]}
        assert set(ids) == {"A-1", "A-3"} and state["next"] == ["item", "item"]
        assert client.threads.get("refund-S1")["lifecycle"]["waiting_count"] == 2  # as `threads --json` says
        one = client.runs.wait("refund-S1", "refund", command={"resume": {ids["A-1"]: APPROVE}})
        assert [i["id"] for i in one["__interrupt__"]] == [ids["A-3"]]
        assert client.threads.get("refund-S1")["lifecycle"]["waiting_count"] == 1  # "1 of 3 items" still
        done = client.runs.wait("refund-S1", "refund", command={"resume": {ids["A-3"]: APPROVE}})
        assert done["outcome"] == "paid" and "__interrupt__" not in done
        assert client.threads.get("refund-S1")["status"] == "idle"


def test_agent_inbox_s_answer_decides_the_item_it_shows_and_a_plain_answer_is_still_refused(server: Server) -> None:
    # Agent Inbox shows a thread's first interrupt (Object.values(thread.interrupts), each task's first) and
    # answers it with [response], no interrupt id; the items ask in the request's order.
    with get_sync_client(url=server.url, api_key=None, headers=server.headers) as client:
        values = {"case_id": "S2", "customer": "kim", "reason": "r", "items": ITEMS}
        client.threads.create(thread_id="refund-S2")
        client.runs.wait("refund-S2", "refund", input=values)

        def shown() -> list[str]:
            asked = client.threads.get("refund-S2")["interrupts"].values()
            return [found[0]["value"]["item"] for found in asked]

        assert shown() == ["A-1", "A-3"]
        for plain in (APPROVE, "approve", [{"type": "accept", "args": None}] * 2):
            answer = httpx.post(
                f"{server.url}/threads/refund-S2/runs/wait",
                json={"assistant_id": "refund", "command": {"resume": plain}},
                headers=server.headers,
            )
            assert answer.status_code == 422, answer.text
        several = httpx.post(
            f"{server.url}/threads/refund-S2/runs/wait",
            json={"assistant_id": "refund", "command": {"resume": APPROVE}},
            headers=server.headers,
        )
        assert "2 questions are waiting" in several.json()["detail"]
        edit = {"type": "edit", "args": {"action": "pay_refund", "args": {"amount": "250,000"}}, "approver": "lee"}
        one = client.runs.wait("refund-S2", "refund", command={"resume": [edit]})
        assert [i["value"]["item"] for i in one["__interrupt__"]] == ["A-3"] and shown() == ["A-3"]
        reject = {"type": "response", "args": "영수증 없음", "approver": "lee"}
        done = client.runs.wait("refund-S2", "refund", command={"resume": [reject]})
        assert done["outcome"] == "partly paid" and "__interrupt__" not in done
        results = {r["item"]: r for r in done["item_results"]}
        assert results["A-1"]["paid_amount"] == 250_000 and results["A-3"]["outcome"] == "rejected"


def test_the_graph_input_takes_items_and_refuses_a_requested_amount_that_is_not_their_total():
    from agents.api.inputs import start_fields
    from agents.errors import InputError
    from agents.registry import get_agent

    spec = get_agent("refund")
    items = [{"item": "A-1", "amount": 300_000}, {"item": "A-2", "amount": 80_000}]
    graph_input = {"case_id": "G-1", "customer": "홍길동", "reason": "파손", "items": items}
    assert start_fields(spec, graph_input | {"requested_amount": 380_000})["items"] == items
    assert "amount" not in start_fields(spec, graph_input | {"requested_amount": 380_000})
    with pytest.raises(InputError) as refused:
        start_fields(spec, graph_input | {"requested_amount": 400_000})
    assert refused.value.field == "requested_amount"
