"""A sidebar form typed before another process acted is refused, whatever drew the page again meanwhile.

What is typed in a Streamlit form stays in the browser, unsent, when the page runs again. The explorer
is drawn again whole when the database changes (the frame's watcher), and every page when the
navigation's overdue counts change. Each such run used to draw the sidebar's forms for the new head
while the browser kept the answer typed for the old one: "yes", typed under one proposal, executed
another process's new proposal (a wire to an unknown account). The form keeps the head it was drawn at,
says so, and its submit is refused as stale, naming both checkpoints.
"""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest
from playwright.sync_api import Locator, Page, expect

from agents.errors import short_id
from dashboard.i18n import t
from tests.browser.conftest import LIVE_REFRESH, Dashboard, serve_dashboard, wait_for_app
from tests.browser.opening import cli_ok, open_page

WIRE = "Wire 90,000,000 KRW to an unknown account"
#: How long the page may take to draw another process's change (ms): a few live intervals, on a shared machine.
SHOWN_WITHIN = 15_000


@pytest.fixture(scope="module")
def late_dashboard(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Dashboard]:
    """Live parts and the explorer's watcher every :data:`LIVE_REFRESH` s; a refund is overdue after one second."""
    db = tmp_path_factory.mktemp("live-forms") / "dashboard.sqlite"
    with serve_dashboard(db, HITL_SLA="refund=1s", HITL_LIVE_REFRESH=str(LIVE_REFRESH)) as served:
        yield served


def _thread(dashboard: Dashboard, thread: str) -> dict[str, str]:
    """The thread's row as ``threads --json`` lists it: its status, outcome and head."""
    rows = json.loads(cli_ok(dashboard, "threads", "--json").stdout)
    return next(row for row in rows if row["thread_id"] == thread)


def _head(dashboard: Dashboard, thread: str) -> str:
    return _thread(dashboard, thread)["head_checkpoint_id"]


def _status(dashboard: Dashboard, thread: str) -> tuple[str, str]:
    row = _thread(dashboard, thread)
    return row["status"], row["outcome"]


def _propose_a_wire(dashboard: Dashboard, thread: str) -> str:
    """The tester's steps, from the command line: a new proposal, and the run goes on to ask it."""
    cli_ok(dashboard, "update", thread, "--values", json.dumps({"pending_action": WIRE}), "--as-node", "propose")
    cli_ok(dashboard, "continue", thread)
    return _head(dashboard, thread)


def _answer(sidebar: Locator, lang: str) -> Locator:
    return sidebar.get_by_label(t("field.answer", lang=lang), exact=True)


def _send_resume_and_expect_it_refused(page: Page, lang: str, drawn: str, head: str) -> None:
    sidebar = page.get_by_test_id("stSidebar")
    sidebar.get_by_role("button", name=t("forms.resume.submit", lang=lang), exact=True).click()
    refusal = sidebar.get_by_test_id("stAlertContentError").filter(has_text=t("forms.refused", lang=lang))
    expect(refusal).to_contain_text(f"{short_id(drawn)} → {short_id(head)}")


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_the_explorer_drawn_again_after_a_change_elsewhere_refuses_the_answer_typed_before(
    page: Page, late_dashboard: Dashboard, lang: str
):
    thread = f"wire-explorer-{lang}"
    cli_ok(late_dashboard, "run", "robot", "--thread", thread)
    drawn = _head(late_dashboard, thread)
    open_page(page, late_dashboard, f"explorer?thread={thread}&lang={lang}")
    sidebar = page.get_by_test_id("stSidebar")
    expect(sidebar).to_contain_text(t("forms.acting_on", lang=lang, thread=thread, checkpoint=short_id(drawn)))
    _answer(sidebar, lang).fill("yes")  # typed, not sent

    head = _propose_a_wire(late_dashboard, thread)
    # The watcher draws the page again for the new head: the sidebar names it.
    now = t("forms.acting_on", lang=lang, thread=thread, checkpoint=short_id(head))
    expect(sidebar).to_contain_text(now, timeout=SHOWN_WITHIN)
    wait_for_app(page)
    expect(_answer(sidebar, lang)).to_have_value("yes")  # what the browser keeps across the run

    _send_resume_and_expect_it_refused(page, lang, drawn, head)
    assert _status(late_dashboard, thread) == ("waiting", "")  # the wire was not executed
    # The forms not sent yet say why they would be refused too.
    said = t("forms.drawn_before", lang=lang, drawn=short_id(drawn), head=short_id(head))
    expect(sidebar.get_by_text(said, exact=True)).to_have_count(2)  # update state, delete thread
    # The page shows the new head's state, the one the forms name (its proposal is the wire).
    expect(page.get_by_test_id("stMain").get_by_text(WIRE, exact=False).first).to_be_attached()


def test_the_robot_page_drawn_again_for_the_overdue_counts_refuses_the_answer_typed_before(
    page: Page, late_dashboard: Dashboard
):
    lang, thread, case = "en", "wire-robot", "LATE-wire"
    cli_ok(late_dashboard, "run", "refund", "--case", case, "--customer", "kim", "--amount", "500000", "--reason", "r")
    cli_ok(late_dashboard, "run", "robot", "--thread", thread)
    drawn = _head(late_dashboard, thread)
    open_page(page, late_dashboard, f"robot?thread={thread}&lang={lang}")
    nav, refund = page.get_by_test_id("stSidebarNav"), t("nav.refund", lang)
    expect(nav).to_contain_text(f"{refund} · {t('home.inbox_overdue', lang, count=1)}", timeout=SHOWN_WITHIN)
    wait_for_app(page)
    sidebar = page.get_by_test_id("stSidebar")
    _answer(sidebar, lang).fill("yes")  # typed, not sent

    head = _propose_a_wire(late_dashboard, thread)
    main = page.get_by_test_id("stMain")
    expect(main.get_by_text(WIRE, exact=False).first).to_be_visible(timeout=SHOWN_WITHIN)  # the live part
    # Another approver decides the late case elsewhere: the overdue count changes, and the page is drawn again.
    cli_ok(late_dashboard, "resume", f"refund-{case}", json.dumps({"action": "reject", "approver": "lee"}))
    expect(nav.get_by_text(refund, exact=True)).to_be_visible(timeout=SHOWN_WITHIN)
    wait_for_app(page)
    expect(_answer(sidebar, lang)).to_have_value("yes")

    _send_resume_and_expect_it_refused(page, lang, drawn, head)
    assert _status(late_dashboard, thread) == ("waiting", "")
