"""A box of a live part that shrinks leaves none of its old lines on screen once the part has drawn it again.

The robot's and the lecture's open thread are live parts (``st.fragment(run_every=...)``). A run of a
live part replaces in place what it draws again, and removes what it did not draw only at its end (and
only when that end reaches the browser as a fragment run's end; a tick that starts before turns it into
"stopped early", and what was left out stays until the part's next run). Until then the browser keeps
it: a list drawn with fewer items showed its old last item under the new ones. Here the thread is sent
back from the command line to its question (``rerun`` from the waiting checkpoint), so the robot's
outcome and messages and the lecture's saved plan have fewer lines. The test watches every change of
the page's DOM and, at the first moment the part's new text is there, records each old line still in
the DOM, and whether Streamlit marks it stale (``data-stale``).

When the rest of the run reaches the browser is up to the network and the machine's load: it often
comes with the new text, in one render, and sometimes an interval later. The test makes it always come
after: the page's Streamlit stream goes through the test (Playwright's ``route_web_socket``), which
holds what the server sends after the message that draws the new text until the page has been looked at.

The robot's queue, open under the thread, is a live part too: a case answered from the command line
changes the count in its title, and once the new title is drawn the answered case's row is not in the page.
A robot thread deleted from the command line is one warning: once it is drawn, none of the thread's lines is.
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from playwright.sync_api import Page, WebSocketRoute, expect

from dashboard.i18n import t
from tests.browser.conftest import Dashboard
from tests.browser.opening import cli_ok, lecture_flags, open_page

#: Watches the main block. ``ready``: [selector, text it includes, text it must not be] of what the part draws
#: once it has drawn the change; ``old``: [selector, text] of the lines it must no longer show. At the first
#: DOM change after which every ``ready`` element is there, ``window.boxSeen`` gets each ``old`` line still in
#: the DOM, with whether Streamlit marks it stale (``data-stale`` on it or around it).
WATCH_BOX = """([ready, old]) => {
  const main = document.querySelector('[data-testid="stMain"]');
  const found = (selector, text) =>
    [...main.querySelectorAll(selector)].filter(element => element.textContent.includes(text));
  const drawn = () => ready.every(([selector, text, not]) =>
    found(selector, text).some(element => !not || !element.textContent.includes(not)));
  window.boxSeen = null;
  if (drawn()) return false;  // the change must come after the watch begins
  const seen = new MutationObserver(() => {
    if (window.boxSeen !== null || !drawn()) return;
    window.boxSeen = old.flatMap(([selector, text]) => found(selector, text).map(element => ({
      line: text,
      stale: element.closest('[data-stale="true"]') !== null || element.querySelector('[data-stale="true"]') !== null,
    })));
    seen.disconnect();
  });
  seen.observe(main, {subtree: true, childList: true, characterData: true, attributes: true});
  return true;
}"""


class HeldStream:
    """The page's Streamlit stream, through the test: once the server sent a message holding ``marker``
    (the bytes of a text it draws), what it sends next is held until :meth:`release`."""

    def __init__(self, page: Page) -> None:
        self.marker: bytes | None = None
        self.held: list[str | bytes] = []
        self.holding = False
        self.to_page: WebSocketRoute | None = None
        page.route_web_socket("**/_stcore/stream", self._route)

    def _route(self, to_page: WebSocketRoute) -> None:
        self.to_page = to_page
        to_page.connect_to_server().on_message(self._from_server)  # the page's own messages go through as sent

    def _from_server(self, message: str | bytes) -> None:
        assert self.to_page is not None
        if self.holding:
            self.held.append(message)
            return
        self.to_page.send(message)
        if self.marker is not None and isinstance(message, bytes) and self.marker in message:
            self.holding = True

    def release(self) -> None:
        """Sends what was held, in order, and holds nothing more."""
        assert self.to_page is not None
        self.marker, self.holding = None, False
        for message in self.held:
            self.to_page.send(message)
        self.held.clear()


def _checkpoint_before(dashboard: Dashboard, thread: str, node: str) -> str:
    """The newest checkpoint of ``thread`` whose next step is ``node`` (the question's, to run again from)."""
    rows = json.loads(cli_ok(dashboard, "graph", thread, "--json").stdout)
    return next(row["checkpoint_id"] for row in reversed(rows) if row["next"] == [node])


def _answered_robot(dashboard: Dashboard, thread: str) -> str:
    """Runs a robot thread and answers yes; the robot's last message (its outcome)."""
    cli_ok(dashboard, "run", "robot", "--thread", thread)
    done = json.loads(cli_ok(dashboard, "resume", thread, "yes", "--json").stdout)
    return done["values"]["messages"][-1]["content"]


def _seen_after(
    page: Page, stream: HeldStream, ready: list[list[str]], old: list[list[str]], change: Any
) -> list[dict[str, Any]]:
    """The old lines in the DOM at the first moment the ``ready`` text is drawn after ``change()``; what the
    server sends after its first text (``ready[0][1]``) reaches the page only then."""
    assert page.evaluate(WATCH_BOX, [ready, old]) is True
    stream.marker = ready[0][1].encode()
    change()
    try:
        page.wait_for_function("() => window.boxSeen !== null")
    finally:
        stream.release()
    return list(page.evaluate("window.boxSeen"))


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_the_robots_outcome_and_messages_drop_their_old_lines_when_the_thread_goes_back_to_its_question(
    page: Page, live_dashboard: Dashboard, lang: str
):
    thread = f"shrink-robot-{lang}"
    executed = _answered_robot(live_dashboard, thread)  # the robot's last message, gone after the rerun
    question = _checkpoint_before(live_dashboard, thread, "approval")
    stream = HeldStream(page)
    main = open_page(page, live_dashboard, f"robot?thread={thread}&lang={lang}")
    messages = main.get_by_test_id("stChatMessage")
    expect(messages).to_have_count(2)
    expect(messages.last).to_contain_text(executed)
    success = t("robot.outcome.executed", lang=lang, answer="\0").split("\0")[0]
    expect(main.get_by_test_id("stAlert").filter(has_text=success)).to_have_count(1)
    expect(main.get_by_text(t("robot.counts", lang=lang, checkpoints=5, writes=10), exact=True)).to_be_visible()
    counts_after = t("robot.counts", lang=lang, checkpoints=6, writes=11)  # the rerun's checkpoint and its question

    # Once the part has drawn the save file's new counts (after the outcome and the messages), neither the
    # outcome's line nor the robot's last message may be in the page, not even faded.
    seen = _seen_after(
        page,
        stream,
        ready=[
            ['[data-testid="stMarkdownContainer"]', counts_after, ""],
            ['[data-testid="stMetric"]', t("robot.outcome.none", lang=lang), ""],
        ],
        old=[['[data-testid="stChatMessage"]', executed], ['[data-testid="stAlert"]', success]],
        change=lambda: cli_ok(live_dashboard, "rerun", thread, "--checkpoint", question),
    )
    assert seen == []
    expect(messages).to_have_count(1)
    expect(main.get_by_role("button", name=t("robot.yes", lang=lang), exact=True)).to_be_visible()


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_the_lectures_saved_plan_drops_its_old_lines_when_the_thread_goes_back_to_its_gate(
    page: Page, live_dashboard: Dashboard, lang: str
):
    thread = f"shrink-lecture-{lang}"
    started = cli_ok(live_dashboard, "run", "lecture", *lecture_flags(), "--thread", thread, "--json")
    assert json.loads(started.stdout)["status"] == "waiting"
    saved = json.loads(cli_ok(live_dashboard, "resume", thread, "save", "--json").stdout)
    saved_to = t("lecture.saved_to", lang=lang, path=saved["values"]["plan_path"])
    gate = _checkpoint_before(live_dashboard, thread, "decide")
    stream = HeldStream(page)
    main = open_page(page, live_dashboard, f"lecture?thread={thread}&lang={lang}")
    final = main.get_by_test_id("stHeading").filter(has_text=t("lecture.final_plan", lang=lang))
    expect(final).to_have_count(1)
    expect(main.get_by_text(saved_to, exact=True)).to_be_visible()
    downloads = main.get_by_test_id("stDownloadButton")
    expect(downloads).to_have_count(1)

    # Once the part has drawn the draft's heading, the saved plan's heading and where it was saved are gone,
    # and the plan is drawn once (one download, one box with its text), not as well in the old box, faded.
    seen = _seen_after(
        page,
        stream,
        ready=[['[data-testid="stHeading"]', t("lecture.draft", lang=lang), ""]],
        old=[
            ['[data-testid="stHeading"]', t("lecture.final_plan", lang=lang)],
            ['[data-testid="stCaptionContainer"]', saved_to],
        ],
        change=lambda: cli_ok(live_dashboard, "rerun", thread, "--checkpoint", gate),
    )
    assert seen == []
    expect(final).to_have_count(0)
    expect(downloads).to_have_count(1)
    status = main.get_by_test_id("stMetric").filter(has_text=t("lecture.status", lang=lang))
    expect(status).to_contain_text(t("status.waiting", lang=lang))


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_the_open_robot_queue_shows_its_new_count_with_no_row_of_a_case_answered_elsewhere(
    page: Page, live_dashboard: Dashboard, lang: str
):
    shown, answered, left = (f"queue-{name}-{lang}" for name in ("shown", "answered", "left"))
    for thread in (shown, answered, left):
        cli_ok(live_dashboard, "run", "robot", "--thread", thread)
    stream = HeldStream(page)
    main = open_page(page, live_dashboard, f"robot?thread={shown}&lang={lang}")
    title = t("robot.queue", lang=lang, count="\0").split("\0")[0]  # the title up to its count
    queue = main.get_by_test_id("stExpander").filter(has_text=title)
    label = queue.locator("summary")
    label.click()  # opened, as a person opens it
    rows = queue.get_by_test_id("stDataFrame")
    expect(rows).to_contain_text(answered)
    expect(rows).to_contain_text(left)
    found = re.search(r"\((\d+)\)$", label.inner_text().strip())  # the module's other tests' threads queue too
    assert found is not None
    count = int(found.group(1))

    # Once the title says one case fewer, the answered case's row is not in the page, not even faded.
    seen = _seen_after(
        page,
        stream,
        ready=[['[data-testid="stExpander"] summary', t("robot.queue", lang=lang, count=count - 1), ""]],
        old=[['[data-testid="stDataFrame"]', answered]],
        change=lambda: cli_ok(live_dashboard, "resume", answered, "no"),
    )
    assert seen == []
    expect(rows).to_contain_text(left)  # still open, with the case that is left
    expect(rows).not_to_contain_text(answered)


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_the_robots_thread_deleted_elsewhere_leaves_no_line_of_it_beside_the_warning(
    page: Page, live_dashboard: Dashboard, lang: str
):
    thread = f"deleted-robot-{lang}"
    executed = _answered_robot(live_dashboard, thread)
    stream = HeldStream(page)
    main = open_page(page, live_dashboard, f"robot?thread={thread}&lang={lang}")
    expect(main.get_by_test_id("stChatMessage").last).to_contain_text(executed)
    savefile = t("robot.savefile", lang=lang)
    expect(main.get_by_test_id("stHeading").filter(has_text=savefile)).to_have_count(1)

    seen = _seen_after(
        page,
        stream,
        ready=[['[data-testid="stAlert"]', t("robot.not_started", lang=lang), ""]],
        old=[['[data-testid="stChatMessage"]', executed], ['[data-testid="stHeading"]', savefile]],
        change=lambda: cli_ok(live_dashboard, "delete", thread, "--yes"),
    )
    assert seen == []
    expect(main.get_by_test_id("stChatMessage")).to_have_count(0)
