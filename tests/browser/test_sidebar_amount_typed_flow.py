"""In Chromium: an amount typed into the sidebar's forms is read as typed, and ``1e9`` is refused, not paid as 1 KRW.

The forms drew an amount as Streamlit's number box, which reads ``1e9`` as 1 when it loses focus: Resume then paid
1 KRW on a 10,000,000 KRW case ("done · paid"), and Update state wrote 300,000 → 1, with no word. Only a real
browser shows what its number box makes of the keys typed; the amount is text now, read by the grammar of every
typed amount (``agents.validation.parse_whole_number``), and refused with a message that names the field.
"""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import Locator, Page, expect

from agents.errors import InputError
from agents.refund.ledger import ledger_rows
from agents.runtime import open_store
from agents.validation import parse_whole_number
from dashboard.i18n import t
from tests.browser.conftest import Dashboard
from tests.browser.opening import cli_ok, open_page


def _grammar_refusal(typed: str) -> str:
    """What the parser says of ``typed`` as the amount (the English of ``error.number_grammar``)."""
    with pytest.raises(InputError) as refused:
        parse_whole_number(typed, "amount")
    return refused.value.message


def _waiting_case(page: Page, dashboard: Dashboard, case: str, amount: int) -> Locator:
    """Case ``case`` of ``amount`` KRW, waiting for an approver, opened on the refund page; its sidebar."""
    cli_ok(dashboard, "run", "refund", "--case", case, "--customer", "Kim", "--amount", str(amount), "--reason", "r")
    main = open_page(page, dashboard, f"refund?thread=refund-{case}")
    expect(main.get_by_text("Waiting for an approver.")).to_be_visible()
    return page.get_by_test_id("stSidebar")


def _head(dashboard: Dashboard, thread: str) -> str:
    rows = json.loads(cli_ok(dashboard, "threads", "--json").stdout)
    return next(row["head_checkpoint_id"] for row in rows if row["thread_id"] == thread)


def _form(sidebar: Locator, submit: str) -> Locator:
    """The sidebar's form whose submit button is ``submit`` (a catalogue key)."""
    button = sidebar.page.get_by_role("button", name=t(submit, lang="en"), exact=True)
    return sidebar.get_by_test_id("stForm").filter(has=button)


def _expect_refused(sidebar: Locator, typed: str) -> None:
    refusal = sidebar.get_by_test_id("stAlertContentError").filter(has_text=t("forms.refused", lang="en"))
    expect(refusal).to_be_visible()
    expect(refusal).to_contain_text(f"{t('field.amount', lang='en')}: {_grammar_refusal(typed)}")


def test_resume_with_1e9_typed_as_the_amount_is_refused_and_pays_nothing(page: Page, shared_dashboard: Dashboard):
    sidebar = _waiting_case(page, shared_dashboard, "C6", 10_000_000)
    resume = _form(sidebar, "forms.resume.submit")
    resume.get_by_role("combobox", name=t("field.action", lang="en"), exact=True).click()
    page.get_by_role("option", name="edit", exact=True).click()
    expect(resume.get_by_role("combobox", name=t("field.action", lang="en"), exact=True)).to_have_value("edit")
    resume.get_by_label(t("field.amount", lang="en"), exact=True).press_sequentially("1e9")  # as a person types
    resume.get_by_label(t("field.approver", lang="en"), exact=True).fill("park")  # the amount loses the focus
    resume.get_by_role("button", name=t("forms.resume.submit", lang="en"), exact=True).click()

    _expect_refused(sidebar, "1e9")
    expect(page.get_by_test_id("stMain").get_by_text("Waiting for an approver.")).to_be_visible()
    store = open_store(shared_dashboard.db_path)
    try:
        assert ledger_rows(store) == []
    finally:
        store.close()


def test_update_state_with_5e5_typed_as_the_amount_is_refused_and_writes_nothing(
    page: Page, shared_dashboard: Dashboard
):
    sidebar = _waiting_case(page, shared_dashboard, "C7", 300_000)
    head = _head(shared_dashboard, "refund-C7")
    update = _form(sidebar, "forms.update.submit")
    update.get_by_label(t("field.amount", lang="en"), exact=True).press_sequentially("5e5")
    update.get_by_role("button", name=t("forms.update.submit", lang="en"), exact=True).click()

    _expect_refused(sidebar, "5e5")
    assert _head(shared_dashboard, "refund-C7") == head  # nothing written: the amount is still 300,000
