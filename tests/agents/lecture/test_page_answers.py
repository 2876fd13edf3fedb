"""Tests for what the lecture page sends and names: the gate's and the plan review's answers, the services' words."""

from __future__ import annotations

import json

import pytest

from agents.errors import InputError
from agents.lecture.answers import check_answer, editable_plan, gate_answer, gate_form_actions, plan_review_answer
from agents.lecture.services import LectureServices
from agents.settings_values import Secret


def test_the_gate_form_offers_only_what_the_waiting_question_offers_without_the_plan_edit():
    assert gate_form_actions({"options": ["rework", "edit_plan", "save", "reject"]}) == ["rework", "save", "reject"]
    assert gate_form_actions({"options": ["save", "reject"]}) == ["save", "reject"]
    assert gate_form_actions({}) == []


def test_notes_go_with_a_rework_or_a_reject_and_every_gate_answer_passes_the_agents_check():
    assert gate_answer("rework", "shorter") == {"action": "rework", "notes": "shorter"}
    assert gate_answer("reject", "off topic") == {"action": "reject", "notes": "off topic"}
    assert gate_answer("save", "ignored") == {"action": "save"}
    for action in ("rework", "save", "reject"):
        check_answer(gate_answer(action, "a note"))


def test_the_plan_review_sends_approve_or_the_edited_subtopics():
    edited = json.dumps([{"title": "Intro"}])

    assert plan_review_answer(True, "not json") == "approve"
    assert plan_review_answer(False, edited) == {"action": "edit_plan", "subtopics": [{"title": "Intro"}]}
    with pytest.raises(InputError) as refused:
        plan_review_answer(False, "[{")
    assert refused.value.field == "subtopics"


def test_the_plan_editor_starts_with_each_subtopics_id_title_and_description_only():
    question = {"subtopics": [{"id": "s1", "title": "제목", "description": "d", "sources": ["x"]}]}

    assert json.loads(editable_plan(question)) == [{"id": "s1", "title": "제목", "description": "d"}]
    assert "제목" in editable_plan(question)  # as typed, not escaped
    assert editable_plan({}) == "[]"


def test_the_services_are_named_in_the_readers_language_and_never_by_their_key():
    embedded = LectureServices(model_latency=0.5)
    gemini = LectureServices(gemini_key=Secret("sk-secret"), gemini_models=("a", "b"))

    assert "0.5" in embedded.model_text().render("en")
    assert "a → b" in gemini.model_text().render("ko")
    assert "sk-secret" not in gemini.model_text().render("en")
    corpus = embedded.research_text()
    assert corpus.render("en") != corpus.render("ko")
