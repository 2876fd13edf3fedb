"""AppTest: the refund page's request form refuses a case id that reads as an existing case's (``c1`` for
``C1``, fullwidth, Cyrillic) naming that case and its thread, and items of one request that read alike,
naming both; nothing is started."""

from __future__ import annotations

from agents.refund import ledger
from tests.factories import start_refund

PAGE = "app_pages/refund.py"


def _errors(at) -> str:
    return " ".join(e.value for e in at.error)


def _submit(at, case: str, amount: str = "500,000", items: str = "") -> None:
    at.text_input(key="refund-new-case").input(case)
    at.text_input(key="refund-new-customer").input("홍길동")
    at.text_input(key="refund-new-amount").input(amount)
    at.text_area(key="refund-new-items").input(items)
    at.text_area(key="refund-new-reason").input("파손")
    next(b for b in at.button if b.label == "Submit request").click().run()


def test_the_request_form_refuses_a_lookalike_case_id_naming_the_case_and_its_thread(app, store, settings):
    start_refund(store, settings, "C1")
    at = app(PAGE)
    for lookalike in ("c1", "Ｃ1", "С1"):
        _submit(at, lookalike)
        assert not at.exception, at.exception
        assert f"Case id: case {lookalike!r} reads as case 'C1'" in _errors(at), _errors(at)
        assert "(thread 'refund-C1' holds it)" in _errors(at)
    assert [row.case_id for row in ledger.audit_rows(store)] == ["C1"]


def test_the_request_form_refuses_items_that_read_alike_naming_both(app, store):
    at = app(PAGE)
    _submit(at, "C2", amount="", items='[{"item": "A", "amount": 300000}, {"item": "Α", "amount": 200000}]')
    assert not at.exception, at.exception
    assert "items 'A' and 'Α' read as one item" in _errors(at), _errors(at)
    assert ledger.audit_rows(store) == []
