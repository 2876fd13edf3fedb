"""What the planner writes for people: the gate's question asks for what it offers, the inbox's description
lists the reviewers' feedback as text, tools are split where the field's help says, long titles end at a word."""

from __future__ import annotations

import json

import pytest

from agents import lifecycle, runs
from agents.lecture.answers import gate_options, gate_question
from agents.lecture.hitl import asked
from agents.lecture.inputs import DEFAULT_LECTURE_INPUT
from agents.lecture.model.words import split_tools
from agents.lecture.model.writer import write_plan
from agents.lecture.parsing import parse_plan
from agents.lecture.plans import TITLE_MAX_LENGTH
from agents.lecture.spec import question_text
from agents.lecture.strings import STRINGS
from agents.runtime import load_settings
from tests.agents.lecture.test_lecture_cli import start_args

FULL_EN, FULL_KO = STRINGS["lecture.say.gate_question"]
LAST_EN, LAST_KO = STRINGS["lecture.say.gate_question.last"]


def test_the_gate_words_its_question_by_its_options():
    assert gate_question(gate_options(1, 3)) == "lecture.say.gate_question"
    assert gate_question(gate_options(3, 3)) == "lecture.say.gate_question.last"
    assert "Rework" in FULL_EN and "edit the plan" in FULL_EN
    assert "rework" not in LAST_EN.lower() and "edit" not in LAST_EN and "Save as is, or reject?" in LAST_EN
    assert "다시 작업" not in LAST_KO and "계획을 고칠" not in LAST_KO


@pytest.mark.parametrize(("lang", "question"), [("en", LAST_EN), ("ko", LAST_KO)])
def test_at_the_round_limit_every_reader_is_asked_for_save_or_reject_only(run_cli, monkeypatch, lang, question):
    monkeypatch.setenv("HITL_MAX_ROUNDS", "1")  # the first draft is the last
    result = run_cli("--lang", lang, *start_args(), "--thread", f"lq-{lang}", "--json")
    assert result.code == 0, result.err
    payload = json.loads(result.out)["interrupts"][0]
    assert payload["options"] == ["save", "reject"]
    assert payload["question"] == question  # the interrupt's payload
    assert payload["action_requests"][0]["description"].splitlines()[0] == question  # what Agent Inbox shows
    (item,) = json.loads(run_cli("inbox", "--json").out)
    assert item["reason"] == LAST_EN  # the inbox follows the reader (English here), the same question


def test_below_the_limit_the_question_offers_rework_and_a_plan_edit(store, settings):
    result = runs.start_run(store, settings, "lecture", dict(DEFAULT_LECTURE_INPUT), thread_id="lq-full", lang="ko")
    assert result.interrupts[0]["question"] == FULL_KO
    assert result.interrupts[0]["options"] == ["rework", "edit_plan", "save", "reject"]


def test_a_question_saved_before_keeps_its_words_in_the_inbox(store, monkeypatch):
    # A thread saved at the limit before the gate asked by its options: its question is the full one.
    old = {"stage": "gate", "question": FULL_KO, "options": ["save", "reject"]}
    assert question_text(old).render("en") == FULL_EN
    new = {"stage": "gate", "question": LAST_KO, "options": ["save", "reject"]}
    assert question_text(new).render("en") == LAST_EN
    assert question_text({"stage": "gate", "question": "something else"}) is None
    monkeypatch.setenv("HITL_MAX_ROUNDS", "1")
    settings = load_settings(db_override=str(store.path), secrets={})
    runs.start_run(store, settings, "lecture", dict(DEFAULT_LECTURE_INPUT), thread_id="lq-inbox", lang="ko")
    (item,) = lifecycle.inbox(store)
    assert item.reason == LAST_KO and item.reason_in("en") == LAST_EN


def test_the_inbox_description_lists_each_reviewers_feedback_as_text():
    payload = {
        "stage": "gate",
        "question": FULL_KO,
        "options": gate_options(1, 3),
        "round": 1,
        "score": 75,
        "threshold": 80,
        "reviews": [
            {"reviewer": "content", "score": 100, "feedback": ["문제 없음: 모든 항목을 다룹니다"]},
            {"reviewer": "time_allocation", "score": 50, "feedback": ["세션이 너무 깁니다", "휴식이 없습니다"]},
        ],
    }
    description = asked(payload, "ko")["action_requests"][0]["description"]
    assert description.splitlines() == [
        FULL_KO,
        "[내용] 100/100: 문제 없음: 모든 항목을 다룹니다",
        "[시간 배분] 50/100: 세션이 너무 깁니다; 휴식이 없습니다",
    ]
    assert "['" not in description and "']" not in description


@pytest.mark.parametrize(
    ("tools", "split"),
    [
        ("<i>Notion</i>, ChatGPT", ["<i>Notion</i>", "ChatGPT"]),
        ("CI/CD, GitHub Actions", ["CI/CD", "GitHub Actions"]),
        ("Google Docs and Sheets; Slack", ["Google Docs and Sheets; Slack"]),
        ("노션，챗GPT、엑셀", ["노션", "챗GPT", "엑셀"]),
    ],
)
def test_tools_are_split_at_commas_only(tools, split):
    assert split_tools(tools) == split


def test_a_slash_inside_a_tool_keeps_its_subtopic_whole(store, settings):
    values = {**DEFAULT_LECTURE_INPUT, "platform_tools": "<i>Notion</i>, ChatGPT"}
    result = runs.start_run(store, settings, "lecture", values, thread_id="lq-tools")
    titles = [s["title"] for s in result.values["subtopics"]]
    assert "<i>Notion</i> 업무 활용 실습" in titles and "ChatGPT 업무 활용 실습" in titles
    assert not any(title.startswith(("<i>Notion<", "i>")) and "</i>" not in title for title in titles)
    assert [title for title in titles if "/" in title] == ["<i>Notion</i> 업무 활용 실습"]
    english = write_plan({**values, "topic": "AI at work", "platform_tools": "CI/CD, Jira"}, "en")
    assert "CI/CD at work: hands-on practice" in [s["title"] for s in english["subtopics"]]


def test_a_long_title_is_cut_at_a_word_with_an_ellipsis():
    words = "데이터 분석 자동화를 위한 생성형 AI 업무 활용 실습과 사례 연구"
    long_title = (words + " ") * 4
    (first, *_) = parse_plan(json.dumps({"subtopics": [long_title, "B", "C"]}, ensure_ascii=False))
    title = first["title"]
    assert len(title) <= TITLE_MAX_LENGTH and title.endswith("…")
    kept = title.removesuffix("…")
    assert long_title.startswith(kept) and long_title[len(kept)] == " "  # the cut is between words
    assert parse_plan(json.dumps(["x" * 200, "B", "C"]))[0]["title"] == "x" * (TITLE_MAX_LENGTH - 1) + "…"
    assert parse_plan(json.dumps(["Short", "B", "C"]))[0]["title"] == "Short"
