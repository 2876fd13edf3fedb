"""A refund with several items, signed in: the page's "may decide" and "My queue" count on home and in the
refund queue weigh each waiting item on its own, as the item's Approve button is offered: an approver whose
limit covers a waiting item may decide the case, whatever the items ask for together."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from agents import runs
from agents.identity import Identity
from tests.dashboard.test_signed_in_items import open_refund_as

REQUESTER = Identity(email="rita@example.com", name="Rita", role="approver", limit_krw=5_000_000)
ROLES = """
[users]
"viewer@example.com" = { role = "viewer" }
"kim@example.com" = { role = "approver", limit_krw = 1_000_000 }
"lee@example.com" = { role = "approver", limit_krw = 500_000 }
"park@example.com" = { role = "senior_approver" }
"admin@example.com" = { role = "admin" }
"""


@pytest.fixture(autouse=True)
def roles_file(use_roles: Callable[[str], Path]) -> None:
    use_roles(ROLES)


@pytest.fixture
def signed_in() -> Callable[[str, str], AppTest]:
    return open_refund_as


def _start(store, settings, case: str, items: list[tuple[str, int]]) -> str:
    values = {"case_id": case, "customer": "c", "reason": "r", "items": [{"item": i, "amount": a} for i, a in items]}
    return runs.start_run(store, settings, "refund", values, actor=REQUESTER).thread_id


def _may_decide(test: AppTest) -> str:
    (said,) = [c.value.replace("\\", "").replace("\u2060", "") for c in test.caption if "may decide:" in c.value]
    return said


def _approvable(test: AppTest) -> int:
    return sum(str(button.key).startswith("refund-item-approve-") for button in test.button)


def test_an_approver_may_decide_a_case_whose_items_are_each_within_their_limit(store, settings, signed_in) -> None:
    thread = _start(store, settings, "C08", [("TV-1", 600_000), ("TV-2", 600_000)])  # 1,200,000 in all
    test = signed_in("kim@example.com", thread)
    assert _approvable(test) == 2  # each item within Kim's 1,000,000
    assert _may_decide(test) == (
        "may decide: admin@example.com (admin), park@example.com (senior approver),"
        " kim@example.com (approver up to 1,000,000 KRW)"
    )
    assert any(c.value == "My queue: 1 you may decide, shown first" for c in test.caption)
    test.switch_page("app_pages/home.py").run()
    assert not test.exception, test.exception
    assert any(c.value == "My queue: 1 you may decide, shown first" for c in test.caption)


def test_the_page_names_as_many_deciders_as_it_offers_an_approve_button(store, settings, signed_in) -> None:
    # 580,000 requested; A-2 (80,000) paid at once; A-1 (300,000) and A-3 (200,000) wait, each within 500,000.
    thread = _start(store, settings, "C07", [("A-1", 300_000), ("A-2", 80_000), ("A-3", 200_000)])
    test = signed_in("lee@example.com", thread)
    assert _approvable(test) == 2
    assert _may_decide(test).endswith("kim@example.com (approver up to 1,000,000 KRW), 1 more")  # Lee, fourth
    assert any(c.value == "My queue: 1 you may decide, shown first" for c in test.caption)
