"""Home's inbox and agent cards as their grids draw them: every cell fits the lines of its column (two in the
inbox, one in a card), a longer text cut with "…"; the search finds what a row shows (its age, "overdue", who may
decide, what resolves it) in the reader's language; and a refund with several items waiting says how many, as the
CLI says it. The grid draws on a canvas: what is checked is the text the page hands it, measured as
:mod:`dashboard.text_fit` measures it (wide, so a text said to fit does)."""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Callable
from pathlib import Path

import pytest

from agents import ages, lifecycle, runs
from agents.roles_file import parse_roles
from dashboard import text_fit
from dashboard.views import INBOX_CELL_LINES, INBOX_WIDTHS, THREAD_WIDTHS
from tests.app_pages.test_inbox_search_language import found_threads, open_home
from tests.factories import pause_robot, start_refund

INBOX = "home-inbox"
ROLES_TEXT = """
[users]
"admin@example.com" = { role = "admin" }
"park@example.com" = { role = "senior_approver", name = "Park" }
"kim@example.com" = { role = "approver", limit_krw = 1_000_000, name = "Kim" }
"lee@example.com" = { role = "approver", limit_krw = 500_000, name = "Lee" }
"""
KIM = {"is_logged_in": True, "email": "kim@example.com", "name": "Kim"}
#: The inbox's columns by their header in each language, and the width each is drawn at.
COLUMNS = {
    "en": {
        "agent": "agent",
        "thread": "thread",
        "status": "status",
        "reason": "reason",
        "who may decide": "deciders",
        "what resolves it": "action",
    },
    "ko": {"에이전트": "agent", "스레드": "thread", "상태": "status", "사유": "reason", "결정권자": "deciders"}
    | {"해결 방법": "action"},
}
#: A card's grid in a 1280 px window: the inbox's (818 px) less the card's border and padding.
CARD_GRID_AT_1280 = 784
#: A refund of three items, two of them above the automatic threshold: two questions wait at once.
ITEMS = [{"item": "A-1", "amount": 300_000}, {"item": "A-2", "amount": 80_000}, {"item": "A-3", "amount": 200_000}]


@pytest.fixture
def crowded(store, settings, use_roles: Callable[[str], Path], monkeypatch: pytest.MonkeyPatch) -> None:
    """A refund Lee requested, overdue and escalated, that four people of the roles file may decide; a robot
    edited and not continued; a robot waiting. The clock is a day and a minute after the refund was asked."""
    use_roles(ROLES_TEXT)
    monkeypatch.setenv("HITL_SLA", "refund=24h")
    monkeypatch.delenv("HITL_TIMEZONE", raising=False)
    lee = parse_roles(ROLES_TEXT).identity_for("lee@example.com")
    values = {"case_id": "C1", "customer": "홍길동", "amount": 500_000, "reason": "r"}
    runs.start_run(store, settings, "refund", values, actor=lee)
    pause_robot(store, settings, "robot-long")
    runs.update_thread(store, settings, "robot-long", {"decision": "yes"}, as_node="approval")  # not continued
    pause_robot(store, settings, "robot-ko")
    asked = lifecycle.thread_status(store, "refund-C1").waiting_since
    assert asked is not None
    monkeypatch.setattr(ages, "utc_now", lambda: asked + dt.timedelta(hours=24, minutes=1))


def _cut_or_whole(cell: str, lines: int, width: int) -> None:
    """``cell`` takes at most ``lines`` lines of a column ``width`` pixels wide, each line break it holds where the
    grid could not break by itself (inside a word), at an address's "@" or "." when the word has one."""
    assert text_fit.lines_needed(cell, width) <= lines, (cell, width)
    for paragraph in cell.split("\n"):
        assert len(text_fit.wrapped(paragraph, width - text_fit.CELL_PADDING)) <= lines, (cell, width)
    for at, char in enumerate(cell):
        if char == "\n":
            word = cell[: at + 1].rsplit(" ", 1)[-1] + cell[at + 1 :].split(" ", 1)[0]
            if "@" in word or "." in word:
                assert cell[at - 1] in text_fit.BREAK_AFTER or cell[at + 1] in text_fit.BREAK_BEFORE, cell


@pytest.mark.parametrize("lang", ["en", "ko"])
@pytest.mark.parametrize("user", [None, KIM], ids=["local", "signed-in"])
def test_every_inbox_cell_fits_its_two_lines_and_a_longer_one_is_cut_with_an_ellipsis(
    crowded, lang: str, user: dict | None
):
    inbox = open_home(lang, user).dataframe[0]
    frame = inbox.value
    widths = {label: config.get("width") for label, config in json.loads(inbox.proto.columns).items()}
    cut = 0
    for label, column in COLUMNS[lang].items():
        assert widths[label] == INBOX_WIDTHS[column]
        for cell in frame[label]:
            _cut_or_whole(cell, INBOX_CELL_LINES, INBOX_WIDTHS[column])
            cut += cell.endswith(text_fit.ELLIPSIS)
    assert cut >= 1  # who may decide the refund (and its escalation) is longer than two lines: cut, not clipped
    statuses = list(frame["status" if lang == "en" else "상태"])
    attention = "needs attention" if lang == "en" else "확인 필요"
    assert any(cell.startswith(attention) and text_fit.ELLIPSIS not in cell for cell in statuses), statuses
    deciders = list(frame["who may decide" if lang == "en" else "결정권자"])
    if user is not None and lang == "en":  # the emails: each address broken at its "@" or ".", if at all
        assert any(cell.startswith("may decide: admin@") for cell in deciders), deciders


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_a_cards_status_fits_its_one_line_and_the_cards_columns_fit_its_grid(crowded, lang: str):
    home = open_home(lang)
    status_label, thread_label = ("status", "thread") if lang == "en" else ("상태", "스레드")
    cards = [frame for frame in home.dataframe[1:] if thread_label in frame.value.columns]
    robot = next(card for card in cards if "robot-long" in list(card.value[thread_label]))
    configs = json.loads(robot.proto.columns)
    widths = {label: configs.get(label, {}).get("width") for label in [*robot.value.columns]}
    assert all(isinstance(width, int) for width in widths.values()), widths  # none sized by a first drawing's cells
    assert sum(widths.values()) <= CARD_GRID_AT_1280, widths
    for card in cards:
        for cell in card.value[status_label]:
            assert text_fit.lines_needed(cell, THREAD_WIDTHS["status"]) == 1, cell
    edited = "needs attention · edited and not continued" if lang == "en" else "확인 필요 · 수정 후 계속되지 않음"
    assert edited in list(robot.value[status_label])  # whole, not cut inside a word with no "…"


@pytest.mark.parametrize(
    ("lang", "overdue", "decider", "resolves", "age"),
    [
        ("en", "overdue", "senior approver", "Answer it", "waiting 1 d 0 h"),
        ("ko", "기한", "선임 승인자", "답변하기", "1일 0시간째 대기"),
    ],
)
def test_the_inbox_search_finds_what_its_rows_show(
    crowded, lang: str, overdue: str, decider: str, resolves: str, age: str
):
    home = open_home(lang)
    assert found_threads(home, overdue) == ["refund-C1"]  # the status cell's mark
    assert found_threads(home, decider) == ["refund-C1"]  # who may decide it, read whole
    assert found_threads(home, resolves) == ["refund-C1", "robot-ko"]  # what resolves it
    assert found_threads(home, age) == ["refund-C1", "robot-ko", "robot-long"]  # every age the status cells show


def test_the_inbox_search_finds_an_email_of_who_may_decide_when_signed_in(crowded):
    assert found_threads(open_home("en", KIM), "park@example.com") == ["refund-C1"]


@pytest.mark.parametrize(
    ("lang", "count", "card"),
    [("en", "2 of 3 items", "waiting (2 of 3 items)"), ("ko", "항목 3개 중 2개", "대기 중 (항목 3개 중 2개)")],
)
def test_a_refund_with_several_items_waiting_says_how_many_as_the_cli_does(
    store, settings, lang: str, count: str, card: str
):
    values = {"case_id": "M1", "customer": "kim", "reason": "r", "items": ITEMS}
    runs.start_run(store, settings, "refund", values)
    (status,) = lifecycle.inbox(store)
    assert status.state_words() == "waiting (2 of 3 items)"  # the CLI's threads and inbox
    start_refund(store, settings, "C2")  # one question: no count
    home = open_home(lang)
    inbox = home.dataframe[0].value
    thread, status_label = ("thread", "status") if lang == "en" else ("스레드", "상태")
    cells = dict(zip(inbox[thread], inbox[status_label], strict=True))
    assert cells["refund-M1"].endswith(f" · {count}"), cells
    assert "(" not in cells["refund-C2"] and "·" not in cells["refund-C2"], cells
    refund_card = next(f.value for f in home.dataframe[1:] if "refund-M1" in list(f.value.get(thread, [])))
    assert dict(zip(refund_card[thread], refund_card[status_label], strict=True))["refund-M1"] == card


@pytest.mark.parametrize(
    ("lang", "reason", "one_left", "status"),
    [
        (
            "en",
            "Refund M1 for kim: 2 items wait for a decision (A-1, A-3)",
            "1 of 3 items",
            "Status: waiting (1 of 3 items)",
        ),
        (
            "ko",
            "환불 M1 (kim): 항목 2개(A-1, A-3), 합계 500,000원이",
            "항목 3개 중 1개",
            "상태: 대기 중 (항목 3개 중 1개)",
        ),
    ],
)
def test_a_refunds_waiting_items_are_its_inbox_reason_and_its_last_item_is_still_counted(
    app, store, settings, lang: str, reason: str, one_left: str, status: str
):
    values = {"case_id": "M1", "customer": "kim", "reason": "r", "items": ITEMS}
    runs.start_run(store, settings, "refund", values)  # wait
    thread, status_label, reason_label = ("thread", "status", "reason") if lang == "en" else ("스레드", "상태", "사유")
    inbox = open_home(lang).dataframe[0].value
    assert dict(zip(inbox[thread], inbox[reason_label], strict=True))["refund-M1"].startswith(reason)
    first = {i.value["item"]: str(i.id) for i in runs.thread_snapshot(store, settings, "refund-M1")[1].interrupts}
    runs.resume_thread(
        store, settings, "refund-M1", {"action": "approve", "approver": "lee"}, interrupt_id=first["A-1"]
    )
    inbox = open_home(lang).dataframe[0].value
    assert dict(zip(inbox[thread], inbox[status_label], strict=True))["refund-M1"].endswith(f" · {one_left}")
    page = app("app_pages/refund.py")
    page.query_params["thread"] = "refund-M1"
    page.query_params["lang"] = lang
    page.run()
    assert not page.exception, page.exception
    assert any(shown.value.startswith(status) for shown in page.main.markdown), [m.value for m in page.main.markdown]
