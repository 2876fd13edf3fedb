"""Tests for dashboard.timeline_tables: the Timeline page's statistics and summaries."""

from __future__ import annotations

import pandas as pd

from agents.timing import timeline_of
from dashboard.timeline_tables import compare_table, stats_table, summary_table, whole_run_notes
from tests.factories import node_log_row


def two_runs() -> list[dict]:
    """Run 1: steps 1 and 2 (two parallel calls); run 2, after a pause: step 3."""
    return [
        node_log_row(1, "plan", 0.0, 1.0, step=1),
        node_log_row(2, "research", 1.0, 2.0, step=2, label="a"),
        node_log_row(3, "research", 1.0, 3.0, step=2, label="b"),
        node_log_row(4, "write", 100.0, 101.0, step=3, run_id="run-2"),
    ]


def test_each_runs_supersteps_are_followed_by_its_whole_run_row():
    table = stats_table(timeline_of(two_runs()))

    assert list(zip(table["run"], table["step"], strict=True)) == [
        ("run-1", "1"),
        ("run-1", "2"),
        ("run-1", "whole run"),
        ("run-2", "3"),
        ("run-2", "whole run"),
    ]
    assert list(table["speed-up"])[1] == 1.5  # 3 s of calls in 2 s


def test_the_table_of_one_run_equals_the_runs_part_of_the_threads_table():
    timeline = timeline_of(two_runs())

    whole = stats_table(timeline)
    part = stats_table(timeline.of_run("run-2"))

    # As frames: run-2 has no parallel superstep, so its efficiency is NaN, which no dict equals.
    pd.testing.assert_frame_equal(part, whole[whole["run"] == "run-2"].reset_index(drop=True))


def test_summary_has_one_row_per_run():
    table = summary_table(timeline_of(two_runs()))

    assert list(table["run"]) == ["run-1", "run-2"]
    assert list(table["tasks"]) == [3, 1]


def test_each_whole_run_definition_is_noted_in_full_led_by_its_run_when_several_are_shown():
    timeline = timeline_of(two_runs())

    first, second = whole_run_notes(timeline)
    assert (
        first
        == "run-1: whole run: speed-up = all task time / wall time; efficiency = of the parallel supersteps together"
    )
    assert second.startswith("run-2: whole run: nothing ran in parallel, so no speed-up or efficiency; nodes were")
    assert whole_run_notes(timeline.of_run("run-2")) == [second.removeprefix("run-2: ")]


def test_a_comparison_puts_the_two_runs_figures_side_by_side_as_text():
    parallel = timeline_of(two_runs()).of_run("run-1")
    sequential = timeline_of(two_runs()).of_run("run-2")

    table = compare_table({"A": parallel, "B": sequential})

    assert list(table.columns) == ["figure", "A", "B"]
    assert list(table["figure"]) == list(summary_table(parallel).columns)  # every figure of the summary
    rows = {row["figure"]: (row["A"], row["B"]) for row in table.to_dict("records")}
    assert rows["run"] == ("run-1", "run-2") and rows["tasks"] == ("3", "1")
    assert rows["efficiency of parallel supersteps"] == ("0.75", "")  # run-2 has no parallel superstep
    assert compare_table({"A": timeline_of([]), "B": timeline_of([])}).empty
