"""The refund page's ledger and audit of a case with items: the ledger lists each item's payout as
``python -m agents ledger`` lists it (``CASE:ITEM``, requested and paid side by side, in the same order), and
the audit's trace view has each item's payout as soon as it is paid, while other items still wait."""

from __future__ import annotations

import json

import pytest

from agents import runs
from agents.refund import strings as refund_strings
from dashboard.formats import amount
from tests.factories import start_refund

PAGE = "app_pages/refund.py"
#: A-2 (80,000) is under the threshold and pays itself; A-1 and A-3 wait for an approver.
ITEMS = [{"item": "A-1", "amount": 300_000}, {"item": "A-2", "amount": 80_000}, {"item": "A-3", "amount": 200_000}]


def _name(row):
    """A payout as ``python -m agents ledger`` names it: its case, an item's ``CASE:ITEM`` (README)."""
    return f"{row['case_id']}:{row['item']}" if "item" in row else row["case_id"]


def _label(key: str, lang: str) -> str:
    return refund_strings.STRINGS[key][lang == "ko"]


def _start_items(store, settings):
    runs.start_run(store, settings, "refund", {"case_id": "M1", "customer": "kim", "reason": "r", "items": ITEMS})
    return {i.value["item"]: str(i.id) for i in runs.thread_snapshot(store, settings, "refund-M1")[1].interrupts}


def _page(app, lang: str, view: str | None = None):
    at = app(PAGE)
    at.query_params["lang"] = lang
    if view is not None:
        at.session_state["refund-audit-view"] = view  # as a click on the view's segment sets it
    at.run()
    assert not at.exception, at.exception
    return at


def _frame_with(at, label: str):
    return next(frame.value for frame in at.dataframe if label in frame.value.columns)


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_the_pages_ledger_lists_each_items_payout_as_the_command_line_does(app, store, settings, run_cli, lang):
    start_refund(store, settings, "C2", 50_000)  # paid automatically: a case's own row
    ids = _start_items(store, settings)
    runs.resume_thread(store, settings, "refund-M1", {"action": "approve", "approver": "lee"}, interrupt_id=ids["A-1"])
    edit = {"action": "edit", "amount": 150_000, "approver": "kim"}
    runs.resume_thread(store, settings, "refund-M1", edit, interrupt_id=ids["A-3"])
    listed = json.loads(run_cli("ledger", "--json").out)
    assert sorted(_name(row) for row in listed) == ["C2", "M1:A-1", "M1:A-2", "M1:A-3"]
    frame = _frame_with(_page(app, lang), _label("refund.col.repeat_attempts", lang))
    case, requested, executed = (_label(f"refund.col.{key}", lang) for key in ("case", "requested", "executed"))
    shown = list(zip(frame[case], frame[requested], frame[executed], strict=True))
    expected = [
        (_name(row), amount(row["requested_amount"], lang=lang), amount(row["paid_amount"], lang=lang))
        for row in listed
    ]
    assert shown == expected  # the same rows, in the same order, requested and paid side by side
    assert ("M1:A-3", amount(200_000, lang=lang), amount(150_000, lang=lang)) in shown


def test_the_audits_trace_view_shows_each_item_paid_while_others_wait(app, store, settings):
    ids = _start_items(store, settings)
    runs.resume_thread(store, settings, "refund-M1", {"action": "approve", "approver": "lee"}, interrupt_id=ids["A-1"])
    frame = _frame_with(_page(app, "en", view="trace"), "trace")
    row = frame[frame["case"] == "M1"].iloc[0]
    assert row["status"] == "waiting"
    assert row["trace"].split(" | ")[1:] == [
        "item A-1: paid 300,000 KRW (requested 300,000), approved by lee",
        "item A-2: paid 80,000 KRW (requested 80,000), settled automatically: at or under the threshold 100,000",
    ]
