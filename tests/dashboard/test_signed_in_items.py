"""A refund with several items for a signed-in approver: each item is checked on its own, on the page's
item controls and in the sidebar's resume form (typed and raw): an item above the approver's limit, and
the requester's own case (four eyes), are refused with the reason, and nothing is paid."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from agents import readmodel, runs
from agents.identity import Identity
from agents.refund import item_ledger
from tests.conftest import APP_FILE
from tests.factories import button_by_key

REQUESTER = Identity(email="rita@example.com", name="Rita", role="approver", limit_krw=5_000_000)
ROLES = """
[users]
"ann@example.com" = { role = "approver", limit_krw = 1_000_000 }
"rita@example.com" = { role = "approver", limit_krw = 5_000_000 }
"""
ITEMS = [{"item": "BIG", "amount": 2_000_000}, {"item": "SMALL", "amount": 300_000}]
THREAD = "refund-M1"


@pytest.fixture(autouse=True)
def roles_file(use_roles: Callable[[str], Path]) -> None:
    use_roles(ROLES)


def open_refund_as(email: str, thread: str) -> AppTest:
    """The refund page on ``thread``, signed in as ``email`` (named after its local part)."""
    test = AppTest.from_file(APP_FILE, default_timeout=60)
    test.user = {"is_logged_in": True, "email": email, "name": email.split("@")[0].title()}
    test.run()
    test.switch_page("app_pages/refund.py")
    test.query_params["thread"] = thread
    test.run()
    assert not test.exception, test.exception
    return test


@pytest.fixture
def signed_in() -> Callable[[str], AppTest]:
    return lambda email: open_refund_as(email, THREAD)


@pytest.fixture
def ids(store, settings) -> dict[str, str]:
    values = {"case_id": "M1", "customer": "kim", "reason": "r", "items": ITEMS}
    runs.start_run(store, settings, "refund", values, actor=REQUESTER)
    snapshot = runs.thread_snapshot(store, settings, THREAD)[1]
    return {i.value["item"]: str(i.id) for i in snapshot.interrupts}


def resume_in_sidebar(test: AppTest, interrupt_id: str, raw: bool) -> str:
    test.sidebar.selectbox(key=f"resume-interrupt-{THREAD}").set_value(interrupt_id).run()
    if raw:
        test.sidebar.toggle(key=f"resume-raw-{THREAD}").set_value(True).run()
        test.sidebar.text_area(key=f"resume-rawvalue-{THREAD}").input('{"action": "approve", "approver": "x"}')
    else:
        test.sidebar.selectbox(key=f"resume-action-{THREAD}").select("approve")
    next(b for b in test.sidebar.button if b.label == "Resume").click().run()
    assert not test.exception, test.exception
    return " ".join(e.value for e in test.sidebar.error)


@pytest.mark.parametrize("raw", [False, True], ids=["typed", "raw"])
def test_an_item_above_the_limit_is_refused_on_the_page_and_in_the_sidebar(store, signed_in, ids, raw) -> None:
    head = readmodel.head_checkpoint_id(store, THREAD)
    test = signed_in("ann@example.com")
    keys = {str(b.key) for b in test.button}
    assert f"refund-item-approve-{ids['SMALL']}" in keys and f"refund-item-approve-{ids['BIG']}" not in keys
    assert any("your limit is 1,000,000 KRW" in c.value for c in test.caption)
    shown = resume_in_sidebar(test, ids["BIG"], raw)
    assert "your limit is 1,000,000 KRW" in shown, shown
    assert item_ledger.item_payouts(store) == [] and readmodel.head_checkpoint_id(store, THREAD) == head
    button_by_key(test, f"refund-item-approve-{ids['SMALL']}").click().run()
    assert [(r["item"], r["approver"]) for r in item_ledger.item_payouts(store)] == [("SMALL", "ann@example.com")]


@pytest.mark.parametrize("raw", [False, True], ids=["typed", "raw"])
def test_the_requester_may_approve_no_item_of_their_own_case(store, signed_in, ids, raw) -> None:
    test = signed_in("rita@example.com")
    keys = {str(b.key) for b in test.button}
    assert not {f"refund-item-approve-{i}" for i in ids.values()} & keys
    assert f"refund-item-reject-{ids['SMALL']}" in keys  # the requester may still reject
    shown = resume_in_sidebar(test, ids["SMALL"], raw)
    assert "four eyes" in shown, shown
    assert item_ledger.item_payouts(store) == []
