"""A refused answer, a refused plan edit and a failed run say so in the reader's language, through the catalogue.

The codes (``rework``, ``save``, ``subtopics``) stay English; the words around them are Korean for a Korean
reader, on the CLI (``--lang ko``) as on the pages.
"""

from __future__ import annotations

import json

import pytest

from agents.errors import InputError, RunFailedError
from agents.lecture.answers import check_answer
from agents.lecture.inputs import DEFAULT_LECTURE_INPUT, validate_lecture_input
from agents.lecture.plans import apply_plan_edit
from tests.agents.lecture.test_lecture_cli import start_args

PLAN = [{"id": f"s{n}", "title": f"T{n}", "description": ""} for n in (1, 2, 3)]


def _refusal(call, *args) -> InputError:
    with pytest.raises(InputError) as refused:
        call(*args)
    return refused.value


@pytest.mark.parametrize(
    ("answer", "field", "english", "korean"),
    [
        (
            "maybe",
            "action",
            "must be one of rework, edit_plan, save, reject, approve; got 'maybe'",
            "rework, edit_plan, save, reject, approve 중 하나여야 합니다. 입력값: 'maybe'",
        ),
        (7, "action", "answer one of", "중 하나로 답하세요"),
        ({"action": "save", "extra": 1}, "extra", "is not part of an answer", "답에 들어가는 항목이 아닙니다"),
        ({"action": "save", "notes": "x"}, "notes", "notes go with rework", "메모는 rework, edit_plan, reject"),
        ({"action": "edit_plan"}, "subtopics", 'edit_plan needs "subtopics"', 'edit_plan에는 "subtopics"가 필요'),
        ({"action": "save", "subtopics": []}, "subtopics", "subtopics go with edit_plan only", "edit_plan에만"),
        (
            {"action": "edit_plan", "subtopics": ["A"]},
            "subtopics",
            "a plan has 3 to 5 subtopics; the edit has 1",
            "계획의 세부 주제는 3~5개입니다. 수정안에는 1개가 있습니다",
        ),
        ({"action": "edit_plan", "subtopics": [1, "A", "B"]}, "subtopics", "item 0 must be", "0번 항목은"),
        ({"action": "edit_plan", "subtopics": [{"x": 1}, "A", "B"]}, "subtopics", "unknown key 'x'", "키 'x'가"),
        ({"action": "edit_plan", "subtopics": ["A", "a", "B"]}, "subtopics", "appears twice", "두 번 나옵니다"),
        ({"decisions": [{"type": "approve"}], "approver": "kim"}, "approver", "records no approver", "승인자를"),
        (
            {"decisions": [{"type": "edit", "edited_action": {"name": "pay", "args": {}}}]},
            "decisions",
            "an edit here edits 'save_lecture_plan' or 'approve_plan'; got 'pay'",
            "여기서 edit는 'save_lecture_plan' 또는 'approve_plan'만 고칩니다. 입력값: 'pay'",
        ),
        (
            {"decisions": [{"type": "edit", "edited_action": {"name": "rework", "args": {"x": 1}}}]},
            "x",
            "is not an argument an edit may change; use notes, subtopics",
            "edit가 바꿀 수 있는 인자가 아닙니다. notes, subtopics를 쓰세요",
        ),
    ],
)
def test_a_refused_answer_is_said_in_both_languages(answer, field, english, korean):
    refused = _refusal(check_answer, answer)
    assert refused.field == field
    assert english in refused.render("en")
    assert korean in refused.render("ko") and english not in refused.render("ko")


@pytest.mark.parametrize(
    ("edit", "english", "korean"),
    [
        ([{"id": "s9", "title": "A"}, "B", "C"], "no subtopic 's9' in the plan", "계획에 세부 주제 's9'가 없습니다"),
        (
            [{"id": "s1", "title": "Renamed"}, "B", "C"],
            "subtopic s1 ('T1') was already researched",
            "세부 주제 s1('T1')의 조사가 이미 끝났습니다",
        ),
        (PLAN, "the edit changes nothing", "수정안이 바꾸는 것이 없습니다"),
        ("A", "must be a JSON list of subtopics", "세부 주제의 JSON 목록이어야 합니다"),
    ],
)
def test_a_plan_edit_the_plan_cannot_take_is_said_in_both_languages(edit, english, korean):
    refused = _refusal(apply_plan_edit, PLAN, {"s1"}, edit, 4)
    assert refused.field == "subtopics"
    assert english in refused.render("en") and korean in refused.render("ko")


def test_an_unknown_lecture_field_is_said_in_both_languages():
    refused = _refusal(validate_lecture_input, {**DEFAULT_LECTURE_INPUT, "level": "x"})
    assert refused.field == "level"
    assert "is not a lecture field; expected topic" in refused.render("en")
    assert "강의 입력 항목이 아닙니다. 입력 항목: topic" in refused.render("ko")


def test_a_failed_run_is_said_once_in_the_readers_language():
    error = RunFailedError("ovf-ko", OverflowError("cannot convert float infinity to integer"))
    english, korean = error.render("en"), error.render("ko")
    assert str(error) == english
    assert english == (
        "A step failed in thread 'ovf-ko' (OverflowError: cannot convert float infinity to integer). What "
        "finished before it is saved; the thread is in the inbox, needing attention."
    )
    assert korean.startswith("스레드 'ovf-ko'에서 단계 하나가 실패했습니다(OverflowError: ")
    assert "대기 목록에 있습니다" in korean and "What finished" not in korean


def test_a_failed_runs_own_refusal_is_in_the_readers_language_too():
    cause = _refusal(validate_lecture_input, {**DEFAULT_LECTURE_INPUT, "duration": "1분"})  # a node's InputError
    assert "duration: 수업 시간이 1분으로 읽힙니다" in RunFailedError("t", cause).render("ko")


@pytest.mark.parametrize(
    ("answer", "korean", "english"),
    [
        ("maybe", "action: rework, edit_plan, save, reject, approve 중 하나여야 합니다", "must be one of"),
        (
            json.dumps({"action": "edit_plan", "subtopics": ["A"]}),
            "subtopics: 계획의 세부 주제는 3~5개입니다. 수정안에는 1개가 있습니다",
            "a plan has",
        ),
    ],
)
def test_the_cli_refuses_an_answer_in_korean(run_cli, answer, korean, english):
    assert run_cli(*start_args(), "--thread", "lr-ko").code == 0
    result = run_cli("--lang", "ko", "resume", "lr-ko", answer)
    assert result.code == 2
    assert korean in result.err and english not in result.err
