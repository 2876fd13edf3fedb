"""``decide ITEM... --action approve|reject --approver NAME``: several waiting refund questions in one
command, each through the same checks as a single decision, reported per item; a refused item never stops
the others, and a repeated command pays nothing twice ("already decided")."""

from __future__ import annotations

import json
from typing import Any

import pytest

from agents import runs
from agents.refund import item_ledger, ledger

pytestmark = pytest.mark.usefixtures("backend")

APPROVE_LEE = {"action": "approve", "approver": "lee"}
ITEMS = [{"item": "A-1", "amount": 300_000}, {"item": "A-2", "amount": 200_000}, {"item": "A-3", "amount": 150_000}]


def waiting_ids(store, settings, thread: str) -> list[str]:
    return [str(i.id) for i in runs.thread_snapshot(store, settings, thread)[1].interrupts]


def test_fifty_cases_and_three_items_are_approved_in_one_command_and_a_repeat_pays_nothing(run_cli, store, settings):
    for n in range(50):
        values = {"case_id": f"S{n}", "customer": "kim", "amount": 200_000 + n, "reason": "r"}
        runs.start_run(store, settings, "refund", values)
    runs.start_run(store, settings, "refund", {"case_id": "M1", "customer": "kim", "reason": "r", "items": ITEMS})
    items = [f"refund-S{n}" for n in range(50)] + [f"refund-M1:{i}" for i in waiting_ids(store, settings, "refund-M1")]
    first = run_cli("decide", *items, "--action", "approve", "--approver", "lee", "--json")
    assert first.code == 0, first.err
    results = json.loads(first.out)
    assert [r["result"] for r in results] == ["paid"] * 53  # M1's three items in one run: the case is done
    assert len(ledger.ledger_rows(store)) + len(item_ledger.item_payouts(store)) == 53
    again = run_cli("decide", *items, "--action", "approve", "--approver", "lee", "--json")
    assert again.code == 0, again.err
    assert [r["result"] for r in json.loads(again.out)] == ["already decided"] * 53
    assert len(ledger.ledger_rows(store)) + len(item_ledger.item_payouts(store)) == 53
    assert all(r["repeat_attempts"] == 0 for r in ledger.ledger_rows(store))


def test_a_refused_item_is_reported_with_its_reason_and_the_others_are_decided(run_cli, store, settings):
    runs.start_run(store, settings, "refund", {"case_id": "B1", "customer": "k", "amount": 500_000, "reason": "r"})
    runs.start_run(store, settings, "refund", {"case_id": "M1", "customer": "k", "reason": "r", "items": ITEMS})
    runs.start_run(store, settings, "refund", {"case_id": "B2", "customer": "k", "amount": 400_000, "reason": "r"})
    result = run_cli(
        "decide", "refund-B1", "refund-M1", "refund-nope", "refund-B2", "--action", "reject", "--approver", "lee"
    )
    assert result.code == 2
    lines = result.out.splitlines()
    assert lines[0] == "refund-B1\trejected" and lines[3] == "refund-B2\trejected"
    assert lines[1].startswith("refund-M1\trefused\t") and "3 questions are waiting" in lines[1]
    assert lines[2].startswith("refund-nope\trefused\t")
    reserved = run_cli(
        "decide",
        "refund-M1:" + waiting_ids(store, settings, "refund-M1")[0],
        "--action",
        "approve",
        "--approver",
        "automatic",
    )
    assert reserved.code == 2 and "\trefused\t" in reserved.out
    assert item_ledger.item_payouts(store) == [] and ledger.ledger_rows(store) == []


def test_an_item_above_the_approvers_limit_is_refused_and_the_others_are_paid(store, settings):
    from agents.batch import decide_items
    from agents.identity import Identity

    ann = Identity(email="ann@example.com", name="Ann", role="approver", limit_krw=250_000)
    runs.start_run(store, settings, "refund", {"case_id": "M1", "customer": "k", "reason": "r", "items": ITEMS})
    runs.start_run(store, settings, "refund", {"case_id": "B1", "customer": "k", "amount": 200_000, "reason": "r"})
    ids = {i.value["item"]: str(i.id) for i in runs.thread_snapshot(store, settings, "refund-M1")[1].interrupts}
    items = [f"refund-M1:{ids['A-1']}", f"refund-M1:{ids['A-2']}", "refund-B1", f"refund-M1:{ids['A-3']}"]
    done = decide_items(store, settings, items, {"action": "approve", "approver": "x"}, actor=ann)
    assert [d.result for d in done] == ["refused", "waiting", "paid", "waiting"]
    assert "250,000" in done[0].reason
    paid = {r["item"]: r["approver"] for r in item_ledger.item_payouts(store, "M1")}
    assert paid == {"A-2": "ann@example.com", "A-3": "ann@example.com"}
    assert ledger.payout_for(store, "B1")["approver"] == "ann@example.com"


def test_each_item_names_its_batch_in_its_trace_its_audit_row_and_its_checkpoints(run_cli, store, settings):
    from agents.batch import decide_items

    runs.start_run(store, settings, "refund", {"case_id": "B1", "customer": "k", "amount": 500_000, "reason": "r"})
    runs.start_run(store, settings, "refund", {"case_id": "M1", "customer": "k", "reason": "r", "items": ITEMS})
    ids = waiting_ids(store, settings, "refund-M1")
    approve, reject = {"action": "approve", "approver": "lee"}, {"action": "reject", "approver": "kim"}
    first = decide_items(store, settings, ["refund-B1", f"refund-M1:{ids[0]}"], approve)
    second = decide_items(store, settings, [f"refund-M1:{i}" for i in ids[1:]], reject)
    batch, other = first[0].batch_id, second[0].batch_id
    assert batch and other and batch != other
    assert {d.batch_id for d in first} == {batch} and {d.batch_id for d in second} == {other}
    audit = {row["case_id"]: row for row in json.loads(run_cli("ledger", "--audit", "--json").out)}
    assert audit["B1"]["batch_id"] == batch
    assert audit["M1"]["batch_id"] == f"{batch}, {other}"
    assert any("lee" in line and batch in line for line in audit["B1"]["trace"])
    m1 = runs.current_result(store, settings, "refund-M1").values
    assert {r["item"]: r.get("batch_id") for r in m1["item_results"]} == {"A-1": batch, "A-2": other, "A-3": other}
    assert [line for line in m1["trace"] if other in line and "kim" in line]
    saved = store.saver.list({"configurable": {"thread_id": "refund-B1", "checkpoint_ns": ""}})
    assert batch in {c.metadata.get("batch_id") for c in saved}
    values = {"case_id": "S1", "customer": "k", "amount": 500_000, "reason": "r"}
    single = runs.start_run(store, settings, "refund", values)
    runs.resume_thread(store, settings, single.thread_id, approve)
    assert json.loads(run_cli("ledger", "--audit", "--json").out)[0]["batch_id"] == ""


def test_the_items_of_one_case_are_answered_in_one_run_each_checked_on_its_own(store, settings, monkeypatch):
    from agents.batch import decide_items
    from agents.identity import Identity
    from agents.runs import resume

    ann = Identity(email="ann@example.com", name="Ann", role="approver", limit_krw=250_000)
    runs.start_run(store, settings, "refund", {"case_id": "M1", "customer": "k", "reason": "r", "items": ITEMS})
    runs.start_run(store, settings, "refund", {"case_id": "B1", "customer": "k", "amount": 200_000, "reason": "r"})
    ids = waiting_ids(store, settings, "refund-M1")
    driven: list[str] = []
    drive = resume._drive

    def counted_drive(*args: Any, **kwargs: Any) -> None:
        driven.append(args[3]["configurable"]["thread_id"])  # the run's config names its thread
        drive(*args, **kwargs)

    monkeypatch.setattr(resume, "_drive", counted_drive)
    items = [f"refund-M1:{i}" for i in ids] + ["refund-B1"]
    done = decide_items(store, settings, items, {"action": "approve", "approver": "x"}, actor=ann)
    assert driven == ["refund-M1", "refund-B1"]  # one run per thread, not one per item
    assert [d.result for d in done] == ["refused", "waiting", "waiting", "paid"]  # A-1 is above Ann's limit
    assert {r["item"] for r in item_ledger.item_payouts(store, "M1")} == {"A-2", "A-3"}
    assert [str(i) for i in waiting_ids(store, settings, "refund-M1")] == [ids[0]]  # A-1 still waits, alone


def test_an_item_named_twice_is_paid_once_and_its_repeat_is_already_decided(store, settings):
    from agents.batch import decide_items

    runs.start_run(store, settings, "refund", {"case_id": "M1", "customer": "k", "reason": "r", "items": ITEMS})
    runs.start_run(store, settings, "refund", {"case_id": "B1", "customer": "k", "amount": 500_000, "reason": "r"})
    first = f"refund-M1:{waiting_ids(store, settings, 'refund-M1')[0]}"
    done = decide_items(store, settings, [first, "refund-B1", first, "refund-B1"], APPROVE_LEE)
    assert [d.result for d in done] == ["waiting", "paid", "already decided", "already decided"]
    assert len(item_ledger.item_payouts(store, "M1")) == 1 and len(ledger.ledger_rows(store)) == 1


def test_a_run_that_fails_after_one_items_step_reports_that_item_paid_and_the_other_failed(
    store, settings, monkeypatch
):
    """A-1's task pays and its result is saved; then A-2's payout fails, and with it the run: A-1 is paid (its
    ledger row and its saved step say so), A-2 failed with the reason, A-3 (not in the batch) still waits."""
    import threading

    from agents import runtime
    from agents.batch import decide_items
    from agents.refund import items as refund_items

    runs.start_run(store, settings, "refund", {"case_id": "M1", "customer": "k", "reason": "r", "items": ITEMS})
    ids = {i.value["item"]: str(i.id) for i in runs.thread_snapshot(store, settings, "refund-M1")[1].interrupts}
    saver = runtime.graph(store, "refund", **runtime.graph_options(settings, "refund")).checkpointer
    saved, put_writes, pay_item = threading.Event(), saver.put_writes, refund_items.pay_item

    def put_writes_noting(config: Any, writes: Any, task_id: str, *args: Any, **kwargs: Any) -> Any:
        done = put_writes(config, writes, task_id, *args, **kwargs)
        if any(channel == "item_results" for channel, _ in writes):
            saved.set()  # a finished item's step is on disk
        return done

    def pay_item_failing_for_a2(store: Any, **kwargs: Any) -> Any:
        if kwargs["item"] != "A-2":
            return pay_item(store, **kwargs)
        assert saved.wait(timeout=60)  # A-1's step finished first, whatever order the tasks ran in
        raise RuntimeError("the payment service is down")

    monkeypatch.setattr(saver, "put_writes", put_writes_noting)
    monkeypatch.setattr(refund_items, "pay_item", pay_item_failing_for_a2)
    items = [f"refund-M1:{ids['A-1']}", f"refund-M1:{ids['A-2']}"]
    done = decide_items(store, settings, items, APPROVE_LEE)
    assert [d.result for d in done] == ["paid", "failed"]
    assert "the payment service is down" in done[1].reason
    assert [r["item"] for r in item_ledger.item_payouts(store, "M1")] == ["A-1"]
    monkeypatch.setattr(refund_items, "pay_item", pay_item)
    waiting = {i.value["item"] for i in runs.thread_snapshot(store, settings, "refund-M1")[1].interrupts}
    assert waiting <= {"A-2", "A-3"} and "A-3" in waiting


def test_a_run_that_fails_after_every_items_step_reports_the_items_paid(store, settings, monkeypatch):
    """Both items' tasks pay and finish; the next step, which records the case's outcome, fails: both items
    are paid (their steps are saved before the failed one), and the case needs attention."""
    from agents.batch import decide_items
    from agents.refund import items as refund_items

    def finish_items_failing(state: Any, config: Any) -> Any:
        raise RuntimeError("the outcome could not be recorded")

    monkeypatch.setattr(refund_items, "finish_items", finish_items_failing)  # before the graph is built
    two = ITEMS[:2]
    runs.start_run(store, settings, "refund", {"case_id": "M1", "customer": "k", "reason": "r", "items": two})
    items = [f"refund-M1:{i}" for i in waiting_ids(store, settings, "refund-M1")]
    done = decide_items(store, settings, items, APPROVE_LEE)
    assert [d.result for d in done] == ["paid", "paid"]
    assert sorted(r["item"] for r in item_ledger.item_payouts(store, "M1")) == ["A-1", "A-2"]
    assert runs.current_result(store, settings, "refund-M1").status == "attention"
