"""A run that stopped and whose status says "continue it" can be continued from its own page's sidebar.

The inbox links every such thread to its agent's page; the robot and the lecture pages had no control
for it (only the refund page did), so an approver, who may continue but not fork, had no way at all.
"""

from __future__ import annotations

from agents import lifecycle, runs
from agents.lecture.inputs import DEFAULT_LECTURE_INPUT
from tests.factories import button_by_key, pause_robot


def _continue(app, page: str, thread_id: str):
    at = app(page)
    at.query_params["thread"] = thread_id
    at.run()
    button_by_key(at, f"continue-{thread_id}").click().run()
    assert not at.exception, at.exception[0].message
    return at


def test_an_edited_robot_is_continued_from_the_robot_page(app, store, settings):
    pause_robot(store, settings)
    runs.update_thread(store, settings, "hitl_demo", {"decision": "yes"}, as_node="approval")
    assert lifecycle.thread_status(store, "hitl_demo").action == "continue"
    _continue(app, "app_pages/robot.py", "hitl_demo")
    status = lifecycle.thread_status(store, "hitl_demo")
    assert (status.status, status.outcome) == ("done", "executed")


def test_an_edited_lecture_is_continued_from_the_lecture_page(app, store, settings):
    runs.start_run(store, settings, "lecture", dict(DEFAULT_LECTURE_INPUT), thread_id="lec-1")
    runs.update_thread(store, settings, "lec-1", {"human_notes": "more breaks"}, as_node="gate")
    assert lifecycle.thread_status(store, "lec-1").action == "continue"
    _continue(app, "app_pages/lecture.py", "lec-1")
    assert lifecycle.thread_status(store, "lec-1").status == "waiting"  # back at the gate, asking


def test_no_continue_control_while_a_thread_waits_or_is_done(app, store, settings):
    pause_robot(store, settings)
    at = app("app_pages/robot.py")
    assert "continue-hitl_demo" not in {button.key for button in at.sidebar.button}
    runs.resume_thread(store, settings, "hitl_demo", "no")
    at.run()
    assert "continue-hitl_demo" not in {button.key for button in at.sidebar.button}
