"""CLI of the checkpoint explorer: ``graph``, ``rerun`` and ``update --checkpoint`` (fork)."""

from __future__ import annotations

import json

from agents import readmodel
from agents.chain_layout import chain_to_json

GRAPH_KEYS = {
    "checkpoint_id",
    "parent_checkpoint_id",
    "step",
    "source",
    "lane",
    "writers",
    "next",
    "is_head",
    "is_waiting",
}


def _graph(run_cli, thread="hitl_demo"):
    result = run_cli("graph", thread, "--json")
    assert result.code == 0, result.err
    return json.loads(result.out)


def test_graph_json_is_the_chain_the_figure_is_built_from(run_cli, store):
    run_cli("run", "robot")
    rows = _graph(run_cli)
    assert rows == chain_to_json(readmodel.checkpoint_chain(store, "hitl_demo"))
    assert set(rows[0]) == GRAPH_KEYS
    assert [(r["step"], r["source"], r["lane"]) for r in rows] == [(-1, "input", 0), (0, "loop", 0), (1, "loop", 0)]
    assert rows[0]["parent_checkpoint_id"] is None
    assert [r["parent_checkpoint_id"] for r in rows[1:]] == [r["checkpoint_id"] for r in rows[:-1]]
    assert rows[-1]["is_head"] and rows[-1]["is_waiting"] and rows[-1]["next"] == ["approval"]
    assert rows[1]["writers"] == ["propose"]


def test_graph_text_is_a_table_with_full_ids_and_flags(run_cli):
    run_cli("run", "robot")
    rows = _graph(run_cli)
    lines = run_cli("graph", "hitl_demo").out.strip().splitlines()
    assert lines[0].split() == [
        "step",
        "lane",
        "source",
        "checkpoint_id",
        "parent_checkpoint_id",
        "writers",
        "next",
        "flags",
    ]
    assert lines[-1] == "3 checkpoints, 1 lane"
    assert rows[-1]["checkpoint_id"] in lines[3] and lines[3].endswith("head,waiting")


def test_update_with_checkpoint_forks_and_keeps_the_history(run_cli):
    run_cli("run", "robot", "--answer", "yes")
    before = _graph(run_cli)
    paused = next(r for r in before if r["next"] == ["approval"])
    result = run_cli(
        "update",
        "hitl_demo",
        "--checkpoint",
        paused["checkpoint_id"],
        "--values",
        '{"decision": "no"}',
        "--as-node",
        "approval",
        "--json",
    )
    assert result.code == 0, result.err
    data = json.loads(result.out)
    assert data["status"] == "attention" and data["next"] == ["execute"] and data["values"]["decision"] == "no"
    after = _graph(run_cli)
    assert [r["checkpoint_id"] for r in after if r["lane"] == 0] == [r["checkpoint_id"] for r in before]
    fork = next(r for r in after if r["source"] == "update")
    assert fork["parent_checkpoint_id"] == paused["checkpoint_id"]
    assert fork["lane"] == 1 and fork["is_head"]


def test_rerun_from_an_old_checkpoint_branches_and_pauses_again(run_cli):
    run_cli("run", "robot", "--answer", "yes")
    before = _graph(run_cli)
    step0 = next(r for r in before if r["step"] == 0)
    result = run_cli("rerun", "hitl_demo", "--checkpoint", step0["checkpoint_id"], "--json")
    assert result.code == 0, result.err
    data = json.loads(result.out)
    assert data["status"] == "waiting" and data["next"] == ["approval"]
    after = _graph(run_cli)
    assert len(after) == len(before) + 2
    branch = [r for r in after if r["lane"] == 1]
    assert [r["source"] for r in branch] == ["fork", "loop"]
    assert branch[0]["parent_checkpoint_id"] == step0["checkpoint_id"]
    assert branch[-1]["is_head"] and branch[-1]["is_waiting"]
    # the original run, answered "yes", is still there
    assert [r["checkpoint_id"] for r in after if r["lane"] == 0] == [r["checkpoint_id"] for r in before]


def test_rerun_text_output_names_the_status(run_cli):
    run_cli("run", "robot", "--answer", "no")
    step0 = next(r for r in _graph(run_cli) if r["step"] == 0)
    out = run_cli("rerun", "hitl_demo", "--checkpoint", step0["checkpoint_id"]).out
    assert out.startswith("thread hitl_demo (robot): waiting")


def test_unknown_checkpoint_id_is_refused_and_changes_nothing(run_cli):
    run_cli("run", "robot")
    before = _graph(run_cli)
    for args in (
        ("rerun", "hitl_demo", "--checkpoint", "not-a-checkpoint"),
        ("update", "hitl_demo", "--checkpoint", "not-a-checkpoint", "--values", '{"decision": "no"}'),
    ):
        result = run_cli(*args)
        assert result.code == 2
        assert "no checkpoint 'not-a-checkpoint' in thread 'hitl_demo'" in result.err
    assert _graph(run_cli) == before


def test_bad_input_exits_2_with_a_message(run_cli):
    run_cli("run", "robot")
    step0 = next(r for r in _graph(run_cli) if r["step"] == 0)["checkpoint_id"]
    cases = {
        ("graph", "missing"): "no thread named 'missing'",
        ("graph", "bad id!"): "thread_id: may contain only",
        ("rerun", "missing", "--checkpoint", step0): "no thread named 'missing'",
        ("update", "hitl_demo", "--checkpoint", step0, "--values", "{oops"): "values: is not valid JSON",
        ("update", "hitl_demo", "--checkpoint", step0, "--values", '{"colour": 1}'): "colour: is not a state key",
        (
            "update",
            "hitl_demo",
            "--checkpoint",
            step0,
            "--values",
            '{"decision": "no"}',
            "--as-node",
            "nobody",
        ): "as_node: an update cannot be made as 'nobody'",
    }
    for args, message in cases.items():
        result = run_cli(*args)
        assert result.code == 2, args
        assert message in result.err, (args, result.err)
    assert len(_graph(run_cli)) == 3


def test_rerun_without_checkpoint_is_a_usage_error(run_cli):
    refused = run_cli("rerun", "hitl_demo")
    assert refused.code == 2
    assert "the following arguments are required: --checkpoint" in refused.err
