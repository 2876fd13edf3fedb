"""Where a waiting lecture's question is, and where what "Send decision" came to is said: where the user looks.

The page used to draw the six-field new-plan form before the open thread (its question about 1,840 px down)
and what a decision came to at the top of the page, about 1,200 px above the viewport scrolled to the form.
"""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import Locator, Page, expect

from tests.browser.conftest import Dashboard, wait_for_app
from tests.browser.opening import cli_ok, lecture_flags, open_page

WIDTH, HEIGHT = 1280, 720
SLOW = 30_000  # ms: a run on a busy machine
WORDS = {
    "en": {
        "waiting": "Waiting for you: round 1",
        "form": "Your decision",
        "reject": "reject (the run ends)",
        "send": "Send decision",
        "sent": "Sent reject:",
        "new": "New lecture plan",
    },
    "ko": {
        "waiting": "결정을 기다립니다: 1라운드",
        "form": "결정",
        "reject": "거절 (실행 종료)",
        "send": "결정 보내기",
        "sent": "거절 결정을 보냈습니다",
        "new": "새 강의 계획",
    },
}


def _in_viewport(shown: Locator) -> dict[str, float]:
    box = shown.bounding_box()  # relative to the viewport
    assert box is not None
    assert box["y"] >= -1 and box["y"] + box["height"] <= HEIGHT + 1, box  # whole, give or take a subpixel
    return box


# The tests share the module's dashboard: each starts a lecture thread of its own.


@pytest.mark.parametrize("language", ["en", "ko"])
def test_a_waiting_question_is_on_the_first_screen_and_its_decision_is_said_in_the_viewport(
    page: Page, shared_dashboard: Dashboard, language: str
):
    dashboard, words = shared_dashboard, WORDS[language]
    started = cli_ok(dashboard, "run", "lecture", *lecture_flags(), "--json")
    thread = json.loads(started.stdout)["thread_id"]
    main = open_page(page, dashboard, f"lecture?thread={thread}&lang={language}", (WIDTH, HEIGHT))
    _in_viewport(main.get_by_text(words["waiting"], exact=False))  # the question, on the first screen
    decision = main.get_by_test_id("stForm").filter(has_text=words["form"])
    new_plan = main.get_by_text(words["new"], exact=True)
    form_box, new_box = decision.bounding_box(), new_plan.bounding_box()
    assert form_box is not None and new_box is not None and form_box["y"] < new_box["y"]  # the decision first

    send = decision.get_by_role("button", name=words["send"])
    send.evaluate("button => button.scrollIntoView({block: 'start'})")  # scrolled down as far as it goes to it
    expect(send).to_be_in_viewport()
    decision.get_by_test_id("stRadio").get_by_text(words["reject"], exact=True).click()
    send.click()
    said = main.get_by_text(words["sent"], exact=False)
    expect(said).to_be_attached(timeout=SLOW)
    wait_for_app(page)
    expect(said).to_be_visible()
    _in_viewport(said)  # where the form was: no scrolling up to see what the decision came to
