"""No refund case is erased: an unfinished case is deleted only with a reason, which the audit keeps.

Every path is tried: the CLI's ``delete``, the sidebar's delete form, the HTTP API's ``DELETE``, and
``agents.runs.delete_thread`` itself.
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Iterator
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

from agents import readmodel, runs, runtime
from agents.errors import InputError
from agents.identity import Identity
from agents.refund import ledger
from tests.api.conftest import Server, start_server, stop_server
from tests.factories import start_refund
from tests.serving import http_client

START = ("run", "refund", "--case", "D1", "--customer", "홍길동", "--amount", "300000", "--reason", "파손")
CASE_H1 = {"case_id": "H1", "customer": "kim", "reason": "r"}
REFUSAL = "reject it first, or delete with a reason"


def _deleted_rows(rows: list[dict]) -> list[dict]:
    return [row for row in rows if row["outcome"] == "deleted"]


def test_cli_refuses_to_erase_a_waiting_case_without_a_reason(run_cli, db_path):
    assert run_cli(*START).code == 0
    before = db_path.read_bytes()
    refused = run_cli("delete", "refund-D1", "--yes")
    assert refused.code == 2 and REFUSAL in refused.err and "reason" in refused.err
    assert db_path.read_bytes() == before  # nothing changed, not even a lease row
    audit = json.loads(run_cli("ledger", "--audit", "--json").out)
    assert [(row["case_id"], row["status"]) for row in audit] == [("D1", "waiting")]
    assert "refund-D1" in run_cli("inbox").out


def test_cli_delete_with_a_reason_leaves_a_permanent_audit_row(run_cli):
    run_cli(*START)
    done = run_cli("delete", "refund-D1", "--yes", "--reason", "duplicate of D0")
    assert done.code == 0, done.err
    assert "refund-D1" not in run_cli("inbox").out
    (row,) = json.loads(run_cli("ledger", "--audit", "--json").out)
    assert row["outcome"] == "deleted" and row["deletion_reason"] == "duplicate of D0"
    assert (row["case_id"], row["customer"], row["requested_amount"]) == ("D1", "홍길동", 300_000)
    assert row["status"] == "thread deleted" and row["status_at_deletion"] == "waiting"
    assert row["deleted_by"] == "local operator" and row["deleted_at"].endswith("+00:00")
    text = run_cli("ledger", "--audit").out
    assert "D1\tthread deleted\trequested 300,000" in text
    assert "was waiting, deleted by local operator at" in text and ": duplicate of D0" in text


def test_a_blank_or_control_character_reason_is_no_reason(run_cli):
    run_cli(*START)
    blank = run_cli("delete", "refund-D1", "--yes", "--reason", "   ")
    assert blank.code == 2 and "--reason" in blank.err  # a blank value of any option is refused by name
    bad = run_cli("delete", "refund-D1", "--yes", "--reason", "a\x07b")
    assert bad.code == 2 and "reason" in bad.err
    assert "refund-D1" in run_cli("inbox").out


def test_a_case_needing_attention_is_kept_too(store, settings):
    start_refund(store, settings, "A1")
    # LangGraph's own tooling path edits the case without running it on: it needs attention.
    config = {"configurable": {"thread_id": "refund-A1"}}
    runtime.graph(store, "refund").update_state(config, {"amount": 200_000}, as_node="assess")
    assert runs.current_result(store, settings, "refund-A1").status == "attention"
    with pytest.raises(InputError) as refused:
        runs.delete_thread(store, "refund-A1")
    assert refused.value.field == "reason"
    runs.delete_thread(store, "refund-A1", reason="entered twice", actor=_admin())
    (row,) = [row for row in ledger.audit_rows(store) if row.outcome == "deleted"]
    assert (row.status_at_deletion, row.deleted_by, row.amount) == ("attention", "admin@example.com", 200_000)


def test_a_finished_case_is_deleted_without_a_reason_and_keeps_its_ledger_row(store, settings):
    start_refund(store, settings, "P1", 50_000)  # settles automatically: paid
    runs.delete_thread(store, "refund-P1")
    rows = ledger.audit_rows(store)
    assert [(row.case_id, row.outcome, row.status) for row in rows] == [("P1", "paid", "thread deleted")]


def test_sidebar_delete_form_needs_a_reason_for_an_unfinished_case(app, store, settings):
    start_refund(store, settings, "F1")
    at = app("app_pages/refund.py")
    at.sidebar.text_input(key="delete-confirm-refund-F1").input("refund-F1")
    next(b for b in at.sidebar.button if b.label == "Delete thread").click().run()
    assert REFUSAL in " ".join(e.value for e in at.error)
    assert readmodel.head_checkpoint_id(store, "refund-F1") is not None
    at.sidebar.text_input(key="delete-confirm-refund-F1").input("refund-F1")
    at.sidebar.text_input(key="delete-reason-refund-F1").input("customer withdrew")
    next(b for b in at.sidebar.button if b.label == "Delete thread").click().run()
    assert not at.exception, at.exception
    assert readmodel.head_checkpoint_id(store, "refund-F1") is None
    audit = at.dataframe[-2].value if len(at.dataframe) > 1 else at.dataframe[0].value
    cells = {str(cell) for cell in audit.to_numpy().ravel()}
    assert {"F1", "customer withdrew", "deleted unfinished", "waiting"} <= cells


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    running = start_server(tmp_path)
    yield running
    stop_server(running)


def test_api_delete_needs_a_reason_for_an_unfinished_case(server: Server) -> None:
    with http_client(server.url, timeout=120) as client:
        client.post("/threads", json={"thread_id": "refund-H1"}).raise_for_status()
        started = client.post(
            "/threads/refund-H1/runs/wait",
            json={"assistant_id": "refund", "input": {**CASE_H1, "amount": 400_000}},
        )
        assert started.status_code == 200, started.text
        refused = client.delete("/threads/refund-H1")
        assert refused.status_code == 422 and "reason" in refused.text and REFUSAL in refused.text
        assert client.get("/threads/refund-H1").status_code == 200
        assert client.delete("/threads/refund-H1", params={"reason": "test case"}).status_code == 204
        assert client.get("/threads/refund-H1").status_code == 404
    store = runtime.open_store(str(server.db))
    (row,) = [row for row in ledger.audit_rows(store) if row.outcome == "deleted"]
    assert (row.case_id, row.deletion_reason, row.requested_amount) == ("H1", "test case", 400_000)


def _admin() -> Identity:
    return Identity(email="admin@example.com", name="Admin", role="admin", limit_krw=None)


def test_the_pages_audit_shows_the_decision_time_in_the_configured_zone(app, store, settings, monkeypatch):
    monkeypatch.setenv("HITL_TIMEZONE", "Asia/Seoul")
    start_refund(store, settings, "T1")
    runs.resume_from_fields(store, settings, "refund-T1", {"action": "approve", "approver": "kim"})
    decided = dt.datetime.fromisoformat(runs.current_result(store, settings, "refund-T1").values["decided_at"])
    at = app("app_pages/refund.py")
    audit = next(frame.value for frame in at.dataframe if "decided at" in frame.value.columns)
    shown = decided.astimezone(ZoneInfo("Asia/Seoul")).strftime("%Y-%m-%d %H:%M:%S KST")
    assert list(audit["decided at"]) == [shown]
