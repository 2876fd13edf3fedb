"""The request a form sent, sent again (a double click), is known as that request only while the thread its start
made has had no other run; any other request is left to be refused."""

from __future__ import annotations

from typing import Any

from agents import runs
from dashboard.resubmission import SENT_KEY, sending, sent_again

FORM = "refund-new"
VALUES = {"case_id": "F2", "customer": "kim", "amount": "500,000", "items": None, "reason": "r"}


def _send(store: Any, settings: Any, state: dict[str, Any], values: dict[str, Any] = VALUES) -> None:
    runs.start_run(store, settings, "refund", dict(values), run_id=sending(state, FORM, values))


def test_the_same_request_again_names_the_thread_its_start_made(store, settings):
    state: dict[str, Any] = {}
    _send(store, settings, state)
    assert state[SENT_KEY].values == VALUES
    assert sent_again(store, state, FORM, dict(VALUES)) == "refund-F2"


def test_another_request_or_a_thread_moved_on_or_not_this_sessions_is_not_the_one_sent(store, settings):
    state: dict[str, Any] = {}
    _send(store, settings, state)
    assert sent_again(store, state, FORM, {**VALUES, "amount": "400,000"}) is None  # another request for the case
    assert sent_again(store, state, "another-form", dict(VALUES)) is None
    assert sent_again(store, {}, FORM, dict(VALUES)) is None  # this session sent nothing

    other: dict[str, Any] = {}
    sending(other, FORM, VALUES)  # another session's click, whose start another's had made first
    assert sent_again(store, other, FORM, dict(VALUES)) is None

    runs.resume_from_fields(store, settings, "refund-F2", {"action": "approve", "approver": "lee"})
    assert sent_again(store, state, FORM, dict(VALUES)) is None  # decided since: no longer just sent


def test_the_same_request_again_keeps_the_run_id_it_was_first_sent_under(store, settings):
    state: dict[str, Any] = {}
    first = sending(state, FORM, VALUES)
    assert sending(state, FORM, dict(VALUES)) == first  # a second (and third) click of a double click
    assert sending(state, FORM, {**VALUES, "case_id": "F3"}) != first
