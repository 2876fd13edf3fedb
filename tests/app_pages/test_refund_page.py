"""AppTest for the refund page: new request, queue, approve, edit, reject, stale refusal, pitfall."""

from __future__ import annotations

import functools

from agents import runs
from agents.refund import ledger
from dashboard import diff_view
from dashboard.case_panel import entries_caption
from tests.factories import button_by_key, start_refund

PAGE = "app_pages/refund.py"
#: This file's cases give a reason that looks like HTML, to see it shown as text.
start_case = functools.partial(start_refund, reason="<b>broken</b>")


def _messages(at):
    """The error and success messages only (``tests.factories.messages`` also reads warnings and info)."""
    return " ".join(e.value for e in [*at.error, *at.success])


def _submit_new(at, case="C1", customer="홍길동", amount="500,000", reason="파손"):
    at.text_input(key="refund-new-case").input(case)
    at.text_input(key="refund-new-customer").input(customer)
    at.text_input(key="refund-new-amount").input(amount)
    at.text_area(key="refund-new-reason").input(reason)
    next(b for b in at.button if b.label == "Submit request").click().run()


def test_new_request_enters_the_queue_and_is_selected(app, store, settings):
    at = app(PAGE)
    _submit_new(at)
    assert not at.exception, at.exception
    assert "Case C1 submitted: waiting." in _messages(at)
    assert at.selectbox(key="refund-case").value == "refund-C1"
    assert [m.value for m in at.metric][:3] == ["500,000 KRW", "500,000 KRW", "—"]
    assert runs.current_result(store, settings, "refund-C1").status == "waiting"
    assert any("The review node was entered once (node log: interrupted)" in c.value for c in at.caption)


def test_new_request_bad_amount_and_reused_case_are_refused(app, store, settings):
    at = app(PAGE)
    _submit_new(at, amount="abc")
    assert "Amount (KRW): must be a whole number" in _messages(at)
    _submit_new(at, customer=" ")
    assert "Customer: is empty" in _messages(at)
    _submit_new(at)
    _submit_new(at, amount="1000")
    assert "Case id: case 'C1' already exists" in _messages(at)
    assert len(ledger.audit_rows(store)) == 1


def test_queue_is_oldest_first_and_text_is_shown_as_text(app, store, settings):
    start_case(store, settings, "SMALL", 200_000)
    start_case(store, settings, "BIG", 900_000)
    at = app(PAGE)
    queue = at.dataframe[0].value
    assert list(queue.iloc[:, 0]) == ["SMALL", "BIG"]  # the one that has waited longest, whatever its amount
    assert at.selectbox(key="refund-case").value == "refund-SMALL"
    assert "<b>broken</b>" in [x.value for x in at.text]  # the reason, never interpreted as HTML


def test_approve_pays_once_and_shows_the_ledger(app, store, settings):
    start_case(store, settings)
    at = app(PAGE)
    at.text_input(key="refund-approver").input("kim")
    button_by_key(at, "refund-approve").click().run()
    assert not at.exception, at.exception
    assert "Case C1: approve by kim → done · paid." in _messages(at)
    assert [(r["paid_amount"], r["approver"]) for r in ledger.ledger_rows(store)] == [(500_000, "kim")]
    assert any("The review node was entered 2 times (node log: interrupted, ok)" in c.value for c in at.caption)
    assert "settle: paid 500,000 KRW (requested 500,000), approved by kim" in "\n".join(x.value for x in at.text)


def test_approve_without_an_approver_is_refused(app, store, settings):
    start_case(store, settings)
    at = app(PAGE)
    button_by_key(at, "refund-approve").click().run()
    assert "Approver: is required" in _messages(at)
    assert runs.current_result(store, settings, "refund-C1").status == "waiting"


def test_edit_shows_the_difference_then_pays_the_new_amount(app, store, settings):
    start_case(store, settings)
    at = app(PAGE)
    at.text_input(key="refund-approver").input("kim")
    at.text_input(key="refund-edit-amount-refund-C1").input("50,000").run()
    preview = next(m for m in at.metric if m.label == "After the edit")
    assert preview.value == "50,000 KRW" and preview.delta == "-450,000 KRW"
    button_by_key(at, "refund-edit").click().run()
    assert not at.exception, at.exception
    row = ledger.ledger_rows(store)[0]
    assert (row["requested_amount"], row["paid_amount"]) == (500_000, 50_000)
    assert "amount 500,000 → 50,000 by kim" in "\n".join(x.value for x in at.text)


def test_reject_records_the_rejection(app, store, settings):
    start_case(store, settings)
    at = app(PAGE)
    at.text_input(key="refund-approver").input("lee")
    button_by_key(at, "refund-reject").click().run()
    assert "Case C1: reject by lee → done · rejected." in _messages(at)
    assert ledger.ledger_rows(store) == []
    assert any(s.value == "Outcome: rejected" for s in at.success)


def test_a_stale_page_is_refused_and_pays_nothing_more(app, store, settings):
    start_case(store, settings)
    at = app(PAGE)
    # Another tab approves first.
    runs.resume_thread(store, settings, "refund-C1", {"action": "approve", "approver": "lee"})
    at.text_input(key="refund-approver").input("kim")
    button_by_key(at, "refund-approve").click().run()
    assert "changed since this form was drawn" in _messages(at)
    assert [r["approver"] for r in ledger.ledger_rows(store)] == ["lee"]


def test_update_state_in_the_sidebar_then_continue(app, store, settings):
    start_case(store, settings)
    at = app(PAGE)
    at.sidebar.text_input(key="update-amount-refund-C1").input("50,000")
    at.sidebar.checkbox(key="update-continue-refund-C1").check()
    at.sidebar.button[1].click().run()
    assert not at.exception, at.exception
    result = runs.current_result(store, settings, "refund-C1")
    assert result.status == "waiting" and result.interrupts[0]["amount"] == 50_000
    assert at.sidebar.selectbox(key="update-decision-refund-C1").options == ["—", "approve", "reject"]


def test_pitfall_demo_beside_the_saved_run(app, store, settings):
    start_case(store, settings)
    at = app(PAGE)
    button_by_key(at, "refund-pitfall").click().run()
    assert not at.exception, at.exception
    texts = [x.value for x in at.text]
    assert "Asking for its saved state to resume: No checkpointer set" in texts
    assert any(x.startswith("Thread refund-C1 waits at review") for x in texts)
    assert at.json[0].value and "PITFALL-DEMO" in at.json[0].value
    assert ledger.ledger_rows(store) == []


def test_korean_labels(app, store, settings):
    at = app(PAGE)
    at.selectbox(key="lang").select("ko").run()
    assert any(b.label == "요청 제출" for b in at.button)


def test_sidebar_resume_form_takes_typed_fields(app, store, settings):
    start_case(store, settings)
    at = app(PAGE)
    at.sidebar.selectbox(key="resume-action-refund-C1").select("edit")
    at.sidebar.text_input(key="resume-amount-refund-C1").input("70,000")
    at.sidebar.text_input(key="resume-approver-refund-C1").input("park")
    at.sidebar.button[0].click().run()
    assert not at.exception, at.exception
    assert "Resumed thread refund-C1: done · paid." in _messages(at)
    assert [(r["paid_amount"], r["approver"]) for r in ledger.ledger_rows(store)] == [(70_000, "park")]


def test_a_case_waiting_on_its_items_counts_the_item_node_that_asked(app, store, settings, monkeypatch):
    """Items wait in the ``item`` node (one task per item; A-2 is below the threshold and pays itself)."""
    items = [{"item": "A-1", "amount": 300_000}, {"item": "A-2", "amount": 80_000}, {"item": "A-3", "amount": 200_000}]
    runs.start_run(store, settings, "refund", {"case_id": "M1", "customer": "kim", "reason": "r", "items": items})
    at = app(PAGE)
    assert not at.exception, at.exception
    captions = [c.value for c in at.caption]
    assert any(c.startswith("The item node was entered 3 times (node log: ") for c in captions), captions
    assert not any("The review node" in c for c in captions)
    monkeypatch.setattr("dashboard.i18n.current_language", lambda: "ko")
    assert entries_caption("item", ["interrupted"]).startswith("item 노드 진입 횟수: 1회 (노드 로그: ")
    assert entries_caption("item", ["interrupted", "ok"]).startswith("item 노드 진입 횟수: 2회 (노드 로그: ")


def test_an_items_case_still_waiting_shows_what_is_paid_so_far_and_what_waits(app, store, settings, monkeypatch):
    """A-2 (80,000) pays itself; A-1 and A-3 (500,000) wait: not a 500,000 cut."""
    items = [{"item": "A-1", "amount": 300_000}, {"item": "A-2", "amount": 80_000}, {"item": "A-3", "amount": 200_000}]
    runs.start_run(store, settings, "refund", {"case_id": "M1", "customer": "kim", "reason": "r", "items": items})
    at = app(PAGE)
    assert not at.exception, at.exception
    shown = "\n".join(m.value for m in at.markdown)
    assert "amount: 580,000 KRW requested · 80,000 KRW paid so far · 500,000 KRW waiting" in shown
    assert "-500,000" not in shown
    monkeypatch.setattr("dashboard.i18n.current_language", lambda: "ko")
    assert (
        diff_view.amount_words(580_000, None, False, 500_000)
        == "금액: 요청 580,000원 · 지금까지 지급 0원 · 대기 중 500,000원"
    )
