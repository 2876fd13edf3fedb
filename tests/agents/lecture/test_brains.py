"""The planner's steps: plan, research, draft and reviews, with the embedded model and a Gemini-like one."""

from __future__ import annotations

import pytest
from langchain_core.language_models.fake_chat_models import FakeListChatModel

from agents.lecture.brains import make_plan, research_subtopic, review_draft, write_draft
from agents.lecture.graph import DEFAULT_THRESHOLD
from agents.lecture.inputs import DEFAULT_LECTURE_INPUT
from agents.lecture.model.chat import EmbeddedChatModel
from agents.lecture.parsing import parse_plan
from agents.lecture.prompts import REVIEWERS, ModelOutputError
from agents.lecture.research import CorpusResearch
from agents.lecture.rounds import combined_score
from agents.lecture.state import Review


@pytest.fixture
def model() -> EmbeddedChatModel:
    return EmbeddedChatModel(latency=0)


def run_round(model: EmbeddedChatModel, draft: str, subtopics, research) -> list[Review]:
    return [review_draft(model, name, DEFAULT_LECTURE_INPUT, subtopics, draft, research) for name in REVIEWERS]


# --- the pipeline with the embedded model ---------------------------------------------


def test_the_plan_has_three_to_five_subtopics_with_stable_ids(model: EmbeddedChatModel) -> None:
    plan = make_plan(model, DEFAULT_LECTURE_INPUT)
    assert 3 <= len(plan) <= 5
    assert [subtopic["id"] for subtopic in plan] == [f"s{n}" for n in range(1, len(plan) + 1)]
    assert plan == make_plan(model, DEFAULT_LECTURE_INPUT)


def test_research_finds_corpus_sources_for_each_subtopic(model: EmbeddedChatModel) -> None:
    plan = make_plan(model, DEFAULT_LECTURE_INPUT)
    results = [research_subtopic(model, CorpusResearch(), DEFAULT_LECTURE_INPUT, subtopic) for subtopic in plan]
    assert [result["subtopic_id"] for result in results] == [subtopic["id"] for subtopic in plan]
    assert all(result["sources"] and result["key_points"] for result in results)
    assert all(source.startswith("data/corpus/") for result in results for source in result["sources"])
    privacy = next(r for r, s in zip(results, plan, strict=True) if "개인정보" in s["title"])
    assert "data/corpus/ko-ai-security-privacy.md" in privacy["sources"]


def test_first_draft_fails_the_gate_and_the_rework_passes(model: EmbeddedChatModel) -> None:
    plan = make_plan(model, DEFAULT_LECTURE_INPUT)
    research = [research_subtopic(model, CorpusResearch(), DEFAULT_LECTURE_INPUT, subtopic) for subtopic in plan]
    first = write_draft(model, DEFAULT_LECTURE_INPUT, plan, research, round=1)
    first_reviews = run_round(model, first, plan, research)
    scores = {review["reviewer"]: review["score"] for review in first_reviews}
    assert scores["time_allocation"] < DEFAULT_THRESHOLD and scores["content"] == 100
    assert combined_score(first_reviews) < DEFAULT_THRESHOLD

    notes = "오후 실습 시간을 충분히 주세요"
    second = write_draft(model, DEFAULT_LECTURE_INPUT, plan, research, 2, first_reviews, notes, first)
    second_reviews = run_round(model, second, plan, research)
    assert all(review["score"] == 100 for review in second_reviews), second_reviews
    assert combined_score(second_reviews) >= DEFAULT_THRESHOLD
    time_feedback = next(r for r in first_reviews if r["reviewer"] == "time_allocation")["feedback"][0]
    assert time_feedback in second and notes in second
    assert "120" not in second.split("## 세부 내용")[0]


def test_every_review_score_is_within_0_and_100(model: EmbeddedChatModel) -> None:
    plan = make_plan(model, DEFAULT_LECTURE_INPUT)
    for draft in ("# 빈 초안\n", write_draft(model, DEFAULT_LECTURE_INPUT, plan, [])):
        for review in run_round(model, draft, plan, []):
            assert 0 <= review["score"] <= 100 and review["feedback"]


def test_unknown_reviewers_and_rounds_are_refused(model: EmbeddedChatModel) -> None:
    with pytest.raises(ValueError, match="unknown reviewer"):
        review_draft(model, "style", DEFAULT_LECTURE_INPUT, [], "# x")
    with pytest.raises(ValueError, match="rounds start at 1"):
        write_draft(model, DEFAULT_LECTURE_INPUT, [], [], round=0)


# --- the same steps with a model that answers like Gemini -------------------------------


def test_a_fenced_json_answer_with_chatter_is_read() -> None:
    answer = (
        'Sure! Here is the plan:\n```json\n{"subtopics": [{"title": "A", "description": "a"}, '
        '{"title": "B"}, {"title": "C"}]}\n```\nHope it helps.'
    )
    plan = make_plan(FakeListChatModel(responses=[answer]), DEFAULT_LECTURE_INPUT)
    assert plan == [
        {"id": "s1", "title": "A", "description": "a"},
        {"id": "s2", "title": "B", "description": ""},
        {"id": "s3", "title": "C", "description": ""},
    ]


def test_garbage_from_the_model_is_a_clear_error() -> None:
    with pytest.raises(ModelOutputError, match="expected a JSON answer, got: 'I cannot help"):
        make_plan(FakeListChatModel(responses=["I cannot help with that."]), DEFAULT_LECTURE_INPUT)
    with pytest.raises(ModelOutputError, match="at least 3"):
        parse_plan('{"subtopics": [{"title": "A"}, {"title": "a"}]}')
