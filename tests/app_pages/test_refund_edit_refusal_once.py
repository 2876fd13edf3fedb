"""An amount the edit refuses (``1e9``, ``-1``, ``0``) is said once, by the edit box: it was said twice, the
click's refusal beside Approve / Reject as if they had failed, which pushed "Edit amount and approve" below a
1400×900 first screen. A refusal never outlives the amount it refused: another amount typed is checked as any."""

from __future__ import annotations

from typing import Any

import pytest
from streamlit.testing.v1 import AppTest

from agents import runs
from agents.refund import ledger
from tests.app_pages.test_refund_decision_controls import _drawn
from tests.factories import button_by_key, start_refund

PAGE = "app_pages/refund.py"
THREAD = "refund-E1"
AMOUNT = f"refund-edit-amount-{THREAD}"


def _errors(at: Any) -> list[tuple[int, str]]:
    """(place among what the page drew, text) of each error box."""
    return [(place, text) for place, (kind, text) in enumerate(_drawn(at.main)) if kind == "Error"]


def _by_the_edit_box(at: Any) -> str:
    """The one error the page draws, which must stand between the amount typed and its button."""
    drawn, errors = _drawn(at.main), _errors(at)
    assert len(errors) == 1, drawn
    place, text = errors[0]
    assert drawn[place - 1] == ("TextInput", AMOUNT) and drawn[place + 1] == ("Button", "refund-edit"), drawn
    return text


@pytest.mark.parametrize("typed", ["1e9", "-1", "0"])
def test_a_refused_edit_amount_is_said_once_by_the_edit_box(app, store, settings, typed):
    start_refund(store, settings, "E1", 300_000)
    at = app(PAGE)
    at.text_input(key="refund-approver").input("lee")
    at.text_input(key=AMOUNT).input(typed)
    button_by_key(at, "refund-edit").click().run()  # the browser sends the amount with the click
    assert not at.exception, at.exception
    said = _by_the_edit_box(at)
    assert said.startswith("Nothing was done: New amount to pay (KRW):"), said
    at.run()  # the page's next run: the amount still refused, once, in the same place
    assert _by_the_edit_box(at).endswith(said.removeprefix("Nothing was done: "))

    at.text_input(key=AMOUNT).input("abc").run()  # another amount: its own check, not the refusal of the last
    assert _by_the_edit_box(at).startswith("Cannot edit to this amount: New amount to pay (KRW):")
    assert "'abc'" in _by_the_edit_box(at)
    assert runs.current_result(store, settings, THREAD).status == "waiting"
    assert ledger.ledger_rows(store) == []


def _case_panel(store, settings) -> None:
    """The refund page's case panel alone: what each of its live runs draws (run as a script of its own)."""
    from app_pages.refund_case import show_case_panel

    show_case_panel(store, settings)


def test_the_refusal_stays_by_the_edit_box_through_the_panels_runs_until_another_amount(store, settings):
    start_refund(store, settings, "E1", 300_000)
    at = AppTest.from_function(_case_panel, args=(store, settings), default_timeout=60).run()
    at.text_input(key="refund-approver").input("lee")
    at.text_input(key=AMOUNT).input("1e9")
    button_by_key(at, "refund-edit").click().run()
    said = _by_the_edit_box(at)
    assert said.startswith("Nothing was done: New amount to pay (KRW):") and "'1e9'" in said, said
    at.run()  # the panel's next tick (the page is not drawn again): the refusal stays, once, where it was
    assert _by_the_edit_box(at) == said
    at.text_input(key=AMOUNT).input("-1").run()  # another amount: its own check, nowhere the refusal of the last
    now = _by_the_edit_box(at)
    assert now.startswith("Cannot edit to this amount: New amount to pay (KRW):") and "'-1'" in now, now
