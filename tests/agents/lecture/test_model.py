"""The embedded chat model: determinism, language, latency, duration and the reviewers."""

from __future__ import annotations

import asyncio
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from langchain_core.language_models.chat_models import BaseChatModel
from langchain_core.messages import HumanMessage, SystemMessage

from agents.lecture.duration import parse_duration
from agents.lecture.inputs import DEFAULT_LECTURE_INPUT
from agents.lecture.model import chat as chat_module
from agents.lecture.model.chat import EmbeddedChatModel, parse_latency
from agents.lecture.model.reviewers import review_content, review_difficulty, review_time_allocation
from agents.lecture.model.schedule import day_layout, parse_schedule
from agents.lecture.model.words import audience_level
from agents.lecture.model.writer import write_draft_markdown
from agents.lecture.prompts import detect_language, draft_messages, plan_messages, review_messages

KOREAN_LECTURE = dict(DEFAULT_LECTURE_INPUT)
ENGLISH_LECTURE = {
    "topic": "Spreadsheet skills for team leads",
    "audience_level": "intermediate office staff",
    "duration": "2 days",
    "delivery_method": "workshop",
    "platform_tools": "Excel",
    "constraints": "no projector",
}
SUBTOPICS = [
    {"id": "s1", "title": "생성형 AI 핵심 개념과 용어", "description": "개념"},
    {"id": "s2", "title": "프롬프트 작성 기본", "description": "프롬프트"},
    {"id": "s3", "title": "ChatGPT 업무 활용 실습", "description": "실습"},
    {"id": "s4", "title": "Notion 업무 활용 실습", "description": "실습"},
]
GOOD_ENGLISH_DAY = """
## Schedule — day 1

| Start | End | Minutes | Session | Format |
| --- | --- | --- | --- | --- |
| 09:00 | 10:25 | 85 | s1. Basics | lecture+practice |
| 10:25 | 10:35 | 10 | Break | break |
| 10:35 | 12:00 | 85 | s2. Formulas | practice |
| 12:00 | 13:00 | 60 | Lunch | lunch |
| 13:00 | 14:20 | 80 | s3. Charts | practice |
| 14:20 | 14:30 | 10 | Break | break |
| 14:30 | 15:50 | 80 | s4. Pivot tables | practice |
| 15:50 | 16:00 | 10 | Break | break |
| 16:00 | 17:00 | 60 | s5. Sharing | lecture+practice |
| 17:00 | 17:10 | 10 | Break | break |
| 17:10 | 18:00 | 50 | s6. Capstone | practice |
"""


def quiet_model() -> EmbeddedChatModel:
    return EmbeddedChatModel(latency=0)


def draft_payload(lecture: dict[str, str], round_number: int = 1, feedback: list | None = None) -> dict:
    return {
        "lecture": lecture,
        "subtopics": SUBTOPICS,
        "research": [],
        "round": round_number,
        "feedback": feedback or [],
        "human_notes": "",
    }


def time_review_of(draft: str, duration: str = "1일 8시간") -> dict:
    return review_time_allocation({"lecture": {**KOREAN_LECTURE, "duration": duration}, "draft": draft}, "en")


# --- the chat model itself ---------------------------------------------------


def test_same_messages_give_the_same_answer_every_time() -> None:
    first, second = quiet_model(), quiet_model()
    messages = draft_messages(draft_payload(KOREAN_LECTURE))
    assert isinstance(first, BaseChatModel)
    assert first.invoke(messages).text == second.invoke(messages).text
    assert first.invoke(plan_messages(KOREAN_LECTURE)).text == second.invoke(plan_messages(KOREAN_LECTURE)).text


def test_latency_is_fixed_per_prompt_and_within_twenty_percent() -> None:
    chat = EmbeddedChatModel(latency=1.0)
    plan, draft = plan_messages(KOREAN_LECTURE), draft_messages(draft_payload(KOREAN_LECTURE))
    assert chat.simulated_latency(plan) == chat.simulated_latency(plan_messages(KOREAN_LECTURE))
    assert chat.simulated_latency(plan) != chat.simulated_latency(draft)
    assert 0.8 <= chat.simulated_latency(plan) <= 1.2
    assert quiet_model().simulated_latency(plan) == 0.0


def test_the_latency_setting_is_read_once_and_never_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    latency = parse_latency({"HITL_MODEL_LATENCY": "2"})
    assert 1.6 <= EmbeddedChatModel(latency=latency).simulated_latency(plan_messages(KOREAN_LECTURE)) <= 2.4
    monkeypatch.setenv("HITL_MODEL_LATENCY", "2")
    assert parse_latency({}) == 0.3 and EmbeddedChatModel().latency == 0.3


@pytest.mark.parametrize("raw", ["fast", "-1", "nan"])
def test_a_bad_latency_setting_is_a_loud_error(raw: str) -> None:
    with pytest.raises(ValueError, match="HITL_MODEL_LATENCY"):
        parse_latency({"HITL_MODEL_LATENCY": raw})


def test_sync_and_async_calls_wait_the_simulated_latency(monkeypatch: pytest.MonkeyPatch) -> None:
    waits: list[float] = []

    async def fake_async_sleep(seconds: float) -> None:
        waits.append(seconds)

    monkeypatch.setattr(chat_module.time, "sleep", waits.append)
    monkeypatch.setattr(chat_module.asyncio, "sleep", fake_async_sleep)
    chat = EmbeddedChatModel(latency=0.5)
    messages = plan_messages(KOREAN_LECTURE)
    sync_text = chat.invoke(messages).text
    async_text = asyncio.run(chat.ainvoke(messages)).text
    expected = chat.simulated_latency(messages)
    assert waits == [expected, expected]
    assert sync_text == async_text


def test_messages_without_a_task_marker_are_refused() -> None:
    with pytest.raises(ValueError, match="TASK marker"):
        quiet_model().invoke([SystemMessage(content="You are helpful."), HumanMessage(content="hello")])


# --- language ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("업무에 바로 쓰는 AI 활용법 ChatGPT, Notion", "ko"),
        ("Using ChatGPT at work", "en"),
        ("A course about Notion for the 서울 office team members", "en"),
        ("", "en"),
    ],
)
def test_language_follows_the_share_of_hangul(text: str, expected: str) -> None:
    assert detect_language(text) == expected


def test_plans_are_written_in_the_input_language() -> None:
    korean = json.loads(quiet_model().invoke(plan_messages(KOREAN_LECTURE)).text)["subtopics"]
    english = json.loads(quiet_model().invoke(plan_messages(ENGLISH_LECTURE)).text)["subtopics"]
    assert 3 <= len(korean) <= 5 and 3 <= len(english) <= 5
    assert all(detect_language(item["title"] + item["description"]) == "ko" for item in korean)
    assert all(detect_language(item["title"] + item["description"]) == "en" for item in english)
    assert any("Notion" in item["title"] for item in korean)
    assert any("Excel" in item["title"] for item in english)


def test_english_draft_has_an_english_schedule_table() -> None:
    draft = quiet_model().invoke(draft_messages(draft_payload(ENGLISH_LECTURE, 2, [{"score": 90}]))).text
    assert "| Start | End | Minutes | Session | Format |" in draft
    assert len(parse_schedule(draft)) == 2  # "2 days" → one table per day


# --- duration and schedule -----------------------------------------------------


@pytest.mark.parametrize(
    ("text", "day_minutes", "assumed"),
    [
        ("1일 8시간", (480,), False),
        ("8 hours", (480,), False),
        ("2일 16시간", (480, 480), False),
        ("2 days", (480, 480), False),
        ("이틀", (480, 480), False),
        ("3시간", (180,), False),
        ("2일, 하루 6시간", (360, 360), False),
        ("1일 10시간", (300, 300), False),
        ("90 minutes", (90,), False),
        ("반나절쯤", (480,), True),
    ],
)
def test_duration_is_read_as_teaching_minutes_per_day(text: str, day_minutes: tuple[int, ...], assumed: bool) -> None:
    parsed = parse_duration(text)
    assert parsed.day_minutes == day_minutes
    assert parsed.assumed is assumed


@given(minutes=st.integers(min_value=30, max_value=480))
def test_every_day_layout_follows_the_timing_rules(minutes: int) -> None:
    layout = day_layout(minutes)
    assert sum(length for kind, length in layout if kind != "lunch") == minutes
    assert all(length <= 90 for kind, length in layout if kind == "session")
    kinds = [kind for kind, _ in layout]
    if minutes > 240:
        lunch = kinds.index("lunch")
        assert kinds.count("lunch") == 1 and layout[lunch][1] == 60
        assert "break" in kinds[:lunch] and "break" in kinds[lunch:]


@settings(max_examples=40, deadline=None)
@given(hours=st.integers(min_value=1, max_value=24), subtopic_count=st.integers(min_value=3, max_value=5))
def test_revised_drafts_always_pass_the_time_reviewer(hours: int, subtopic_count: int) -> None:
    lecture = {**KOREAN_LECTURE, "duration": f"{hours}시간"}
    subtopics = [{"id": f"s{n}", "title": f"주제 {n}", "description": ""} for n in range(1, subtopic_count + 1)]
    payload = {**draft_payload(lecture, 2, [{"score": 50}]), "subtopics": subtopics}
    review = review_time_allocation({"lecture": lecture, "draft": write_draft_markdown(payload, "ko")}, "ko")
    assert review["score"] == 100, review["feedback"]


# --- the reviewers check the text -----------------------------------------------


def test_first_draft_has_one_long_lecture_block_that_two_reviewers_flag() -> None:
    draft = write_draft_markdown(draft_payload(KOREAN_LECTURE), "ko")
    timing = review_time_allocation({"lecture": KOREAN_LECTURE, "draft": draft}, "ko")
    difficulty = review_difficulty({"lecture": KOREAN_LECTURE, "draft": draft}, "ko")
    assert "| 09:00 | 11:00 | 120 |" in draft
    assert timing["score"] == 50 and len(timing["feedback"]) == 1 and "120분" in timing["feedback"][0]
    assert difficulty["score"] == 75 and "120분" in difficulty["feedback"][0]


def test_a_correct_hand_written_day_scores_full_marks() -> None:
    review = time_review_of(GOOD_ENGLISH_DAY)
    assert review["score"] == 100, review["feedback"]


@pytest.mark.parametrize(
    ("old", "new", "expected_words"),
    [
        ("| 12:00 | 13:00 | 60 | Lunch | lunch |", "| 12:00 | 13:00 | 60 | s2b. More formulas | practice |", "lunch"),
        ("| 14:20 | 14:30 | 10 | Break | break |\n", "", "gap"),
        ("| 17:10 | 18:00 | 50 | s6. Capstone | practice |", "| 17:10 | 17:30 | 20 | s6. Capstone | practice |", "450"),
        ("| 15:50 | 16:00 | 10 | Break | break |", "| 15:50 | 17:50 | 120 | s4b. Extra | lecture |", "120 minutes"),
        ("| 09:00 | 10:25 | 85 |", "| 09:00 | 10:25 | 80 |", "minutes column"),
    ],
)
def test_the_time_reviewer_finds_each_broken_rule(old: str, new: str, expected_words: str) -> None:
    broken = GOOD_ENGLISH_DAY.replace(old, new)
    assert broken != GOOD_ENGLISH_DAY
    review = time_review_of(broken)
    assert review["score"] < 100
    assert any(expected_words in item for item in review["feedback"]), review["feedback"]


def test_the_time_reviewer_flags_a_day_without_any_afternoon_break() -> None:
    afternoon_breaks_as_sessions = GOOD_ENGLISH_DAY.replace("| Break | break |", "| Q&A | practice |").replace(
        "| 10:25 | 10:35 | 10 | Q&A | practice |", "| 10:25 | 10:35 | 10 | Break | break |"
    )
    review = time_review_of(afternoon_breaks_as_sessions)
    assert any("afternoon break" in item for item in review["feedback"]), review["feedback"]
    assert review["score"] <= 50


def test_a_draft_without_a_schedule_scores_zero_for_time() -> None:
    assert time_review_of("# Plan\n\nNo table here.")["score"] == 0


def test_the_content_reviewer_notices_a_missing_tool_and_subtopic() -> None:
    draft = write_draft_markdown(draft_payload(KOREAN_LECTURE, 2, [{"score": 90}]), "ko")
    complete = review_content({"lecture": KOREAN_LECTURE, "subtopics": SUBTOPICS, "draft": draft}, "ko")
    without_notion = draft.replace("Notion", "노션")
    partial = review_content({"lecture": KOREAN_LECTURE, "subtopics": SUBTOPICS, "draft": without_notion}, "ko")
    assert complete["score"] == 100
    assert partial["score"] <= 70
    assert any("'Notion'" in item for item in partial["feedback"])
    assert any("Notion 업무 활용 실습" in item for item in partial["feedback"])


def test_the_content_reviewer_checks_research_points_are_covered() -> None:
    point = "짝 검토는 강사 피드백의 양을 두 배로 늘린다."
    research = [{"subtopic_id": "s1", "summary": "x", "key_points": [point], "sources": []}]
    draft = write_draft_markdown({**draft_payload(KOREAN_LECTURE, 2, [{"score": 90}]), "research": research}, "ko")
    covered = review_content({"lecture": KOREAN_LECTURE, "subtopics": [], "research": research, "draft": draft}, "ko")
    missing = review_content(
        {"lecture": KOREAN_LECTURE, "subtopics": [], "research": research, "draft": draft.replace(point, "")},
        "ko",
    )
    assert covered["score"] == 100
    assert missing["score"] == 95


def test_the_difficulty_reviewer_wants_a_glossary_for_beginners_only() -> None:
    draft = write_draft_markdown(draft_payload(KOREAN_LECTURE, 2, [{"score": 90}]), "ko")
    without_glossary = draft.split("## 용어집")[0]
    beginner = review_difficulty({"lecture": KOREAN_LECTURE, "draft": without_glossary}, "ko")
    advanced_lecture = {**KOREAN_LECTURE, "audience_level": "개발자 고급"}
    advanced = review_difficulty({"lecture": advanced_lecture, "draft": without_glossary}, "ko")
    assert review_difficulty({"lecture": KOREAN_LECTURE, "draft": draft}, "ko")["score"] == 100
    assert beginner["score"] == 75 and "용어집" in beginner["feedback"][0]
    assert advanced["score"] == 100


@pytest.mark.parametrize(
    ("audience", "level"),
    [
        ("비개발자 직장인 초급", "beginner"),
        ("senior developers, advanced", "advanced"),
        ("중급 마케터", "intermediate"),
    ],
)
def test_audience_levels(audience: str, level: str) -> None:
    assert audience_level(audience) == level


def test_reviews_through_the_chat_model_are_json_with_scores_in_range() -> None:
    draft = write_draft_markdown(draft_payload(KOREAN_LECTURE), "ko")
    for reviewer in ("content", "time_allocation", "difficulty"):
        payload = {"lecture": KOREAN_LECTURE, "subtopics": SUBTOPICS, "research": [], "draft": draft}
        review = json.loads(quiet_model().invoke(review_messages(reviewer, payload)).text)
        assert 0 <= review["score"] <= 100
        assert review["feedback"] and all(isinstance(item, str) for item in review["feedback"])
