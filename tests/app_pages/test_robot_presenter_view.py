"""AppTest of what a presenter shows on the robot page: the thread on screen, the save file's values."""

from __future__ import annotations

from tests.factories import answer_robot, pause_robot

PAGE = "app_pages/robot.py"


def _open(app, thread: str):
    at = app(PAGE)
    at.query_params["thread"] = thread
    at.run()
    assert not at.exception, at.exception
    return at


def test_the_explanation_names_the_thread_shown(app, store, settings):
    pause_robot(store, settings, "데모-a")
    at = _open(app, "데모-a")
    ids = [m.value for m in at.markdown if m.value.startswith("**thread_id**")]
    assert ids and "(here `데모-a`)" in ids[0] and "hitl_demo" not in ids[0]


def test_the_korean_explanation_names_the_thread_shown(app, store, settings):
    answer_robot(store, settings, "demo-b", lang="ko")
    at = app(PAGE)
    at.query_params["thread"] = "demo-b"
    at.session_state["lang"] = "ko"
    at.run()
    ids = [m.value for m in at.markdown if m.value.startswith("**thread_id**")]
    assert ids and "(여기서는 `demo-b`)" in ids[0]
