"""A refund case deleted before it was finished keeps, in its audit row, what the audit showed of it at that
moment (who decided what, when, in which batch, its trace and the customer's reason), and its refusal
without a reason names its status in the reader's language."""

from __future__ import annotations

import json

import pytest

from agents import batch, runs, threadindex
from agents.refund import ledger

ITEMS = [{"item": "A-1", "amount": 300_000}, {"item": "A-2", "amount": 450_000}, {"item": "A-3", "amount": 400_000}]
#: What the audit row of a case shows of it that only its thread held.
FROM_THE_THREAD = (
    "reason", "decision", "approver", "approver_name", "approver_role", "decided_at", "batch_id", "trace",
    "requested_by",
)  # fmt: skip


def _audit(run_cli) -> dict[str, dict]:
    return {row["case_id"]: row for row in json.loads(run_cli("ledger", "--audit", "--json").out)}


def test_a_partly_paid_case_deleted_keeps_who_decided_it_in_the_audit(store, settings, run_cli):
    values = {"case_id": "C3", "customer": "홍길동", "reason": "파손된 배송", "items": ITEMS}
    thread = runs.start_run(store, settings, "refund", values).thread_id
    asked = {pending.payload["item"]: pending.interrupt_id for pending in threadindex.thread_of(store, thread).pending}
    decided = batch.decide_items(
        store,
        settings,
        [f"{thread}:{asked['A-1']}", f"{thread}:{asked['A-3']}"],
        {"action": "approve", "approver": "lee"},
        batch_id="batch-7",
    )
    assert [item.result for item in decided] == ["waiting", "waiting"]  # A-2 still waits
    before = _audit(run_cli)["C3"]
    assert before["batch_id"] == "batch-7" and before["trace"] and before["executed_amount"] == 700_000

    done = run_cli("delete", thread, "--yes", "--reason", "customer withdrew")
    assert done.code == 0, done.err
    after = _audit(run_cli)["C3"]
    assert (after["outcome"], after["status_at_deletion"], after["deletion_reason"]) == (
        "deleted",
        "waiting",
        "customer withdrew",
    )
    assert {key: after[key] for key in FROM_THE_THREAD} == {key: before[key] for key in FROM_THE_THREAD}
    assert after["reason"] == "파손된 배송" and after["batch_id"] == "batch-7"
    assert after["executed_amount"] == 700_000 and after["waiting_amount"] == 0  # nothing is to pay any more
    # Read again (another process, the cache cold): the record, not a memory of the thread, holds them.
    assert {key: ledger.audit_rows(store)[0].to_json()[key] for key in FROM_THE_THREAD} == {
        key: before[key] for key in FROM_THE_THREAD
    }


@pytest.mark.parametrize(
    ("lang", "status", "raw"),
    [("ko", "(대기 중)", "(waiting)"), ("en", "(waiting)", "(대기 중)")],
)
def test_the_refusal_to_delete_an_unfinished_case_names_its_status_in_the_readers_words(run_cli, lang, status, raw):
    start = ("run", "refund", "--case", "D1", "--customer", "홍길동", "--amount", "300000", "--reason", "파손")
    assert run_cli(*start).code == 0
    refused = run_cli("--lang", lang, "delete", "refund-D1", "--yes")
    assert refused.code == 2
    assert status in refused.err and raw not in refused.err
