"""The refund page tells the approver's own sidebar action from another approver's."""

from __future__ import annotations

from agents import runs
from agents.refund import ledger
from tests.factories import button_by_key, messages, start_refund

PAGE = "app_pages/refund.py"


def _resume_in_sidebar(at, approver: str) -> None:
    at.sidebar.selectbox(key="resume-action-refund-C1").select("approve")
    at.sidebar.text_input(key="resume-approver-refund-C1").input(approver)
    at.sidebar.button[0].click().run()


def test_my_sidebar_approval_shows_the_case_as_paid_without_stale_controls(app, store, settings):
    start_refund(store, settings)
    at = app(PAGE)
    _resume_in_sidebar(at, "lee")
    assert not at.exception, at.exception
    assert "Resumed thread refund-C1: done · paid." in messages(at)
    assert not any("changed since your controls were drawn" in w.value for w in at.warning)
    assert not any(b.key in ("refund-approve", "refund-reject") for b in at.button)
    assert any(s.value == "Outcome: paid" for s in at.success)
    at.run()  # and on the next run, too
    assert not any("changed since your controls were drawn" in w.value for w in at.warning)


def test_another_approvers_decision_still_keeps_the_controls_with_a_notice(app, store, settings):
    start_refund(store, settings)
    at = app(PAGE)
    runs.resume_thread(store, settings, "refund-C1", {"action": "approve", "approver": "kim"})  # another tab
    at.run()
    assert any("changed since your controls were drawn" in w.value for w in at.warning)
    at.text_input(key="refund-approver").input("lee")
    button_by_key(at, "refund-reject").click().run()
    assert "changed since this form was drawn" in messages(at)
    assert [r["approver"] for r in ledger.ledger_rows(store)] == ["kim"]
