"""``runs.resume_from_fields`` refuses a form drawn for another head as stale before it reads the form's fields:
an approver left empty on a case decided since is no reason to give (the case is paid). Without an expected
head, or with the thread's own, the fields are checked as before."""

from __future__ import annotations

import pytest

from agents import readmodel, runs
from agents.errors import InputError, StaleFormError
from agents.refund import ledger
from tests.factories import start_refund

THREAD = "refund-E1"


@pytest.mark.parametrize(
    "fields",
    [
        {"action": "approve", "approver": ""},
        {"action": "reject"},
        {"action": "edit", "approver": "", "amount": "abc"},
        {"action": "edit", "approver": "park", "amount": 0},
        {"action": "nonsense", "unknown": 1},
    ],
)
def test_a_stale_form_is_refused_as_stale_whatever_its_fields_hold(store, settings, fields):
    start_refund(store, settings, "E1", 300_000)
    drawn_for = readmodel.head_checkpoint_id(store, THREAD)
    runs.resume_from_fields(store, settings, THREAD, {"action": "approve", "approver": "lee"})  # decided elsewhere

    with pytest.raises(StaleFormError) as refused:
        runs.resume_from_fields(store, settings, THREAD, fields, agent="refund", expected_head=drawn_for)
    assert "changed since this form was drawn" in str(refused.value)
    assert [(row["paid_amount"], row["approver"]) for row in ledger.ledger_rows(store)] == [(300_000, "lee")]


def test_fields_are_still_checked_on_the_head_they_were_drawn_for_and_without_one(store, settings):
    start_refund(store, settings, "E1", 300_000)
    head = readmodel.head_checkpoint_id(store, THREAD)
    for expected in (head, None):
        with pytest.raises(InputError) as refused:
            runs.resume_from_fields(
                store, settings, THREAD, {"action": "approve", "approver": ""}, expected_head=expected
            )
        assert refused.value.field == "approver"
    done = runs.resume_from_fields(
        store, settings, THREAD, {"action": "approve", "approver": "lee"}, expected_head=head
    )
    assert done.status == "done" and [row["approver"] for row in ledger.ledger_rows(store)] == ["lee"]
