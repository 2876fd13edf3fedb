"""The lecture gate carries LangChain's human-in-the-loop request, and its decisions answer it from the
command line through the gate's own rules (save, rework with notes, reject; no rework at the round limit)."""

from __future__ import annotations

import json

import pytest

from agents.errors import InputError
from agents.lecture.answers import check_answer
from tests.agents.lecture.test_lecture_cli import start_args

EDIT_NOTES = {"type": "edit", "edited_action": {"name": "save_lecture_plan", "args": {"notes": "쉬는 시간을 명시"}}}


def started(run_cli, thread: str) -> dict:
    result = run_cli(*start_args(), "--thread", thread, "--json")
    assert result.code == 0, result.err
    return json.loads(result.out)["interrupts"][0]


def decide(run_cli, thread: str, answer: object):
    return run_cli("resume", thread, json.dumps(answer, ensure_ascii=False), "--json")


def test_the_gate_asks_one_action_with_its_score_and_allowed_decisions(run_cli):
    question = started(run_cli, "lh-ask")
    (action,) = question["action_requests"]
    assert action["name"] == "save_lecture_plan"
    assert action["args"] == {"round": 1, "score": 75, "threshold": 80, "notes": ""}
    assert action["description"].startswith(question["question"]) and "[content]" in action["description"]
    assert question["review_configs"] == [
        {"action_name": "save_lecture_plan", "allowed_decisions": ["approve", "edit", "reject"]}
    ]
    assert question["options"] == ["rework", "edit_plan", "save", "reject"]  # its own answers stay


@pytest.mark.parametrize("answer", [{"decisions": [{"type": "approve"}]}, "approve"], ids=["decision", "typed"])
def test_approve_saves_the_draft_as_is(run_cli, answer):
    started(run_cli, "lh-approve")
    result = run_cli("resume", "lh-approve", answer if isinstance(answer, str) else json.dumps(answer), "--json")
    assert result.code == 0, result.err
    assert json.loads(result.out)["values"]["outcome"] == "saved_as_is"


def test_an_edit_reworks_with_its_notes(run_cli):
    started(run_cli, "lh-edit")
    result = decide(run_cli, "lh-edit", {"decisions": [EDIT_NOTES]})
    assert result.code == 0, result.err
    values = json.loads(result.out)["values"]
    assert values["outcome"] == "saved" and values["reworks"] == 1
    assert "쉬는 시간을 명시" in values["final_plan"]


def test_reject_ends_the_run_with_no_reason(run_cli):
    started(run_cli, "lh-reject")
    result = decide(run_cli, "lh-reject", {"decisions": [{"type": "reject"}]})
    assert result.code == 0, result.err
    values = json.loads(result.out)["values"]
    assert values["outcome"] == "rejected" and values["reject_reason"] == ""


@pytest.mark.parametrize(
    "answer",
    [
        {"decisions": [{"type": "reject", "message": " 주제가 다름 "}]},  # LangChain's
        {"action": "reject", "notes": "주제가 다름"},  # the planner's own (the page, /resume)
    ],
    ids=["langchain", "typed"],
)
def test_a_reject_with_a_message_ends_the_run_with_it_as_the_reason(run_cli, answer):
    started(run_cli, "lh-reason")
    result = decide(run_cli, "lh-reason", answer)
    assert result.code == 0, result.err
    values = json.loads(result.out)["values"]
    assert values["outcome"] == "rejected" and values["reject_reason"] == "주제가 다름"
    assert "final_plan" not in values


def test_agent_inbox_s_response_is_a_reject_with_its_text_as_the_reason():
    assert check_answer([{"type": "response", "args": " 주제가 다름 "}]) == {"action": "reject", "notes": "주제가 다름"}


def test_at_the_round_limit_no_edit_is_offered_or_taken(run_cli, monkeypatch):
    monkeypatch.setenv("HITL_MAX_ROUNDS", "1")
    question = started(run_cli, "lh-limit")
    assert question["review_configs"][0]["allowed_decisions"] == ["approve", "reject"]
    refused = decide(run_cli, "lh-limit", {"decisions": [EDIT_NOTES]})
    assert refused.code == 2 and "rework" in refused.err
    assert json.loads(run_cli("resume", "lh-limit", "save", "--json").out)["values"]["outcome"] == "saved_as_is"


@pytest.mark.parametrize(
    ("answer", "field"),
    [
        ([{"type": "ignore", "args": None}], "decisions"),
        ([{"type": "response", "args": "x" * 2001}], "decisions"),
        ({"action": "save", "notes": "not a reason"}, "notes"),
        ({"decisions": [{"type": "approve"}], "approver": "kim"}, "approver"),
        ({"decisions": [{"type": "edit", "edited_action": {"name": "delete_all", "args": {}}}]}, "decisions"),
        ({"decisions": [{"type": "edit", "edited_action": {"name": "save_lecture_plan", "args": {"x": 1}}}]}, "x"),
    ],
)
def test_a_decision_the_gate_cannot_take_is_refused_naming_the_field(answer, field):
    with pytest.raises(InputError) as caught:
        check_answer(answer)
    assert caught.value.field == field
