"""The open refund case is a live part: it follows the database alone, a refusal never outlives its amount, and
the refusal of a click on its controls outlives the part's next runs.

Live parts rerun on their own timer (here every half second, the shortest ``HITL_LIVE_REFRESH``), so
a live part's run often starts right after the case panel's run that answered a typed amount. Streamlit
then sends the panel's end as "stopped for a rerun" and keeps the elements that run did not draw: a
refusal for the amount typed before stayed beside the preview of the valid amount typed after it,
until the panel ran again. Each round types a refused amount, then a valid one, and waits for the
refusal to go; before the panel drew its refusal in a place every run draws, about one round in
seven kept it.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Locator, Page, expect

from dashboard.i18n import t
from tests.browser.conftest import Dashboard, serve_dashboard, wait_for_app
from tests.browser.test_live_parts_flow import WATCH_HEADERS

ROUNDS = 12
#: Counts the runs that end from now on (the page's, a live part's): each turns the app's run state from running.
COUNT_RUN_ENDS = """() => {
  window.runEnds = 0;
  const app = document.querySelector('[data-testid="stApp"]');
  new MutationObserver(records => {
    window.runEnds += records.filter(record => record.oldValue === 'running').length;
  }).observe(app, {attributes: true, attributeFilter: ['data-test-script-state'], attributeOldValue: true});
}"""


@pytest.fixture(scope="module")
def fast_dashboard(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Dashboard]:
    """The dashboard with its live parts rerunning every half second."""
    with serve_dashboard(tmp_path_factory.mktemp("live") / "dashboard.sqlite", HITL_LIVE_REFRESH="0.5") as served:
        yield served


def _type(page: Page, label: str, text: str) -> None:
    field = page.get_by_test_id("stMain").get_by_label(label, exact=True)
    field.fill(text)
    field.press("Enter")  # commits the value: the case panel runs


def _open_waiting_case(page: Page, dashboard: Dashboard, case: str, lang: str) -> Locator:
    """Starts a refund of 400,000 KRW, which waits for an approver, and opens it; returns the page's main block."""
    started = dashboard.cli("run", "refund", "--case", case, "--customer", "kim", "--amount", "400000", "--reason", "r")
    assert started.returncode == 0, started.stderr
    page.goto(f"{dashboard.url}/refund?lang={lang}&thread=refund-{case}")
    wait_for_app(page)
    return page.get_by_test_id("stMain")


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_a_refusal_goes_as_soon_as_a_valid_amount_is_typed(page: Page, fast_dashboard: Dashboard, lang: str):
    main = _open_waiting_case(page, fast_dashboard, f"LIVE-{lang}", lang)
    _type(page, t("field.approver", lang=lang), "kim")
    refusal = main.get_by_test_id("stAlert").filter(has_text=t("refund.edit.invalid", lang=lang, error="").strip())
    preview = main.get_by_test_id("stMetric").filter(has_text=t("refund.edit.preview", lang=lang))
    for round_ in range(ROUNDS):
        _type(page, t("refund.edit.amount", lang=lang), "0")
        expect(refusal).to_have_count(1)
        expect(preview).to_have_count(0)
        valid = 50_000 + round_
        _type(page, t("refund.edit.amount", lang=lang), str(valid))
        expect(preview).to_contain_text(f"{valid:,}")
        expect(refusal).to_have_count(0)


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_a_refused_decision_says_why_until_the_page_is_drawn_again(page: Page, fast_dashboard: Dashboard, lang: str):
    """Approve with no approver typed: refused, and the message stays through the live part's own runs until
    a decision is sent."""
    main = _open_waiting_case(page, fast_dashboard, f"REFUSED-{lang}", lang)
    main.get_by_role("button", name=t("refund.approve", lang=lang), exact=True).click()
    required = t("error.required", lang=lang)
    refusal = main.get_by_test_id("stAlert").filter(has_text=t("forms.refused", lang=lang)).filter(has_text=required)
    expect(refusal).to_have_count(1)
    page.evaluate(COUNT_RUN_ENDS)
    page.wait_for_function("window.runEnds >= 3")  # the live parts ran on their timer since
    expect(refusal).to_have_count(1)
    expect(main.get_by_text(t("refund.case.waiting", lang=lang), exact=True)).to_be_visible()  # nothing was decided
    _type(page, t("field.approver", lang=lang), "kim")
    main.get_by_role("button", name=t("refund.approve", lang=lang), exact=True).click()
    expect(main.get_by_text(t("refund.case.waiting", lang=lang), exact=True)).to_have_count(0)  # decided
    expect(refusal).to_have_count(0)  # the page drawn again: the refusal of the click before has gone


def _case_picker(page: Page, lang: str):
    return page.get_by_test_id("stMain").get_by_role("combobox", name=t("refund.case.select", lang=lang), exact=True)


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_the_open_case_follows_a_decision_made_elsewhere_without_drawing_the_page_again(
    browser: Browser, page: Page, fast_dashboard: Dashboard, lang: str
):
    case = f"FOLLOW-{lang}"
    started = fast_dashboard.cli(
        "run", "refund", "--case", case, "--customer", "kim", "--amount", "400000", "--reason", "r"
    )
    assert started.returncode == 0, started.stderr
    url = f"{fast_dashboard.url}/refund?lang={lang}&thread=refund-{case}"
    page.goto(url)
    wait_for_app(page)
    main = page.get_by_test_id("stMain")
    status = main.get_by_test_id("stMarkdownContainer").filter(has_text=re.compile(r"^(Status|상태): "))
    expect(main.get_by_text(t("refund.case.waiting", lang=lang), exact=True)).to_be_visible()
    expect(main.get_by_test_id("stDataFrame").filter(has_text=case).first).to_be_attached()  # the tables drawn
    # The audit's decisions view draws who decided (its first view, the amounts, does not); chosen before the
    # watch below, as the full rerun it makes ends.
    view = t("refund.audit.view.decisions", lang=lang)
    main.locator(".st-key-refund-audit-view").get_by_role("radio", name=view, exact=True).click()
    batch = t("refund.col.batch", lang=lang)
    audit = main.get_by_test_id("stDataFrame").filter(has_text=case).last
    expect(audit.get_by_role("columnheader", name=batch, exact=True, include_hidden=True)).to_have_count(1)
    wait_for_app(page)
    decided_by_lee = main.get_by_test_id("stDataFrame").filter(has_text=case).filter(has_text=f"lee-{lang}")
    expect(decided_by_lee).to_have_count(0)
    waiting_label = _case_picker(page, lang).input_value()
    sidebar_said = page.get_by_test_id("stSidebar").get_by_text(f"refund-{case}", exact=False).first.inner_text()
    note = main.get_by_label(t("field.note", lang=lang), exact=True)
    note.press_sequentially("checked the pho")  # half typed: never sent (no Enter, no blur)
    watched = page.evaluate(WATCH_HEADERS)
    assert len(watched) >= 3, watched  # the title and the page's section headers

    decided = fast_dashboard.cli(
        "resume", f"refund-{case}", json.dumps({"action": "approve", "approver": f"lee-{lang}"})
    )
    assert decided.returncode == 0, decided.stderr

    moved_on = t("refund.case.moved_on", lang=lang, status="\0").split("\0")[0]  # before the status it names
    expect(main.get_by_text(moved_on, exact=False)).to_be_visible()  # the controls stay, with a notice
    expect(status).not_to_contain_text(t("status.waiting", lang=lang))
    fresh = browser.new_page()  # what a fresh load of the page shows: the picker's label must agree
    try:
        fresh.goto(url)
        wait_for_app(fresh)
        truth = _case_picker(fresh, lang).input_value()
    finally:
        fresh.close()
    assert truth != waiting_label
    expect(decided_by_lee).to_have_count(2)  # the audit and the ledger, each a live part
    expect(_case_picker(page, lang)).to_have_value(truth)
    expect(note).to_have_value("checked the pho")
    expect(note).to_be_focused()
    assert page.evaluate("window.liveRedrawn") is False  # only the live parts ran: no full rerun
    # The sidebar's forms were not drawn again: they still name the head they were drawn for, and
    # act on it, so a form sent from them now is refused as stale.
    assert (
        page.get_by_test_id("stSidebar").get_by_text(f"refund-{case}", exact=False).first.inner_text() == sidebar_said
    )
