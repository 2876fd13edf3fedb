"""The refund case's decision controls in Chromium, as an approver uses them: a typed amount is edited and
approved by one click (a text input sends its value only as it loses the focus, to that click); a refused click
is said beside the Approve / Reject buttons, on presenter mode's 1280×720 first screen; a click on controls of a
case decided elsewhere is refused as stale, whatever its fields hold."""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import Page, expect

from dashboard.i18n import t
from tests.browser.conftest import Dashboard, wait_for_app
from tests.browser.opening import cli_ok, open_page

WIDTH, HEIGHT = 1280, 720


def _start(dashboard: Dashboard, case: str, amount: str = "300000") -> str:
    cli_ok(dashboard, "run", "refund", "--case", case, "--customer", "Kim", "--amount", amount, "--reason", "broken")
    return f"refund-{case}"


def _paid(dashboard: Dashboard, case: str) -> list[tuple[int, str]]:
    rows = json.loads(cli_ok(dashboard, "ledger", "--json").stdout)
    return [(row["paid_amount"], row["approver"]) for row in rows if row["case_id"] == case]


def test_typing_an_amount_then_one_click_edits_and_approves_it(page: Page, shared_dashboard: Dashboard):
    dashboard = shared_dashboard
    thread = _start(dashboard, "C2")
    main = open_page(page, dashboard, f"refund?thread={thread}")
    expect(main.get_by_text("Waiting for an approver.")).to_be_visible()

    main.get_by_label("Approver", exact=True).press_sequentially("lee")
    amount = main.get_by_label("New amount to pay (KRW)", exact=True)
    amount.click()  # the approver's field loses the focus: its value is sent
    amount.press_sequentially("120,000")  # typed, not yet sent: no Enter, the focus stays in the field
    edit = main.get_by_role("button", name="Edit amount and approve", exact=True)
    expect(edit).to_be_enabled()  # whatever the server holds of the amount
    edit.click()  # once: the field's value goes with the click

    expect(page.get_by_text("Case C2: edit and approve by lee → done · paid.", exact=True)).to_be_visible()
    expect(main.get_by_text("Outcome: paid", exact=True)).to_be_visible()
    expect(main.get_by_test_id("stMetric").filter(has_text="Executed (ledger)")).to_contain_text("120,000")
    wait_for_app(page)
    assert _paid(dashboard, "C2") == [(120_000, "lee")]  # the amount typed, paid once


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_a_refused_approve_is_said_beside_its_buttons_on_the_presenters_first_screen(
    page: Page, shared_dashboard: Dashboard, lang: str
):
    dashboard, case = shared_dashboard, {"en": "C3", "ko": "C4"}[lang]
    thread = _start(dashboard, case)
    main = open_page(page, dashboard, f"refund?thread={thread}&lang={lang}&present=1", (WIDTH, HEIGHT))
    approve, reject = (main.locator(f".st-key-refund-{action} button") for action in ("approve", "reject"))
    expect(approve).to_be_visible()

    approve.click()  # no approver
    said = f"{t('forms.refused', lang=lang)} {t('field.approver', lang=lang)}:"
    refusal = main.get_by_test_id("stAlertContainer").filter(has_text=said)
    expect(refusal).to_be_visible()
    wait_for_app(page)
    expect(refusal).to_have_count(1)  # said once
    box, approve_box, reject_box = refusal.bounding_box(), approve.bounding_box(), reject.bounding_box()
    assert box is not None and approve_box is not None and reject_box is not None
    assert box["y"] + box["height"] <= HEIGHT, box  # whole on the first screen
    assert box["x"] >= reject_box["x"] + reject_box["width"], (box, reject_box)  # beside the buttons
    assert abs(box["y"] - approve_box["y"]) <= 5, (box, approve_box)  # on their row
    assert _paid(dashboard, case) == []


def test_a_stale_approve_with_no_approver_is_refused_as_stale(page: Page, live_dashboard: Dashboard):
    thread = _start(live_dashboard, "E1")
    main = open_page(page, live_dashboard, f"refund?thread={thread}")
    expect(main.get_by_text("Waiting for an approver.")).to_be_visible()
    cli_ok(live_dashboard, "resume", thread, json.dumps({"action": "approve", "approver": "lee"}))  # elsewhere
    expect(main.get_by_text("This case changed since your controls were drawn", exact=False)).to_be_visible()

    main.get_by_role("button", name="Approve", exact=True).click()  # the approver left empty
    refusal = main.get_by_text("Nothing was done:", exact=False)
    expect(refusal).to_contain_text("changed since this form was drawn")
    expect(main.get_by_text("Approver: is required", exact=False)).to_have_count(0)
    assert _paid(live_dashboard, "E1") == [(300_000, "lee")]
