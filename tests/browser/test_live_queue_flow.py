"""Live pages: a queue drops a case another tab decided and shows a new one, with no reload, and what
is half typed in the tab stays."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Page, expect

from dashboard.strings.core import STRINGS as CORE
from tests.browser.conftest import Dashboard, serve_dashboard, table_with, wait_for_app
from tests.conftest import _postgres_schema

#: A refund case's start through the CLI, but for its case id (appended).
_START = ("run", "refund", "--customer", "kim", "--amount", "500000", "--reason", "r", "--case")


def _start(dashboard: Dashboard, case: str) -> None:
    started = dashboard.cli(*_START, case)
    assert started.returncode == 0, started.stderr


def test_a_queue_follows_another_tabs_decision_and_a_new_case_keeping_a_half_typed_note(
    page: Page, dashboard: Dashboard
):
    started = dashboard.cli_batch(*({"cli": [*_START, case]} for case in ("1061", "1062")))  # one process
    assert [step["code"] for step in started] == [0, 0], started
    page.goto(f"{dashboard.url}/refund?thread=refund-1062")  # tab B, on another case
    wait_for_app(page)
    main_b = page.get_by_test_id("stMain")
    queue_b = main_b.get_by_test_id("stDataFrame").first
    expect(queue_b).to_contain_text("1061")
    note = main_b.get_by_label("Note", exact=True)
    note.press_sequentially("checked the pho")  # half typed: never sent (no Enter, no blur)

    tab_a = page.context.new_page()
    tab_a.goto(f"{dashboard.url}/refund?thread=refund-1061")
    wait_for_app(tab_a)
    main_a = tab_a.get_by_test_id("stMain")
    main_a.get_by_label("Approver", exact=True).fill("lee")
    main_a.get_by_role("button", name="Approve", exact=True).click()
    expect(main_a.get_by_text("Outcome: paid")).to_be_visible()

    expect(queue_b).not_to_contain_text("1061")  # tab B, untouched, drops the decided case
    expect(queue_b).to_contain_text("1062")
    expect(note).to_have_value("checked the pho")
    expect(note).to_be_focused()

    _start(dashboard, "1063")  # a new case, from the command line
    expect(queue_b).to_contain_text("1063")
    expect(note).to_have_value("checked the pho")
    tab_a.close()


@pytest.fixture(scope="module")
def home_dashboard(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Dashboard]:
    """One dashboard for the home page's tests: each starts from an empty inbox and leaves it empty (its
    case decided), with a case id of its own."""
    with serve_dashboard(tmp_path_factory.mktemp("home") / "dashboard.sqlite") as served:
        yield served


@pytest.mark.parametrize(("lang", "case"), [("en", "2001"), ("ko", "2002")], ids=["en", "ko"])
def test_home_shows_a_new_case_and_drops_a_decided_one_without_a_reload(
    page: Page, home_dashboard: Dashboard, lang, case
):
    dashboard = home_dashboard
    empty = page.get_by_text(CORE["home.inbox_empty"][0 if lang == "en" else 1])
    page.goto(f"{dashboard.url}/?lang={lang}")
    wait_for_app(page)
    expect(empty).to_be_visible()
    _start(dashboard, case)
    expect(table_with(page, f"refund-{case}")).to_be_visible()
    expect(empty).to_have_count(0)
    decided = dashboard.cli("resume", f"refund-{case}", '{"action": "reject", "approver": "lee"}')
    assert decided.returncode == 0, decided.stderr
    expect(empty).to_be_visible()


@pytest.fixture
def postgres_dashboard() -> Iterator[Dashboard]:
    with _postgres_schema() as url, serve_dashboard(url) as served:
        yield served


def test_home_follows_another_process_on_postgresql(page: Page, postgres_dashboard: Dashboard):
    empty = page.get_by_text(CORE["home.inbox_empty"][0])
    page.goto(f"{postgres_dashboard.url}/")
    wait_for_app(page)
    expect(empty).to_be_visible()
    _start(postgres_dashboard, "3001")  # another process: the server's snapshot moves
    expect(table_with(page, "refund-3001")).to_be_visible()
