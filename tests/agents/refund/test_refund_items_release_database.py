"""A database written by the release before refunds had items keeps working unchanged.

``fixtures/single_item_release.sqlite`` was written by that release's own code (commit 5ae88a6), with
its CLI: ``run refund --case OLD1 --amount 500000`` (left waiting), ``--case OLD2 --amount 50000``
(paid automatically) and ``--case OLD3 --amount 300000`` answered ``edit`` to 120,000 by ``park``.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from agents import lifecycle
from agents.api.app import create_app
from agents.refund import item_ledger, ledger
from agents.runtime import load_settings, open_store

FIXTURE = Path(__file__).parent / "fixtures" / "single_item_release.sqlite"


@pytest.fixture
def release_db(db_path: Path) -> Path:
    shutil.copyfile(FIXTURE, db_path)
    return db_path


def _ledger(store) -> list[tuple]:
    return sorted(
        (r["case_id"], r["requested_amount"], r["paid_amount"], r["approver"]) for r in ledger.ledger_rows(store)
    )


def test_the_release_cases_threads_and_ledger_rows_read_and_resume_as_before(release_db, run_cli):
    store = open_store(str(release_db))
    try:
        assert _ledger(store) == [("OLD2", 50_000, 50_000, "automatic"), ("OLD3", 300_000, 120_000, "park")]
        statuses = {s.thread_id: (s.status, s.outcome) for s in lifecycle.thread_statuses(store, agent="refund")}
        assert statuses == {
            "refund-OLD1": ("waiting", ""),
            "refund-OLD2": ("done", "paid"),
            "refund-OLD3": ("done", "paid"),
        }
        assert item_ledger.item_payouts(store) == []  # the new table is there, empty
    finally:
        store.close()
    done = json.loads(run_cli("resume", "refund-OLD1", '{"action": "approve", "approver": "lee"}', "--json").out)
    assert done["status"] == "done" and done["outcome"] == "paid" and done["interrupt_ids"] == []
    assert "items" not in done["values"] and not done["values"].get("item_results")
    audit = json.loads(run_cli("ledger", "--audit", "--json").out)
    assert sorted((a["case_id"], a["executed_amount"], a["outcome"]) for a in audit) == [
        ("OLD1", 500_000, "paid"),
        ("OLD2", 50_000, "paid"),
        ("OLD3", 120_000, "paid"),
    ]
    again = run_cli("run", "refund", "--case", "OLD2", "--customer", "k", "--reason", "r", "--amount", "5")
    assert again.code == 2 and "case_id" in again.err
    store = open_store(str(release_db))
    try:
        assert _ledger(store) == [
            ("OLD1", 500_000, 500_000, "lee"),
            ("OLD2", 50_000, 50_000, "automatic"),
            ("OLD3", 300_000, 120_000, "park"),
        ]
    finally:
        store.close()


def test_a_case_with_items_is_added_beside_the_release_cases(release_db, run_cli):
    items = json.dumps([{"item": "A", "amount": 200_000}, {"item": "B", "amount": 300_000}])
    started = run_cli("run", "refund", "--case", "NEW1", "--customer", "k", "--reason", "r", "--items", items, "--json")
    assert json.loads(started.out)["status"] == "waiting"
    done = json.loads(
        run_cli("resume", "refund-NEW1", "--all", '{"action": "approve", "approver": "lee"}', "--json").out
    )
    assert done["outcome"] == "paid"
    rows = json.loads(run_cli("ledger", "--json").out)
    assert sorted((r["case_id"], r.get("item"), r["paid_amount"]) for r in rows) == [
        ("NEW1", "A", 200_000),
        ("NEW1", "B", 300_000),
        ("OLD2", None, 50_000),
        ("OLD3", None, 120_000),
    ]


def test_a_release_question_without_the_action_request_is_answered_with_a_decision(release_db, run_cli):
    # refund-OLD1 waits with the release's payload (no action_requests, no response_schema).
    store = open_store(str(release_db))
    try:
        with TestClient(
            create_app(store, load_settings(db_override=str(release_db), secrets={})), base_url="http://127.0.0.1"
        ) as api:
            (question,) = api.get("/threads/refund-OLD1/state").json()["interrupts"]
    finally:
        store.close()
    assert question["response_schema"] is None and "action_requests" not in question["value"]
    answer = {"decisions": [{"type": "edit", "edited_action": {"name": "pay_refund", "args": {"amount": 200_000}}}]}
    done = run_cli("resume", "refund-OLD1", json.dumps({**answer, "approver": "lee"}), "--json")
    assert done.code == 0, done.err
    values = json.loads(done.out)["values"]
    assert (values["outcome"], values["paid_amount"], values["approver"]) == ("paid", 200_000, "lee")
