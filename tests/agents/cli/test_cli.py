"""The command line: exit codes, JSON shapes, bad input."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from tests.conftest import PROJECT_ROOT


def test_run_robot_stops_at_the_pause_when_not_on_a_terminal(run_cli):
    result = run_cli("run", "robot", "--json")
    assert result.code == 0
    data = json.loads(result.out)
    assert set(data) == {
        "thread_id",
        "status",
        "outcome",
        "reason",
        "action",
        "next",
        "interrupts",
        "interrupt_ids",
        "waiting_count",
        "values",
    }
    assert data["thread_id"] == "hitl_demo" and data["status"] == "waiting"
    assert data["next"] == ["approval"]
    assert data["interrupts"][0]["question"] == "Execute this? (yes/no)"
    assert data["values"]["messages"][0] == {"type": "human", "content": "Start the task"}


def test_run_robot_with_answer_finishes(run_cli):
    data = json.loads(run_cli("run", "robot", "--answer", "yes", "--json").out)
    assert data["status"] == "done" and data["interrupts"] == []
    assert data["values"]["messages"][-1]["content"].startswith("Executed")


def test_run_starts_fresh_and_touches_no_other_thread(run_cli):
    run_cli("run", "robot", "--thread", "other")
    run_cli("run", "robot", "--answer", "no")
    run_cli("run", "robot")
    threads = {t["thread_id"]: t for t in json.loads(run_cli("threads", "--json").out)}
    assert threads["hitl_demo"]["checkpoint_count"] == 3
    assert threads["other"]["status"] == "waiting"


def test_resume_takes_text_and_refuses_capital_yes(run_cli):
    run_cli("run", "robot")
    data = json.loads(run_cli("resume", "hitl_demo", "Yes", "--json").out)
    assert data["status"] == "done"
    assert data["values"]["messages"][-1]["content"].startswith("Refused")


def test_resume_takes_a_json_object(run_cli):
    run_cli("run", "robot")
    data = json.loads(run_cli("resume", "hitl_demo", '{"answer": "yes"}', "--json").out)
    assert data["values"]["decision"] == "yes"


def test_inspect_json_shape(run_cli):
    run_cli("run", "robot")
    data = json.loads(run_cli("inspect", "hitl_demo", "--json").out)
    assert data["thread_id"] == "hitl_demo"
    assert data["counts"] == {"checkpoints": 3, "writes": 5}
    first = data["checkpoints"][0]
    assert set(first) == {"checkpoint_id", "parent_checkpoint_id", "step", "source", "next", "values", "writes"}
    assert [c["step"] for c in data["checkpoints"]] == [-1, 0, 1]
    last_writes = data["checkpoints"][-1]["writes"]
    assert [w["channel"] for w in last_writes] == ["__interrupt__"]
    assert set(last_writes[0]) == {"task_id", "channel", "value"}


def test_inspect_text_ends_with_counts(run_cli):
    run_cli("run", "robot")
    out = run_cli("inspect", "hitl_demo").out
    assert out.strip().splitlines()[-1] == "checkpoints 3, writes 5"
    assert "source input" in out and "__interrupt__" in out


def test_update_and_delete(run_cli):
    run_cli("run", "robot")
    data = json.loads(
        run_cli("update", "hitl_demo", "--values", '{"decision": "yes"}', "--as-node", "approval", "--json").out
    )
    assert data["values"]["decision"] == "yes" and data["next"] == ["execute"]
    assert run_cli("delete", "hitl_demo", "--yes").code == 0
    assert json.loads(run_cli("threads", "--json").out) == []


@pytest.mark.parametrize(
    ("args", "field"),
    [
        (("resume", "nope", "yes"), "thread_id"),
        (("resume", "bad'id", "yes"), "thread_id"),
        (("resume", "", "yes"), "thread_id"),
        (("update", "hitl_demo", "--values", "{not json"), "values"),
        (("update", "hitl_demo", "--values", '{"colour": 1}'), "colour"),
        (("update", "hitl_demo", "--values", '{"decision": "x"}', "--as-node", "nowhere"), "as_node"),
        (("update", "hitl_demo", "--values", '{"pending_action": 5}'), "pending_action"),
        (("delete", "missing", "--yes"), "thread_id"),
        (("inspect", "missing"), "thread_id"),
        (("threads", "--agent", "nobody"), "agent"),
    ],
)
def test_bad_input_exits_2_names_the_field_and_changes_nothing(run_cli, db_path, args, field):
    run_cli("run", "robot")
    before = db_path.read_bytes()
    result = run_cli(*args)
    assert result.code == 2
    assert field in result.err
    assert db_path.read_bytes() == before


def test_resume_of_a_thread_that_is_not_waiting(run_cli):
    run_cli("run", "robot", "--answer", "yes")
    result = run_cli("resume", "hitl_demo", "yes")
    assert result.code == 2 and "not waiting" in result.err


def test_module_entry_point_and_db_option(tmp_path):
    db = tmp_path / "other.sqlite"
    done = subprocess.run(
        [sys.executable, "-m", "agents", "--db", str(db), "run", "robot", "--json"],
        cwd=PROJECT_ROOT,
        capture_output=True,
        text=True,
        stdin=subprocess.DEVNULL,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["status"] == "waiting"
    assert db.exists()


def test_not_a_database_is_bad_input(run_cli, db_path):
    db_path.write_bytes(b"this is not sqlite" * 100)
    result = run_cli("threads")
    assert result.code == 2 and "not a SQLite database" in result.err
