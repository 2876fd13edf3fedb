"""Agent Inbox approves, edits and rejects refunds through the JS client, and every refund rule holds.

``tests/js/flows.mjs``'s ``inbox-decide`` flow replays what Agent Inbox (github.com/langchain-ai/agent-inbox
at f38301b) does with a waiting thread: it reads the interrupt's ``action_requests`` /
``review_configs`` into its own form (src/components/agent-inbox/contexts/utils.ts, ``normalizeInterrupt``:
approve → accept, edit → edit, reject → response), and sends the person's answer as
``runs.stream(thread, graph, {command: {resume: [response]}, streamMode: "events"})``
(contexts/ThreadContext.tsx, ``sendHumanResponse``; hooks/use-interrupted-actions.tsx, ``handleSubmit``):
``{type: "accept", args: action}``, ``{type: "edit", args: {action, args}}``, ``{type: "response", args:
text}`` or ``{type: "ignore"}``. Its API key setting is sent as ``x-api-key``: here a roles-file token, so
the decision is recorded under the signed-in approver, and the approver's limit and four eyes apply.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from agents.refund import item_ledger, ledger
from agents.runtime import open_store
from tests.api.conftest import Server, start_server, stop_server
from tests.api.test_api_roles import OPERATOR_TOKEN, ROLES_TEXT, TOKENS
from tests.ecosystem.test_js_client import run_flow
from tests.serving import http_client

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def signed(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """This project's server with the roles file's tokens (Agent Inbox's API key)."""
    folder = tmp_path_factory.mktemp("inbox-roles")
    roles = folder / "roles.toml"
    roles.write_text(ROLES_TEXT)
    running = start_server(folder, token=OPERATOR_TOKEN, HITL_ROLES_FILE=str(roles))
    yield running
    stop_server(running)


def decide(
    server: Server, amount: int, *decisions: dict[str, Any], resolve: str | None = None
) -> tuple[str, list[dict[str, Any]]]:
    """Runs the flow on a new case requested by lee (first resolved by ``resolve``); returns the case id and
    the trace."""
    case = f"AI-{uuid.uuid4().hex[:6]}"
    options: dict[str, Any] = {
        "refundThread": f"refund-{case}",
        "caseId": case,
        "amount": amount,
        "requesterKey": TOKENS["lee"],
    }
    if resolve:
        options["resolve"] = TOKENS[resolve]
    labelled = [{**d, "key": TOKENS[d.pop("who")]} for d in decisions]
    return case, run_flow(server.url, "inbox-decide", **options, decisions=labelled)


def outcome(trace: list[dict[str, Any]], label: str) -> tuple[Any, dict[str, Any]]:
    sent = next(e for e in trace if e["call"] == f"decide {label}")
    after = next(e for e in trace if e["call"] == f"state after {label}")
    return sent["status"], after["shape"]


def ledger_rows(db: Path, case: str) -> list[tuple[int, str, int]]:
    store = open_store(str(db))
    try:
        rows = [r for r in ledger.ledger_rows(store) if r["case_id"] == case]
    finally:
        store.close()
    return [(r["paid_amount"], r["approver"], r["repeat_attempts"]) for r in rows]


def test_accept_pays_once_by_the_signed_in_approver_and_never_by_the_requester(signed: Server) -> None:
    case, trace = decide(
        signed,
        500_000,
        {"label": "own case", "type": "accept", "who": "lee"},
        {"label": "accept", "type": "accept", "who": "kim"},
        {"label": "again", "type": "accept", "who": "park"},
    )
    status, state = outcome(trace, "own case")
    assert status == 403 and state["waiting"] == 1 and state["outcome"] is None  # four eyes
    status, state = outcome(trace, "accept")
    assert status == "ok"
    assert state == {"outcome": "paid", "paid_amount": 500_000, "approver": "kim@example.com", "waiting": 0}
    assert next(e for e in trace if e["call"] == "decide accept")["allowed"] == ["approve", "edit", "reject"]
    status, _ = outcome(trace, "again")
    assert status == 409  # exactly once
    assert ledger_rows(signed.db, case) == [(500_000, "kim@example.com", 0)]


def test_an_edit_pays_the_edited_amount_within_the_range_and_the_approvers_limit(signed: Server) -> None:
    case, trace = decide(
        signed,
        2_000_000,
        {"label": "over limit", "type": "accept", "who": "kim"},
        {"label": "above requested", "type": "edit", "amount": 2_000_001, "who": "park"},
        {"label": "zero", "type": "edit", "amount": 0, "who": "kim"},
        {"label": "edit", "type": "edit", "amount": 900_000, "who": "kim"},
    )
    assert outcome(trace, "over limit")[0] == 403  # kim's limit is 1,000,000
    assert outcome(trace, "above requested")[0] == 422
    assert outcome(trace, "zero")[0] == 422
    status, state = outcome(trace, "edit")
    assert status == "ok"
    assert state == {"outcome": "paid", "paid_amount": 900_000, "approver": "kim@example.com", "waiting": 0}
    assert ledger_rows(signed.db, case) == [(900_000, "kim@example.com", 0)]


def test_a_response_rejects_and_resolve_or_ignore_is_refused(signed: Server) -> None:
    case, trace = decide(
        signed,
        300_000,
        {"label": "ignore", "type": "ignore", "who": "kim"},
        {"label": "reject", "type": "response", "message": "영수증 없음", "who": "kim"},
        resolve="admin",
    )
    assert next(e for e in trace if e["call"] == "resolve")["status"] == 422  # even an admin's
    with http_client(signed.url, headers={"x-api-key": TOKENS["admin"]}, timeout=60) as plain:
        refused = plain.post(f"/threads/refund-{case}/state", json={"values": None, "as_node": "__end__"}).json()
    assert refused["field"] == "as_node" and "without an answer" in refused["detail"]
    status, state = outcome(trace, "ignore")
    assert status == 422 and state["waiting"] == 1  # nothing ends without a decision
    status, state = outcome(trace, "reject")
    assert status == "ok"
    assert state == {"outcome": "rejected", "paid_amount": None, "approver": "kim@example.com", "waiting": 0}
    assert ledger_rows(signed.db, case) == []


def item_rows(db: Path, case: str) -> dict[str, tuple[int, str]]:
    store = open_store(str(db))
    try:
        return {r["item"]: (r["paid_amount"], r["approver"]) for r in item_ledger.item_payouts(store, case)}
    finally:
        store.close()


def test_a_case_with_items_is_decided_item_by_item_as_agent_inbox_shows_them(signed: Server) -> None:
    # Agent Inbox shows a thread's first interrupt (``inbox-items`` in tests/js/flows.mjs) and answers with
    # [response], no interrupt id: that answer decides the item it shows, then it shows the next one, in the
    # request's order (not the items' sorted order, nor their interrupt ids'). Each item keeps its rules: four
    # eyes, the approver's limit (kim's is 1,000,000), one payout.
    case = f"AI-{uuid.uuid4().hex[:6]}"
    items = [
        {"item": "C-1", "amount": 1_500_000},
        {"item": "A-2", "amount": 80_000},
        {"item": "B-3", "amount": 200_000},
    ]
    decisions = [
        {"label": "own case", "type": "accept", "key": TOKENS["lee"]},
        {"label": "over limit", "type": "accept", "key": TOKENS["kim"]},
        {"label": "edit", "type": "edit", "amount": 1_200_000, "key": TOKENS["park"]},
        {"label": "reject", "type": "response", "message": "영수증 없음", "key": TOKENS["kim"]},
    ]
    options = {"refundThread": f"refund-{case}", "caseId": case, "items": items, "requesterKey": TOKENS["lee"]}
    trace = run_flow(signed.url, "inbox-items", **options, decisions=decisions)
    seen = {e["call"]: e.get("shape", e["status"]) for e in trace if e["call"].startswith(("listed", "shown"))}
    decided = {e["call"]: e["status"] for e in trace if e["call"].startswith("decide")}
    assert seen == {
        "listed before own case": "C-1", "shown before own case": "C-1",
        "listed before over limit": "C-1", "shown before over limit": "C-1",
        "listed before edit": "C-1", "shown before edit": "C-1",
        "listed before reject": "B-3", "shown before reject": "B-3",
    }  # fmt: skip
    assert decided == {"decide own case": 403, "decide over limit": 403, "decide edit": "ok", "decide reject": "ok"}
    after = trace[-1]["shape"]
    assert after == {"status": "idle", "outcome": "partly paid", "shown": None}
    assert item_rows(signed.db, case) == {"C-1": (1_200_000, "park@example.com"), "A-2": (80_000, "automatic")}
