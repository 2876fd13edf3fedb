"""The refund case's decision controls: "Edit amount and approve" is never held back by the amount (a browser
sends a typed amount only to the click that takes the focus from it), so the click's run reads and checks it;
a refused click is said once, beside the buttons it came from (an edit's by its amount, in the place of the
amount's own check); a stale click is refused as stale whatever the fields hold."""

from __future__ import annotations

from typing import Any

import pytest

from agents import readmodel, runs
from agents.refund import item_ledger, ledger
from tests.factories import button_by_key, start_refund

PAGE = "app_pages/refund.py"
THREAD = "refund-C2"
AMOUNT_KEY = f"edit-amount-{THREAD}"
#: What the page draws, in its order, of the kinds these tests place a refusal among.
PLACED = ("Button", "TextInput", "Error")


def _drawn(node: Any, found: list[tuple[str, str]] | None = None) -> list[tuple[str, str]]:
    """(kind, key or text) of each button, text input and error the page drew, in the page's order."""
    found = [] if found is None else found
    for child in getattr(node, "children", {}).values():
        kind = type(child).__name__
        if kind in PLACED:
            found.append((kind, str(child.key if kind != "Error" else child.value)))
        _drawn(child, found)
    return found


def _refusals(at: Any) -> list[str]:
    return [error.value for error in at.error if error.value.startswith("Nothing was done:")]


def _waiting_page(app: Any, store: Any, settings: Any) -> Any:
    start_refund(store, settings, "C2", 300_000)
    at = app(PAGE)
    assert not at.exception, at.exception
    return at


@pytest.mark.parametrize(
    ("typed", "said"),
    [
        ("", "New amount to pay (KRW): is required to edit: give the amount to pay"),
        ("   ", "New amount to pay (KRW): is required to edit: give the amount to pay"),
        ("abc", "New amount to pay (KRW): must be a whole number written with the digits 0-9"),
        ("120,00", "New amount to pay (KRW): must be a whole number written with the digits 0-9"),
        ("0", "New amount to pay (KRW):"),
        ("300,001", "New amount to pay (KRW):"),
    ],
)
def test_edit_and_approve_is_clickable_and_a_missing_or_invalid_amount_is_refused(app, store, settings, typed, said):
    at = _waiting_page(app, store, settings)
    at.text_input(key="refund-approver").input("lee")
    at.text_input(key=f"refund-{AMOUNT_KEY}").input(typed).run()
    edit = button_by_key(at, "refund-edit")
    assert not edit.disabled  # its state would follow the amount the server had, not the one just typed

    edit.click().run()
    assert not at.exception, at.exception
    refused = _refusals(at)
    assert len(refused) == 1 and refused[0].startswith(f"Nothing was done: {said}"), refused
    assert ledger.ledger_rows(store) == []
    assert runs.current_result(store, settings, THREAD).status == "waiting"


def test_a_typed_amount_is_paid_by_one_click_with_its_preview_kept(app, store, settings):
    at = _waiting_page(app, store, settings)
    at.text_input(key="refund-approver").input("lee")
    at.text_input(key=f"refund-{AMOUNT_KEY}").input("120,000").run()
    preview = [metric for metric in at.metric if metric.label == "After the edit"]
    assert [(m.value, m.delta) for m in preview] == [("120,000 KRW", "-180,000 KRW")]

    button_by_key(at, "refund-edit").click().run()
    assert not at.exception, at.exception
    assert any("Case C2: edit and approve by lee → done · paid." in s.value for s in at.success)
    assert [(row["paid_amount"], row["approver"]) for row in ledger.ledger_rows(store)] == [(120_000, "lee")]


def test_a_refusal_is_said_once_beside_the_approve_and_reject_buttons(app, store, settings):
    at = _waiting_page(app, store, settings)
    button_by_key(at, "refund-approve").click().run()  # no approver
    drawn = _drawn(at.main)
    refusal = ("Error", "Nothing was done: Approver: is required")
    assert drawn.count(refusal) == 1, drawn
    place = drawn.index(refusal)
    assert drawn[place - 2 : place] == [("Button", "refund-approve"), ("Button", "refund-reject")], drawn
    assert drawn[place + 1] == ("TextInput", f"refund-{AMOUNT_KEY}"), drawn  # above the amount to edit

    # The edit's refusal (an approver now, no amount) is said by the amount it needs, once.
    at.text_input(key="refund-approver").input("lee")
    button_by_key(at, "refund-edit").click().run()
    drawn = _drawn(at.main)
    said = [text for kind, text in drawn if kind == "Error" and text.startswith("Nothing was done:")]
    assert len(said) == 1 and "is required to edit" in said[0], drawn
    place = drawn.index(("Error", said[0]))
    assert drawn[place - 1 : place + 2 : 2] == [("TextInput", f"refund-{AMOUNT_KEY}"), ("Button", "refund-edit")]


def test_an_items_refusal_is_said_under_the_item_clicked(app, store, settings):
    items = [{"item": "A-1", "amount": 300_000}, {"item": "A-2", "amount": 200_000}]
    runs.start_run(store, settings, "refund", {"case_id": "M2", "customer": "kim", "items": items, "reason": "r"})
    snapshot = runs.thread_snapshot(store, settings, "refund-M2")[1]
    ids = {question.value["item"]: str(question.id) for question in snapshot.interrupts}
    at = app(PAGE)  # the only case: selected
    at.text_input(key="refund-approver").input("lee")
    at.text_input(key=f"refund-edit-amount-refund-M2-{ids['A-2']}").input("250,000").run()  # A-2 is 200,000
    button_by_key(at, f"refund-item-edit-{ids['A-2']}").click().run()
    assert not at.exception, at.exception
    drawn = _drawn(at.main)
    said = [text for kind, text in drawn if kind == "Error" and text.startswith("Nothing was done:")]
    assert len(said) == 1 and "200,000" in said[0], drawn
    place = drawn.index(("Error", said[0]))
    edited = f"refund-edit-amount-refund-M2-{ids['A-2']}"
    assert drawn[place - 1 : place + 2 : 2] == [("TextInput", edited), ("Button", f"refund-item-edit-{ids['A-2']}")]
    assert len([text for kind, text in drawn if kind == "Error"]) == 1, drawn  # by A-2's amount, once
    assert item_ledger.item_payouts(store, "M2") == []


@pytest.mark.parametrize(
    ("button", "typed"),
    [("refund-approve", ""), ("refund-reject", ""), ("refund-edit", ""), ("refund-edit", "abc")],
)
def test_a_stale_click_with_empty_fields_is_refused_as_stale(app, store, settings, button, typed):
    at = _waiting_page(app, store, settings)  # the approver left empty
    if typed:
        at.text_input(key=f"refund-{AMOUNT_KEY}").input(typed).run()
    runs.resume_from_fields(store, settings, THREAD, {"action": "approve", "approver": "lee"})  # decided elsewhere
    at.run()  # the case panel's next run: it moved on, its controls stay with a notice
    assert any("changed since your controls were drawn" in warning.value for warning in at.warning)

    button_by_key(at, button).click().run()
    assert not at.exception, at.exception
    refused = _refusals(at)
    assert len(refused) == 1 and "changed since this form was drawn" in refused[0], refused
    assert [row["approver"] for row in ledger.ledger_rows(store)] == ["lee"]
    assert readmodel.head_checkpoint_id(store, THREAD) is not None
