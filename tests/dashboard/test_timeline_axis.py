"""Tests for dashboard.timeline_axis: time scaling, compressed waits, ticks and lanes."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from agents.timing import NodeCall, run_summaries_of_calls
from dashboard.timeline_axis import axis_ticks, lane_name, time_axis_of_runs


def build_time_axis(calls: list[NodeCall], compress_waits_over: float = 5.0):
    """The axis of these calls' runs, as the timeline figure lays it."""
    return time_axis_of_runs(run_summaries_of_calls(calls), compress_waits_over)


T0 = 1_750_000_000.0


def make_call(
    call_id: int,
    start: float,
    end: float,
    *,
    run_id: str = "run-1",
    label: str = "",
    status: str = "ok",
) -> NodeCall:
    """A resolved node call; times are offsets from T0."""
    return NodeCall(
        id=call_id,
        agent="lecture",
        thread_id="thread-1",
        run_id=run_id,
        node="node",
        task_id=f"task-{call_id}",
        step=1,
        label=label,
        started_at=T0 + start,
        ended_at=T0 + end,
        status=status,
        error="",
        open=False,
    )


def paused_then_resumed(gap: float, *, paused: bool = True) -> list[NodeCall]:
    """Run 1 works 3 s (its last call interrupted if ``paused``); run 2 starts ``gap`` s later."""
    return [
        make_call(1, 0.0, 2.5),
        make_call(2, 2.5, 3.0, status="interrupted" if paused else "ok"),
        make_call(3, 3.0 + gap, 5.0 + gap, run_id="run-2"),
    ]


def test_lane_is_the_node_or_node_and_label():
    assert lane_name(make_call(1, 0.0, 1.0)) == "node"
    assert lane_name(make_call(1, 0.0, 1.0, label="pandas")) == "node · pandas"


def test_no_calls_give_an_empty_axis_with_one_zero_tick():
    axis = build_time_axis([])

    assert axis.span == 0.0 and axis.to_display(T0) == 0.0
    assert axis_ticks(axis) == ([0.0], ["0 s"])


def test_long_wait_after_an_interrupt_is_a_compressed_human_wait():
    axis = build_time_axis(paused_then_resumed(3600.0), compress_waits_over=5.0)
    [wait] = axis.waits

    assert wait.kind == "human wait"
    assert wait.real_end - wait.real_start == pytest.approx(3600.0)
    assert 0 < wait.display_end - wait.display_start <= 5.0
    assert axis.span < 10.0


def test_long_wait_without_an_interrupt_is_idle_and_a_short_one_stays_to_scale():
    assert [w.kind for w in build_time_axis(paused_then_resumed(60.0, paused=False)).waits] == ["idle"]
    short = build_time_axis(paused_then_resumed(2.0), compress_waits_over=5.0)
    assert short.waits == [] and short.span == pytest.approx(7.0)


def test_ticks_give_real_elapsed_time_and_jump_across_a_compressed_wait():
    axis = build_time_axis(paused_then_resumed(3600.0))

    tickvals, ticktext = axis_ticks(axis)

    assert tickvals == sorted(tickvals) and ticktext[0] == "0 s"
    resume = ticktext.index("1h 00m 03s")  # the run start after the wait is always ticked
    assert tickvals[resume] == pytest.approx(axis.to_display(T0 + 3603.0))


@given(
    st.lists(
        st.tuples(
            st.floats(min_value=0.0, max_value=10_000.0, allow_nan=False),
            st.floats(min_value=0.0, max_value=50.0, allow_nan=False),
        ),
        min_size=1,
        max_size=8,
    ),
    st.floats(min_value=0.0, max_value=60.0, allow_nan=False),
)
def test_time_axis_is_monotonic_and_keeps_durations(runs: list[tuple[float, float]], threshold: float):
    calls = [make_call(i, start, start + length, run_id=f"run-{i}") for i, (start, length) in enumerate(runs)]
    axis = build_time_axis(calls, threshold)

    moments = sorted({call.started_at for call in calls} | {call.ended_at for call in calls})
    positions = [axis.to_display(moment) for moment in moments]
    assert positions == sorted(positions)
    assert positions[0] == 0.0
    for call in calls:
        length = axis.to_display(call.ended_at) - axis.to_display(call.started_at)
        assert length == pytest.approx(call.duration, abs=1e-5)
    for wait in axis.waits:
        assert wait.display_end - wait.display_start <= threshold + 1e-9
        assert wait.real_end - wait.real_start > threshold
