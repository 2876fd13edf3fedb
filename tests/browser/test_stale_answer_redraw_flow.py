"""The robot page after a stale answer, in a browser: the thread was answered elsewhere (the CLI) while the page
kept its question with a notice; a click on that question's answer is refused, and the thread's live part then
draws the thread as it is (no old question, no yes / no) with the refusal where the question was, saying the page
shows the thread as it is, so nobody has to reload (and lose what was typed). Every wait is on the page."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from dashboard.i18n import t
from tests.browser.conftest import Dashboard
from tests.browser.opening import cli_ok, open_page

#: How long the page may take to show another process's answer (ms): a live interval, then its run.
SHOWN_WITHIN = 8_000


def _prefix(text: str) -> str:
    """A string's text before its first placeholder (what a page shows whatever fills it)."""
    return text.split("{")[0].strip()


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_a_stale_answer_is_refused_and_the_thread_is_drawn_as_it_is(page: Page, live_dashboard: Dashboard, lang: str):
    thread = f"stale-robot-{lang}"
    cli_ok(live_dashboard, "run", "robot", "--thread", thread)
    main = open_page(page, live_dashboard, f"robot?thread={thread}&lang={lang}")
    no = main.get_by_role("button", name=t("robot.no", lang=lang), exact=True)
    expect(no).to_be_visible()

    cli_ok(live_dashboard, "resume", thread, "yes")  # answered elsewhere
    expect(main.get_by_text(_prefix(t("robot.moved_on", lang=lang)), exact=False)).to_be_visible(timeout=SHOWN_WITHIN)
    no.click()  # drawn for the old question: refused

    refused = main.get_by_test_id("stAlertContentError").filter(has_text=t("forms.refused", lang=lang))
    expect(refused).to_contain_text(_prefix(t("forms.stale", lang=lang).split("). ")[-1]))
    expect(no).to_have_count(0)  # the thread as it is: its question answered, no answers to give
    expect(main.get_by_text(_prefix(t("robot.moved_on", lang=lang)), exact=False)).to_have_count(0)
    outcome = main.get_by_test_id("stMetric").filter(has_text=t("robot.outcome", lang=lang))
    expect(outcome).to_contain_text(t("outcome.executed", lang=lang))
    expect(refused).to_have_count(1)  # and the refusal stays, said once
