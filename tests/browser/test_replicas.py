"""Two dashboard processes on one PostgreSQL database: one inbox, one payout."""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import Browser, expect

from tests.browser.conftest import serve_dashboard, table_with, wait_for_app
from tests.conftest import _postgres_schema


@pytest.fixture
def two_replicas():
    # Live refresh off: the second approver's page stays as drawn, so its click is a stale one.
    still = {"HITL_LIVE_REFRESH": "0"}
    with _postgres_schema() as url, serve_dashboard(url, **still) as first, serve_dashboard(url, **still) as second:
        yield first, second


def test_an_approval_in_one_replica_is_seen_in_the_other_and_pays_once(browser: Browser, two_replicas):
    first, second = two_replicas
    created = first.cli(
        "run",
        "refund",
        "--case",
        "R1",
        "--customer",
        "kim",
        "--amount",
        "500000",
        "--reason",
        "broken screen",
        "--json",
    )
    assert created.returncode == 0, created.stderr
    assert json.loads(created.stdout)["status"] == "waiting"

    page_a, page_b = browser.new_page(), browser.new_page()
    for page, replica in ((page_a, first), (page_b, second)):
        page.goto(f"{replica.url}/")  # home is the default page, at the root
        wait_for_app(page)
        expect(table_with(page, "refund-R1")).to_be_visible()
    # Both approvers open the case while it waits: the same view in two processes.
    for page, replica in ((page_a, first), (page_b, second)):
        page.goto(f"{replica.url}/refund?thread=refund-R1")
        wait_for_app(page)
        approver = page.get_by_test_id("stMain").get_by_role("textbox", name="Approver", exact=True)
        approver.fill("kim" if page is page_a else "lee")
        approver.press("Enter")
        wait_for_app(page)

    page_a.get_by_test_id("stMain").get_by_role("button", name="Approve", exact=True).click()
    expect(page_a.get_by_text("paid", exact=False).first).to_be_visible()

    page_b.get_by_test_id("stMain").get_by_role("button", name="Approve", exact=True).click()
    expect(page_b.get_by_text("changed since this form was drawn", exact=False)).to_be_visible()

    page_b.goto(f"{second.url}/")
    wait_for_app(page_b)
    expect(page_b.get_by_text("Nothing is waiting for a human and nothing needs attention.")).to_be_visible()

    ledger = json.loads(second.cli("ledger", "--json").stdout)
    assert [(row["case_id"], row["paid_amount"], row["approver"]) for row in ledger] == [("R1", 500_000, "kim")]
    page_a.close()
    page_b.close()
