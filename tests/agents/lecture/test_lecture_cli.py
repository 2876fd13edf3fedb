"""The lecture planner from the command line: run, resume save/rework/reject, bad input."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from agents.lecture.inputs import DEFAULT_LECTURE_INPUT
from agents.nodelog import node_runs

FLAGS = {
    "topic": "--topic",
    "audience_level": "--audience-level",
    "duration": "--duration",
    "delivery_method": "--delivery-method",
    "platform_tools": "--platform-tools",
    "constraints": "--constraints",
}


def start_args(**overrides: str) -> list[str]:
    values = {**DEFAULT_LECTURE_INPUT, **overrides}
    return ["run", "lecture", *[part for name, flag in FLAGS.items() for part in (flag, values[name])]]


def test_run_lecture_json_waits_at_the_gate(run_cli):
    result = run_cli(*start_args(), "--json")
    assert result.code == 0, result.err
    data = json.loads(result.out)
    assert re.fullmatch(r"lecture-[0-9a-f]{8}", data["thread_id"])
    assert data["status"] == "waiting" and data["next"] == ["decide"]
    question = data["interrupts"][0]
    assert (question["score"], question["threshold"], question["round"]) == (75, 80, 1)
    assert sorted(r["reviewer"] for r in question["reviews"]) == ["content", "difficulty", "time_allocation"]
    assert len(data["values"]["research"]) == len(data["values"]["subtopics"]) == 5


def test_resume_save_keeps_the_draft_as_is(run_cli):
    assert run_cli(*start_args(), "--thread", "lc-save").code == 0
    result = run_cli("resume", "lc-save", "save", "--json")
    assert result.code == 0, result.err
    values = json.loads(result.out)["values"]
    assert values["outcome"] == "saved_as_is"
    assert Path(values["plan_path"]).name == "lc-save.md"
    assert Path(values["plan_path"]).read_text(encoding="utf-8") == values["final_plan"]


def test_resume_rework_with_notes_passes_and_saves(run_cli):
    assert run_cli(*start_args(), "--thread", "lc-rework").code == 0
    answer = json.dumps({"action": "rework", "notes": "쉬는 시간을 명시해 주세요"}, ensure_ascii=False)
    result = run_cli("resume", "lc-rework", answer, "--json")
    assert result.code == 0, result.err
    values = json.loads(result.out)["values"]
    assert [s["score"] for s in values["scores"]] == [75, 100]
    assert values["outcome"] == "saved" and values["reworks"] == 1
    assert "쉬는 시간을 명시해 주세요" in values["final_plan"]


def test_resume_reject_ends_the_run(run_cli, store):
    assert run_cli(*start_args(), "--thread", "lc-reject").code == 0
    result = run_cli("resume", "lc-reject", "reject", "--json")
    assert result.code == 0, result.err
    data = json.loads(result.out)
    assert data["status"] == "done" and data["values"]["outcome"] == "rejected"
    assert not [r for r in node_runs(store, thread_id="lc-reject") if r["node"] == "save"]
    again = run_cli("resume", "lc-reject", "save")
    assert again.code == 2 and "not waiting" in again.err


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ("maybe", "action: must be one of"),
        ('{"action": "save", "notes": "x"}', "notes: notes go with rework"),
        ('{"action": "edit_plan"}', "subtopics:"),
    ],
)
def test_bad_resume_values_exit_2_and_change_nothing(run_cli, store, value, message):
    assert run_cli(*start_args(), "--thread", "lc-bad").code == 0
    before = len(node_runs(store, thread_id="lc-bad"))
    result = run_cli("resume", "lc-bad", value)
    assert result.code == 2 and message in result.err
    assert len(node_runs(store, thread_id="lc-bad")) == before


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (start_args(topic="  "), "topic: is empty"),
        (start_args(duration="x" * 201), "duration: is 201 characters long"),
        (["run", "lecture", "--topic", "AI"], "audience_level: is required"),
        ([*start_args(), "--thread", "bad thread"], "thread_id: may contain only"),
    ],
)
def test_bad_input_exits_2_and_starts_nothing(run_cli, store, args, message):
    result = run_cli(*args)
    assert result.code == 2 and message in result.err
    assert not node_runs(store)
