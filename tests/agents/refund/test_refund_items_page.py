"""A refund with several items on the page: the request form takes items, each waiting item has its own
controls, answered by its interrupt id, and the sidebar's resume form (typed and raw) names the question
it answers; every path refuses an out-of-range edit and a stale form as runs does."""

from __future__ import annotations

import json

from agents import runs
from agents.refund import item_ledger
from tests.factories import button_by_key, messages

PAGE = "app_pages/refund.py"
ITEMS = [{"item": "A-1", "amount": 300_000}, {"item": "A-2", "amount": 80_000}, {"item": "A-3", "amount": 200_000}]


def start(store, settings) -> dict[str, str]:
    values = {"case_id": "M1", "customer": "kim", "reason": "r", "items": ITEMS}
    runs.start_run(store, settings, "refund", values)
    snapshot = runs.thread_snapshot(store, settings, "refund-M1")[1]
    return {i.value["item"]: str(i.id) for i in snapshot.interrupts}


def paid(store) -> dict[str, int]:
    return {r["item"]: r["paid_amount"] for r in item_ledger.item_payouts(store, "M1")}


def open_case(app):
    at = app(PAGE)
    at.query_params["thread"] = "refund-M1"
    at.run()
    assert not at.exception, at.exception
    return at


def test_the_request_form_starts_a_case_with_items(app, store, settings):
    at = app(PAGE)
    at.text_input(key="refund-new-case").input("M1")
    at.text_input(key="refund-new-customer").input("kim")
    at.text_area(key="refund-new-items").input(json.dumps(ITEMS))
    at.text_area(key="refund-new-reason").input("broken")
    at.button[0].click().run()
    assert not at.exception, at.exception
    result = runs.current_result(store, settings, "refund-M1")
    assert result.status == "waiting" and len(result.interrupts) == 2 and paid(store) == {"A-2": 80_000}


def test_each_waiting_item_has_its_own_controls_and_is_decided_alone(app, store, settings):
    ids = start(store, settings)
    at = open_case(app)
    keys = {b.key for b in at.button}
    assert {f"refund-item-approve-{i}" for i in ids.values()} <= keys and "refund-approve" not in keys
    at.text_input(key="refund-approver").input("lee")
    button_by_key(at, f"refund-item-approve-{ids['A-3']}").click().run()
    assert not at.exception, at.exception
    assert paid(store) == {"A-2": 80_000, "A-3": 200_000}
    keys = {b.key for b in at.button}
    assert f"refund-item-approve-{ids['A-1']}" in keys and f"refund-item-approve-{ids['A-3']}" not in keys
    button_by_key(at, f"refund-item-reject-{ids['A-1']}").click().run()
    assert runs.current_result(store, settings, "refund-M1").outcome == "partly paid"


def test_an_item_edit_above_the_item_is_refused_on_the_page(app, store, settings):
    ids = start(store, settings)
    at = open_case(app)
    at.text_input(key="refund-approver").input("lee")
    at.text_input(key=f"refund-edit-amount-refund-M1-{ids['A-3']}").input("250,000").run()  # A-3 is 200,000
    assert "200,000" in messages(at)
    button_by_key(at, f"refund-item-edit-{ids['A-3']}").click().run()  # refused by the rules, nothing paid
    assert "Nothing was done: New amount to pay (KRW):" in messages(at) and paid(store) == {"A-2": 80_000}
    at.text_input(key=f"refund-edit-amount-refund-M1-{ids['A-3']}").input("150,000").run()
    button_by_key(at, f"refund-item-edit-{ids['A-3']}").click().run()
    assert paid(store) == {"A-2": 80_000, "A-3": 150_000}


def test_a_stale_item_control_is_refused_and_pays_nothing_twice(app, store, settings):
    ids = start(store, settings)
    at = open_case(app)
    at.text_input(key="refund-approver").input("lee")
    runs.resume_thread(store, settings, "refund-M1", {"action": "reject", "approver": "park"}, interrupt_id=ids["A-3"])
    button_by_key(at, f"refund-item-approve-{ids['A-3']}").click().run()  # drawn before park's answer
    assert not at.exception, at.exception
    assert "moved on" in messages(at) or "changed" in messages(at), messages(at)
    assert paid(store) == {"A-2": 80_000}


def test_the_sidebar_form_names_the_question_and_answers_it_alone_typed_and_raw(app, store, settings):
    ids = start(store, settings)
    at = open_case(app)
    picker = at.sidebar.selectbox(key="resume-interrupt-refund-M1")
    assert set(picker.options) == {f"A-1 · 300,000 KRW · {ids['A-1'][:8]}…", f"A-3 · 200,000 KRW · {ids['A-3'][:8]}…"}
    picker.set_value(ids["A-3"]).run()
    at.sidebar.selectbox(key="resume-action-refund-M1").select("edit")
    at.sidebar.text_input(key="resume-amount-refund-M1").input("250,000")  # above A-3's 200,000
    at.sidebar.text_input(key="resume-approver-refund-M1").input("lee")
    at.sidebar.button[0].click().run()
    assert "200,000" in messages(at) and paid(store) == {"A-2": 80_000}
    at.sidebar.text_input(key="resume-amount-refund-M1").input("120,000")
    at.sidebar.button[0].click().run()
    assert paid(store) == {"A-2": 80_000, "A-3": 120_000}
    at.sidebar.toggle(key="resume-raw-refund-M1").set_value(True).run()
    assert any(c.value == f"Question id {ids['A-1'][:8]}…" and ids["A-1"] in c.help for c in at.sidebar.caption)
    at.sidebar.text_area(key="resume-rawvalue-refund-M1").input('{"action": "approve", "approver": "lee"}')
    at.sidebar.button[0].click().run()
    assert not at.exception, at.exception
    assert paid(store) == {"A-1": 300_000, "A-2": 80_000, "A-3": 120_000}
