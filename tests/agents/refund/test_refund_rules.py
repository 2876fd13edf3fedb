"""The refund rules hold on every path: page buttons, sidebar forms (typed and raw), CLI and runs.

Each test names the observation it pins: a case that left every queue, "done" with nothing
paid, an approval without an approver, an invalid edit that paid the full request, amounts
read wrongly, a case that changed under the approver, links to a missing thread, leftover
controls, and an explorer fork that broke a thread.
"""

from __future__ import annotations

import functools
import json

import pytest

from agents import lifecycle, readmodel, runs, runtime, threadindex
from agents.errors import InputError
from agents.refund import ledger
from tests.factories import button_by_key, inbox_ids, messages, pause_robot, start_refund, table_cells

PAGE = "app_pages/refund.py"
#: This file's cases ask for 400,000 KRW unless a test gives another amount.
start_case = functools.partial(start_refund, amount=400_000)
L1 = ("run", "refund", "--case", "L1", "--customer", "kim", "--amount", "9000000", "--reason", "r")


def _buttons(at):
    return {b.key for b in at.button}


# --- 1. A case leaves every queue ---------------------------------------------------------------------


def test_an_edited_case_waits_again_and_stays_in_every_queue(run_cli, store, settings, app):
    run_cli(*L1)
    updated = run_cli("update", "refund-L1", "--values", '{"amount": 50000}', "--json")
    assert updated.code == 0, updated.err
    assert json.loads(updated.out)["status"] == "waiting"
    assert "refund-L1" in inbox_ids(store)
    queue = ledger.open_cases(
        ledger.audit_rows(store, {s.thread_id: s.status for s in lifecycle.thread_statuses(store)})
    )
    assert [row.thread_id for row in queue] == ["refund-L1"]
    home = app()
    assert "Nothing is waiting" not in messages(home)
    assert any("pay 50,000 KRW (requested 9,000,000)" in cell for cell in table_cells(home))
    assert (
        "amount 9,000,000 → 50,000 by update_state" in runs.current_result(store, settings, "refund-L1").values["trace"]
    )


def test_the_sidebar_update_without_continue_also_brings_the_case_back(app, store, settings):
    start_case(store, settings)
    at = app(PAGE)
    at.sidebar.text_input(key="update-amount-refund-C1").input("50,000")
    at.sidebar.button[1].click().run()
    assert not at.exception, at.exception
    result = runs.current_result(store, settings, "refund-C1")
    assert result.status == "waiting" and result.interrupts[0]["amount"] == 50_000
    assert "refund-C1" in inbox_ids(store)


# --- 2. "done" with nothing paid ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("values", "as_node"),
    [
        ('{"amount": 9000000}', "settle"),
        ('{"decision": "approve"}', "reject"),
        ('{"decision": "approve", "approver": "kim"}', "reject"),
        ('{"decision": "reject", "approver": "kim"}', "settle"),
        ('{"amount": 100}', "__copy__"),
    ],
)
def test_an_update_as_settle_or_reject_is_refused_and_changes_nothing(run_cli, store, values, as_node):
    run_cli(*L1)
    head = readmodel.head_checkpoint_id(store, "refund-L1")
    result = run_cli("update", "refund-L1", "--values", values, "--as-node", as_node)
    assert result.code == 2 and "as_node" in result.err, result.err
    assert readmodel.head_checkpoint_id(store, "refund-L1") == head
    assert lifecycle.thread_status(store, "refund-L1").status == "waiting"
    assert ledger.ledger_rows(store) == []


def test_a_case_is_done_only_when_paid_or_rejected(store, settings):
    start_case(store, settings, "A")
    start_case(store, settings, "B")
    start_case(store, settings, "S", amount=30_000)
    runs.resume_from_fields(store, settings, "refund-A", {"action": "approve", "approver": "kim"})
    runs.resume_from_fields(store, settings, "refund-B", {"action": "reject", "approver": "lee"})
    payouts = {row["case_id"]: row for row in ledger.ledger_rows(store)}
    for thread, outcome in (("refund-A", "paid"), ("refund-B", "rejected"), ("refund-S", "paid")):
        status = lifecycle.thread_status(store, thread)
        assert (status.status, status.outcome) == ("done", outcome)
        assert (thread.removeprefix("refund-") in payouts) == (outcome == "paid")


# --- 3. Approval without an approver ------------------------------------------------------------------


def test_the_sidebar_update_state_cannot_approve_without_an_approver(app, store, settings):
    start_case(store, settings)
    at = app(PAGE)
    at.sidebar.selectbox(key="update-decision-refund-C1").select("approve")
    at.sidebar.selectbox(key="update-asnode-refund-C1").select("review")
    at.sidebar.checkbox(key="update-continue-refund-C1").check()
    at.sidebar.button[1].click().run()
    assert not at.exception, at.exception
    assert "Approver: is required with a decision" in messages(at)
    assert ledger.ledger_rows(store) == []
    assert runs.current_result(store, settings, "refund-C1").status == "waiting"


def test_a_decision_by_update_state_records_its_approver_and_when(app, store, settings):
    start_case(store, settings)
    at = app(PAGE)
    at.sidebar.selectbox(key="update-decision-refund-C1").select("approve")
    at.sidebar.selectbox(key="update-asnode-refund-C1").select("review")
    at.sidebar.text_input(key="update-approver-refund-C1").input("park")
    at.sidebar.button[1].click().run()
    assert not at.exception, at.exception
    result = runs.current_result(store, settings, "refund-C1")
    assert (result.status, result.outcome, result.values["approver"]) == ("done", "paid", "park")
    assert result.values["decided_at"]
    assert [(r["paid_amount"], r["approver"]) for r in ledger.ledger_rows(store)] == [(400_000, "park")]
    assert not any("automatic" in line for line in result.values["trace"])
    assert result.values["trace"][-1] == "settle: paid 400,000 KRW (requested 400,000), approved by park"


@pytest.mark.parametrize(
    "values",
    [
        {"decision": "approve"},
        {"decision": "reject", "approver": ""},
        {"decision": "approve", "approver": "automatic"},
        {"decision": "approve", "approver": "update_state"},
        {"approver": "Automatic"},
    ],
)
def test_every_update_path_needs_a_real_approver_name(store, settings, values):
    start_case(store, settings)
    head = readmodel.head_checkpoint_id(store, "refund-C1")
    with pytest.raises(InputError, match="approver"):
        runs.update_thread(store, settings, "refund-C1", values, as_node="review")
    assert readmodel.head_checkpoint_id(store, "refund-C1") == head


@pytest.mark.parametrize(
    "answer",
    [
        {"action": "approve", "approver": "automatic"},
        {"action": "reject", "approver": " "},
        {"action": "approve"},
        "approve",
    ],
)
def test_every_resume_path_needs_a_real_approver_name(store, settings, answer):
    start_case(store, settings)
    with pytest.raises(InputError):
        runs.resume_thread(store, settings, "refund-C1", answer)
    assert lifecycle.thread_status(store, "refund-C1").status == "waiting"


# --- 4. An invalid edit pays the full request ---------------------------------------------------------


@pytest.mark.parametrize("typed", ["99,999,999,999", "0", "-5", "400,001", "500,00", "１０００", "1_0", "12.5"])
def test_an_invalid_edit_on_the_page_is_explained_and_refused_when_sent(app, store, settings, typed):
    start_case(store, settings)
    at = app(PAGE)
    at.text_input(key="refund-approver").input("kim")
    at.text_input(key="refund-edit-amount-refund-C1").input(typed).run()
    assert not at.exception, at.exception
    assert "Cannot edit to this amount: New amount to pay (KRW):" in messages(at)
    assert not [m for m in at.metric if m.label == "After the edit"]  # no preview of another amount
    # The button follows no typed value (a browser sends one only as the field loses the focus, to the click):
    # its click is refused by the rules every path goes through, naming the field.
    button_by_key(at, "refund-edit").click().run()
    assert not at.exception, at.exception
    assert "Nothing was done: New amount to pay (KRW):" in messages(at)
    assert ledger.ledger_rows(store) == []
    button_by_key(at, "refund-approve").click().run()  # approving plainly is still possible, at the shown amount
    assert [r["paid_amount"] for r in ledger.ledger_rows(store)] == [400_000]


@pytest.mark.parametrize("typed", ["99,999,999,999", "0", "400,001"])
def test_an_invalid_edit_pays_nothing(app, store, settings, typed):
    start_case(store, settings)
    at = app(PAGE)
    at.text_input(key="refund-approver").input("kim")
    at.text_input(key="refund-edit-amount-refund-C1").input(typed).run()
    button_by_key(at, "refund-edit").click().run()
    at.text_input(key="refund-note-refund-C1").input("typed after the bad amount").run()
    button_by_key(at, "refund-edit").click().run()
    assert "Nothing was done: New amount to pay (KRW):" in messages(at)
    assert ledger.ledger_rows(store) == []
    assert runs.current_result(store, settings, "refund-C1").status == "waiting"


@pytest.mark.parametrize("amount", [0, -5, 400_001, 99_999_999_999, "400,001", "-1"])
def test_an_edit_outside_1_to_the_requested_amount_is_refused_on_every_path(store, settings, run_cli, amount):
    start_case(store, settings)
    head = readmodel.head_checkpoint_id(store, "refund-C1")
    answer = {"action": "edit", "amount": amount, "approver": "kim"}
    for attempt in (
        lambda: runs.resume_from_fields(store, settings, "refund-C1", answer),
        lambda: runs.resume_thread(store, settings, "refund-C1", answer),
        lambda: runs.update_thread(store, settings, "refund-C1", {"amount": amount}),
        lambda: runs.update_thread(store, settings, "refund-C1", {"amount": amount}, as_node="review"),
    ):
        with pytest.raises(InputError, match="amount"):
            attempt()
    assert run_cli("resume", "refund-C1", json.dumps(answer)).code == 2
    assert run_cli("update", "refund-C1", "--values", json.dumps({"amount": amount})).code == 2
    assert readmodel.head_checkpoint_id(store, "refund-C1") == head
    assert ledger.ledger_rows(store) == []


def test_the_requested_amount_itself_is_a_valid_edit(store, settings):
    start_case(store, settings)
    done = runs.resume_from_fields(
        store, settings, "refund-C1", {"action": "edit", "amount": 400_000, "approver": "kim"}
    )
    assert done.outcome == "paid" and ledger.ledger_rows(store)[0]["paid_amount"] == 400_000


# --- 10. Amounts read wrongly -------------------------------------------------------------------------


@pytest.mark.parametrize(
    "typed",
    [
        "500,00",
        "1,0,0",
        "1_0",
        "１０００００",
        "+500000",
        "500000.0",
        "500 000",
        "5e5",
        "٥٠٠٠٠٠",
        ",500",
        "500,",
        "0x10",
    ],
)
def test_the_cli_refuses_amounts_that_are_not_plain_or_grouped_digits(run_cli, typed):
    result = run_cli("run", "refund", "--case", "A", "--customer", "kim", "--amount", typed, "--reason", "r")
    assert result.code == 2 and "amount: must be a whole number" in result.err, result.err
    assert run_cli("ledger", "--json").out.strip() == "[]"
    assert run_cli("threads", "--json").out.strip() == "[]"


@pytest.mark.parametrize(
    ("typed", "amount"), [("500,000", 500_000), ("500000", 500_000), (" 1,000,000 ", 1_000_000), ("100", 100)]
)
def test_plain_and_comma_grouped_amounts_are_read(store, settings, typed, amount):
    result = start_refund(store, settings, "A", typed, customer="kim")
    assert result.values["requested_amount"] == amount


def test_the_page_form_uses_the_same_amount_grammar(app, store):
    at = app(PAGE)
    for typed in ("500,00", "1_0"):
        at.text_input(key="refund-new-case").input("A")
        at.text_input(key="refund-new-customer").input("kim")
        at.text_input(key="refund-new-amount").input(typed)
        at.text_area(key="refund-new-reason").input("r")
        next(b for b in at.button if b.label == "Submit request").click().run()
        assert "Amount (KRW): must be a whole number" in messages(at)
    assert threadindex.list_threads(store) == []


# --- 5 and 7. The case stays put; its controls go after a decision ------------------------------------


def test_after_a_decision_the_same_case_shows_its_outcome_without_controls(app, store, settings):
    start_case(store, settings, "B8", amount=900_000)
    start_case(store, settings, "X5", amount=400_000)
    at = app(PAGE)
    at.query_params["thread"] = "refund-B8"
    at.run()
    at.text_input(key="refund-approver").input("kim")
    button_by_key(at, "refund-approve").click().run()
    assert not at.exception, at.exception
    assert "Case B8: approve by kim → done · paid." in messages(at)
    assert at.selectbox(key="refund-case").value == "refund-B8"
    assert "refund-approve" not in _buttons(at) and "refund-reject" not in _buttons(at)
    assert any(s.value == "Outcome: paid" for s in at.success)
    labels = at.selectbox(key="refund-case").options  # as shown
    assert "B8 · 900,000 KRW · done · paid" in labels and "X5 · 400,000 KRW · waiting" in labels
    button_by_key(at, "refund-pitfall").click().run()  # an unrelated button
    assert at.selectbox(key="refund-case").value == "refund-B8"
    assert at.query_params["thread"] == "refund-B8"
    assert "refund-approve" not in _buttons(at)


def test_the_picker_selects_through_the_url_and_the_approver_name_survives(app, store, settings):
    start_case(store, settings, "B8", amount=900_000)
    start_case(store, settings, "X5", amount=400_000)
    at = app(PAGE)
    assert at.selectbox(key="refund-case").value == "refund-B8"  # largest waiting first
    at.text_input(key="refund-approver").input("kim")
    at.selectbox(key="refund-case").select("refund-X5").run()
    assert at.query_params["thread"] == "refund-X5"
    assert any("`refund-X5`" in m.value for m in at.markdown)
    assert at.text_input(key="refund-approver").value == "kim"
    runs.resume_from_fields(store, settings, "refund-X5", {"action": "approve", "approver": "lee"})  # another tab
    button_by_key(at, "refund-approve").click().run()
    assert at.query_params["thread"] == "refund-X5"
    assert "changed since this form was drawn" in messages(at) or "not waiting" in messages(at)
    assert [r["approver"] for r in ledger.ledger_rows(store)] == ["lee"]


def test_a_language_switch_keeps_the_case_and_the_approver_name(app, store, settings):
    start_case(store, settings, "B8", amount=900_000)
    start_case(store, settings, "X5", amount=400_000)
    at = app(PAGE)
    at.query_params["thread"] = "refund-X5"
    at.run()
    at.text_input(key="refund-approver").input("kim").run()
    at.selectbox(key="lang").select("ko").run()
    assert not at.exception, at.exception
    # (AppTest formats a selectbox's value outside the script, in English, so the test ends here.)
    assert at.selectbox(key="refund-case").value == "refund-X5"
    assert at.text_input(key="refund-approver").value == "kim"
    assert any(b.label == "승인" for b in at.button)


# --- 6. Links to a missing thread ---------------------------------------------------------------------


def test_a_link_to_a_missing_case_shows_a_notice_and_the_picker_only(app, store, settings):
    start_case(store, settings, "B8", amount=900_000)
    at = app(PAGE)
    at.query_params["thread"] = "nonexistent"
    at.run()
    assert not at.exception, at.exception
    assert "There is no refund case with thread nonexistent" in messages(at)
    assert at.selectbox(key="refund-case").value is None
    assert "refund-approve" not in _buttons(at) and "refund-edit" not in _buttons(at)
    at.selectbox(key="refund-case").select("refund-B8").run()
    assert "refund-approve" in _buttons(at)


def test_a_link_to_a_missing_lecture_thread_keeps_the_picker(app, store, settings):
    from agents.registry import get_agent

    values = {field.name: field.default for field in get_agent("lecture").run.start_fields}
    runs.start_run(store, settings, "lecture", values, thread_id="lec-1")
    at = app("app_pages/lecture.py")
    at.query_params["thread"] = "nonexistent"
    at.run()
    assert not at.exception, at.exception
    assert "There is no lecture thread named nonexistent" in messages(at)
    picker = next(s for s in at.selectbox if any(o.startswith("lec-1 · ") for o in s.options))
    assert picker.value is None
    picker.select("lec-1").run()
    assert at.query_params["thread"] == "lec-1"


# --- A case needing attention is shown with its way out -----------------------------------------------


def test_a_case_stopped_before_settle_is_shown_and_continued_from_the_page(app, store, settings):
    start_case(store, settings)
    graph = runtime.graph(store, "refund")
    from agents.registry import get_agent

    # What a process killed between review and settle leaves (the real kill: test_kill_points).
    graph.update_state(
        runs.run_config(get_agent("refund"), "refund-C1"),
        {"decision": "approve", "approver": "kim", "decided_at": "t"},
        as_node="review",
    )
    at = app(PAGE)
    assert "This case needs attention" in messages(at)
    button_by_key(at, "refund-continue").click().run()
    assert not at.exception, at.exception
    assert [(r["paid_amount"], r["approver"]) for r in ledger.ledger_rows(store)] == [(400_000, "kim")]
    assert lifecycle.thread_status(store, "refund-C1").outcome == "paid"


# --- 9. The explorer cannot break a thread ------------------------------------------------------------


def test_a_failing_fork_is_a_message_the_thread_needs_attention_and_the_old_head_is_one_click_away(
    app, store, settings
):
    runs.start_run(store, settings, "robot", {})
    runs.resume_thread(store, settings, "hitl_demo", "yes")
    old_head = readmodel.head_checkpoint_id(store, "hitl_demo")
    first = readmodel.checkpoint_chain(store, "hitl_demo")[0]
    at = app("app_pages/explorer.py")
    at.selectbox(key="explorer-checkpoint-hitl_demo").select(first.checkpoint_id).run()
    at.text_area(key=f"explorer-fork-values-{first.checkpoint_id}").input('{"decision": "no"}')
    at.selectbox(key="explorer-fork-asnode-hitl_demo").select("approval")
    at.checkbox(key="explorer-fork-continue-hitl_demo").check()
    at.button(key="FormSubmitter:explorer-fork-hitl_demo-Fork").click().run()
    assert not at.exception, at.exception
    assert "A step failed" in messages(at) and "KeyError" in messages(at)
    status = lifecycle.thread_status(store, "hitl_demo")
    assert (status.status, status.reason_code) == ("attention", "error")
    assert "hitl_demo" in inbox_ids(store)
    at.run()
    assert at.selectbox(key="explorer-checkpoint-hitl_demo").value == old_head
    button_by_key(at, "explorer-restore-hitl_demo").click().run()
    assert not at.exception, at.exception
    restored = runs.current_result(store, settings, "hitl_demo")
    assert (restored.status, restored.outcome) == ("done", "executed")
    assert restored.values["messages"][-1].content.startswith("Executed")
    robot = app("app_pages/robot.py")
    assert not robot.exception
    assert any(x.value.startswith("Executed") for x in robot.text)


# --- Found by the property test ------------------------------------------------------------------------


def _stopped_before(store, case, node, amount=400_000):
    """A case whose process stopped before ``node`` ran (as after a kill there)."""
    from agents.refund.spec import make_input
    from agents.registry import get_agent

    config = runs.run_config(get_agent("refund"), f"refund-{case}")
    runtime.graph(store, "refund").invoke(
        make_input({"case_id": case, "customer": "c", "amount": amount, "reason": "r"}), config, interrupt_before=[node]
    )
    return f"refund-{case}"


@pytest.mark.parametrize("values", [{"amount": 1}, {"approver": "kim"}, {"decision": "reject", "approver": "kim"}])
@pytest.mark.parametrize("as_node", [None, "assess", "review"])
def test_a_case_not_yet_assessed_cannot_be_edited(store, settings, values, as_node):
    thread = _stopped_before(store, "N", "assess")
    head = readmodel.head_checkpoint_id(store, thread)
    with pytest.raises(InputError, match="before assess opened the case"):
        runs.update_thread(store, settings, thread, values, as_node=as_node)
    assert readmodel.head_checkpoint_id(store, thread) == head
    done = runs.continue_thread(store, settings, thread)
    assert done.status == "waiting"


def test_a_fork_from_before_assess_is_refused(store, settings):
    start_case(store, settings)
    first = readmodel.checkpoint_chain(store, "refund-C1")[0]
    with pytest.raises(InputError, match="from before assess"):
        runs.update_thread(
            store, settings, "refund-C1", {"amount": 5}, as_node="assess", checkpoint_id=first.checkpoint_id
        )


def test_a_rejection_by_update_reaches_reject_even_when_the_amount_would_settle(store, monkeypatch, db_path):
    from agents.runtime import load_settings

    monkeypatch.setenv("HITL_REFUND_POLICY", "reroute")
    reroute = load_settings(db_override=str(db_path), secrets={})
    start_case(store, reroute)
    done = runs.update_thread(store, reroute, "refund-C1", {"amount": 50_000, "decision": "reject", "approver": "kim"})
    assert (done.status, done.outcome) == ("done", "rejected")
    assert ledger.ledger_rows(store) == []


def test_a_small_case_stopped_before_settle_can_still_be_rejected(store, settings):
    thread = _stopped_before(store, "S", "settle", amount=50_000)
    assert lifecycle.thread_status(store, thread).status == "attention"
    done = runs.update_thread(store, settings, thread, {"decision": "reject", "approver": "kim"})
    assert (done.status, done.outcome) == ("done", "rejected")
    assert ledger.ledger_rows(store) == []


def test_stale_controls_survive_a_rerun_from_typing_so_the_late_click_is_refused_not_lost(app, store, settings):
    start_case(store, settings)
    at = app(PAGE)
    runs.resume_from_fields(
        store, settings, "refund-C1", {"action": "approve", "approver": "lee"}
    )  # another tab, first
    at.text_input(key="refund-approver").input("park").run()  # typing reruns the page before the click
    assert not at.exception, at.exception
    assert "This case changed since your controls were drawn" in messages(at)
    button_by_key(at, "refund-approve").click().run()
    assert "changed since this form was drawn" in messages(at) or "not waiting" in messages(at)
    assert [r["approver"] for r in ledger.ledger_rows(store)] == ["lee"]
    at.run()  # after the refusal the case is shown as it is: no controls
    assert "refund-approve" not in _buttons(at)
    assert any(s.value == "Outcome: paid" for s in at.success)


def test_a_refund_decision_sent_to_another_agents_thread_is_refused_and_changes_nothing(store, settings):
    pause_robot(store, settings)
    head = readmodel.head_checkpoint_id(store, "hitl_demo")
    with pytest.raises(InputError, match="thread_id: thread 'hitl_demo' belongs to the robot agent, not refund"):
        runs.resume_from_fields(store, settings, "hitl_demo", {"answer": "yes"}, agent="refund")
    assert readmodel.head_checkpoint_id(store, "hitl_demo") == head
    assert runs.current_result(store, settings, "hitl_demo").status == "waiting"


@pytest.mark.parametrize(
    ("assessed", "restarted", "outcome"), [("strict", "reroute", "waiting"), ("reroute", "strict", "paid")]
)
def test_a_case_keeps_its_policy_when_the_process_restarts_with_the_other(store, assessed, restarted, outcome):
    """Routed and settled by the policy it was assessed under: an edit never reaches a settle that refuses it."""
    before = runtime.load_settings(db_override=store.path, environ={"HITL_REFUND_POLICY": assessed}, secrets={})
    start_refund(store, before, "P1", 100_001)
    after = runtime.load_settings(db_override=store.path, environ={"HITL_REFUND_POLICY": restarted}, secrets={})
    result = runs.update_thread(store, after, "refund-P1", {"amount": 50_000}, as_node="assess")
    assert (result.status if outcome == "waiting" else result.outcome) == outcome
    payout = ledger.payout_for(store, "P1")
    assert (payout["paid_amount"] if payout else None) == (None if outcome == "waiting" else 50_000)
