"""The robot page starts a run in the session's language; the run keeps it whoever answers."""

from __future__ import annotations

from streamlit.testing.v1 import AppTest

from agents import readmodel
from tests.conftest import APP_FILE
from tests.factories import button_by_key

ACTION_KO = "출장 신청서 제출: 부산 2일, 예산 800,000원"


def _robot_page(lang: str) -> AppTest:
    at = AppTest.from_file(APP_FILE, default_timeout=60)
    at.session_state["lang"] = lang
    at.run()
    at.switch_page("app_pages/robot.py")
    at.run()
    return at


def _start_over(at: AppTest) -> None:
    next(b for b in at.button if b.label in ("처음부터 다시", "Start over")).click().run()


def _shown(at) -> str:
    """The page's text, Markdown and notices: the waiting question is in its notice, the action in Markdown."""
    return "\n".join(x.value for x in [*at.text, *at.markdown, *at.warning])


def test_a_korean_session_starts_a_korean_run(store):
    at = _robot_page("ko")
    _start_over(at)
    assert not at.exception
    assert "체크포인트: 3 · 쓰기: 5" in [m.value for m in at.markdown]
    shown = _shown(at)
    assert "**질문:** 이 작업을 실행할까요? (yes/no)" in shown and f"**제안된 작업:** {ACTION_KO}" in shown
    assert "작업 시작" in [x.value for x in at.text]
    details = [detail for _, detail in readmodel.iter_checkpoint_details(store, "hitl_demo")]
    assert details[-1].values["pending_action"] == ACTION_KO
    assert details[-1].writes[0].value[0].value == {"action": ACTION_KO, "question": "이 작업을 실행할까요? (yes/no)"}
    assert readmodel.thread_language(store, "hitl_demo") == "ko"


def test_an_english_session_answering_a_korean_run_finishes_it_in_korean(store):
    _start_over(_robot_page("ko"))
    at = _robot_page("en")
    shown = _shown(at)
    assert "이 작업을 실행할까요? (yes/no)" in shown and "Execute this? (yes/no)" not in shown  # as the run asked it
    button_by_key(at, "robot-yes").click().run()
    assert not at.exception
    assert "checkpoints: 5 · writes: 10" in [m.value for m in at.markdown]
    assert f"실행됨: {ACTION_KO}" in [x.value for x in at.text]


def test_an_english_session_starts_an_english_run(store):
    at = _robot_page("en")
    _start_over(at)
    assert "**Question:** Execute this? (yes/no)" in _shown(at)
    assert readmodel.thread_language(store, "hitl_demo") == "en"
