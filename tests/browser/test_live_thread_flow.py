"""The robot's and the lecture's open thread are live parts: another process's answer shows by itself.

Another process (the CLI) answers the thread the page shows. The page shows the answer within a few
live intervals without a full run of the page (the title, drawn by the page's run alone, is never
marked stale), and what was half typed in the thread's controls keeps its text and its focus. The
controls drawn for the question stay, with a notice, and a click on them is refused as stale.
"""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import Page, expect

from dashboard.i18n import t
from tests.browser.conftest import Dashboard
from tests.browser.opening import cli_ok, lecture_flags, open_page

#: How long the page may take to show another process's answer (ms): one interval of the live parts'
#: timer (``LIVE_REFRESH``), then its run, with room for a machine shared by other tests.
SHOWN_WITHIN = 8_000

#: Marks a full run of the page: the elements above the thread (title, intro), drawn only by the page's
#: run, are marked stale when one starts (``data-stale``). Returns how many it watches.
WATCH_PAGE_TOP = """() => {
  window.liveRedrawn = false;
  const top = [...document.querySelectorAll('[data-testid="stMain"] [data-testid="stElementContainer"]')].slice(0, 3);
  const seen = new MutationObserver(() => {
    if (top.some(box => box.getAttribute('data-stale') === 'true')) window.liveRedrawn = true;
  });
  top.forEach(box => seen.observe(box, {attributes: true, attributeFilter: ['data-stale']}));
  return top.filter(box => box.querySelector('h1')).length;
}"""


def _counts(dashboard: Dashboard, thread: str) -> dict[str, int]:
    """The thread's checkpoints and writes, as ``inspect`` counts them."""
    shown = cli_ok(dashboard, "inspect", thread, "--json")
    return dict(json.loads(shown.stdout)["counts"])


def _prefix(text: str) -> str:
    """A string's text before its first placeholder (what a page shows whatever fills it)."""
    return text.split("{")[0].strip()


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_the_robot_shows_another_process_answer_without_drawing_the_page_again(
    page: Page, live_dashboard: Dashboard, lang: str
):
    thread = f"live-robot-{lang}"
    cli_ok(live_dashboard, "run", "robot", "--thread", thread)
    main = open_page(page, live_dashboard, f"robot?thread={thread}&lang={lang}")
    status = main.get_by_test_id("stMetric").filter(has_text=t("robot.status", lang=lang))
    expect(status).to_contain_text(t("status.waiting", lang=lang))
    typed = main.get_by_label(t("robot.free_answer", lang=lang), exact=True)
    typed.press_sequentially("mayb")  # half typed: never sent (no Enter, no blur)
    assert page.evaluate(WATCH_PAGE_TOP) == 1  # the title is watched

    cli_ok(live_dashboard, "resume", thread, "yes")
    saved_rows = _counts(live_dashboard, thread)

    expect(status).to_contain_text(t("status.done", lang=lang), timeout=SHOWN_WITHIN)
    outcome = main.get_by_test_id("stMetric").filter(has_text=t("robot.outcome", lang=lang))
    expect(outcome).to_contain_text(t("outcome.executed", lang=lang))
    expect(main.get_by_text(t("robot.counts", lang=lang, checkpoints=5, writes=10), exact=True)).to_be_visible()
    notice = main.get_by_text(_prefix(t("robot.moved_on", lang=lang)), exact=False)
    expect(notice).to_be_visible()  # the question's controls stay, with a notice
    expect(typed).to_have_value("mayb")
    expect(typed).to_be_focused()
    assert page.evaluate("window.liveRedrawn") is False  # only the live part ran: no full run of the page

    main.get_by_role("button", name=t("robot.no", lang=lang), exact=True).click()  # drawn for the old question
    expect(main.get_by_text(t("forms.refused", lang=lang), exact=False).first).to_be_visible()
    expect(outcome).to_contain_text(t("outcome.executed", lang=lang))  # the refused click changed nothing
    assert _counts(live_dashboard, thread) == saved_rows


def _lecture_at_the_gate(dashboard: Dashboard, thread: str) -> None:
    started = cli_ok(dashboard, "run", "lecture", *lecture_flags(), "--thread", thread, "--json")
    assert json.loads(started.stdout)["status"] == "waiting"


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_the_lecture_shows_another_process_gate_decision_without_drawing_the_page_again(
    page: Page, live_dashboard: Dashboard, lang: str
):
    thread = f"live-lecture-{lang}"
    _lecture_at_the_gate(live_dashboard, thread)
    main = open_page(page, live_dashboard, f"lecture?thread={thread}&lang={lang}")
    status = main.get_by_test_id("stMetric").filter(has_text=t("lecture.status", lang=lang))
    expect(status).to_contain_text(t("status.waiting", lang=lang))
    decision = main.get_by_test_id("stForm").filter(has_text=t("lecture.decision", lang=lang))
    notes = decision.get_by_label(t("lecture.notes", lang=lang), exact=True)
    notes.press_sequentially("tighten the intro")  # half typed in the gate's form: never sent
    assert page.evaluate(WATCH_PAGE_TOP) == 1

    cli_ok(live_dashboard, "resume", thread, "save")
    saved_rows = _counts(live_dashboard, thread)

    expect(status).to_contain_text(t("status.done", lang=lang), timeout=SHOWN_WITHIN)
    expect(main.get_by_text(t("lecture.final_plan", lang=lang), exact=True)).to_be_visible()
    notice = main.get_by_text(_prefix(t("lecture.moved_on", lang=lang)), exact=False)
    expect(notice).to_be_visible()  # the gate's form stays, with a notice
    expect(notes).to_have_value("tighten the intro")
    expect(notes).to_be_focused()
    assert page.evaluate("window.liveRedrawn") is False

    decision.get_by_text(t("lecture.action.rework", lang=lang)).click()
    decision.get_by_role("button", name=t("lecture.submit_decision", lang=lang)).click()
    expect(main.get_by_text(t("forms.refused", lang=lang), exact=False).first).to_be_visible()
    assert _counts(live_dashboard, thread) == saved_rows  # the refused decision saved nothing
