"""Refusals that say what is wrong in the words of what was given, in English and Korean, on every path.

A reject's message in LangChain's or Agent Inbox's shape is held to the limit of the agent's own answer
field it becomes (the planner's reason, the refund's note), and one that is not text is told so; an empty
case id or item id is named as that id, not a thread id; a batch item naming a thread that asks several
questions is told the batch's own item form, ``THREAD:INTERRUPT_ID``.
"""

from __future__ import annotations

import json

import pytest

from agents import runs
from agents.batch import decide_items
from agents.errors import InputError
from agents.lecture.answers import check_answer as lecture_answer
from agents.lecture.hitl import response_schema as lecture_schema
from agents.lecture.inputs import HUMAN_NOTES_MAX_LENGTH
from agents.refund.rules import NOTE_MAX_LENGTH, answer_schema, case_id_problem, check_items
from agents.refund.spec import check_resume as refund_answer

GATE = {"stage": "gate", "options": ["rework", "edit_plan", "save", "reject"]}
ITEMS = [{"item": "A-1", "amount": 300_000}, {"item": "A-3", "amount": 200_000}]


def _reject_message_schema(schema: dict) -> dict:
    (hitl,) = [option for option in schema["anyOf"] if option.get("title") == "HITLResponse"]
    branches = hitl["properties"]["decisions"]["items"]["oneOf"]
    (reject,) = [b for b in branches if b["properties"]["type"] == {"const": "reject"}]
    return reject["properties"]["message"]


def _refused(check, answer) -> InputError:
    with pytest.raises(InputError) as caught:
        check(answer)
    return caught.value


def test_a_reject_message_takes_the_limit_of_the_agents_own_answer_field():
    reason = " " + "x" * HUMAN_NOTES_MAX_LENGTH + " "  # trimmed, as the planner's own notes are
    for answer in ([{"type": "response", "args": reason}], {"decisions": [{"type": "reject", "message": reason}]}):
        assert lecture_answer(answer) == {"action": "reject", "notes": reason.strip()}
        assert lecture_answer(answer) == lecture_answer({"action": "reject", "notes": reason})
    over = _refused(lecture_answer, [{"type": "response", "args": "x" * (HUMAN_NOTES_MAX_LENGTH + 1)}])
    assert over.field == "decisions" and f"the limit is {HUMAN_NOTES_MAX_LENGTH}" in str(over)
    assert "최대 1000자" in over.render("ko")
    # the refund's note keeps its own limit, the one its note field takes
    note = {"decisions": [{"type": "reject", "message": "x" * NOTE_MAX_LENGTH}], "approver": "kim"}
    assert refund_answer(note)["note"] == "x" * NOTE_MAX_LENGTH
    longer = {"decisions": [{"type": "reject", "message": "x" * (NOTE_MAX_LENGTH + 1)}], "approver": "kim"}
    assert f"the limit is {NOTE_MAX_LENGTH}" in str(_refused(refund_answer, longer))


def test_each_question_s_schema_states_its_own_agents_reject_message_limit():
    assert _reject_message_schema(lecture_schema(GATE, HUMAN_NOTES_MAX_LENGTH))["maxLength"] == HUMAN_NOTES_MAX_LENGTH
    refund_question = {"amount": 500_000, "requested_amount": 500_000}
    assert _reject_message_schema(answer_schema(refund_question))["maxLength"] == NOTE_MAX_LENGTH


@pytest.mark.parametrize(
    ("check", "answer"),
    [
        (lecture_answer, [{"type": "response", "args": 5}]),
        (lecture_answer, {"decisions": [{"type": "reject", "message": 5}]}),
        (refund_answer, {"decisions": [{"type": "reject", "message": ["x"]}], "approver": "kim"}),
    ],
    ids=["lecture-inbox", "lecture-langchain", "refund"],
)
def test_a_reject_message_that_is_not_text_is_told_it_must_be_text(check, answer):
    error = _refused(check, answer)
    assert error.field == "decisions"
    assert "a reject's message must be text, got" in str(error) and "characters" not in str(error)
    assert "거절 메시지는 텍스트여야 합니다" in error.render("ko") and "자까지" not in error.render("ko")


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_an_empty_case_id_or_item_id_is_named_as_that_id_on_the_command_line(run_cli, lang):
    start = ("--lang", lang, "run", "refund", "--customer", "kim", "--reason", "r")
    empty_case = run_cli(*start, "--case", " ", "--amount", "500000")
    assert empty_case.code == 2
    empty_item = run_cli(*start, "--case", "E1", "--items", json.dumps([{"item": "", "amount": 5}]))
    assert empty_item.code == 2
    if lang == "en":
        assert "case_id: is empty; give a case id" in empty_case.err and "thread" not in empty_case.err
        assert "items: an item's id is empty" in empty_item.err and "thread" not in empty_item.err
    else:
        assert "건 번호를 입력하세요" in empty_case.err and "스레드" not in empty_case.err
        assert "항목 id가 비어 있습니다" in empty_item.err and "스레드" not in empty_item.err


def test_the_graphs_own_check_of_a_start_names_an_empty_case_id_a_case_id():
    # a start on LangGraph's own tooling, which runs no form: the graph's first node checks the case id
    assert "give a case id" in case_id_problem("") and "thread id" not in case_id_problem("")
    with pytest.raises(InputError, match="an item's id is empty"):
        check_items([{"item": " ", "amount": 5}])


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_a_batch_item_of_a_thread_with_several_questions_is_told_the_batch_item_form(store, settings, lang):
    runs.start_run(store, settings, "refund", {"case_id": "BW1", "customer": "k", "reason": "r", "items": ITEMS})
    waiting = [str(i.id) for i in runs.thread_snapshot(store, settings, "refund-BW1")[1].interrupts]
    (decided,) = decide_items(store, settings, ["refund-BW1"], {"action": "approve", "approver": "lee"}, lang=lang)
    assert decided.result == "refused"
    assert "THREAD:INTERRUPT_ID" in decided.reason and all(f"refund-BW1:{i}" in decided.reason for i in waiting)
    assert "--interrupt" not in decided.reason and "command.resume" not in decided.reason
    if lang == "ko":
        assert "결정할 질문마다" in decided.reason
    assert runs.current_result(store, settings, "refund-BW1").status == "waiting"  # nothing was decided
