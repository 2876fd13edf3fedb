"""The audit and the ledger after a change read what changed: the ledger rows and item totals of the threads
the change feed noted, each audit row made again only when its head, status or payout moved; the results are
those of a new process reading everything."""

from __future__ import annotations

import pytest

from agents import lifecycle, runs
from agents.refund import ledger
from agents.runtime import open_store
from tests.factories import pause_robot, start_refund

pytestmark = pytest.mark.usefixtures("backend")

ITEMS = [{"item": "A-1", "amount": 300_000}, {"item": "A-2", "amount": 80_000}]


def start_items(store, settings, case):
    values = {"case_id": case, "customer": "kim", "reason": "r", "items": ITEMS}
    return runs.start_run(store, settings, "refund", values)


def audit(store):
    statuses = {s.thread_id: s for s in lifecycle.thread_statuses(store, agent="refund")}
    heads = {t: s.head_checkpoint_id for t, s in statuses.items()}
    return ledger.audit_and_ledger(store, {t: s.status for t, s in statuses.items()}, heads)


def as_read_anew(db_location):
    """The audit, the ledger and the item totals as a new process reads them (nothing kept)."""
    other = open_store(db_location)
    try:
        rows, payouts = audit(other)
        return rows, payouts, list(ledger.payouts(other).items()), ledger._item_totals(other)
    finally:
        other.close()


def agrees(store, db_location):
    rows, payouts = audit(store)
    assert (rows, payouts, list(ledger.payouts(store).items()), ledger._item_totals(store)) == as_read_anew(db_location)
    return rows


def test_a_change_reads_the_ledger_rows_of_the_changed_threads_alone(store, settings, db_location):
    for case, amount in (("A", 5_000), ("B", 6_000), ("C", 500_000), ("D", 700_000)):
        start_refund(store, settings, case, amount, customer=f"c{case}")  # A, B paid at once; C, D wait
    first = ledger.payouts(store)
    agrees(store, db_location)
    pause_robot(store, settings, "w1")  # a change of a thread that is no refund's
    assert ledger.payouts(store) is first
    runs.resume_from_fields(store, settings, "refund-C", {"action": "approve", "approver": "kim"})
    after = ledger.payouts(store)
    assert after is not first and set(after) == {"A", "B", "C"}
    assert after["A"] is first["A"] and after["B"] is first["B"]  # rows of unchanged threads not read again
    agrees(store, db_location)
    runs.delete_thread(store, "refund-A")  # its payout stays on the record
    with store.transaction() as cursor:  # another program's raw write of a payout
        cursor.execute(
            "INSERT INTO refund_ledger (case_id, thread_id, customer, requested_amount, paid_amount, approver,"
            " paid_at) VALUES ('D', 'refund-D', 'cD', 700000, 1, 'k', '2000-01-01T00:00:00+00:00')"
        )
    rows = agrees(store, db_location)
    assert [row.case_id for row in rows if row.status == ledger.DELETED] == ["A"]
    assert list(ledger.payouts(store))[-1] == "D"  # the oldest payout last


def test_item_totals_after_a_change_sum_the_changed_cases_alone(store, settings, db_location):
    start_items(store, settings, "M1")  # A-2 is paid at once, A-1 waits
    start_items(store, settings, "M2")
    first = ledger._item_totals(store)
    assert {case: total["paid_amount"] for case, total in first.items()} == {"M1": 80_000, "M2": 80_000}
    agrees(store, db_location)
    with store.transaction() as cursor:  # another program pays M1's other item
        cursor.execute(
            "INSERT INTO refund_item_ledger (case_id, item, thread_id, customer, requested_amount, paid_amount,"
            " approver, paid_at) VALUES ('M1', 'A-1', 'refund-M1', 'kim', 300000, 300000, 'k', '2999-01-01')"
        )
    after = ledger._item_totals(store)
    assert after["M1"] == {"paid_amount": 380_000, "paid_at": "2999-01-01"}
    assert after["M2"] is first["M2"]
    agrees(store, db_location)


def test_an_audit_row_is_made_again_only_when_its_thread_moved(store, settings, db_location):
    for case, amount in (("A", 5_000), ("C", 500_000), ("D", 700_000)):
        start_refund(store, settings, case, amount, customer=f"c{case}")
    before = {row.case_id: row for row in agrees(store, db_location)}
    runs.resume_from_fields(store, settings, "refund-C", {"action": "reject", "approver": "kim"})
    after = {row.case_id: row for row in agrees(store, db_location)}
    assert after["A"] is before["A"] and after["D"] is before["D"]
    assert after["C"] is not before["C"] and after["C"].outcome == "rejected"
