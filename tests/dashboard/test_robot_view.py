"""Tests for dashboard.robot_view and dashboard.agent_pages.foreign_thread: what the robot page says and refuses."""

from __future__ import annotations

from agents import readmodel, runs
from agents.lecture.inputs import DEFAULT_LECTURE_INPUT
from dashboard.agent_pages import foreign_thread
from dashboard.robot_view import (
    QUESTION_KEY,
    Asked,
    QuestionView,
    answered_message,
    question_view,
    typed_rule,
    waiting_question,
)


def test_only_an_executed_action_is_reported_as_a_success_and_the_answer_is_shown_verbatim():
    assert answered_message("executed", "yes") == ("success", "Answered 'yes': executed.")
    assert answered_message("refused", "yes ") == ("warning", "Answered 'yes␣': refused.")
    assert answered_message("", "*no*") == ("info", "Answered '*no*'.")  # plain text: show_flash escapes it


def test_a_typed_answer_is_told_whether_it_will_execute_compared_exactly():
    assert typed_rule("yes", "yes") == "'yes': This answer will execute the action."
    assert typed_rule("Yes", "yes").endswith("the action will be refused.")
    assert typed_rule("yes ", "yes").startswith("'yes␣': ")


def robot_result(status: str, head: str, interrupts: tuple = ()) -> runs.RunResult:
    return runs.RunResult("r-1", "robot", status, (), interrupts, {"pending_action": "book"}, head)


def test_a_question_answered_elsewhere_is_kept_stale_from_the_moment_the_answer_runs():
    state: dict = {}
    asked = Asked({"question": "q", "action": "book"}, "book")
    assert question_view("r-1", robot_result("waiting", "h1", ({"question": "q", "action": "book"},)), "h0", state) == (
        QuestionView(asked, False, "h0")
    )
    # Another process's answer runs before the head moves: the question stays, stale, checked against h1.
    assert question_view("r-1", robot_result("running", "h1"), "h1", state) == QuestionView(asked, True, "h1")
    assert question_view("r-1", robot_result("done", "h2"), "h1", state) == QuestionView(asked, True, "h1")
    # Another thread forgets it.
    assert question_view("r-2", robot_result("done", "h9"), None, state) == QuestionView(None, False, None)
    assert QUESTION_KEY not in state


def test_a_waiting_payload_that_is_not_an_object_is_the_action():
    assert waiting_question(({"question": "q", "action": "a"},)) == {"question": "q", "action": "a"}
    assert waiting_question(("turn left",)) == {"action": "turn left"}
    assert waiting_question(()) == {}


def test_the_robot_page_refuses_a_saved_thread_of_another_agent_and_starts_a_new_one(store, settings):
    lecture = runs.start_run(store, settings, "lecture", dict(DEFAULT_LECTURE_INPUT), thread_id="lec-1")
    robot = runs.start_run(store, settings, "robot", {}, thread_id="bot-1")

    refusal = foreign_thread(store, "lec-1", lecture.head_checkpoint_id, "robot")
    assert refusal == "Thread lec-1 belongs to the lecture agent; the robot page only shows robot threads."
    assert foreign_thread(store, "bot-1", robot.head_checkpoint_id, "robot") is None
    assert foreign_thread(store, "new-1", readmodel.head_checkpoint_id(store, "new-1"), "robot") is None
