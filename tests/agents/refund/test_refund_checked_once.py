"""Every way to decide a refund checks each decision exactly once: its shape (``parse_decision``, through
``rules.check_answer``) and its permission (``check_decision``, through ``rules.check_decision``: role,
limit, four eyes), whatever the path: the page's button, the sidebar's typed and raw forms, the CLI's
``resume``, ``resume --interrupt`` and ``decide``, ``update`` with a decision, the API's resume and
``POST /decisions``. The graph's nodes check an answer again only when it did not come through
``agents.runs`` (LangGraph's own tooling, which checks nothing)."""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest
from fastapi.testclient import TestClient

from agents import runs
from agents.api.app import create_app
from agents.refund import decisions, ledger
from agents.roles_file import parse_roles
from tests.api.test_api_refund_items import ROLES_TEXT, as_
from tests.factories import button_by_key, start_refund

ITEMS = [{"item": "A-1", "amount": 300_000}, {"item": "A-2", "amount": 200_000}, {"item": "A-3", "amount": 150_000}]
APPROVE = {"action": "approve", "approver": "kim"}


@pytest.fixture
def calls(monkeypatch: pytest.MonkeyPatch) -> Counter[str]:
    """How often the shape and the permission of an answer were checked (every path's checks go through these)."""
    counted: Counter[str] = Counter()

    def counting(name: str, function: Callable[..., Any]) -> Callable[..., Any]:
        def call(*args: Any, **kwargs: Any) -> Any:
            counted[name] += 1
            return function(*args, **kwargs)

        return call

    monkeypatch.setattr(decisions, "check_answer", counting("shape", decisions.check_answer))
    monkeypatch.setattr(decisions, "check_permission", counting("permission", decisions.check_permission))
    return counted


def case(store, settings, name: str = "C1", **values: Any) -> str:
    return runs.start_run(
        store, settings, "refund", {"case_id": name, "customer": "k", "reason": "r", **(values or {"amount": 500_000})}
    ).thread_id


def test_the_page_button_checks_once(app, store, settings, calls):
    start_refund(store, settings)
    at = app("app_pages/refund.py")
    at.text_input(key="refund-approver").input("kim")
    calls.clear()
    button_by_key(at, "refund-approve").click().run()
    assert not at.exception, at.exception
    assert ledger.payout_for(store, "C1") is not None
    assert calls == Counter(shape=1, permission=1)


def test_the_sidebar_forms_typed_and_raw_check_once(store, settings, calls):
    typed, raw = case(store, settings, "T1"), case(store, settings, "R1")
    calls.clear()
    runs.resume_from_fields(store, settings, typed, {"action": "edit", "amount": 400_000, "approver": "kim"})
    assert calls == Counter(shape=1, permission=1)
    calls.clear()
    runs.resume_thread(store, settings, raw, {"action": "reject", "approver": "kim", "note": "n"})
    assert calls == Counter(shape=1, permission=1)
    assert ledger.payout_for(store, "T1")["paid_amount"] == 400_000 and ledger.payout_for(store, "R1") is None


def test_the_cli_resume_decide_and_update_check_once(run_cli, store, settings, calls):
    one, items = case(store, settings, "C1"), case(store, settings, "M1", items=ITEMS)
    ids = [str(i.id) for i in runs.thread_snapshot(store, settings, items)[1].interrupts]
    calls.clear()
    assert run_cli("resume", one, '{"action": "approve", "approver": "kim"}').code == 0
    assert calls == Counter(shape=1, permission=1)
    calls.clear()
    assert run_cli("resume", items, "--interrupt", ids[0], '{"action": "approve", "approver": "kim"}').code == 0
    assert calls == Counter(shape=1, permission=1)
    calls.clear()
    assert run_cli("decide", *(f"{items}:{i}" for i in ids[1:]), "--action", "approve", "--approver", "kim").code == 0
    assert calls == Counter(shape=2, permission=2)
    updated = case(store, settings, "U1")
    calls.clear()
    assert run_cli("update", updated, "--values", '{"decision": "approve", "approver": "kim"}').code == 0
    assert calls == Counter(permission=1)
    assert len(ledger.ledger_rows(store)) == 2


def test_the_api_resume_and_decisions_check_once(store, settings, calls):
    one, two = case(store, settings, "A1"), case(store, settings, "A2")
    with_roles = dataclasses.replace(settings, roles=parse_roles(ROLES_TEXT, "roles.toml"))
    with TestClient(create_app(store, with_roles)) as api:
        calls.clear()
        body = {"assistant_id": "refund", "command": {"resume": APPROVE}}
        assert api.post(f"/threads/{one}/runs/wait", json=body, headers=as_("lee")).status_code == 200
        assert calls == Counter(shape=1, permission=1)
        calls.clear()
        decide = {"items": [two], "action": "approve", "approver": "kim"}
        answer = api.post("/decisions", json=decide, headers=as_("lee"))
        assert answer.json()["results"][0]["result"] == "paid"
        assert calls == Counter(shape=1, permission=1)


def test_an_answer_that_bypasses_runs_is_checked_by_the_node(store, settings, calls):
    from langgraph.types import Command

    from agents import runtime

    thread = case(store, settings, "G1")
    graph = runtime.graph(store, "refund")
    calls.clear()
    graph.invoke(Command(resume=APPROVE), {"configurable": {"thread_id": thread}})
    assert calls == Counter(shape=1, permission=1)  # the node's guard: nothing else checked it
    assert ledger.payout_for(store, "G1")["approver"] == "kim"
