"""Shortcodes in user text read as typed in a real browser: never an emoji, an icon, a logo, a colour or an arrow.

Streamlit's front end turns ``:smile:`` into 😄, ``:material/home:`` into an icon, ``:red[text]`` into coloured
text and `` -> `` into an arrow after escapes are resolved (AppTest runs none of that), so only a browser shows
what a reader sees, and what copying the text gives.
"""

from __future__ import annotations

import json

from playwright.sync_api import Locator, Page, expect

from agents.texts import verbatim
from dashboard.i18n import t
from tests.browser.conftest import Dashboard
from tests.browser.opening import cli_ok, lecture_flags, open_page

SHORTCODES = "yes :smile: … :red[r] :material/home: :streamlit: a -> b"
LONG_WORD = "b" * 24 + ":smile:" + "c" * 4

#: An element's text, what copying all of it gives, and how many of its elements are drawn instead of text
#: (an icon, a logo, a coloured span).
DRAWN = """element => {
  const range = document.createRange(); range.selectNodeContents(element);
  const selection = getSelection(); selection.removeAllRanges(); selection.addRange(range);
  const copied = selection.toString(); selection.removeAllRanges();
  const drawn = element.querySelectorAll('[role="img"], img, .stMarkdownColoredText, .stMarkdownBadge').length;
  return {text: element.textContent, copied, drawn};
}"""


def _reads_as_typed(element: Locator, typed: str) -> None:
    expect(element).to_contain_text(typed)
    drawn = element.evaluate(DRAWN)
    assert typed in drawn["text"] and typed in drawn["copied"], (typed, drawn)
    assert drawn["drawn"] == 0, drawn


def test_a_typed_answer_and_a_proposed_action_read_as_typed_on_the_robot_page(page: Page, shared_dashboard: Dashboard):
    cli_ok(shared_dashboard, "run", "robot", "--thread", "shortcodes")
    main = open_page(page, shared_dashboard, "robot?thread=shortcodes")
    answer = main.get_by_label(t("robot.free_answer", lang="en"))
    answer.fill(SHORTCODES)
    answer.press("Enter")
    preview = main.get_by_test_id("stCaptionContainer").filter(has_text="the action will be refused")
    _reads_as_typed(preview, verbatim(SHORTCODES))

    action = f"Wire {SHORTCODES}"
    cli_ok(shared_dashboard, "update", "shortcodes", "--values", json.dumps({"pending_action": action}))
    cli_ok(shared_dashboard, "continue", "shortcodes")
    main = open_page(page, shared_dashboard, "robot?thread=shortcodes")
    line = main.get_by_test_id("stMarkdownContainer").filter(has_text=f"{t('robot.action', lang='en')}:")
    _reads_as_typed(line.filter(has_text="Wire"), action)


def test_a_customer_name_reads_as_typed_in_the_refund_waiting_notice(page: Page, shared_dashboard: Dashboard):
    customer = "Kim :smile: :material/warning: :red[빨강]"
    cli_ok(
        shared_dashboard, "run", "refund", "--case", "emoji", "--customer", customer, "--amount", "500000",
        "--reason", "r",
    )  # fmt: skip
    main = open_page(page, shared_dashboard, "refund?thread=refund-emoji")
    notice = main.get_by_test_id("stAlert").filter(has_text=t("refund.case.waiting", lang="en"))
    _reads_as_typed(notice, customer)


def test_a_replaced_draft_reads_as_typed_on_the_lecture_page(page: Page, shared_dashboard: Dashboard):
    started = cli_ok(shared_dashboard, "run", "lecture", *lecture_flags(), "--json")
    thread = json.loads(started.stdout)["thread_id"]
    draft = (
        f"# Title :smile:\n\n| Topic | Note |\n| --- | --- |\n| one | :smile: :red[r] |\n| two | {LONG_WORD} |\n\n"
        "See [the page](http://x.example/:smile:/:material/home:) and `:smile:`.\n"
    )
    cli_ok(shared_dashboard, "update", thread, "--values", json.dumps({"draft": draft}))
    main = open_page(page, shared_dashboard, f"lecture?thread={thread}")
    document = main.get_by_test_id("stMarkdownContainer").filter(has=page.locator("h1", has_text="Title"))
    _reads_as_typed(document.locator("h1"), "Title :smile:")
    _reads_as_typed(document.locator("td").filter(has_text="red"), ":smile: :red[r]")
    _reads_as_typed(document.locator("td").last, LONG_WORD)  # a long word is a span of its own in a cell
    _reads_as_typed(document.locator("p").filter(has_text="See"), "x.example/:smile:/:material/home:")
