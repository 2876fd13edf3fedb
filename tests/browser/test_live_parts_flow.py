"""Live parts: the refund queue follows other people's decisions and new cases by rerunning alone.

Two browsers (two people): B has a case open and a note half typed; A decides another case, and a
new case arrives from the command line. B's queue drops the one and shows the other within the
live interval, B's note keeps its text and focus, and nothing of B's page outside its live parts is
drawn again (a full rerun marks every element of the page stale while it runs: Streamlit's
``data-stale``, which a fragment's run sets only on the fragment's own elements).
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, Page, expect

from agents import lifecycle
from agents.runtime import open_store
from dashboard.i18n import t
from tests.browser.conftest import Dashboard, wait_for_app

#: Records in ``window.liveRedrawn`` whether a title or header of the page (never in a live part) went stale;
#: returns the texts of those it watches (a failed count says which are there).
WATCH_HEADERS = """() => {
  window.liveRedrawn = false;
  const headers = [...document.querySelectorAll('[data-testid="stMain"] [data-testid="stElementContainer"]')]
    .filter(box => box.querySelector('h1, h2'));
  const seen = new MutationObserver(() => {
    if (headers.some(box => box.getAttribute('data-stale') === 'true')) window.liveRedrawn = true;
  });
  headers.forEach(box => seen.observe(box, {attributes: true, attributeFilter: ['data-stale']}));
  return headers.map(box => box.innerText);
}"""

#: The same, for the page's title alone: the robot's save-file header is inside its open thread's live part.
WATCH_TITLE = WATCH_HEADERS.replace("'h1, h2'", "'h1'")


def _start(dashboard: Dashboard, *cases: str) -> None:
    """Starts each case from the command line (several in one process, in order)."""
    steps = [
        {"cli": ["run", "refund", "--case", case, "--customer", "kim", "--amount", "500000", "--reason", "r"]}
        for case in cases
    ]
    for step, started in zip(steps, dashboard.cli_batch(*steps), strict=True):
        assert started["code"] == 0, (step, started["err"])


def _open(browser: Browser, url: str) -> Page:
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    page = context.new_page()
    page.set_default_timeout(30_000)
    page.goto(url)
    wait_for_app(page)
    return page


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_the_queue_reruns_alone_after_another_persons_decision_and_a_new_case_keeping_a_typed_note(
    browser: Browser, shared_dashboard: Dashboard, lang: str
):
    expect.set_options(timeout=30_000)  # an upper bound: every wait below is for the page's own state
    first, shown, new = (f"{7100 + 100 * (lang == 'ko') + n}" for n in (1, 2, 3))
    _start(shared_dashboard, first, shown)
    base = f"{shared_dashboard.url}/refund?lang={lang}&thread=refund-"
    page_b = _open(browser, base + shown)  # person B, on another case
    page_a = _open(browser, base + first)  # person A
    try:
        main_b = page_b.get_by_test_id("stMain")
        queue_b = main_b.get_by_test_id("stDataFrame").first
        expect(queue_b).to_contain_text(first)
        note = main_b.get_by_label(t("field.note", lang), exact=True)
        note.press_sequentially("checked the pho")  # half typed: never sent (no Enter, no blur)
        watched = page_b.evaluate(WATCH_HEADERS)
        assert len(watched) >= 3, watched  # the title and the page's section headers

        main_a = page_a.get_by_test_id("stMain")
        main_a.get_by_label(t("field.approver", lang), exact=True).fill("lee")
        main_a.get_by_role("button", name=t("refund.approve", lang), exact=True).click()
        expect(main_a.get_by_text(t("refund.case.outcome", lang, outcome=t("outcome.paid", lang)))).to_be_visible()

        expect(queue_b).not_to_contain_text(first)  # B, untouched, drops the decided case
        expect(queue_b).to_contain_text(shown)
        expect(note).to_have_value("checked the pho")
        expect(note).to_be_focused()

        _start(shared_dashboard, new)  # a new case, from the command line
        expect(queue_b).to_contain_text(new)
        expect(note).to_have_value("checked the pho")
        expect(note).to_be_focused()
        assert page_b.evaluate("window.liveRedrawn") is False  # only the live parts ran: no full rerun
    finally:
        page_a.context.close()
        page_b.context.close()


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_the_robots_queue_counts_a_new_thread_and_the_open_thread_follows_an_answer_from_elsewhere(
    browser: Browser, shared_dashboard: Dashboard, lang: str
):
    expect.set_options(timeout=30_000)  # an upper bound: every wait below is for the page's own state
    shown, other = f"live-open-{lang}", f"live-new-{lang}"
    started = shared_dashboard.cli("run", "robot", "--thread", shown)
    assert started.returncode == 0, started.stderr
    page = _open(browser, f"{shared_dashboard.url}/robot?lang={lang}&thread={shown}")
    try:
        main = page.get_by_test_id("stMain")
        waiting = [x.thread_id for x in _robot_inbox(shared_dashboard) if x.thread_id != shown]
        queue = main.get_by_text(t("robot.queue", lang, count=len(waiting)), exact=True)
        expect(queue).to_be_visible()
        yes = main.get_by_role("button", name=t("robot.yes", lang), exact=True)
        expect(yes).to_be_visible()  # the open thread waits for its answer
        watched = page.evaluate(WATCH_TITLE)
        assert len(watched) == 1, watched

        started = shared_dashboard.cli("run", "robot", "--thread", other)  # a new thread waits, from the CLI
        assert started.returncode == 0, started.stderr
        expect(main.get_by_text(t("robot.queue", lang, count=len(waiting) + 1), exact=True)).to_be_visible()
        assert page.evaluate("window.liveRedrawn") is False  # the queue ran alone: no full rerun

        answered = shared_dashboard.cli("resume", shown, "yes")  # the open thread, answered elsewhere
        assert answered.returncode == 0, answered.stderr
        # The open thread shows it moved on, its controls kept (a click on them is refused as stale),
        # still without drawing the page again.
        moved_on = t("robot.moved_on", lang, status="").split("(")[0].strip()
        expect(main.get_by_text(moved_on, exact=False)).to_be_visible()
        assert page.evaluate("window.liveRedrawn") is False
    finally:
        page.context.close()


def _robot_inbox(dashboard: Dashboard) -> list[lifecycle.ThreadStatus]:
    store = open_store(str(dashboard.db_path))
    try:
        return lifecycle.inbox(store, agent="robot")
    finally:
        store.close()
