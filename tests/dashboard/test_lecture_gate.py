"""Tests for dashboard.lecture_gate and dashboard.lecture_view.gate_view: what the lecture's waiting question says
and which question its live part draws a form for."""

from __future__ import annotations

from agents.runs import RunResult
from dashboard.lecture_gate import limit_notice, question_notice
from dashboard.lecture_view import GATE_KEY, GateView, gate_view

GATE = {"stage": "gate", "round": 2, "score": 6.5, "threshold": 7, "options": ["save", "reject"]}


def result(status: str, head: str, interrupts: tuple = (), values: dict | None = None) -> RunResult:
    return RunResult("lec-1", "lecture", status, (), interrupts, values or {}, head)


def test_the_question_says_which_question_waits_unless_the_thread_moved_on():
    assert question_notice(GATE, None) == "Waiting for you: round 2 scored 6.5, below the threshold 7."
    assert question_notice({"stage": "plan_review", "plan_version": 3}, None) == (
        "Waiting for you: review plan version 3."
    )
    moved = question_notice(GATE, "done")
    assert moved.startswith("This thread moved on elsewhere") and "(now done)" in moved


def test_a_waiting_question_is_said_as_text_not_markdown():
    said = question_notice({"stage": "plan_review", "plan_version": "**2**"}, None)

    assert "**2**" not in said and "2" in said


def test_beside_the_gate_form_a_move_elsewhere_is_a_warning_and_a_spent_rework_a_caption():
    assert limit_notice(["rework", "save", "reject"], None) is None
    assert limit_notice(["save", "reject"], None) == (
        "caption",
        "The round limit is reached: only save or reject remain.",
    )
    kind, text = limit_notice(["save", "reject"], "done")
    assert kind == "warning" and "(now done)" in text


def test_a_waiting_thread_draws_its_question_with_the_reviews_the_page_passes_and_a_moved_one_stays_stale():
    state: dict = {}
    waiting = result("waiting", "h1", (GATE,), {"reviews": ["r"]})

    view = gate_view("lec-1", waiting, "h0", state, lambda values: [{"round": 2, "of": values["reviews"]}])

    assert view == GateView(GATE, ({"round": 2, "of": ["r"]},), False, "h0")
    # Another process's decision runs before the head moves: the form stays, stale, from then on.
    running = gate_view("lec-1", result("running", "h1"), "h1", state, lambda values: [])
    assert running == GateView(GATE, ({"round": 2, "of": ["r"]},), True, "h1")
    moved = gate_view("lec-1", result("done", "h2"), "h1", state, lambda values: [])
    assert moved == GateView(GATE, ({"round": 2, "of": ["r"]},), True, "h1")
    assert gate_view("other", result("done", "h2"), None, state, lambda values: []) is None
    assert GATE_KEY not in state
