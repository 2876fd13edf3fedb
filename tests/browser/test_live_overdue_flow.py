"""The navigation's overdue counts follow the database: a late case decided elsewhere leaves the count.

The navigation is drawn by a page's full run only. On the refund page, whose parts follow the
database by themselves, nothing drew the page again when another process decided a late case that
is not the one open, so the page's name kept counting it.
"""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest
from playwright.sync_api import Page, expect

from dashboard.i18n import t
from tests.browser.conftest import Dashboard, serve_dashboard, wait_for_app


@pytest.fixture(scope="module")
def late_dashboard(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Dashboard]:
    """A refund waits one second at most before it is overdue; live parts rerun every half second."""
    db = tmp_path_factory.mktemp("overdue") / "dashboard.sqlite"
    with serve_dashboard(db, HITL_SLA="refund=1s", HITL_LIVE_REFRESH="0.5") as served:
        yield served


def _start(dashboard: Dashboard, case: str) -> None:
    started = dashboard.cli("run", "refund", "--case", case, "--customer", "kim", "--amount", "500000", "--reason", "r")
    assert started.returncode == 0, started.stderr


def _decide(dashboard: Dashboard, case: str) -> None:
    decided = dashboard.cli("resume", f"refund-{case}", json.dumps({"action": "approve", "approver": "lee"}))
    assert decided.returncode == 0, decided.stderr


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_a_late_case_decided_elsewhere_leaves_the_overdue_count(page: Page, late_dashboard: Dashboard, lang: str):
    shown, other = f"OPEN-{lang}", f"LATE-{lang}"
    _start(late_dashboard, shown)
    _start(late_dashboard, other)
    page.goto(f"{late_dashboard.url}/refund?lang={lang}&thread=refund-{shown}")
    wait_for_app(page)
    nav = page.get_by_test_id("stSidebarNav")
    refund = t("nav.refund", lang)
    expect(nav).to_contain_text(f"{refund} · {t('home.inbox_overdue', lang, count=2)}")  # both waited past 1 s

    _decide(late_dashboard, other)
    expect(nav).to_contain_text(f"{refund} · {t('home.inbox_overdue', lang, count=1)}")
    _decide(late_dashboard, shown)
    expect(nav.get_by_text(refund, exact=True)).to_be_visible()  # nothing overdue: the name alone
