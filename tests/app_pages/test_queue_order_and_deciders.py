"""Queues: oldest first by default, amount one click away and kept for the session; who may decide each
waiting refund (emails when signed in, "my queue" first; roles and limits in local mode); a case no
one may decide flagged at once; an overdue case shown escalated. The clock is ``agents.ages.utc_now``,
replaced here (the pages read it), so a day's wait is tested without waiting."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from agents import ages, lifecycle, runs
from agents.roles_file import parse_roles
from app_pages.refund_queue import QUEUE_CELL_LINES, QUEUE_WIDTHS
from dashboard import text_fit
from tests.conftest import APP_FILE

ROLES_TEXT = """
[users]
"kim@example.com" = { role = "approver", limit_krw = 1_000_000, name = "Kim" }
"lee@example.com" = { role = "approver", limit_krw = 3_000_000, name = "Lee" }
"park@example.com" = { role = "senior_approver", name = "Park" }
"""
ROLES = parse_roles(ROLES_TEXT)
COUNT = 30


@pytest.fixture(autouse=True)
def roles_and_deadline(use_roles: Callable[[str], Path], monkeypatch: pytest.MonkeyPatch) -> None:
    use_roles(ROLES_TEXT)
    monkeypatch.setenv("HITL_SLA", "refund=24h")
    monkeypatch.delenv("HITL_TIMEZONE", raising=False)


def _amount(index: int) -> int:
    """Larger the newer: the amount order is the age order reversed. Every 7th lies between the limits."""
    return 3_500_000 + index if index % 7 == 3 else 200_000 + index * 1_000


@pytest.fixture
def cases(store, settings) -> list[lifecycle.ThreadStatus]:
    """30 waiting refunds requested by Kim, in order, through the write path."""
    kim = ROLES.identity_for("kim@example.com")
    for index in range(COUNT):
        values = {"case_id": f"A{index:02d}", "customer": "c", "amount": _amount(index), "reason": "r"}
        runs.start_run(store, settings, "refund", values, actor=kim)
    return lifecycle.inbox(store)


def _open(page: str, user: dict | None = None, lang: str = "en") -> AppTest:
    test = AppTest.from_file(APP_FILE, default_timeout=60)
    if user is not None:
        test.user = user
    test.query_params["lang"] = lang
    test.run()
    if page != "app_pages/home.py":
        test.switch_page(page)
        test.run()
    assert not test.exception, test.exception
    return test


def _fitted(text: str) -> str:
    """A "who may decide" cell as the refund queue shows it: cut to its lines with "…" where longer."""
    return text_fit.cut_to_lines(text, QUEUE_WIDTHS["deciders"], QUEUE_CELL_LINES)


def _column(test: AppTest, index: int, name: str) -> list:
    frame = test.dataframe[index].value
    return list(frame[name])


def test_the_refund_queue_sorts_by_amount_in_one_click_and_the_session_keeps_it(cases):
    test = _open("app_pages/refund.py")
    assert _column(test, 0, "case")[:3] == ["A00", "A01", "A02"]  # oldest first by default
    control = test.segmented_control(key="refund-queue-order")
    assert control.value == "oldest"
    control.set_value("amount").run()
    assert not test.exception, test.exception
    by_amount = sorted(range(COUNT), key=lambda index: -_amount(index))
    assert _column(test, 0, "case") == [f"A{index:02d}" for index in by_amount][:25]
    test.switch_page("app_pages/home.py").run()
    test.switch_page("app_pages/refund.py").run()  # the choice outlives a visit to another page
    assert test.segmented_control(key="refund-queue-order").value == "amount"
    assert _column(test, 0, "case")[0] == f"A{by_amount[0]:02d}"
    test.segmented_control(key="refund-queue-order").set_value("newest").run()
    assert _column(test, 0, "case")[:2] == [f"A{COUNT - 1:02d}", f"A{COUNT - 2:02d}"]


def test_the_home_inbox_sorts_by_amount_in_one_click(cases):
    test = _open("app_pages/home.py")
    assert _column(test, 0, "thread")[:2] == ["refund-A00", "refund-A01"]
    test.segmented_control(key="home-inbox-order").set_value("amount").run()
    by_amount = sorted(range(COUNT), key=lambda index: -_amount(index))
    assert _column(test, 0, "thread")[:3] == [f"refund-A{index:02d}" for index in by_amount[:3]]


def test_local_mode_shows_who_may_decide_without_identities(cases, monkeypatch):
    first, second = cases[0].waiting_since, cases[1].waiting_since
    assert first is not None and second is not None and first < second
    monkeypatch.setattr(ages, "utc_now", lambda: first + (second - first) / 2 + dt.timedelta(hours=24))
    test = _open("app_pages/refund.py")
    cells = _column(test, 0, "who may decide")
    assert all("@" not in cell and "Lee" not in cell for cell in cells)
    oldest = (
        "may decide: senior approver, approver up to 3,000,000 KRW"
        " · escalated to senior approver (waiting 1 d 0 h, past its 1 d 0 h deadline)"
    )  # the requester, Kim, is not among them; the oldest case is overdue
    assert cells[0] == _fitted(oldest)  # cut to the queue's lines ...
    assert oldest in [warning.value for warning in test.warning]  # ... and whole on the selected case's panel
    assert cells[1] == _fitted("may decide: senior approver, approver up to 3,000,000 KRW")
    assert cells[3] == "may decide: senior approver"  # 3,500,003 KRW: beyond every approver's limit
    test.text_input(key="refund-queue:search").input("escalated to senior").run()  # the search reads a cell whole
    assert _column(test, 0, "case") == ["A00"]
    korean = _column(_open("app_pages/refund.py", lang="ko"), 0, "결정권자")
    assert korean[3] == "결정 가능: 선임 승인자"
    home = _open("app_pages/home.py")
    assert "@" not in " ".join(_column(home, 0, "who may decide"))


def test_a_signed_in_approver_sees_their_queue_first_with_the_deciders_named(cases):
    lee = {"is_logged_in": True, "email": "lee@example.com", "name": "Lee"}
    test = _open("app_pages/refund.py", lee)
    mine = [f"A{index:02d}" for index in range(COUNT) if index % 7 != 3]  # within Lee's limit
    assert any("My queue: 26 you may decide, shown first" in caption.value for caption in test.caption)
    assert _column(test, 0, "case") == mine[:25]  # the first page: Lee's own, oldest first
    cells = _column(test, 0, "who may decide")
    named = "may decide: park@example.com (senior approver), lee@example.com (approver up to 3,000,000 KRW)"
    assert cells[0] == _fitted(named)  # the queue's lines: "may decide: park@ / example.com…"
    # The selected case's panel says it too (as Markdown: the @ is escaped).
    assert any(c.value.startswith("may decide: park") and "(senior approver), lee" in c.value for c in test.caption)
    assert all("kim@example.com" not in cell for cell in cells)  # never the requester
    kim = {"is_logged_in": True, "email": "kim@example.com", "name": "Kim"}
    own = _open("app_pages/refund.py", kim)  # Kim requested every case: none is Kim's to decide
    assert any("My queue: 0 you may decide" in caption.value for caption in own.caption)


def test_a_signed_in_approver_sees_first_what_their_limit_covers(store, settings):
    kim = ROLES.identity_for("kim@example.com")
    for case, amount in (("B0", 2_500_000), ("B1", 500_000), ("B2", 2_600_000), ("B3", 600_000)):
        values = {"case_id": case, "customer": "c", "amount": amount, "reason": "r"}
        runs.start_run(store, settings, "refund", values, actor=kim)
    park_requests = ROLES.identity_for("park@example.com")
    runs.start_run(
        store,
        settings,
        "refund",
        {"case_id": "B4", "customer": "c", "amount": 400_000, "reason": "r"},
        actor=park_requests,
    )
    lee = {"is_logged_in": True, "email": "lee@example.com", "name": "Lee"}
    test = _open("app_pages/refund.py", lee)
    # Lee (limit 3,000,000) may decide all; Kim (limit 1,000,000) the two small ones Kim did not request.
    assert _column(test, 0, "case") == ["B0", "B1", "B2", "B3", "B4"]
    as_kim = _open("app_pages/refund.py", {"is_logged_in": True, "email": "kim@example.com", "name": "Kim"})
    assert _column(as_kim, 0, "case") == ["B4", "B0", "B1", "B2", "B3"]
    home = _open("app_pages/home.py", {"is_logged_in": True, "email": "kim@example.com", "name": "Kim"})
    assert _column(home, 0, "thread")[0] == "refund-B4"


def test_a_case_no_one_may_decide_is_flagged_at_once(store, settings, use_roles):
    use_roles(
        '[users]\n"kim@example.com" = { role = "approver", limit_krw = 1_000_000 }\n'
        '"lee@example.com" = { role = "approver", limit_krw = 3_000_000 }\n'
    )
    runs.start_run(store, settings, "refund", {"case_id": "BIG", "customer": "c", "amount": 5_000_000, "reason": "r"})
    flag = "no one may decide: no approver's limit covers 5,000,000 KRW"
    for page in ("app_pages/refund.py", "app_pages/home.py"):
        test = _open(page)
        warnings = [warning.value for warning in test.warning]
        assert "refund-BIG: no one may decide it: no approver's limit covers 5,000,000 KRW" in warnings, warnings
        cells = _column(test, 0, "who may decide")
        # The lines of its column: cut, the warning says it whole.
        assert any(cell.endswith("…") and flag.startswith(" ".join(cell[:-1].split())) for cell in cells), cells
    case_panel = _open("app_pages/refund.py")  # the only case, selected: its panel says it too
    assert "no one may decide: no approver's limit covers 5,000,000 KRW" in [w.value for w in case_panel.warning]
    korean = _open("app_pages/refund.py", lang="ko")
    assert any("5,000,000원을 한도로 감당하는 승인자가 없습니다" in warning.value for warning in korean.warning)


def test_home_and_the_queue_rank_a_case_with_items_by_its_whole_request(store, settings):
    """A case with items ranks by the total of its items (its requested amount), not by the item asked first."""
    for case, amount in (("S1", 3_000_000), ("S2", 900_000)):
        runs.start_run(store, settings, "refund", {"case_id": case, "customer": "c", "amount": amount, "reason": "r"})
    items = [{"item": "B-1", "amount": 400_000}, {"item": "B-2", "amount": 5_000_000}]
    runs.start_run(store, settings, "refund", {"case_id": "M1", "customer": "c", "reason": "r", "items": items})
    home = _open("app_pages/home.py")
    home.segmented_control(key="home-inbox-order").set_value("amount").run()
    assert _column(home, 0, "thread") == ["refund-M1", "refund-S1", "refund-S2"]
    queue = _open("app_pages/refund.py")
    queue.segmented_control(key="refund-queue-order").set_value("amount").run()
    assert _column(queue, 0, "case") == ["M1", "S1", "S2"]
