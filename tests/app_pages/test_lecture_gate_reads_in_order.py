"""The lecture gate: the reviews before the decision, their whole feedback, and only the answers it takes."""

from __future__ import annotations

import pytest

from agents import runs
from agents.errors import InputError
from agents.lecture.answers import check_answer
from agents.lecture.inputs import DEFAULT_LECTURE_INPUT
from agents.lecture.progress import latest_reviews
from agents.lecture.spec import SPEC
from dashboard.forms import offered_choices

PAGE = "app_pages/lecture.py"


def _walk(node):
    """Every element under ``node``, in the order the page draws them."""
    children = getattr(node, "children", None)
    if children is None:
        yield node
        return
    for child in children.values():
        yield from _walk(child)


@pytest.fixture
def gate(app, store, settings):
    result = runs.start_run(store, settings, "lecture", dict(DEFAULT_LECTURE_INPUT), thread_id="lecture-g1")
    assert result.status == "waiting"  # the first draft scores 75, below 80
    at = app(PAGE)
    at.query_params["thread"] = "lecture-g1"
    at.run()
    assert not at.exception, at.exception
    return at, result


def test_the_reviews_come_before_the_decision_and_say_everything(gate):
    at, result = gate
    drawn = list(_walk(at.main))
    heading = next(i for i, e in enumerate(drawn) if getattr(e, "value", "") == "**Round 1: what the reviewers said**")
    radio = next(i for i, e in enumerate(drawn) if getattr(e, "key", None) == "lecture-action-lecture-g1")
    assert heading < radio
    texts = [e.value for e in at.text]
    for review in latest_reviews(result.values):
        assert "\n".join(f"- {line}" for line in review["feedback"]) in texts  # whole, never cut


def test_the_sidebar_offers_only_the_answers_the_gate_takes(gate):
    at, _result = gate
    assert at.sidebar.selectbox(key="resume-action-lecture-g1").options == ["rework", "save", "reject"]


def test_a_choice_follows_the_options_a_question_lists():
    action = SPEC.ask.resume_fields[0]
    assert offered_choices(action, {"options": ["approve", "edit_plan"]}) == ["approve"]
    assert offered_choices(action, {"options": ["save", "reject"]}) == ["save", "reject"]
    assert offered_choices(action, {"question": "?"}) == list(action.choices)  # no list: every choice
    assert offered_choices(action, None) == list(action.choices)


def test_notes_too_long_are_refused_under_the_name_they_were_typed_in():
    with pytest.raises(InputError) as refused:
        check_answer({"action": "rework", "notes": "x" * 5000})
    assert refused.value.field == "notes"
