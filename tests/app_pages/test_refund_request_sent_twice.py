"""A double click on the refund page's "Submit request" sends the request twice: the second run is said as the
first was (the case sent, and selected), not refused as a case that already exists, which made an approver enter
it again under a new id. The browser's second run carries the address it had before the first selected the new
case (``tests/browser/test_request_double_click_flow.py`` clicks twice in Chromium, where the second click also
cuts the first's callback short after its start); here that run is given it. Another request is still refused.
"""

from __future__ import annotations

from typing import Any

import pytest

from agents import runs
from app_pages.refund_request import FORM
from dashboard.resubmission import SENT_KEY, sending
from tests.factories import button_by_key

PAGE = "app_pages/refund.py"


def _fill(at: Any, case: str, amount: str = "500,000") -> None:
    at.text_input(key="refund-new-case").input(case)
    at.text_input(key="refund-new-customer").input("kim")
    at.text_input(key="refund-new-amount").input(amount)
    at.text_area(key="refund-new-reason").input("broken")


def _submit(at: Any, address: str | None = None) -> None:
    if address is not None:  # the address the browser sends with the click
        at.query_params["thread"] = address
    next(b for b in at.button if b.label == "Submit request").click().run()
    assert not at.exception, at.exception


def _said(at: Any) -> list[str]:
    """What the form's box says a request came to (sent, or refused)."""
    return [box.value for box in [*at.success, *at.error] if "submitted" in box.value or "Nothing" in box.value]


def _double_click(at: Any) -> None:
    """Submits the form, then submits it again from the address the page had before the first."""
    before = at.query_params["thread"]
    _submit(at)
    _submit(at, address=before[0] if isinstance(before, list) else before)


def test_a_request_sent_twice_is_said_once_as_sent_and_its_case_selected(app, store, settings):
    at = app(PAGE)
    _fill(at, "F1")
    _submit(at)
    assert _said(at) == ["Case F1 submitted: waiting."]
    _fill(at, "F2")  # only the case id changed
    _double_click(at)
    assert _said(at) == ["Case F2 submitted: waiting."], _said(at)
    assert at.query_params["thread"] in ("refund-F2", ["refund-F2"])
    assert at.selectbox(key="refund-case").value == "refund-F2"
    assert runs.current_result(store, settings, "refund-F2").status == "waiting"


@pytest.mark.parametrize("changed", ["amount", "decided"])
def test_another_request_for_the_case_sent_is_still_refused(app, store, settings, changed):
    at = app(PAGE)
    _fill(at, "F3")
    _submit(at)
    assert _said(at) == ["Case F3 submitted: waiting."]
    if changed == "amount":  # another request for the same case
        _fill(at, "F3", amount="400,000")
    else:  # the same request once the case moved on: "submitted: waiting" is no longer so
        at.text_input(key="refund-approver").input("lee")
        button_by_key(at, "refund-approve").click().run()
    _submit(at)
    said = _said(at)
    assert len(said) == 1 and said[0].startswith("Nothing was done: Case id: case 'F3' already exists"), said


def test_a_first_click_cut_short_after_its_start_is_said_by_the_second(app, store, settings):
    """In a browser the second click stops the first's callback after its start, before it says anything."""
    at = app(PAGE)
    _fill(at, "F4")
    values = {"case_id": "F4", "customer": "kim", "amount": "500,000", "items": None, "reason": "broken"}
    recorded: dict[str, Any] = {}
    run_id = sending(recorded, FORM, values)  # what the first click's callback recorded before its start ...
    at.session_state[SENT_KEY] = recorded[SENT_KEY]
    runs.start_run(store, settings, "refund", dict(values), run_id=run_id)  # ... and the start it made
    _submit(at)  # the second click
    assert _said(at) == ["Case F4 submitted: waiting."], _said(at)
    assert at.query_params["thread"] in ("refund-F4", ["refund-F4"])
