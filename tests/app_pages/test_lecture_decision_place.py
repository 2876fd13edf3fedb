"""A waiting lecture's decision comes before the new-plan form, and what "Send decision" came to is said where its
form was (the thread's part), not at the top of the page, above a page scrolled down to the form."""

from __future__ import annotations

from unittest.mock import patch

import pytest
from streamlit.testing.v1 import AppTest

from agents import runs
from agents.lecture.inputs import DEFAULT_LECTURE_INPUT
from dashboard.forms import FLASH_KEY
from dashboard.lecture_gate import SAID_KEY, said_now
from tests.conftest import APP_FILE

PAGE = "app_pages/lecture.py"
THREAD = "lecture-place"
WORDS = {
    "en": {"send": "Send decision", "sent": "Sent reject: done · rejected.", "status": "Status"},
    "ko": {"send": "결정 보내기", "sent": "거절 결정을 보냈습니다: 완료 · 거절됨.", "status": "상태"},
}


def _page(lang: str) -> AppTest:
    test = AppTest.from_file(APP_FILE, default_timeout=60)
    test.query_params["lang"] = lang
    test.query_params["thread"] = THREAD
    test.run()
    test.switch_page(PAGE)
    test.run()
    assert not test.exception, test.exception
    return test


def _drawn(node):
    """Every element under ``node``, in the order the page draws them."""
    children = getattr(node, "children", None)
    if children is None:
        yield node
        return
    for child in children.values():
        yield from _drawn(child)


def _place(drawn: list, found) -> int:  # noqa: ANN001
    return next(i for i, element in enumerate(drawn) if found(element))


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_the_decision_and_what_it_came_to_come_before_the_new_plan_form(store, settings, lang):
    words = WORDS[lang]
    waiting = runs.start_run(store, settings, "lecture", dict(DEFAULT_LECTURE_INPUT), thread_id=THREAD, lang=lang)
    assert waiting.status == "waiting"
    at = _page(lang)
    drawn = list(_drawn(at.main))
    new_plan = _place(drawn, lambda e: getattr(e, "key", None) == "lecture-field-topic")
    decision = _place(drawn, lambda e: getattr(e, "key", None) == f"lecture-action-{THREAD}")
    assert decision < new_plan  # the question first, not below the six fields

    at.radio(key=f"lecture-action-{THREAD}").set_value("reject")
    # AppTest labels the thread picker's value in the test's own thread, which has no session and no language.
    with patch("dashboard.i18n.current_language", return_value=lang):
        next(b for b in at.button if b.label == words["send"]).click().run()
    assert not at.exception, at.exception
    drawn = list(_drawn(at.main))
    said = [i for i, e in enumerate(drawn) if isinstance(getattr(e, "value", None), str) and e.value == words["sent"]]
    status = _place(drawn, lambda e: getattr(e, "label", None) == words["status"])  # the thread's status metric
    new_plan = _place(drawn, lambda e: getattr(e, "key", None) == "lecture-field-topic")
    assert len(said) == 1 and status < said[0] < new_plan  # in the thread's part, where the form was
    assert [e.value for e in at.sidebar.success] == []  # said once


def test_what_an_action_came_to_stays_through_the_parts_runs_for_its_thread_only():
    state: dict = {FLASH_KEY: ("success", "Sent reject: done · rejected.")}
    assert said_now("lecture-a", state) == ("success", "Sent reject: done · rejected.")
    assert FLASH_KEY not in state  # taken here: the sidebar does not say it again
    assert said_now("lecture-a", state) == ("success", "Sent reject: done · rejected.")  # a live part's next run
    assert said_now("lecture-b", state) is None  # another thread's part says nothing of it
    state.pop(SAID_KEY)  # the page drawn again (decision_view.forget)
    assert said_now("lecture-a", state) is None
