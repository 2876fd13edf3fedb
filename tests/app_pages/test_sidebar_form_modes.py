"""The sidebar forms show their mode: typed fields or a raw value, never both, and every refusal says why."""

from __future__ import annotations

import json

from agents import runs
from agents.refund import ledger
from tests.factories import messages, start_refund

PAGE = "app_pages/refund.py"


def _keys(at):
    return {w.key for kind in ("text_area", "text_input", "number_input", "selectbox") for w in at.sidebar.get(kind)}


def test_a_form_shows_only_the_inputs_of_its_mode(app, store, settings):
    start_refund(store, settings)
    at = app(PAGE)
    keys = _keys(at)
    assert "resume-action-refund-C1" in keys and "resume-rawvalue-refund-C1" not in keys
    assert "update-decision-refund-C1" in keys and "update-rawvalue-refund-C1" not in keys
    at.sidebar.toggle(key="update-raw-refund-C1").set_value(True).run()  # redraws at once, outside the form
    keys = _keys(at)
    assert "update-rawvalue-refund-C1" in keys and "update-decision-refund-C1" not in keys
    assert "resume-action-refund-C1" in keys  # the other form keeps its own mode
    assert any(c.value.startswith("Raw mode: sends the text below as it is") for c in at.sidebar.caption)


def test_raw_mode_turns_off_after_a_submit_that_worked(app, store, settings):
    start_refund(store, settings)
    at = app(PAGE)
    at.sidebar.toggle(key="update-raw-refund-C1").set_value(True).run()
    at.sidebar.text_area(key="update-rawvalue-refund-C1").input('{"amount": 60000}')
    next(b for b in at.sidebar.button if b.label == "Update state").click().run()
    assert not at.exception, at.exception
    assert runs.current_result(store, settings, "refund-C1").values["amount"] == 60_000
    assert at.sidebar.toggle(key="update-raw-refund-C1").value is False
    assert "update-decision-refund-C1" in _keys(at)  # the typed fields are back, to be used as shown


def test_a_number_outside_its_bounds_is_refused_with_a_message(app, store, settings):
    start_refund(store, settings)
    at = app(PAGE)
    at.sidebar.selectbox(key="resume-action-refund-C1").select("edit")
    # Typed text, with no bound drawn in the browser (a number box marks 0 red and never sends it, and the submit
    # then does nothing): the bounds are the rule's, on the server, which answers with a message.
    at.sidebar.text_input(key="resume-amount-refund-C1").input("0")
    at.sidebar.text_input(key="resume-approver-refund-C1").input("park")
    at.sidebar.button[0].click().run()
    assert not at.exception, at.exception
    assert "Amount (KRW):" in messages(at) and "0" in messages(at)
    assert runs.current_result(store, settings, "refund-C1").status == "waiting"
    assert ledger.ledger_rows(store) == []


def test_the_raw_resume_form_takes_a_decision_in_langchains_shape(app, store, settings):
    start_refund(store, settings)
    at = app(PAGE)
    at.sidebar.toggle(key="resume-raw-refund-C1").set_value(True).run()
    edit = {"type": "edit", "edited_action": {"name": "pay_refund", "args": {"amount": 70000}}}
    at.sidebar.text_area(key="resume-rawvalue-refund-C1").input(json.dumps({"decisions": [edit], "approver": "kim"}))
    next(b for b in at.sidebar.button if b.label == "Resume").click().run()
    assert not at.exception, at.exception
    assert [(r["paid_amount"], r["approver"]) for r in ledger.ledger_rows(store)] == [(70_000, "kim")]
