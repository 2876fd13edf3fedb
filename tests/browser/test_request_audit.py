"""Part "home, robot, refund" of the request audit (tests/browser/request_audit.py): no request to another origin."""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import Page

from tests.browser.conftest import Dashboard
from tests.browser.request_audit import PARTS, TITLES, audit_part


def test_no_request_leaves_the_dashboards_origin_on_home_robot_refund(page: Page, dashboard: Dashboard):
    audit_part(page, dashboard, "home, robot, refund")


def test_the_parts_audit_every_page_in_both_languages_and_the_typed_text_once():
    """The parts together visit every page (each in one part) and type the planted text once."""
    visited = [name for part in PARTS.values() for name in part.pages]
    assert sorted(visited) == sorted(TITLES)
    assert sum(part.typed for part in PARTS.values()) == 1
    files = sorted(path.name for path in Path(__file__).parent.glob("test_request_audit*.py"))
    assert len(files) == len(PARTS), files
