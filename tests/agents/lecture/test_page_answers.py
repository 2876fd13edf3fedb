"""Tests for what the lecture page sends and names: the gate's and the plan review's answers, the services' words."""

from __future__ import annotations

import json

import pytest

from agents.errors import InputError
from agents.lecture.answers import check_answer, editable_plan, gate_answer, gate_form_actions, plan_review_answer
from agents.lecture.services import LectureServices
from agents.settings_values import Secret


def test_the_gate_form_offers_what_the_waiting_question_offers_the_plan_edit_too():
    options = ["rework", "edit_plan", "save", "reject"]
    assert gate_form_actions({"options": options}) == options
    assert gate_form_actions({"options": ["save", "reject"]}) == ["save", "reject"]
    assert gate_form_actions({}) == []


def test_notes_go_with_a_rework_or_a_reject_and_every_gate_answer_passes_the_agents_check():
    assert gate_answer("rework", "shorter") == {"action": "rework", "notes": "shorter"}
    assert gate_answer("reject", "off topic") == {"action": "reject", "notes": "off topic"}
    assert gate_answer("save", "ignored") == {"action": "save"}
    for action in ("rework", "save", "reject"):
        check_answer(gate_answer(action, "a note"))


def test_the_gate_s_plan_edit_sends_the_edited_subtopics_with_its_notes_as_the_plan_review_does():
    subtopics = [{"id": "s1", "title": "Intro"}, {"id": "s2", "title": "Tools"}, {"title": "New"}]
    edited = json.dumps(subtopics)

    sent = gate_answer("edit_plan", "more practice", edited)
    assert sent == {"action": "edit_plan", "subtopics": subtopics, "notes": "more practice"}
    assert check_answer(sent)["subtopics"] == sent["subtopics"]
    assert gate_answer("edit_plan", "", edited) == plan_review_answer(False, edited)  # no notes: the review's edit
    with pytest.raises(InputError) as refused:
        gate_answer("edit_plan", "", "[{")
    assert refused.value.field == "subtopics"


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
    gate = {"stage": "gate", "round": 1}  # the gate's question names no plan: the thread's values do
    values = {"subtopics": [{"id": "s2", "title": "t", "description": "d"}]}
    assert json.loads(editable_plan(gate, values)) == [{"id": "s2", "title": "t", "description": "d"}]
    assert json.loads(editable_plan(question, values))[0]["id"] == "s1"  # the plan review's own plan first


def test_the_services_are_named_in_the_readers_language_and_never_by_their_key():
    embedded = LectureServices(model_latency=0.5)
    gemini = LectureServices(gemini_key=Secret("sk-secret"), gemini_models=("a", "b"))

    assert "0.5" in embedded.model_text().render("en")
    assert "a → b" in gemini.model_text().render("ko")
    assert "sk-secret" not in gemini.model_text().render("en")
    corpus = embedded.research_text()
    assert corpus.render("en") != corpus.render("ko")
