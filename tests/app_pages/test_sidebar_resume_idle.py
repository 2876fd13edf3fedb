"""The sidebar's Resume form on a thread that waits for no answer says so before anything is typed, with the
thread's status; a submit is still refused by the rule every path has, and the refusal names the thread once
("Thread: 'x' is not waiting", not "Thread: thread 'x'"). A waiting thread's form has no such line.
"""

from __future__ import annotations

import pytest

from agents import runs
from dashboard.i18n import t
from tests.factories import pause_robot, thread_counts

IDLE = {
    "en": "Nothing waits for an answer on this thread now (",
    "ko": "이 스레드는 지금 답을 기다리지 않습니다(",
}


def _open_robot(app, thread: str, lang: str):
    at = app("app_pages/robot.py")
    at.query_params["thread"] = thread
    at.query_params["lang"] = lang
    at.run()
    assert not at.exception, at.exception
    return at


def _idle_lines(at, lang: str) -> list[str]:
    return [caption.value for caption in at.sidebar.caption if IDLE[lang] in caption.value]


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_a_finished_thread_s_resume_form_says_nothing_waits_and_a_submit_is_refused_naming_the_thread_once(
    app, store, settings, lang
):
    pause_robot(store, settings, "done-1")
    runs.resume_thread(store, settings, "done-1", "yes")
    assert runs.current_result(store, settings, "done-1").status == "done"
    at = _open_robot(app, "done-1", lang)
    [idle] = _idle_lines(at, lang)
    assert t("status.done", lang) in idle  # the status, in the page's language
    before = thread_counts(store, "done-1")

    answer = next(field for field in at.sidebar.text_input if field.key.startswith("resume-answer-"))
    answer.input("yes")
    next(b for b in at.sidebar.button if b.label == t("forms.resume.submit", lang)).click()
    at.run()

    [refusal] = [error.value for error in at.sidebar.error]
    assert "'done-1'" in refusal and refusal.count("done-1") == 1
    assert ("Thread: 'done-1' is not waiting for an answer" if lang == "en" else "'done-1'은 답을 기다리고") in refusal
    assert "thread 'done-1'" not in refusal and "스레드 'done-1'" not in refusal
    assert "nothing was changed" not in refusal and "바뀌지 않았" not in refusal  # the first words say so
    assert thread_counts(store, "done-1") == before  # nothing was changed


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_a_waiting_thread_s_resume_form_has_no_such_line(app, store, settings, lang):
    pause_robot(store, settings, "waiting-1")
    at = _open_robot(app, "waiting-1", lang)
    assert _idle_lines(at, lang) == []
    assert any(b.label == t("forms.resume.submit", lang) for b in at.sidebar.button)
