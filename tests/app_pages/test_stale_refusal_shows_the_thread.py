"""A stale refusal on a page says what is true: the page shows the thread as it is now (check it, and send again
if still wanted), never "reload". On the robot page the thread's live part then draws the thread as it is, not
the question it kept for the old state, with the refusal where the question was.

The robot's runs here are its live part's own, as the browser's are (a click, a tick): AppTest runs a page
whole, and the page's own run forgets the kept question and the refusal (``decision_view.forget``), so the
page is run with that left out (:func:`_robot_as_its_part_runs`)."""

from __future__ import annotations

from unittest import mock

import pytest
from streamlit.testing.v1 import AppTest

from agents import runs
from dashboard.i18n import t
from tests.conftest import APP_FILE, PROJECT_ROOT
from tests.factories import button_by_key, messages, pause_robot

THREAD = "hitl_demo"
TRUE_NOW = "The page now shows the thread as it is: check it, and send again if you still want to."


def _robot_as_its_part_runs(page: str) -> None:
    """The robot page as its live part's own runs draw it: without the page's own ``forget``."""
    import runpy
    from unittest import mock

    with mock.patch("dashboard.decision_view.forget"):
        runpy.run_path(page)


def _robot_part() -> AppTest:
    page = str(PROJECT_ROOT / "app_pages" / "robot.py")
    at = AppTest.from_function(_robot_as_its_part_runs, args=(page,), default_timeout=60).run()
    assert not at.exception, at.exception
    return at


def _refusals(at) -> list[str]:
    return [e.value for e in at.error if "Nothing was done" in e.value]


def test_after_a_stale_answer_the_robot_draws_the_thread_as_it_is_not_its_old_question(store, settings):
    pause_robot(store, settings)
    at = _robot_part()
    runs.resume_thread(store, settings, THREAD, "no")  # answered elsewhere (the CLI, another tab)
    at.run()  # the part's tick: the old question stays, with a notice, and its buttons
    assert any("moved on elsewhere" in w.value for w in at.warning)
    button_by_key(at, "robot-yes").click().run()  # refused as stale
    assert not at.exception, at.exception
    at.run()  # the part drawn again (in the browser at once, by the refusal's own run)
    assert not any(b.key in ("robot-yes", "robot-no", "robot-send") for b in at.button)  # no old question
    assert not any("moved on elsewhere" in w.value for w in at.warning)
    [refused] = _refusals(at)  # still said, once, where the question was
    assert "changed since this form was drawn" in refused and TRUE_NOW in refused and "Reload" not in refused
    assert any("Outcome: refused" in c.value or "refused" in c.value for c in at.warning)  # the thread as it is
    assert runs.current_result(store, settings, THREAD).values["decision"] == "no"  # nothing was done


def test_a_stale_typed_answer_keeps_its_text_for_the_question_asked_again(store, settings):
    pause_robot(store, settings)
    at = _robot_part()
    runs.resume_thread(store, settings, THREAD, "no")  # elsewhere: answered, then started over: it waits again
    pause_robot(store, settings)
    at.text_input(key="robot-free-text").input("yes")
    button_by_key(at, "robot-send").click().run()  # drawn for the old head: refused as stale
    assert not at.exception, at.exception
    assert TRUE_NOW in " ".join(_refusals(at))
    at.run()
    assert at.text_input(key="robot-free-text").value == "yes"  # not lost: no reload was needed
    button_by_key(at, "robot-send").click().run()  # sent again, on the question as it is
    assert runs.current_result(store, settings, THREAD).outcome == "executed"


@pytest.mark.parametrize(
    ("lang", "words"), [("en", TRUE_NOW), ("ko", "페이지가 지금은 스레드를 현재 상태로 보여 줍니다")]
)
def test_the_sidebar_forms_stale_refusal_says_the_page_shows_the_thread(store, settings, lang, words):
    pause_robot(store, settings, "demo2")
    at = AppTest.from_file(APP_FILE, default_timeout=60)
    at.query_params.update({"lang": lang, "thread": "demo2"})
    # AppTest formats a selectbox's options in its own thread, which has no session language.
    with mock.patch("dashboard.i18n.current_language", return_value=lang):
        at.run()
        at.switch_page("app_pages/explorer.py")
        at.run()
        at.sidebar.text_input(key="resume-answer-demo2").input("yes")
        runs.resume_thread(store, settings, "demo2", "no")  # answered from the CLI meanwhile
        at.sidebar.button[0].click().run()
    assert not at.exception, at.exception
    said = messages(at)
    assert words in said, said
    assert "Reload" not in said and "새로 고쳐" not in said


def test_the_cli_keeps_its_own_words():
    """The CLI and the API show nothing: their refusal still says to reload (``error.stale``)."""
    from agents.errors import StaleFormError

    assert "Reload to see the current state." in str(StaleFormError("t", "a-b-c-1", "a-b-c-2"))
    assert "Reload" not in t("forms.stale", thread="'t'", seen="1", head="2")
