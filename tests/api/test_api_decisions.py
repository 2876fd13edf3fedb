"""``POST /decisions``: many waiting refund questions, across cases and within one, decided in one request
as the request's identity, each with every check of a single decision, reported per item with the batch
id every decision was recorded in; a repeat pays nothing twice; bad input is a 422 naming the field."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

from agents import runs
from agents.api.app import create_app
from agents.db import Store
from agents.refund import item_ledger, ledger
from agents.roles_file import parse_roles
from agents.settings import Settings
from tests.api.test_api_refund_items import ROLES_TEXT, as_, start


@pytest.fixture
def api(store: Store, settings: Settings, backend: str) -> Iterator[TestClient]:
    with_roles = dataclasses.replace(settings, roles=parse_roles(ROLES_TEXT, "roles.toml"))
    with TestClient(create_app(store, with_roles), raise_server_exceptions=False) as client:
        yield client


def item_ids(store: Store, settings: Settings) -> dict[str, str]:
    return {i.value["item"]: str(i.id) for i in runs.thread_snapshot(store, settings, "refund-M1")[1].interrupts}


def cases(api: TestClient, *names: str) -> None:
    for name in names:
        values = {"case_id": name, "customer": "c", "amount": 200_000, "reason": "r"}
        body = {"assistant_id": "refund", "input": values, "if_not_exists": "create"}
        assert api.post(f"/threads/refund-{name}/runs/wait", json=body, headers=as_("kim")).status_code == 200


def test_a_batch_pays_each_item_once_names_its_batch_and_a_repeat_is_already_decided(
    api: TestClient, store: Store, settings: Settings
) -> None:
    start(api)
    cases(api, "B1", "B2")
    ids = item_ids(store, settings)
    items = ["refund-B1", f"refund-M1:{ids['A-1']}", "refund-B2", f"refund-M1:{ids['A-3']}"]
    body = {"items": items, "action": "approve", "approver": "typed"}
    first = api.post("/decisions", json=body, headers=as_("lee"))
    assert first.status_code == 200, first.text
    answer = first.json()
    assert [r["result"] for r in answer["results"]] == ["paid"] * 4  # in one run: M1 is done
    assert {r["batch_id"] for r in answer["results"]} == {answer["batch_id"]}
    assert ledger.payout_for(store, "B1")["approver"] == "lee@example.com"
    assert len(ledger.ledger_rows(store)) == 2 and len(item_ledger.item_payouts(store, "M1")) == 3
    again = api.post("/decisions", json=body, headers=as_("lee"))
    assert again.status_code == 200 and [r["result"] for r in again.json()["results"]] == ["already decided"] * 4
    assert again.json()["batch_id"] != answer["batch_id"]
    assert len(ledger.ledger_rows(store)) == 2 and len(item_ledger.item_payouts(store, "M1")) == 3


def test_each_item_is_checked_as_a_single_decision_and_a_refusal_stops_no_other(
    api: TestClient, store: Store, settings: Settings
) -> None:
    start(api)  # requested by Kim
    cases(api, "B1")
    ids = item_ids(store, settings)
    items = [f"refund-M1:{ids['A-1']}", "refund-B1", f"refund-M1:{ids['A-3']}"]
    body = {"items": items, "action": "approve", "approver": "typed"}
    park = api.post("/decisions", json=body, headers=as_("park")).json()["results"]  # limit 250,000
    assert [r["result"] for r in park] == ["refused", "paid", "waiting"]  # A-1 still waits
    assert "250,000" in park[0]["reason"]
    kim = api.post("/decisions", json=body | {"items": items[:1]}, headers=as_("kim")).json()["results"]
    assert kim[0]["result"] == "refused" and "four eyes" in kim[0]["reason"]
    assert sorted(r["item"] for r in item_ledger.item_payouts(store, "M1")) == ["A-2", "A-3"]


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"items": [], "action": "approve", "approver": "x"}, "items"),
        ({"items": ["refund-B1"], "action": "pay", "approver": "x"}, "action"),
        ({"items": ["refund-B1"], "action": "approve"}, "approver"),
        ({"items": "refund-B1", "action": "approve", "approver": "x"}, "items"),
        ({"items": ["refund-B1"], "action": "approve", "approver": "x", "amount": 5}, "amount"),
    ],
)
def test_bad_input_is_a_422_naming_the_field_and_changes_nothing(
    api: TestClient, store: Store, body: dict[str, object], field: str
) -> None:
    cases(api, "B1")
    refused = api.post("/decisions", json=body, headers=as_("lee"))
    assert refused.status_code == 422 and field in refused.text, refused.text
    assert ledger.ledger_rows(store) == []


def test_an_already_decided_items_reason_names_no_question_the_same_batch_answered(
    api: TestClient, store: Store, settings: Settings
) -> None:
    items = [{"item": "P-1", "amount": 300_000}, {"item": "P-2", "amount": 200_000}, {"item": "P-3", "amount": 400_000}]
    values = {"case_id": "API9", "customer": "c", "reason": "r", "items": items}
    body = {"assistant_id": "refund", "input": values, "if_not_exists": "create"}
    assert api.post("/threads/refund-API9/runs/wait", json=body, headers=as_("kim")).status_code == 200
    asked = runs.thread_snapshot(store, settings, "refund-API9")[1].interrupts
    ids = {i.value["item"]: f"refund-API9:{i.id}" for i in asked}
    only = {name: item.split(":")[1] for name, item in ids.items()}

    def decide(who: str, *names: str) -> list[tuple[str, str]]:
        body = {"items": [ids[name] for name in names], "action": "approve", "approver": "typed"}
        answered = api.post("/decisions", json=body, headers=as_(who))
        assert answered.status_code == 200, answered.text
        return [(r["result"], r["reason"]) for r in answered.json()["results"]]

    park = decide("park", "P-1", "P-2", "P-3")  # limit 250,000: P-2 is paid (its case waits), P-1 and P-3 refused
    assert [result for result, _ in park] == ["refused", "waiting", "refused"]
    # lee pays P-1 in the same run that finds P-2 decided: P-3 waits, P-1 no longer does
    (paid, _), (already, reason) = decide("lee", "P-1", "P-2")
    assert (paid, already) == ("waiting", "already decided")
    assert reason == f"interrupt_id: no question '{only['P-2']}' is waiting in 'refund-API9'; waiting: {only['P-3']}"
    # lee pays P-3, the last, in the run that finds P-1 decided: nothing waits after it
    (paid, _), (already, reason) = decide("lee", "P-3", "P-1")
    assert (paid, already) == ("paid", "already decided")
    said = f"interrupt_id: no question '{only['P-1']}' is waiting in 'refund-API9'; nothing else waits there"
    assert reason == said and only["P-3"] not in reason
