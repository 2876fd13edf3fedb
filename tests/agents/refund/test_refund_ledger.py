"""The payout ledger and the audit: one row per case, requested and executed side by side."""

from __future__ import annotations

import sqlite3
from unittest import mock

import psycopg
import pytest

from agents import lifecycle, runs, runtime, threadindex
from agents.refund import ledger
from agents.registry import get_agent
from app_pages.refund_cases import read_book
from tests.factories import start_refund

pytestmark = pytest.mark.usefixtures("backend")


def _pay(store, case="C1", amount=90_000):
    return ledger.pay(
        store,
        case_id=case,
        thread_id=f"refund-{case}",
        customer="홍길동",
        requested_amount=100_000,
        amount=amount,
        approver="kim",
    )


def test_a_second_payout_of_a_case_is_a_counted_no_op(store):
    first, second = _pay(store), _pay(store, amount=1)
    assert first.created and not second.created
    assert second.paid_amount == 90_000 and second.repeat_attempts == 1
    assert [(r["case_id"], r["paid_amount"]) for r in ledger.ledger_rows(store)] == [("C1", 90_000)]


def test_the_database_refuses_a_second_row_for_a_case(store):
    _pay(store)
    with pytest.raises((sqlite3.IntegrityError, psycopg.errors.IntegrityError)), store.transaction() as cursor:
        cursor.execute(
            "INSERT INTO refund_ledger (case_id, thread_id, customer, requested_amount, paid_amount,"
            " approver, paid_at) VALUES ('C1', 't', 'c', 1, 1, 'a', 'now')"
        )


def test_a_database_with_langgraphs_tables_alone_gets_the_ledger_when_opened(store, db_location):
    with store.transaction() as cursor:
        for table in store.tables:
            cursor.execute(f"DROP TABLE {table.name}")
    store.close()
    reopened = runtime.open_store(db_location)
    assert ledger.ledger_rows(reopened) == []
    assert _pay(reopened).created
    reopened.close()


def test_audit_lists_every_case_with_its_decision(store, settings):
    for case, amount in (("A", 50_000), ("B", 700_000), ("C", 300_000), ("D", 200_000)):
        start_refund(store, settings, case, amount, customer=f"고객 {case}")
    runs.resume_from_fields(store, settings, "refund-C", {"action": "edit", "amount": 30_000, "approver": "kim"})
    runs.resume_from_fields(store, settings, "refund-D", {"action": "reject", "approver": "lee"})
    audit = {
        row.case_id: row
        for row in ledger.audit_rows(store, {s.thread_id: s.status for s in lifecycle.thread_statuses(store)})
    }
    assert (audit["A"].requested_amount, audit["A"].executed_amount, audit["A"].approver) == (
        50_000,
        50_000,
        "automatic",
    )
    assert (audit["B"].status, audit["B"].executed_amount) == ("waiting", None)
    assert (audit["C"].requested_amount, audit["C"].executed_amount, audit["C"].decision) == (
        300_000,
        30_000,
        "approve",
    )
    assert audit["C"].decided_at and "amount 300,000 → 30,000 by kim" in audit["C"].trace
    assert (audit["D"].outcome, audit["D"].executed_amount, audit["D"].status) == ("rejected", None, "done")
    assert set(audit["C"].to_json()) >= {"requested_amount", "executed_amount", "approver", "trace"}


def test_queue_holds_every_unfinished_case_oldest_first(store, settings):
    for case, amount in (("S", 150_000), ("L", 900_000), ("M", 400_000), ("AUTO", 10_000), ("X", 990_000)):
        start_refund(store, settings, case, amount, customer="c")
    # X is stopped part-way, as after a crash between review and settle: it needs attention.
    approved = runs.current_result(store, settings, "refund-X")
    graph = runtime.graph(store, "refund")
    graph.update_state(
        runs.run_config(get_agent("refund"), "refund-X"),
        {"decision": "approve", "approver": "kim", "decided_at": "t"},
        as_node="review",
    )
    assert approved.status == "waiting"
    queue = ledger.open_cases(
        ledger.audit_rows(store, {s.thread_id: s.status for s in lifecycle.thread_statuses(store)})
    )
    assert {(row.case_id, row.status) for row in queue} == {
        ("S", "waiting"),
        ("L", "waiting"),
        ("M", "waiting"),
        ("X", "attention"),
    }
    # The page's queue: the longest wait first; X waits since its edit, the newest change.
    ordered = [(row.case_id, status.status) for row, status in read_book(store).queue]
    assert ordered == [("S", "waiting"), ("L", "waiting"), ("M", "waiting"), ("X", "attention")]


def test_a_paid_case_stays_in_the_audit_after_its_thread_is_deleted(store, settings):
    start_refund(store, settings, "Z", 5_000, customer="c")
    runs.delete_thread(store, "refund-Z")
    (row,) = ledger.audit_rows(store)
    assert (row.case_id, row.status, row.executed_amount) == ("Z", "thread deleted", 5_000)


def test_the_audit_after_a_write_reads_no_thread_index_beside_deleted_paid_cases(store, settings):
    start_refund(store, settings, "Z", 5_000, customer="c")  # paid at once, then its thread deleted
    runs.delete_thread(store, "refund-Z")
    start_refund(store, settings, "A", 500_000, customer="c")  # waits
    lifecycle.thread_statuses(store)  # the page's first read
    runs.resume_from_fields(store, settings, "refund-A", {"action": "reject", "approver": "kim"})
    statuses = {s.thread_id: s for s in lifecycle.thread_statuses(store, agent="refund")}  # what changed alone
    heads = {t: s.head_checkpoint_id for t, s in statuses.items()}
    with mock.patch.object(threadindex, "_read", side_effect=AssertionError("the whole index was read")):
        rows, _payouts = ledger.audit_and_ledger(store, {t: s.status for t, s in statuses.items()}, heads)
    assert sorted((row.case_id, row.status) for row in rows) == [("A", "done"), ("Z", "thread deleted")]


def _counting_whole_reads(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Counts the reads of the whole ledger (``SELECT ... FROM refund_ledger ORDER BY``) by ``payout_for``."""
    reads: list[int] = []
    whole = ledger._payouts

    def counted(store, token=None):
        memo = ledger.readcache.cache_for(store, "refund-payouts", size=1).lookup("payouts")
        if memo is None or memo[0] != token:
            reads.append(1)
        return whole(store, token)

    monkeypatch.setattr(ledger, "_payouts", counted)
    return reads


def test_a_batch_of_decisions_never_reads_the_whole_ledger(store, settings, monkeypatch):
    """Each decision writes, so a whole read kept from before it is stale: one row is read instead, so the
    batch's cost per decision does not grow with the ledger."""
    from agents.batch import decide_items

    threads = [start_refund(store, settings, f"C{n}").thread_id for n in range(12)]
    reads = _counting_whole_reads(monkeypatch)
    done = decide_items(store, settings, threads, {"action": "approve", "approver": "kim"})
    assert [d.result for d in done] == ["paid"] * 12
    assert reads == []
    assert {row["case_id"] for row in ledger.ledger_rows(store)} == {f"C{n}" for n in range(12)}


def test_a_list_of_finished_cases_reads_the_whole_ledger_once(store, settings, monkeypatch):
    threads = [start_refund(store, settings, f"C{n}", amount=5_000).thread_id for n in range(20)]
    assert len(threads) == 20
    reads = _counting_whole_reads(monkeypatch)
    found = [ledger.payout_for(store, f"C{n}") for n in range(20)] + [ledger.payout_for(store, "nope")]
    # After a few rows read alone, once whole for the rest (where the store can tell that nothing changed)
    assert reads == ([1] if store.change_token() is not None else [])
    assert [row["case_id"] for row in found if row] == [f"C{n}" for n in range(20)] and found[-1] is None
