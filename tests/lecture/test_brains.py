"""The planner's steps: validation, plan, research, draft, reviews, gate, and answer parsing."""

from __future__ import annotations

import asyncio
import unicodedata

import pytest
from hypothesis import given
from hypothesis import strategies as st
from langchain_core.language_models.fake_chat_models import FakeListChatModel

from agents.lecture.brains import (
    DEFAULT_LECTURE_INPUT,
    LECTURE_FIELDS,
    PASS_THRESHOLD,
    REVIEWERS,
    InputError,
    ModelOutputError,
    Review,
    amake_plan,
    aresearch_subtopic,
    areview_draft,
    awrite_draft,
    combined_score,
    make_plan,
    parse_draft,
    parse_plan,
    parse_research,
    parse_review,
    passes_gate,
    research_subtopic,
    review_draft,
    validate_human_notes,
    validate_lecture_input,
    write_draft,
)
from agents.lecture.model.chat import EmbeddedChatModel
from agents.lecture.prompts import extract_json
from agents.lecture.research import CorpusResearch


@pytest.fixture
def model() -> EmbeddedChatModel:
    return EmbeddedChatModel(latency=0)


def run_round(model: EmbeddedChatModel, draft: str, subtopics, research) -> list[Review]:
    return [review_draft(model, name, DEFAULT_LECTURE_INPUT, subtopics, draft, research) for name in REVIEWERS]


# --- validation ------------------------------------------------------------------


def test_the_default_input_is_valid_and_fields_are_trimmed() -> None:
    padded = {field: f"  {value}\t" for field, value in DEFAULT_LECTURE_INPUT.items()}
    assert validate_lecture_input(padded) == DEFAULT_LECTURE_INPUT


@pytest.mark.parametrize(
    ("change", "field", "words"),
    [
        ({"topic": "   "}, "topic", "empty"),
        ({"duration": None}, "duration", "required"),
        ({"audience_level": "x" * 201}, "audience_level", "limit is 200"),
        ({"constraints": "x" * 501}, "constraints", "limit is 500"),
        ({"platform_tools": "ChatGPT\x00"}, "platform_tools", "control character"),
        ({"delivery_method": "강의\n실습"}, "delivery_method", "control character"),
        ({"topic": 42}, "topic", "must be text"),
        ({"budget": "1000"}, "budget", "not a lecture field"),
    ],
)
def test_bad_input_names_the_field(change: dict, field: str, words: str) -> None:
    with pytest.raises(InputError) as raised:
        validate_lecture_input({**DEFAULT_LECTURE_INPUT, **change})
    assert raised.value.field == field
    assert words in raised.value.message
    assert isinstance(raised.value, ValueError)


def test_constraints_may_span_lines() -> None:
    assert validate_lecture_input({**DEFAULT_LECTURE_INPUT, "constraints": "프로젝터 없음\n노트북 1인 1대"})


def _is_valid(field: str, value: str) -> bool:
    text = value.strip()
    limit = 500 if field == "constraints" else 200
    allowed = "\n\t" if field == "constraints" else ""
    controls = any(unicodedata.category(char) == "Cc" and char not in allowed for char in text)
    return bool(text) and len(text) <= limit and not controls


@given(st.fixed_dictionaries({field: st.text(max_size=520) for field in LECTURE_FIELDS}))
def test_validation_accepts_exactly_the_valid_inputs(raw: dict[str, str]) -> None:
    invalid = [field for field in LECTURE_FIELDS if not _is_valid(field, raw[field])]
    if invalid:
        with pytest.raises(InputError) as raised:
            validate_lecture_input(raw)
        assert raised.value.field == invalid[0]
    else:
        assert validate_lecture_input(raw) == {field: raw[field].strip() for field in LECTURE_FIELDS}


def test_human_notes_are_optional_and_limited() -> None:
    assert validate_human_notes(None) == "" and validate_human_notes("  ") == ""
    assert validate_human_notes(" 실습을 늘려 주세요\n") == "실습을 늘려 주세요"
    with pytest.raises(InputError, match="human_notes"):
        validate_human_notes("x" * 1001)


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
    assert scores["time_allocation"] < PASS_THRESHOLD and scores["content"] == 100
    assert combined_score(first_reviews) < PASS_THRESHOLD and not passes_gate(first_reviews)

    notes = "오후 실습 시간을 충분히 주세요"
    second = write_draft(model, DEFAULT_LECTURE_INPUT, plan, research, 2, first_reviews, notes, first)
    second_reviews = run_round(model, second, plan, research)
    assert all(review["score"] == 100 for review in second_reviews), second_reviews
    assert passes_gate(second_reviews)
    time_feedback = next(r for r in first_reviews if r["reviewer"] == "time_allocation")["feedback"][0]
    assert time_feedback in second and notes in second
    assert "120" not in second.split("## 세부 내용")[0]


def test_every_review_score_is_within_0_and_100(model: EmbeddedChatModel) -> None:
    plan = make_plan(model, DEFAULT_LECTURE_INPUT)
    for draft in ("# 빈 초안\n", write_draft(model, DEFAULT_LECTURE_INPUT, plan, [])):
        for review in run_round(model, draft, plan, []):
            assert 0 <= review["score"] <= 100 and review["feedback"]


def test_async_steps_give_the_same_results_as_sync_steps(model: EmbeddedChatModel) -> None:
    async def run_async() -> tuple:
        plan = await amake_plan(model, DEFAULT_LECTURE_INPUT)
        results = await asyncio.gather(
            *(aresearch_subtopic(model, CorpusResearch(), DEFAULT_LECTURE_INPUT, subtopic) for subtopic in plan)
        )
        draft = await awrite_draft(model, DEFAULT_LECTURE_INPUT, plan, results)
        review = await areview_draft(model, "time_allocation", DEFAULT_LECTURE_INPUT, plan, draft, results)
        return plan, results, draft, review

    plan, results, draft, review = asyncio.run(run_async())
    assert plan == make_plan(model, DEFAULT_LECTURE_INPUT)
    assert results == [research_subtopic(model, CorpusResearch(), DEFAULT_LECTURE_INPUT, s) for s in plan]
    assert draft == write_draft(model, DEFAULT_LECTURE_INPUT, plan, results)
    assert review == review_draft(model, "time_allocation", DEFAULT_LECTURE_INPUT, plan, draft, results)


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


def test_json_is_found_after_a_stray_bracket() -> None:
    assert extract_json('Score [draft]: {"score": 70, "feedback": []}') == {"score": 70, "feedback": []}


def test_a_plan_with_too_many_subtopics_keeps_the_first_five() -> None:
    titles = [f"T{n}" for n in range(7)]
    assert [s["title"] for s in parse_plan(str(titles).replace("'", '"'))] == titles[:5]


@pytest.mark.parametrize(
    ("answer", "score", "feedback"),
    [
        ('{"score": 150, "feedback": "too long"}', 100, ["too long"]),
        ('{"score": "72.5", "feedback": ["a", ""]}', 73, ["a"]),
        ('{"score": -3}', 0, []),
    ],
)
def test_review_answers_are_clamped_and_cleaned(answer: str, score: int, feedback: list[str]) -> None:
    assert parse_review(answer, "content") == {"reviewer": "content", "score": score, "feedback": feedback}


@pytest.mark.parametrize("answer", ['{"feedback": []}', '{"score": "high"}', '{"score": NaN}', "[1, 2]"])
def test_review_answers_without_a_score_are_refused(answer: str) -> None:
    with pytest.raises(ModelOutputError):
        parse_review(answer, "difficulty")


def test_research_answers_keep_only_sources_that_were_given() -> None:
    documents = [{"title": "t", "text": "x", "source": "data/corpus/a.md"}]
    answer = '{"summary": "s", "key_points": ["p"], "sources": ["data/corpus/a.md", "https://invented.example"]}'
    assert parse_research(answer, "s2", documents)["sources"] == ["data/corpus/a.md"]
    with pytest.raises(ModelOutputError, match="summary"):
        parse_research('{"key_points": []}', "s2", documents)


def test_a_fenced_markdown_draft_is_unwrapped() -> None:
    assert parse_draft("```markdown\n# Plan\n\n| a |\n```") == "# Plan\n\n| a |\n"
    with pytest.raises(ModelOutputError, match="empty draft"):
        parse_draft("   ")


def test_the_combined_score_is_the_rounded_mean() -> None:
    scores = zip(REVIEWERS, (100, 50, 75), strict=True)
    reviews = [Review(reviewer=name, score=score, feedback=[]) for name, score in scores]
    assert combined_score(reviews) == 75
    assert combined_score(reviews[:2]) == 75 and combined_score([reviews[0], reviews[2]]) == 88
    with pytest.raises(ValueError):
        combined_score([])
