"""Agent Inbox without sign-in: its refund decisions and its lecture reject, through the JS client.

``tests/js/flows.mjs``'s ``inbox-decide`` flow replays Agent Inbox's calls (see
``test_agent_inbox_decisions.py`` for the source lines): it sends no approver and no API key here. With
``HITL_LOCAL_APPROVER`` the server's local operator decides as that name, weighed by the refund's rules
as a typed name (four eyes against a signed-in requester); without it the decision is refused naming
``approver`` and saying how to name one. A lecture gate's reject is Agent Inbox's ``response``, whose text
is always there: the run ends rejected with that text as its reason.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from agents import runs
from agents.identity import APPROVER, Identity
from agents.refund import ledger
from agents.runtime import load_settings, open_store
from tests.api.conftest import Server, start_server, stop_server
from tests.ecosystem.test_js_client import run_flow

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def named(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """Local mode, the operator's approver name configured."""
    running = start_server(tmp_path_factory.mktemp("inbox-local"), HITL_LOCAL_APPROVER="kim")
    yield running
    stop_server(running)


@pytest.fixture(scope="module")
def unnamed(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """Local mode, no approver name."""
    running = start_server(tmp_path_factory.mktemp("inbox-unnamed"))
    yield running
    stop_server(running)


def decide(server: Server, amount: int, *decisions: dict[str, Any], **options: Any) -> tuple[str, list[dict]]:
    case = f"AL-{uuid.uuid4().hex[:6]}"
    trace = run_flow(server.url, "inbox-decide", caseId=case, amount=amount, decisions=list(decisions), **options)
    return case, trace


def entry(trace: list[dict[str, Any]], call: str) -> dict[str, Any]:
    return next(e for e in trace if e["call"] == call)


def paid(db: Path, case: str) -> list[tuple[int, str]]:
    store = open_store(str(db))
    try:
        return [(r["paid_amount"], r["approver"]) for r in ledger.ledger_rows(store) if r["case_id"] == case]
    finally:
        store.close()


def test_accept_edit_and_response_are_decided_as_the_configured_local_approver(named: Server) -> None:
    case, trace = decide(named, 500_000, {"label": "accept", "type": "accept"})
    assert entry(trace, "decide accept")["status"] == "ok"
    assert entry(trace, "state after accept")["shape"] == {
        "outcome": "paid", "paid_amount": 500_000, "approver": "kim", "waiting": 0,
    }  # fmt: skip
    assert paid(named.db, case) == [(500_000, "kim")]
    case, trace = decide(
        named,
        800_000,
        {"label": "edit", "type": "edit", "amount": 900_000},
        {"label": "edit ok", "type": "edit", "amount": 300_000},
    )
    assert entry(trace, "decide edit")["status"] == 422  # the amount range holds
    assert entry(trace, "state after edit ok")["shape"]["paid_amount"] == 300_000
    assert paid(named.db, case) == [(300_000, "kim")]
    case, trace = decide(named, 300_000, {"label": "reject", "type": "response", "message": "영수증 없음"})
    assert entry(trace, "state after reject")["shape"] == {
        "outcome": "rejected", "paid_amount": None, "approver": "kim", "waiting": 0,
    }  # fmt: skip
    assert paid(named.db, case) == []


def test_the_configured_name_is_weighed_by_four_eyes_as_a_typed_name(named: Server) -> None:
    """A case a signed-in kim requested (on the dashboard, say) is not approved by the local operator as kim."""
    store = open_store(str(named.db))
    try:
        kim = Identity(email="kim@example.com", name="kim", role=APPROVER)
        case = f"AL-{uuid.uuid4().hex[:6]}"
        request = {"case_id": case, "customer": "k", "amount": 500_000, "reason": "r"}
        thread = runs.start_run(store, load_settings(db_override=str(named.db)), "refund", request, actor=kim).thread_id
    finally:
        store.close()
    trace = run_flow(named.url, "inbox-decide", threadId=thread, decisions=[{"label": "own", "type": "accept"}])
    assert entry(trace, "decide own")["status"] == 403
    assert entry(trace, "state after own")["shape"]["waiting"] == 1
    assert paid(named.db, case) == []


def test_without_a_name_a_refund_decision_is_refused_saying_how_to_name_one(unnamed: Server) -> None:
    case, trace = decide(
        unnamed, 500_000, {"label": "accept", "type": "accept"}, {"label": "reject", "type": "response", "message": "x"}
    )
    for label in ("accept", "reject"):
        refused = entry(trace, f"decide {label}")
        assert refused["status"] == 422
        assert "approver" in refused["message"] and "HITL_LOCAL_APPROVER" in refused["message"]
        assert entry(trace, f"state after {label}")["shape"]["waiting"] == 1
    assert paid(unnamed.db, case) == []


def test_agent_inbox_rejects_a_lecture_draft_with_its_text_as_the_reason(unnamed: Server) -> None:
    trace = run_flow(
        unnamed.url,
        "inbox-decide",
        graph="lecture",
        decisions=[{"label": "reject", "type": "response", "message": "주제가 다름"}],
    )
    decided = entry(trace, "decide reject")
    assert decided["status"] == "ok" and decided["allowed"] == ["approve", "edit", "reject"]
    assert entry(trace, "state after reject")["shape"] == {
        "outcome": "rejected",
        "reject_reason": "주제가 다름",
        "waiting": 0,
    }
