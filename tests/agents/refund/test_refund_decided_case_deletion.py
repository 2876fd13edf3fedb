"""A refund case a person decided is not erased by deleting its thread: the deletion is recorded with the case's
outcome (decision, who, note, what it paid), the audit keeps the decision's row marked deleted, and the same
case started again shows beside the earlier rejection, never in its place.

Every delete path goes through ``agents.deletion.delete_thread``: the CLI's ``delete``, the HTTP API's
``threads.delete`` (a real ``serve`` and the LangGraph SDK), the sidebar's delete form, and a case decided
through LangGraph's raw ``update_state`` path, deleted through ``runs.delete_thread``.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from langgraph_sdk import get_sync_client

from agents import readmodel, runs, runtime
from agents.deletion_record import deleted_threads
from agents.errors import InputError
from agents.refund import ledger
from agents.registry import AGENTS
from tests.api.conftest import Server, start_server, stop_server
from tests.factories import start_refund

START = ("run", "refund", "--case", "J1", "--customer", "Ann", "--amount", "900000", "--reason", "r")
REJECT = {"action": "reject", "approver": "park", "note": "fraud suspected"}
APPROVE = {"action": "approve", "approver": "kim"}
AUDIT_KEYS = ("case_id", "status", "outcome", "decision", "approver", "executed_amount", "status_at_deletion")


def _audit(run_cli) -> list[dict[str, Any]]:
    listed = run_cli("ledger", "--audit", "--json")
    assert listed.code == 0, listed.err
    return [{key: row[key] for key in AUDIT_KEYS} for row in json.loads(listed.out)]


def _deletions(run_cli) -> list[dict[str, Any]]:
    listed = run_cli("deletions", "--json")
    assert listed.code == 0, listed.err
    return json.loads(listed.out)


@pytest.mark.usefixtures("backend")
def test_a_rejection_survives_the_delete_and_stays_beside_the_case_started_again(run_cli):
    assert run_cli(*START).code == 0
    assert run_cli("resume", "refund-J1", json.dumps(REJECT)).code == 0
    deleted = run_cli("delete", "refund-J1", "--yes")  # a finished case: no reason asked
    assert deleted.code == 0, deleted.err

    [gone] = _deletions(run_cli)
    assert {
        key: gone[key] for key in ("thread_id", "status", "case_id", "outcome", "decision", "approver", "note")
    } == {
        "thread_id": "refund-J1",
        "status": "done",
        "case_id": "J1",
        "outcome": "rejected",
        "decision": "reject",
        "approver": "park",
        "note": "fraud suspected",
    }
    [line] = run_cli("deletions").out.splitlines()
    assert line.split("\t")[2:] == [
        "refund-J1",
        "was done",
        "deleted by local operator",
        "no reason given",
        "rejected by park (note: fraud suspected)",
    ]
    korean = run_cli("--lang", "ko", "deletions").out
    assert "삭제 당시 완료\t삭제한 사람 로컬 운영자\t사유 없음\t거절됨, 결정: park (메모: fraud suspected)" in korean
    rejected = {
        "case_id": "J1",
        "status": "thread deleted",
        "outcome": "rejected",
        "decision": "reject",
        "approver": "park",
        "executed_amount": None,
        "status_at_deletion": "done",
    }
    assert _audit(run_cli) == [rejected]
    assert (
        "J1\tthread deleted\trequested 900,000\texecuted —\treject\tpark\trejected\twas done"
        in run_cli("ledger", "--audit").out
    )

    # The README lets a case whose thread was deleted unpaid start again; its new decision stands beside the old.
    assert run_cli(*START).code == 0
    assert run_cli("resume", "refund-J1", json.dumps(APPROVE)).code == 0
    paid = {
        "case_id": "J1",
        "status": "done",
        "outcome": "paid",
        "decision": "approve",
        "approver": "kim",
        "executed_amount": 900_000,
        "status_at_deletion": "",
    }
    assert sorted(_audit(run_cli), key=lambda row: row["status"]) == [paid, rejected]  # the payout is the new row's


@pytest.mark.usefixtures("backend")
def test_a_paid_case_deleted_is_recorded_with_its_payout_once_and_cannot_start_again(store, settings):
    start_refund(store, settings, "P2", 400_000, customer="Bo")
    runs.resume_from_fields(store, settings, "refund-P2", APPROVE)
    runs.delete_thread(store, "refund-P2")
    [row] = ledger.audit_rows(store)  # the record's row, not a second one read from the ledger
    assert (row.case_id, row.status, row.outcome, row.executed_amount, row.approver) == (
        "P2",
        ledger.DELETED,
        "paid",
        400_000,
        "kim",
    )
    assert row.status_at_deletion == "done" and row.paid_at and row.trace
    [gone] = deleted_threads(store, AGENTS.values())
    assert gone.outcome.render("en") == "paid by kim, 400,000 KRW paid"
    assert gone.outcome.render("ko") == "지급됨, 결정: kim, 400,000원 지급"
    with pytest.raises(InputError) as refused:
        start_refund(store, settings, "P2", 400_000, customer="Bo")
    assert refused.value.field == "case_id"


@pytest.mark.usefixtures("backend")
def test_a_case_settled_automatically_is_deleted_without_a_record(store, settings):
    start_refund(store, settings, "S1", 50_000)  # at or under the threshold: no one was asked
    runs.delete_thread(store, "refund-S1")
    assert deleted_threads(store, AGENTS.values()) == []
    assert [(row.case_id, row.outcome, row.status) for row in ledger.audit_rows(store)] == [
        ("S1", "paid", ledger.DELETED)
    ]


@pytest.mark.usefixtures("backend")
def test_a_case_rejected_through_the_raw_update_path_is_recorded_when_deleted(store, settings):
    start_refund(store, settings, "U1", 300_000)
    # The update_state forms' raw mode (and ``update --values``): the decision as values; the case goes on to it.
    runs.update_thread(store, settings, "refund-U1", {"decision": "reject", "approver": "lee"}, as_node="review")
    assert runs.current_result(store, settings, "refund-U1").status == "done"
    runs.delete_thread(store, "refund-U1")
    [row] = ledger.audit_rows(store)
    assert (row.outcome, row.decision, row.approver, row.status) == ("rejected", "reject", "lee", ledger.DELETED)


def test_the_sidebar_delete_form_records_a_decided_case_without_a_reason(app, store, settings):
    start_refund(store, settings, "F2")
    runs.resume_from_fields(store, settings, "refund-F2", REJECT)
    at = app("app_pages/refund.py")
    at.sidebar.text_input(key="delete-confirm-refund-F2").input("refund-F2")
    next(b for b in at.sidebar.button if b.label == "Delete thread").click().run()
    assert not at.exception, at.exception
    assert readmodel.head_checkpoint_id(store, "refund-F2") is None
    [gone] = deleted_threads(store, AGENTS.values())
    assert (gone.thread_id, gone.status, gone.reason) == ("refund-F2", "done", "")
    assert gone.outcome.render("en") == "rejected by park (note: fraud suspected)"
    [row] = ledger.audit_rows(store)
    assert (row.outcome, row.approver, row.status_at_deletion) == ("rejected", "park", "done")


def test_the_explorer_lists_a_decided_case_deleted_with_its_outcome(app, store, settings):
    start_refund(store, settings, "E1")
    runs.resume_from_fields(store, settings, "refund-E1", REJECT)
    runs.delete_thread(store, "refund-E1")
    at = app("app_pages/explorer.py")
    assert not at.exception, at.exception
    shown = next(frame.value for frame in at.dataframe if "how it had ended" in frame.value.columns)
    assert list(shown["how it had ended"]) == ["rejected by park (note: fraud suspected)"]


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    running = start_server(tmp_path)
    yield running
    stop_server(running)


def test_the_api_delete_of_a_decided_case_keeps_its_decision(server: Server) -> None:
    with get_sync_client(url=server.url, api_key=None, headers=server.headers) as client:
        client.threads.create(thread_id="refund-K1")
        case = {"case_id": "K1", "customer": "kim", "reason": "r", "amount": 700_000}
        client.runs.wait("refund-K1", "refund", input=case)
        client.runs.wait("refund-K1", "refund", command={"resume": REJECT})
        client.threads.delete("refund-K1")  # decided: no reason asked
    store = runtime.open_store(str(server.db))
    try:
        [row] = ledger.audit_rows(store)
        assert (row.case_id, row.status, row.outcome, row.approver) == ("K1", ledger.DELETED, "rejected", "park")
        [gone] = deleted_threads(store, AGENTS.values())
        assert (gone.thread_id, gone.status) == ("refund-K1", "done")
    finally:
        store.close()
