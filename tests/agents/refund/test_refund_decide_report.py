"""What a batch decision reports per item is what its own run did, read under the thread's lease.

Another process may take a thread the moment a batch lets go of its lease (the other batch of two deciding
overlapping items at once); the report of the items the batch decided still says paid or waiting, never
the other process's ``running``. A step that committed its payout and then failed before its result was
saved has paid: the report says so, with the amount the ledger holds, not ``failed``.
"""

from __future__ import annotations

import json
import time
from typing import Any

import pytest

from agents import leases, runs
from agents.batch import decide_items
from agents.refund import item_ledger, ledger
from agents.refund import items as refund_items

pytestmark = pytest.mark.usefixtures("backend")

APPROVE_LEE = {"action": "approve", "approver": "lee"}
ITEMS = [{"item": "A-1", "amount": 300_000}, {"item": "A-2", "amount": 200_000}, {"item": "A-3", "amount": 150_000}]


def waiting_ids(store: Any, settings: Any, thread: str) -> dict[str, str]:
    return {i.value["item"]: str(i.id) for i in runs.thread_snapshot(store, settings, thread)[1].interrupts}


def test_a_thread_taken_by_another_process_as_soon_as_the_batch_lets_go_is_reported_as_the_batch_left_it(
    run_cli, store, settings, monkeypatch
):
    """The moment each thread's lease is let go, another live process holds it (as the other batch of a race
    does): the case the batch paid reads paid and the item it paid reads waiting (its case asks about the
    other items), not running."""
    runs.start_run(store, settings, "refund", {"case_id": "S1", "customer": "k", "amount": 500_000, "reason": "r"})
    runs.start_run(store, settings, "refund", {"case_id": "M1", "customer": "k", "reason": "r", "items": ITEMS})
    ids = waiting_ids(store, settings, "refund-M1")
    release = leases._release

    def release_then_another_process_takes_it(held: Any, thread_id: str, owner: str) -> None:
        release(held, thread_id, owner)
        with held.transaction() as cursor:  # PID 1 is alive and started before this lease: a live process
            cursor.execute(
                "INSERT INTO thread_leases (thread_id, owner, host, pid, acquired_at) VALUES (?, 'other', ?, 1, ?)",
                (thread_id, leases.HOST, time.time()),
            )

    monkeypatch.setattr(leases, "_release", release_then_another_process_takes_it)
    found = run_cli(
        "decide", "refund-S1", f"refund-M1:{ids['A-1']}", "--action", "approve", "--approver", "lee", "--json"
    )
    assert found.code == 0, found.out
    assert [r["result"] for r in json.loads(found.out)] == ["paid", "waiting"]
    assert leases.live_leases(store) == {"refund-S1", "refund-M1"}  # the other process holds both now
    assert ledger.payout_for(store, "S1") is not None
    assert [r["item"] for r in item_ledger.item_payouts(store, "M1")] == ["A-1"]


def test_an_item_whose_payout_committed_before_its_step_failed_is_reported_paid_as_the_ledger_holds_it(
    store, settings, monkeypatch
):
    """A-2's payout commits, then its step fails before its result is saved: A-2 is paid (the ledger's
    row, with its amount), A-1's step finished and is paid, and a retry records A-2 as already paid,
    paying nothing more."""
    runs.start_run(store, settings, "refund", {"case_id": "M1", "customer": "k", "reason": "r", "items": ITEMS})
    ids = waiting_ids(store, settings, "refund-M1")
    pay_item = refund_items.pay_item

    def pay_item_then_fail_for_a2(held: Any, **kwargs: Any) -> Any:
        paid = pay_item(held, **kwargs)
        if kwargs["item"] == "A-2":
            raise RuntimeError("the connection dropped after the payout")
        return paid

    monkeypatch.setattr(refund_items, "pay_item", pay_item_then_fail_for_a2)
    done = decide_items(store, settings, [f"refund-M1:{ids['A-1']}", f"refund-M1:{ids['A-2']}"], APPROVE_LEE)
    assert [d.result for d in done] == ["paid", "paid"]
    assert "200,000" in done[1].reason and "the connection dropped after the payout" in done[1].reason
    assert sorted(r["item"] for r in item_ledger.item_payouts(store, "M1")) == ["A-1", "A-2"]
    monkeypatch.setattr(refund_items, "pay_item", pay_item)
    again = decide_items(store, settings, [f"refund-M1:{ids['A-1']}", f"refund-M1:{ids['A-2']}"], APPROVE_LEE)
    assert again[0].result == "already decided"  # A-2's question still waited: the retry records the payout
    results = {
        r["item"]: r["outcome"] for r in runs.current_result(store, settings, "refund-M1").values["item_results"]
    }
    assert results["A-2"] == "already paid"
    assert all(r["repeat_attempts"] == 0 for r in item_ledger.item_payouts(store, "M1"))
    assert len(item_ledger.item_payouts(store, "M1")) == 2


def test_a_case_whose_payout_committed_before_its_step_failed_is_reported_paid_with_the_amount_paid(
    run_cli, store, settings, monkeypatch
):
    """The same for a case with one amount, through ``decide`` (an approval) and the batch (an edit): each
    is paid at the amount the ledger holds, and the command does not exit as if it had failed."""
    for case_id in ("S1", "S2"):
        values = {"case_id": case_id, "customer": "k", "amount": 500_000, "reason": "r"}
        runs.start_run(store, settings, "refund", values)
    pay = ledger.pay

    def pay_then_fail(held: Any, **kwargs: Any) -> Any:
        pay(held, **kwargs)
        raise RuntimeError("the process stopped after the payout")

    monkeypatch.setattr(ledger, "pay", pay_then_fail)
    found = run_cli("decide", "refund-S1", "--action", "approve", "--approver", "lee", "--json")
    assert found.code == 0, found.out
    [s1] = json.loads(found.out)
    assert s1["result"] == "paid" and "500,000" in s1["reason"], s1
    edit = {"action": "edit", "amount": 123_000, "approver": "lee"}
    [s2] = decide_items(store, settings, ["refund-S2"], edit)
    assert s2.result == "paid" and "123,000" in s2.reason, s2
    assert {row["case_id"]: row["paid_amount"] for row in ledger.ledger_rows(store)} == {"S1": 500_000, "S2": 123_000}


def test_an_approved_case_whose_payout_step_failed_before_paying_is_reported_failed_not_paid(
    store, settings, monkeypatch
):
    """The approval's own step (``review``) finishes; the step that pays fails before the ledger holds
    anything: nothing was paid, so the case is reported failed with the reason (it needs attention)."""
    runs.start_run(store, settings, "refund", {"case_id": "S1", "customer": "k", "amount": 500_000, "reason": "r"})

    def pay_failing(held: Any, **kwargs: Any) -> Any:
        raise RuntimeError("the payment service is down")

    monkeypatch.setattr(ledger, "pay", pay_failing)
    [s1] = decide_items(store, settings, ["refund-S1"], APPROVE_LEE)
    assert s1.result == "failed" and "the payment service is down" in s1.reason, s1
    assert ledger.ledger_rows(store) == []
    assert runs.current_result(store, settings, "refund-S1").status == "attention"
