"""Part "timeline, typed text" of the request audit (tests/browser/request_audit.py): no request to another origin."""

from __future__ import annotations

from playwright.sync_api import Page

from tests.browser.conftest import Dashboard
from tests.browser.request_audit import audit_part


def test_no_request_leaves_the_dashboards_origin_on_timeline_and_typed_text(page: Page, dashboard: Dashboard):
    audit_part(page, dashboard, "timeline, typed text")
