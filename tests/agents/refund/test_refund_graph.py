"""The refund graph: threshold, policies, decisions, edits, and payouts exactly once."""

from __future__ import annotations

import functools
import threading

import pytest

from agents import readmodel, runs, threadindex
from agents.common import MissingCheckpointerError
from agents.errors import InputError, StaleFormError, UserError
from agents.nodelog import node_runs
from agents.refund import ledger
from agents.refund.graph import build_graph, build_unsaved_pitfall_graph, make_settle, run_unsaved_pitfall
from agents.runtime import load_settings, open_store
from tests.factories import start_refund

#: This file's cases give the reason a customer would type.
start_case = functools.partial(start_refund, reason="파손된 상품")


def _review_statuses(store, thread_id):
    return [r["status"] for r in node_runs(store, thread_id=thread_id) if r["node"] == "review"]


def test_exactly_the_threshold_settles_automatically(store, settings):
    result = start_case(store, settings, amount=100_000)
    assert result.status == "done"
    assert result.values["outcome"] == "paid"
    assert result.values["approver"] == "automatic"
    assert _review_statuses(store, "refund-C1") == []
    assert ledger.ledger_rows(store)[0]["paid_amount"] == 100_000


def test_one_won_above_the_threshold_waits_for_review(store, settings):
    result = start_case(store, settings, amount=100_001)
    assert result.status == "waiting" and result.next == ("review",)
    assert result.interrupts[0]["amount"] == 100_001
    assert "approve / reject / edit" in result.interrupts[0]["question"]
    assert ledger.ledger_rows(store) == []


def test_approve_pays_and_records_requested_and_executed_side_by_side(store, settings):
    start_case(store, settings)
    result = runs.resume_from_fields(
        store, settings, "refund-C1", {"action": "approve", "approver": "kim", "note": "ok"}
    )
    assert result.status == "done"
    assert result.values["outcome"] == "paid" and result.values["decision"] == "approve"
    row = ledger.ledger_rows(store)[0]
    assert (row["case_id"], row["requested_amount"], row["paid_amount"], row["approver"]) == (
        "C1",
        500_000,
        500_000,
        "kim",
    )
    assert row["paid_at"] and row["repeat_attempts"] == 0
    assert result.values["trace"][-2:] == [
        "review: approve by kim (note: ok)",
        "settle: paid 500,000 KRW (requested 500,000), approved by kim",
    ]


def test_review_is_entered_once_before_the_pause_and_again_on_resume(store, settings):
    start_case(store, settings)
    assert _review_statuses(store, "refund-C1") == ["interrupted"]
    runs.resume_from_fields(store, settings, "refund-C1", {"action": "approve", "approver": "kim"})
    assert _review_statuses(store, "refund-C1") == ["interrupted", "ok"]


def test_reject_ends_with_a_recorded_rejection_and_no_payout(store, settings):
    start_case(store, settings)
    result = runs.resume_from_fields(
        store, settings, "refund-C1", {"action": "reject", "approver": "lee", "note": "사진 없음"}
    )
    assert result.status == "done" and result.next == ()
    assert result.values["outcome"] == "rejected" and result.values["decision"] == "reject"
    assert result.values["trace"][-1] == "reject: rejected by lee; no payout"
    assert ledger.ledger_rows(store) == []
    audit = ledger.audit_rows(store)[0]
    assert (audit.decision, audit.approver, audit.executed_amount, audit.outcome) == ("reject", "lee", None, "rejected")


def test_edit_then_approve_pays_the_edited_amount_and_keeps_the_request(store, settings):
    start_case(store, settings)
    result = runs.resume_from_fields(
        store, settings, "refund-C1", {"action": "edit", "amount": 50_000, "approver": "kim"}
    )
    values = result.values
    assert values["requested_amount"] == 500_000 and values["amount"] == 50_000
    assert "amount 500,000 → 50,000 by kim" in values["trace"]
    row = ledger.ledger_rows(store)[0]
    assert (row["requested_amount"], row["paid_amount"]) == (500_000, 50_000)


def test_strict_policy_keeps_an_edited_case_on_the_approval_path(store, settings):
    start_case(store, settings)
    # An update brings the case straight back to the approver: it waits again, the edit in its trace.
    asked = runs.update_thread(store, settings, "refund-C1", {"amount": 50_000})
    assert asked.status == "waiting" and asked.interrupts[0]["amount"] == 50_000
    assert asked.values["trace"][-1] == "amount 500,000 → 50,000 by update_state"
    assert ledger.ledger_rows(store) == []
    done = runs.resume_from_fields(store, settings, "refund-C1", {"action": "approve", "approver": "kim"})
    assert "amount 500,000 → 50,000 by update_state" in done.values["trace"]
    assert ledger.ledger_rows(store)[0]["paid_amount"] == 50_000


def test_reroute_policy_lets_an_edit_drop_the_case_to_the_automatic_path(store, monkeypatch, db_path):
    monkeypatch.setenv("HITL_REFUND_POLICY", "reroute")
    reroute = load_settings(db_override=str(db_path), secrets={})
    start_case(store, reroute)
    # update_state counts as a write by the last node (assess): its route runs again, on the amount,
    # and the case settles at once, as documented; the trace says it was automatic.
    done = runs.update_thread(store, reroute, "refund-C1", {"amount": 50_000})
    assert done.status == "done" and done.outcome == "paid"
    assert done.values["outcome"] == "paid" and done.values["approver"] == "automatic"
    assert done.values["policy"] == "reroute"
    assert "settled automatically: at or under the threshold 100,000 (policy reroute)" in done.values["trace"][-1]
    assert _review_statuses(store, "refund-C1") == ["interrupted"]
    assert ledger.ledger_rows(store)[0]["paid_amount"] == 50_000


def test_unknown_policy_setting_is_refused_by_name(store, monkeypatch, db_path):
    monkeypatch.setenv("HITL_REFUND_POLICY", "lenient")
    with pytest.raises(InputError, match="HITL_REFUND_POLICY"):
        start_case(store, load_settings(db_override=str(db_path), secrets={}))


def test_a_decision_set_by_update_state_is_recorded_not_asked_again(store, settings):
    start_case(store, settings)
    result = runs.update_thread(store, settings, "refund-C1", {"decision": "reject", "approver": "lee"})
    assert result.status == "done" and result.outcome == "rejected"
    assert "review: reject set by update_state, recorded for lee; not asking again" in result.values["trace"]
    assert result.values["decided_at"]
    assert _review_statuses(store, "refund-C1") == ["interrupted", "ok"]


def test_update_as_review_without_a_decision_asks_again(store, settings):
    start_case(store, settings)
    updated = runs.update_thread(store, settings, "refund-C1", {"amount": 70_000}, as_node="review")
    assert updated.status == "waiting" and updated.interrupts[0]["amount"] == 70_000


def test_two_tabs_approving_at_once_pay_exactly_once(store, settings):
    waiting = start_case(store, settings)
    barrier = threading.Barrier(2)
    outcomes: list[object] = []

    def approve(approver):
        barrier.wait()
        try:
            outcomes.append(
                runs.resume_from_fields(
                    store,
                    settings,
                    "refund-C1",
                    {"action": "approve", "approver": approver},
                    expected_head=waiting.head_checkpoint_id,
                )
            )
        except UserError as error:
            outcomes.append(error)

    tabs = [threading.Thread(target=approve, args=(name,)) for name in ("kim", "lee")]
    for tab in tabs:
        tab.start()
    for tab in tabs:
        tab.join()
    errors = [o for o in outcomes if isinstance(o, UserError)]
    assert len(outcomes) == 2 and len(errors) == 1
    assert isinstance(errors[0], StaleFormError | InputError)
    assert len(ledger.ledger_rows(store)) == 1


def test_two_processes_resuming_the_same_pause_pay_once(store, settings, db_path):
    """Bypasses the in-process lock: two connections resume from the same saved pause."""
    from langgraph.types import Command

    waiting = start_case(store, settings)
    other = open_store(db_path)
    try:
        config = {
            "configurable": {
                "thread_id": "refund-C1",
                "checkpoint_id": waiting.head_checkpoint_id,
                "checkpoint_ns": "",
            },
            "metadata": {"agent": "refund"},
        }
        answer = {"action": "approve", "approver": "kim"}
        first = build_graph(store.saver, store=store).invoke(Command(resume=answer), config)
        second = build_graph(other.saver, store=other).invoke(Command(resume=answer), config)
    finally:
        other.close()
    assert first["outcome"] == "paid" and second["outcome"] == "already paid"
    assert second["trace"][-1].startswith("settle: already paid 500,000 KRW at ")
    rows = ledger.ledger_rows(store)
    assert len(rows) == 1 and rows[0]["repeat_attempts"] == 1


def test_a_paid_case_cannot_be_rerun_from_an_older_checkpoint(store, settings):
    start_case(store, settings)
    runs.resume_from_fields(store, settings, "refund-C1", {"action": "approve", "approver": "kim"})
    head = readmodel.head_checkpoint_id(store, "refund-C1")
    for checkpoint in readmodel.checkpoint_chain(store, "refund-C1")[:-1]:
        with pytest.raises(InputError, match="checkpoint_id: the case is already paid"):
            runs.continue_thread(store, settings, "refund-C1", checkpoint_id=checkpoint.checkpoint_id)
    assert readmodel.head_checkpoint_id(store, "refund-C1") == head
    rows = ledger.ledger_rows(store)
    assert len(rows) == 1 and rows[0]["repeat_attempts"] == 0


def test_calling_the_settle_node_twice_pays_once(store):
    settle = make_settle(store)
    state = {
        "case_id": "X9",
        "customer": "박",
        "requested_amount": 300_000,
        "amount": 250_000,
        "recorded_amount": 250_000,
        "approver": "kim",
        "decision": "approve",
    }
    config = {"configurable": {"thread_id": "refund-X9"}}
    first, second = settle(state, config), settle(state, config)
    assert first["outcome"] == "paid" and second["outcome"] == "already paid"
    assert second["trace"][-1].endswith("no second payment")
    assert [r["paid_amount"] for r in ledger.ledger_rows(store)] == [250_000]


def test_factory_refuses_to_build_without_a_checkpointer(store):
    with pytest.raises(MissingCheckpointerError, match="needs a checkpointer"):
        build_graph(None, store=store)


def test_pitfall_graph_returns_half_finished_state_with_nothing_to_resume(store):
    demo = run_unsaved_pitfall(store)
    state = demo["state"]
    assert state["trace"] == ["assess: requested 50,000 KRW, threshold 100,000 → settles automatically (policy strict)"]
    assert "outcome" not in state and "__interrupt__" not in state
    assert demo["resume_error"] == "No checkpointer set"
    assert build_unsaved_pitfall_graph().checkpointer is None
    assert ledger.ledger_rows(store) == [] and threadindex.list_threads(store) == []


@pytest.mark.parametrize(
    ("answer", "field"),
    [
        ({"action": "edit", "approver": "kim"}, "amount"),
        ({"action": "approve", "amount": 5, "approver": "kim"}, "amount"),
        ({"action": "edit", "amount": 0, "approver": "kim"}, "amount"),
        ({"action": "edit", "amount": 10_000_001, "approver": "kim"}, "amount"),
        ({"action": "pay twice", "approver": "kim"}, "action"),
        ({"action": "approve"}, "approver"),
        ({"action": "approve", "approver": "kim", "colour": "red"}, "colour"),
    ],
)
def test_bad_decisions_name_the_field_and_change_nothing(store, settings, answer, field):
    waiting = start_case(store, settings)
    with pytest.raises(InputError) as caught:
        runs.resume_from_fields(store, settings, "refund-C1", answer)
    assert caught.value.field == field
    assert readmodel.head_checkpoint_id(store, "refund-C1") == waiting.head_checkpoint_id


def test_approve_or_edit_on_a_settled_case_is_refused(store, settings):
    start_case(store, settings)
    runs.resume_from_fields(store, settings, "refund-C1", {"action": "approve", "approver": "kim"})
    head = readmodel.head_checkpoint_id(store, "refund-C1")
    for answer in ({"action": "approve", "approver": "kim"}, {"action": "edit", "amount": 1, "approver": "kim"}):
        with pytest.raises(UserError, match="not waiting for an answer \\(paid\\)"):
            runs.resume_from_fields(store, settings, "refund-C1", answer)
    assert readmodel.head_checkpoint_id(store, "refund-C1") == head
    assert len(ledger.ledger_rows(store)) == 1


@pytest.mark.parametrize(
    ("values", "field"),
    [
        ({"amount": -1}, "amount"),
        ({"amount": 0}, "amount"),
        ({"amount": 1.5}, "amount"),
        ({"amount": "abc"}, "amount"),
        ({"amount": 10_000_001}, "amount"),
        ({"customer": "  "}, "customer"),
        ({"case_id": "bad id"}, "case_id"),
        ({"case_id": ""}, "case_id"),
    ],
)
def test_bad_requests_name_the_field_and_start_nothing(store, settings, values, field):
    request = {"case_id": "C2", "customer": "홍길동", "amount": 500_000, "reason": "r"} | values
    with pytest.raises(InputError) as caught:
        runs.start_run(store, settings, "refund", request)
    assert caught.value.field == field
    assert threadindex.list_threads(store) == []


def test_a_case_id_is_used_once(store, settings):
    start_case(store, settings, amount=1_000)
    with pytest.raises(InputError, match="case_id: case 'C1' already exists"):
        start_case(store, settings)
    runs.delete_thread(store, "refund-C1")  # the payout outlives the thread
    with pytest.raises(InputError, match="already paid"):
        start_case(store, settings)
