"""Browser flow of the refund agent: request, inbox, edit in update_state, approve, stale second tab, and a
stale tab's refusal that stays readable while its live case panel goes on following the case."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import Dashboard, serve_dashboard, table_with
from tests.browser.opening import cli_ok, open_page


@pytest.fixture
def still_dashboard(tmp_path: Path) -> Iterator[Dashboard]:
    """The dashboard with live refresh off: a second tab stays as drawn, so its click is a stale one."""
    with serve_dashboard(tmp_path / "dashboard.sqlite", HITL_LIVE_REFRESH="0") as served:
        yield served


def _submit_request(page: Page, case: str, amount: str, reason: str) -> None:
    form = page.get_by_test_id("stForm").filter(has_text="Submit request")
    form.get_by_label("Case id", exact=True).fill(case)
    form.get_by_label("Customer", exact=True).fill("Kim")
    form.get_by_label("Amount (KRW)", exact=True).fill(amount)
    form.get_by_label("Reason", exact=True).fill(reason)
    form.get_by_role("button", name="Submit request").click()
    expect(page.get_by_text(f"Case {case} submitted: waiting.")).to_be_visible()


def _ledger(dashboard: Dashboard) -> list[dict]:
    done = cli_ok(dashboard, "ledger", "--json")
    return json.loads(done.stdout)


def test_refund_request_edit_approve_then_stale_tab_pays_once(page: Page, still_dashboard: Dashboard):
    dashboard = still_dashboard
    open_page(page, dashboard, "refund")
    _submit_request(page, "c500", "500,000", "broken on arrival")
    main = page.get_by_test_id("stMain")
    expect(main.get_by_text("Waiting for an approver.")).to_be_visible()
    expect(main.get_by_test_id("stMetric").filter(has_text="Requested")).to_contain_text("500,000")

    # The home inbox lists the waiting case.
    home = page.context.new_page()
    open_page(home, dashboard, "")  # home is the default page, at the root
    expect(table_with(home, "refund-c500")).to_be_visible()
    expect(table_with(home, "refund-c500")).to_contain_text("pay 500,000 KRW")
    home.close()

    # Edit the amount with the sidebar update_state form and continue the run.
    sidebar = page.get_by_test_id("stSidebar")
    update = sidebar.get_by_test_id("stForm").filter(has_text="Update state")
    update.get_by_label("Amount (KRW)", exact=True).fill("50000")
    update.get_by_text("Continue the run after the update").click()
    update.get_by_role("button", name="Update state").click()
    expect(page.get_by_text("Updated thread refund-c500: waiting.")).to_be_visible()
    expect(main.get_by_test_id("stMetric").filter(has_text="To pay")).to_contain_text("50,000")

    # A second tab drawn now, before the approval: its controls become stale.
    second = page.context.new_page()
    second.set_default_timeout(30_000)
    open_page(second, dashboard, "refund?thread=refund-c500")
    expect(second.get_by_text("Waiting for an approver.")).to_be_visible()

    main.get_by_label("Approver", exact=True).fill("lee")
    main.get_by_role("button", name="Approve", exact=True).click()
    expect(page.get_by_text("Case c500: approve by lee", exact=False)).to_be_visible()
    expect(main.get_by_text("Outcome: paid")).to_be_visible()
    expect(main.get_by_test_id("stMetric").filter(has_text="Requested")).to_contain_text("500,000")
    expect(main.get_by_test_id("stMetric").filter(has_text="Executed (ledger)")).to_contain_text("50,000")
    payouts = _ledger(dashboard)
    assert [(p["requested_amount"], p["paid_amount"]) for p in payouts] == [(500000, 50000)]

    second_main = second.get_by_test_id("stMain")
    second_main.get_by_label("Approver", exact=True).fill("park")
    second_main.get_by_role("button", name="Approve", exact=True).click()
    refusal = second_main.get_by_text("Nothing was done:", exact=False)
    expect(refusal).to_be_visible()
    expect(refusal).to_contain_text(re.compile(r"changed since this form was drawn|not waiting|already paid"))
    assert len(_ledger(dashboard)) == 1
    assert _ledger(dashboard)[0]["paid_amount"] == 50000
    second.close()


def test_a_stale_tabs_refusal_stays_after_the_live_panel_draws_the_case_decided(page: Page, live_dashboard: Dashboard):
    """Tab B shows a case that another tab then approves; its Reject is refused as stale. The case panel's next
    live run draws the case as it is (decided: no controls), and the refusal stays, saying why nothing was done."""
    cli_ok(live_dashboard, "run", "refund", "--case", "C15", "--customer", "Kim", "--amount", "500000", "--reason", "r")
    main = open_page(page, live_dashboard, "refund?thread=refund-C15")
    expect(main.get_by_text("Waiting for an approver.")).to_be_visible()
    main.get_by_label("Approver", exact=True).fill("park")
    decided = {"action": "approve", "approver": "lee"}
    cli_ok(live_dashboard, "resume", "refund-C15", json.dumps(decided))  # tab A, or another approver
    expect(main.get_by_text("This case changed since your controls were drawn", exact=False)).to_be_visible()

    main.get_by_role("button", name="Reject", exact=True).click()
    refusal = main.get_by_text("Nothing was done:", exact=False)
    expect(refusal).to_be_visible()
    expect(refusal).to_contain_text("changed since this form was drawn")
    # The panel's next run: the case as it is, decided, its controls gone ...
    expect(main.get_by_role("button", name="Reject", exact=True)).to_have_count(0)
    expect(main.get_by_text("Outcome: paid")).to_be_visible()
    # ... and the reason nothing was done still under where they were.
    expect(refusal).to_be_visible()
    expect(refusal).to_contain_text("changed since this form was drawn")
    assert [row["approver"] for row in _ledger(live_dashboard) if row["case_id"] == "C15"] == ["lee"]
