"""The refund audit's cells of a case deleted before it was finished: nothing is left to pay (what it had paid
stays), and who deleted it is said in the page's language."""

from __future__ import annotations

import pytest

from agents import runs, threadindex
from agents.refund import strings as refund_strings
from tests.factories import start_refund

PAGE = "app_pages/refund.py"
ITEMS = [{"item": "A-1", "amount": 300_000}, {"item": "A-2", "amount": 500_000}, {"item": "A-3", "amount": 400_000}]


def _word(key: str, lang: str) -> str:
    return refund_strings.STRINGS[key][lang == "ko"]


def _audit_row(app, lang: str, view: str, case: str) -> dict:
    at = app(PAGE)
    at.query_params["lang"] = lang
    at.session_state["refund-audit-view"] = view
    at.run()
    assert not at.exception, at.exception
    column = _word("refund.col.case", lang)
    audit = next(frame for frame in at.dataframe if case in set(frame.value.get(column, ())))
    return next(row for row in audit.value.to_dict("records") if row[column] == case)


def test_a_deleted_partly_paid_case_has_nothing_to_pay(app, store, settings):
    values = {"case_id": "T3", "customer": "c", "reason": "r", "items": ITEMS}
    thread = runs.start_run(store, settings, "refund", values).thread_id
    asked = {pending.payload["item"]: pending.interrupt_id for pending in threadindex.thread_of(store, thread).pending}
    for item in ("A-1", "A-3"):
        runs.resume_thread(store, settings, thread, {"action": "approve", "approver": "lee"}, interrupt_id=asked[item])
    runs.delete_thread(store, thread, reason="customer withdrew")
    row = _audit_row(app, "en", "amounts", "T3")
    assert row["requested"] == "1,200,000 KRW" and row["executed"] == "700,000 KRW"
    assert row["to pay"] == "—"  # neither the request nor what waited: the case is gone


@pytest.mark.parametrize(("lang", "who"), [("ko", "로컬 운영자"), ("en", "local operator")])
def test_who_deleted_a_case_is_said_in_the_pages_language(app, store, settings, lang, who):
    start_refund(store, settings, "G1", 300_000)
    runs.delete_thread(store, "refund-G1", reason="entered twice")
    row = _audit_row(app, lang, "deletions", "G1")
    assert row[_word("refund.col.deleted_by", lang)] == who
