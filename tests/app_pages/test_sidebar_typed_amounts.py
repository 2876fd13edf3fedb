"""The sidebar's typed whole numbers are read as typed, by the grammar of every typed amount.

The forms drew an ``int`` field as a number box, which the browser reads on its own terms: ``1e9`` became 1 when
the box lost focus, and a submit then paid 1 KRW on a 10,000,000 KRW case, saying nothing (``5e5``, meant as
500,000, paid 5). The field is text now, read by ``agents.validation.parse_whole_number`` as the refund page's
edit box reads it: ``1e9``, ``5e5``, ``-1``, ``1.5`` and ``12.000`` are refused, naming the field, and nothing
changes; ``12,000`` and ``500000`` are read as they always were.
"""

from __future__ import annotations

import pytest

from agents import runs
from agents.errors import InputError
from agents.refund import ledger
from agents.registry import AGENTS
from agents.validation import parse_whole_number
from dashboard.i18n import t
from tests.factories import messages, start_refund

PAGE = "app_pages/refund.py"
THREAD = "refund-C6"
UNREADABLE = ["1e9", "5e5", "-1", "1.5", "12.000"]
#: Every ``int`` field the sidebar's typed forms draw: (agent, form, field).
INT_FIELDS = [
    (agent, form, field.name)
    for agent, spec in AGENTS.items()
    for form, fields in (("resume", spec.ask.resume_fields), ("update", spec.edit.state_fields))
    for field in fields
    if field.kind == "int"
]


def _grammar_refusal(text: str) -> str:
    """What the parser says of ``text`` typed as the amount (the English of ``error.number_grammar``)."""
    with pytest.raises(InputError) as refused:
        parse_whole_number(text, "amount")
    return refused.value.message


def _waiting_case(app, store, settings):
    start_refund(store, settings, "C6", 10_000_000)
    at = app(PAGE)
    at.query_params["thread"] = THREAD
    at.run()
    assert not at.exception, at.exception
    return at


def _resume_edit(at, amount: str):
    at.sidebar.selectbox(key=f"resume-action-{THREAD}").select("edit")
    at.sidebar.text_input(key=f"resume-amount-{THREAD}").input(amount)
    at.sidebar.text_input(key=f"resume-approver-{THREAD}").input("park")
    next(b for b in at.sidebar.button if b.label == t("forms.resume.submit")).click().run()
    assert not at.exception, at.exception


def _update_amount(at, amount: str):
    at.sidebar.text_input(key=f"update-amount-{THREAD}").input(amount)
    next(b for b in at.sidebar.button if b.label == t("forms.update.submit")).click().run()
    assert not at.exception, at.exception


def test_the_only_int_fields_are_the_refunds_amounts():
    """If another agent gains an ``int`` field, the page tests below must cover it too."""
    assert INT_FIELDS == [("refund", "resume", "amount"), ("refund", "update", "amount")]


def test_every_int_field_of_the_sidebar_forms_is_typed_text(app, store, settings):
    at = _waiting_case(app, store, settings)
    assert not at.sidebar.number_input  # a number box reads 1e9 as 1, and says nothing
    keys = {w.key for w in at.sidebar.text_input}
    assert {f"{form}-{name}-{THREAD}" for _, form, name in INT_FIELDS} <= keys


@pytest.mark.parametrize("typed", UNREADABLE)
def test_resume_refuses_an_amount_that_is_no_whole_number_and_pays_nothing(app, store, settings, typed):
    at = _waiting_case(app, store, settings)
    _resume_edit(at, typed)
    said = messages(at)
    assert t("forms.refused") in said and "Amount (KRW)" in said and _grammar_refusal(typed) in said, said
    assert runs.current_result(store, settings, THREAD).status == "waiting"
    assert ledger.ledger_rows(store) == []


@pytest.mark.parametrize("typed", UNREADABLE)
def test_update_state_refuses_an_amount_that_is_no_whole_number_and_changes_nothing(app, store, settings, typed):
    at = _waiting_case(app, store, settings)
    before = runs.current_result(store, settings, THREAD).head_checkpoint_id
    _update_amount(at, typed)
    said = messages(at)
    assert t("forms.refused") in said and "Amount (KRW)" in said and _grammar_refusal(typed) in said, said
    after = runs.current_result(store, settings, THREAD)
    assert after.values["amount"] == 10_000_000 and after.head_checkpoint_id == before
    assert ledger.ledger_rows(store) == []


@pytest.mark.parametrize(("typed", "read"), [("12,000", 12_000), ("500000", 500_000), (" 5,000,000 ", 5_000_000)])
def test_resume_reads_whole_numbers_as_before(app, store, settings, typed, read):
    at = _waiting_case(app, store, settings)
    _resume_edit(at, typed)
    assert f"Resumed thread {THREAD}: done · paid." in messages(at)
    assert [(r["requested_amount"], r["paid_amount"]) for r in ledger.ledger_rows(store)] == [(10_000_000, read)]


@pytest.mark.parametrize(("typed", "read"), [("12,000", 12_000), ("300000", 300_000)])
def test_update_state_reads_whole_numbers_as_before(app, store, settings, typed, read):
    at = _waiting_case(app, store, settings)
    _update_amount(at, typed)
    assert f"Updated thread {THREAD}" in messages(at)
    assert runs.current_result(store, settings, THREAD).values["amount"] == read


def test_a_blank_amount_is_not_given(app, store, settings):
    """Spaces alone are no amount: an update of nothing else is refused as one with no values, not as a number."""
    at = _waiting_case(app, store, settings)
    _update_amount(at, "   ")
    assert t("forms.refused") in messages(at) and "Amount (KRW)" not in messages(at)
    assert runs.current_result(store, settings, THREAD).values["amount"] == 10_000_000


def test_a_stale_resume_with_an_unreadable_amount_is_refused_as_stale(app, store, settings):
    """Text that reads as no number is sent as typed, as the page's edit box sends it: a form drawn before the
    thread moved on is refused as stale first, so its next submit is not taken for one typed at the new head."""
    at = _waiting_case(app, store, settings)
    runs.update_thread(store, settings, THREAD, {"amount": 9_000_000})  # another tab, after the form was drawn
    _resume_edit(at, "1e9")
    assert "changed since this form was drawn" in messages(at), messages(at)
    assert ledger.ledger_rows(store) == []


def test_read_typed_numbers_reads_only_int_fields():
    from dashboard.forms import read_typed_numbers  # here: the page tests above run on forms without it too

    spec = AGENTS["refund"]
    values, unreadable = read_typed_numbers(spec.ask.resume_fields, {"action": "1e9", "amount": "1e9"})
    assert values == {"action": "1e9", "amount": "1e9"} and set(unreadable) == {"amount"}
    assert str(unreadable["amount"]).startswith("amount:")
    values, unreadable = read_typed_numbers(spec.edit.state_fields, {"amount": "12,000", "note": "12,000"})
    assert values == {"amount": 12_000, "note": "12,000"} and unreadable == {}
