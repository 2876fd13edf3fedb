"""The refund page's new-request form keeps its fields, their focus and what is typed while the page is drawn
again for the navigation's overdue counts, and Tab goes through its fields in the order they are read.

The navigation is drawn by the page's full run only, so a late case decided elsewhere draws the whole page
again (``dashboard.live.follow_overdue``). The run after a request was sent showed that request's message at
the top of the page, and the next run did not: every box below it moved up one place. The browser keeps an
unkeyed box (an expander, a form) by its place, and a box drawn at a place that held another kind of box
starts empty: the form's expander was drawn anew, its fields with it, in the middle of typing. The focus fell
to the page's body and the rest of what was typed was lost (``Next Cu`` for ``Next Customer``).

The server's clock (``agents.ages.utc_now``) is fixed by its launcher (``tests/browser/fixed_clock.py``) just
past the deadline of the cases started before the server: those are overdue, every case started later is
not. The only change of the counts in a test is then the one it makes, by deciding its late case.
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Iterator

import pytest
from playwright.sync_api import Page, expect

from dashboard.i18n import t
from tests.browser.conftest import LIVE_REFRESH, Dashboard, wait_for_app
from tests.browser.opening import cli_ok, open_page
from tests.serving import dashboard_env, free_port, local_url, running_streamlit

LANGS = ("en", "ko")


def _start(case: str) -> dict[str, list[str]]:
    return {"cli": ["run", "refund", "--case", case, "--customer", "kim", "--amount", "500000", "--reason", "r"]}


@pytest.fixture(scope="module")
def late_dashboard(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Dashboard]:
    """A late refund case per language (past its 24 h deadline on the server's clock), a case started after
    them that is not late, and live parts every :data:`LIVE_REFRESH` s."""
    db = tmp_path_factory.mktemp("request-form") / "dashboard.sqlite"
    env = dashboard_env(db, latency="0", HITL_SLA="refund=24h", HITL_LIVE_REFRESH=str(LIVE_REFRESH))
    env.pop("HITL_ROLES_FILE", None)
    seeding = Dashboard(url="", db_path=db, env=env)
    seeding.cli_batch(*(_start(f"LATE-{lang}") for lang in LANGS), _start("ON-TIME"))
    waiting = {row["thread_id"]: dt.datetime.fromisoformat(row["waiting_since"]) for row in _inbox(seeding)}
    late = max(waiting[f"refund-LATE-{lang}"] for lang in LANGS)
    # Halfway between the last late case and the first one on time: 24 h after it, only the late ones are overdue.
    env["FIXED_CLOCK_AT"] = (late + (waiting["refund-ON-TIME"] - late) / 2 + dt.timedelta(hours=24)).isoformat()
    port, output = free_port(), []
    with running_streamlit(env, port, module="tests.browser.fixed_clock", output=output):
        yield Dashboard(url=local_url(port), db_path=db, env=env, output=output)


def _inbox(dashboard: Dashboard) -> list[dict[str, str]]:
    return list(json.loads(cli_ok(dashboard, "inbox", "--json").stdout))


def _overdue_title(lang: str, count: int) -> str:
    return f"{t('nav.refund', lang)} · {t('home.inbox_overdue', lang, count=count)}"


@pytest.mark.parametrize("lang", LANGS)
def test_typing_in_the_request_form_goes_on_through_a_redraw_for_the_overdue_counts(
    page: Page, late_dashboard: Dashboard, lang: str
):
    main = open_page(page, late_dashboard, f"refund?lang={lang}")
    nav = page.get_by_test_id("stSidebarNav")
    late_before = sum(1 for row in _inbox(late_dashboard) if row["thread_id"].startswith("refund-LATE-"))
    expect(nav).to_contain_text(_overdue_title(lang, late_before))

    main.get_by_text(t("refund.new.header", lang), exact=True).click()
    form = main.get_by_test_id("stForm").filter(has=page.get_by_label(t("field.reason", lang), exact=True))
    field = {name: form.get_by_label(t(f"field.{name}", lang), exact=True) for name in ("case_id", "customer")}
    sent = f"SENT-{lang}"
    field["case_id"].fill(sent)
    field["customer"].fill("Tester")
    form.get_by_label(t("field.amount", lang), exact=True).fill("150000")
    form.get_by_label(t("field.reason", lang), exact=True).fill("r")
    form.get_by_role("button", name=t("refund.new.submit", lang), exact=True).click()
    # The run after the request says it was sent; the next full run will not.
    sent_message = main.get_by_test_id("stAlertContentSuccess").filter(has_text=sent)
    expect(sent_message).to_be_visible()
    wait_for_app(page)

    field["case_id"].click()
    page.keyboard.press("ControlOrMeta+A")
    page.keyboard.type("NEXT")
    field["case_id"].evaluate("input => { window.typedIn = input; }")

    # Another approver decides this test's late case: the counts change, and the page is drawn again whole.
    cli_ok(late_dashboard, "resume", f"refund-LATE-{lang}", json.dumps({"action": "reject", "approver": "lee"}))
    late_after = late_before - 1
    title = _overdue_title(lang, late_after) if late_after else t("nav.refund", lang)
    expect(nav.get_by_text(title, exact=True)).to_be_visible()  # the page's full run has begun
    expect(sent_message).to_have_count(0)  # it has drawn the form's box, with no message this time
    wait_for_app(page)

    kept = "() => window.typedIn.isConnected && document.activeElement === window.typedIn"
    assert page.evaluate(kept), "the field typed in was drawn anew: its focus is lost, and what is typed next"
    page.keyboard.type("-2")  # where the user goes on typing, with no click
    page.keyboard.press("Tab")
    page.keyboard.press("ControlOrMeta+A")
    page.keyboard.type("Next Customer")
    expect(field["case_id"]).to_have_value("NEXT-2")
    expect(field["customer"]).to_have_value("Next Customer")


@pytest.mark.parametrize("lang", LANGS)
def test_tab_goes_through_the_request_form_in_reading_order(page: Page, late_dashboard: Dashboard, lang: str):
    """Case id | Customer on the first line, Amount under Case id: Tab goes Case id → Customer → Amount."""
    main = open_page(page, late_dashboard, f"refund?lang={lang}")
    main.get_by_text(t("refund.new.header", lang), exact=True).click()
    names = [t(f"field.{name}", lang) for name in ("case_id", "customer", "amount")]
    main.get_by_label(names[0], exact=True).click()
    focused = []
    for _ in names[1:]:
        page.keyboard.press("Tab")
        focused.append(page.evaluate("() => document.activeElement.getAttribute('aria-label')"))
    assert focused == names[1:]
    case_id, customer, amount = (main.get_by_label(name, exact=True).bounding_box() for name in names)
    assert case_id and customer and amount
    assert case_id["y"] == customer["y"] and case_id["x"] < customer["x"]  # side by side
    assert amount["x"] == case_id["x"] and amount["y"] > case_id["y"]  # under Case id
