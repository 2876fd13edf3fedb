"""``python -m agents diff THREAD [--from ID] [--to ID] [--json]``: what a checkpoint changed, as the pages show it."""

from __future__ import annotations

import json

import pytest

from agents import diff, readmodel
from tests.factories import thread_counts

ACTION = "Business trip request: Busan, 2 days, budget 800,000 KRW"


def _json(run_cli, *args):
    result = run_cli("diff", *args, "--json")
    assert result.code == 0, result.err
    return json.loads(result.out)


def test_diff_json_after_an_update_state_is_the_functions_document(run_cli, store):
    run_cli("run", "robot")
    assert run_cli("update", "hitl_demo", "--values", '{"pending_action": "Seoul, 1 day"}').code == 0
    document = _json(run_cli, "hitl_demo")
    assert document == diff.checkpoint_diff(store, "hitl_demo").to_json()
    chain = readmodel.checkpoint_chain(store, "hitl_demo")
    assert document["from"]["checkpoint_id"] == chain[-2].checkpoint_id
    assert document["to"] == {"checkpoint_id": chain[-1].checkpoint_id, "step": 2, "source": "update"}
    assert document["relation"] == "parent"
    assert document["changes"] == [
        {
            "path": ["pending_action"],
            "key": "pending_action",
            "change": "changed",
            "summary": "changed",
            "before": ACTION,
            "after": "Seoul, 1 day",
        }
    ]
    assert [(w["node"], w["channel"], w["value"]) for w in document["writes"]] == [
        ("(update_state)", "pending_action", "Seoul, 1 day"),
        ("(update_state)", "branch:to:approval", None),
    ]
    assert {w["produced"] for w in document["writes"]} == {chain[-1].checkpoint_id}


def test_diff_text_names_each_change_and_a_message_append(run_cli):
    run_cli("run", "robot", "--answer", "yes")
    lines = run_cli("diff", "hitl_demo").out.splitlines()
    assert lines[0].startswith("thread hitl_demo: ") and "(step 3, loop)" in lines[0]
    assert lines[1] == "relation: parent"
    assert lines[2].split(None, 3) == ["+1", "message", "messages:", f"ai: Executed: {ACTION}"]
    assert lines[3] == "writes (1), by the checkpoint they produced:"
    assert lines[4].split()[1:4] == ["execute", "messages", "="]
    assert lines[4].endswith(f'[{{"type": "ai", "content": "Executed: {ACTION}"}}]')


def test_from_and_to_compare_a_fork_with_its_branch_point(run_cli, store):
    run_cli("run", "robot", "--answer", "yes")
    branch_point = readmodel.checkpoint_chain(store, "hitl_demo")[2].checkpoint_id
    run_cli("update", "hitl_demo", "--checkpoint", branch_point, "--values", '{"pending_action": "Fork"}')
    fork = readmodel.head_checkpoint_id(store, "hitl_demo")
    document = _json(run_cli, "hitl_demo", "--from", branch_point, "--to", fork)
    assert document["relation"] == "parent" and document["common_ancestor"] == branch_point
    assert [(c["key"], c["after"]) for c in document["changes"]] == [("pending_action", "Fork")]
    same = _json(run_cli, "hitl_demo", "--from", fork, "--to", fork)
    assert (same["relation"], same["changes"], same["writes"]) == ("same", [], [])
    assert run_cli("diff", "hitl_demo", "--from", fork, "--to", fork).out.splitlines()[2] == "no changes"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("hitl_demo", "--from", "nope"), "error: from: no checkpoint 'nope' in thread 'hitl_demo'"),
        (("hitl_demo", "--to", "1f0-x"), "error: to: no checkpoint '1f0-x' in thread 'hitl_demo'"),
        (("no_such_thread",), "error: thread_id: no thread named 'no_such_thread' in the database"),
        (("bad id!",), "error: thread_id: may contain only letters"),
        (("hitl_demo", "--to", " "), "argument --to: is empty"),
    ],
)
def test_bad_ids_exit_2_with_a_clear_message_and_change_nothing(run_cli, store, args, message):
    run_cli("run", "robot")
    counts = thread_counts(store, "hitl_demo")
    result = run_cli("diff", *args)
    assert result.code == 2 and result.out == ""
    assert message in result.err
    assert thread_counts(store, "hitl_demo") == counts


def test_a_bad_id_is_refused_in_korean_too(run_cli):
    run_cli("run", "robot")
    result = run_cli("--lang", "ko", "diff", "hitl_demo", "--from", "nope")
    assert result.code == 2
    assert result.err.strip() == "오류: from: 스레드 'hitl_demo'에 체크포인트 'nope'가 없습니다"
