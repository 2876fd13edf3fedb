"""A tab whose case another approver decided: typing in the case panel redraws the queue and the picker too."""

from __future__ import annotations

import json

from playwright.sync_api import Page, expect

from tests.browser.conftest import Dashboard, table_with, wait_for_app

DRAWN = 30_000


def test_the_queue_follows_the_case_panel_when_another_tab_decided(page: Page, dashboard: Dashboard):
    started = dashboard.cli(
        "run", "refund", "--case", "1061", "--customer", "kim", "--amount", "500000", "--reason", "r"
    )
    assert started.returncode == 0, started.stderr
    page.goto(f"{dashboard.url}/refund?thread=refund-1061")
    wait_for_app(page)
    main = page.get_by_test_id("stMain")
    expect(table_with(page, "1061")).to_contain_text("waiting", timeout=DRAWN)
    expect(main.get_by_text("Waiting for an approver.")).to_be_visible()

    decided = dashboard.cli("resume", "refund-1061", json.dumps({"action": "approve", "approver": "lee"}))
    assert decided.returncode == 0, decided.stderr  # tab A, or another approver

    note = main.get_by_label("Note", exact=True)
    note.fill("checked the photo")
    note.press("Enter")  # reruns the case panel alone
    expect(main.get_by_text("No case is waiting for a decision or needs attention.")).to_be_visible(timeout=DRAWN)
    picker = main.get_by_role("combobox", name="Selected case", exact=True)
    expect(picker).to_have_value("1061 · 500,000 KRW · done · paid", timeout=DRAWN)
    expect(note).to_have_value("checked the photo")  # what was typed stays
