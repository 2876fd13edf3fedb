"""A refund case's figures: what the ledger paid for it and what its waiting questions ask for."""

from __future__ import annotations

from agents import lifecycle, runs
from agents.refund import ledger
from agents.refund.amounts import CaseAmounts, case_amounts, waiting_amount
from agents.refund.figures import asked_amount, paid_amount
from tests.factories import start_refund


def test_what_waiting_questions_ask_for_adds_up_whole_amounts_only():
    questions = [{"requested_amount": 300}, {"requested_amount": 200}, {"requested_amount": True}, "text", {}]
    assert asked_amount(questions) == 500
    assert asked_amount([]) == 0


def test_a_case_is_paid_what_its_ledger_row_says_and_nothing_before(store, settings):
    start_refund(store, settings, "C1", 500_000)
    assert paid_amount(store, "C1", with_items=False) is None
    runs.resume_from_fields(store, settings, "refund-C1", {"action": "edit", "amount": 400_000, "approver": "kim"})
    assert paid_amount(store, "C1", with_items=False) == 400_000
    assert paid_amount(store, "C1", with_items=True) is None  # its items' payouts: it has none


def test_a_case_with_items_is_paid_what_its_items_payouts_add_up_to(store, settings):
    items = [{"item": "A-1", "amount": 300_000}, {"item": "A-2", "amount": 80_000}, {"item": "A-3", "amount": 200_000}]
    result = runs.start_run(
        store, settings, "refund", {"case_id": "M1", "customer": "kim", "reason": "r", "items": items}
    )
    assert paid_amount(store, "M1", with_items=True) == 80_000  # A-2 is below the threshold and pays itself
    assert asked_amount(result.interrupts) == 500_000  # wait


def test_a_case_with_items_waiting_shows_what_waits_and_what_was_paid_so_far():
    assert case_amounts(580_000, "", 80_000, waiting=500_000) == CaseAmounts(waiting=True, amount=500_000, paid=80_000)
    assert case_amounts(580_000, "", None, waiting=500_000).paid == 0  # nothing paid yet, said as such
    assert case_amounts(280_000, "approve", 280_000) == CaseAmounts(waiting=False, amount=280_000, paid=280_000)
    assert case_amounts(500_000, "reject", None).amount is None  # a rejected case pays nothing


def test_the_audit_row_of_an_items_case_carries_what_its_waiting_items_ask_for(store, settings):
    items = [{"item": "A-1", "amount": 300_000}, {"item": "A-2", "amount": 80_000}, {"item": "A-3", "amount": 200_000}]
    runs.start_run(store, settings, "refund", {"case_id": "M1", "customer": "kim", "reason": "r", "items": items})
    start_refund(store, settings, "C1", 500_000)
    statuses = {s.thread_id: s.status for s in lifecycle.thread_statuses(store, agent="refund")}
    rows = {row.case_id: row for row in ledger.audit_rows(store, statuses)}
    assert (rows["M1"].waiting_amount, rows["M1"].amount, rows["M1"].executed_amount) == (500_000, 580_000, 80_000)
    assert rows["C1"].waiting_amount == 500_000  # one amount, waiting too: that amount waits


def test_every_case_waiting_for_a_decision_reads_as_waiting_and_a_decided_one_does_not(store, settings):
    """One amount or several items, a case still waiting has what waits marked; once decided, nothing waits."""
    start_refund(store, settings, "C1", 480_000)
    start_refund(store, settings, "C2", 300_000)
    runs.resume_from_fields(store, settings, "refund-C2", {"action": "edit", "amount": 250_000, "approver": "kim"})
    start_refund(store, settings, "C3", 200_000)
    runs.resume_from_fields(store, settings, "refund-C3", {"action": "reject", "approver": "kim"})
    statuses = {s.thread_id: s.status for s in lifecycle.thread_statuses(store, agent="refund")}
    rows = {row.case_id: row for row in ledger.audit_rows(store, statuses)}
    shown = {
        case: case_amounts(r.amount, r.decision, r.executed_amount, waiting=r.waiting_amount)
        for case, r in rows.items()
    }
    assert (rows["C1"].waiting_amount, shown["C1"].waiting, shown["C1"].amount) == (480_000, True, 480_000)
    assert (rows["C2"].waiting_amount, shown["C2"].waiting, shown["C2"].amount) == (0, False, 250_000)
    assert (rows["C3"].waiting_amount, shown["C3"].waiting, shown["C3"].amount) == (0, False, None)


def test_what_waits_is_the_items_questions_or_the_one_amount_to_pay():
    assert waiting_amount({"items": [{"item": "A-1"}], "amount": 580_000}, 500_000) == 500_000
    assert waiting_amount({"amount": 480_000}, 0) == 480_000
    assert waiting_amount({"amount": "480000"}, 0) == 0  # not a whole number (a damaged state): nothing marked
