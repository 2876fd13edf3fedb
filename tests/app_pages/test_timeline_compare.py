"""AppTest for the Timeline page's comparison: the same figure as from the agent's rows, read per run, bounded."""

from __future__ import annotations

import json
from typing import Any

import pytest

import agents.nodelog
from agents import runs
from agents.nodelog import node_runs
from agents.timing import Timeline, timeline_of
from dashboard.timeline_figure import MAX_DRAWN_CALLS, compare_figure_of
from tests.factories import PARALLEL_RUN_T0, insert_long_run, insert_parallel_run

PAGE = "app_pages/timeline.py"


def figure_from_the_agents_rows(store, picks: dict[str, tuple[str, str]]) -> dict[str, Any]:
    """The comparison as the page drew it from every node-log row of the agent, grouped by thread."""
    by_thread: dict[str, list[dict[str, Any]]] = {}
    for row in node_runs(store, agent="robot"):
        by_thread.setdefault(row["thread_id"], []).append(row)
    sides: list[Timeline] = [timeline_of(by_thread[thread]).of_run(run) for thread, run in picks.values()]
    labels = [f"{side}: {thread} · {run}" for side, (thread, run) in picks.items()]
    return json.loads(compare_figure_of(*sides, labels=labels).to_json())


def drawn(at) -> dict[str, Any]:
    """The comparison figure the page sent (the second chart, after the thread's own)."""
    return json.loads(at.get("plotly_chart")[1].proto.spec)


def same_figure(page: dict[str, Any], expected: dict[str, Any]) -> None:
    assert page["data"] == expected["data"]
    for part in ("shapes", "annotations", "xaxis", "xaxis2", "yaxis"):
        assert page["layout"][part] == expected["layout"][part], part


@pytest.fixture
def two_threads(store, settings) -> tuple[str, str, str]:
    """hitl_demo with a paused run and its resume; ``other`` with a run and a parallel one."""
    runs.start_run(store, settings, "robot", {})
    runs.resume_thread(store, settings, "hitl_demo", "yes")
    runs.start_run(store, settings, "robot", {}, thread_id="other")
    insert_parallel_run(store, "other")
    first, second = dict.fromkeys(row["run_id"] for row in node_runs(store, thread_id="hitl_demo"))
    return first, second, "par-run"


def test_the_default_comparison_is_the_figure_drawn_from_the_agents_rows(app, store, two_threads):
    first, _, parallel = two_threads
    at = app(PAGE)
    assert not at.exception
    assert at.selectbox(key="timeline-compare-thread-A").options == ["other", "hitl_demo"]  # par-run: 2025
    # One run has a fan-out, so the two latest runs started afresh: both threads' robot runs, not a resume.
    other_start = next(
        run for run in dict.fromkeys(r["run_id"] for r in node_runs(store, thread_id="other")) if run != parallel
    )
    picks = {"A": ("hitl_demo", first), "B": ("other", other_start)}
    for side, (thread, run) in picks.items():
        assert at.selectbox(key=f"timeline-compare-thread-{side}").value == thread
        assert at.selectbox(key=f"timeline-compare-run-{side}").value == run

    same_figure(drawn(at), figure_from_the_agents_rows(store, picks))


def compared_figures(at) -> dict[str, dict[str, str]]:
    """The comparison's table of figures (its last table): figure → {side: value}."""
    rows = at.dataframe[-1].value.to_dict("records")
    return {row["figure"]: {side: row[side] for side in ("A", "B")} for row in rows}


def test_the_comparison_opens_on_the_two_latest_runs_with_a_fan_out(app, store, settings):
    insert_parallel_run(store, "lecture-1", run_id="par-1")
    insert_parallel_run(store, "lecture-2", run_id="par-2")
    runs.start_run(store, settings, "robot", {})  # hitl_demo: newer, two calls, no fan-out
    runs.resume_thread(store, settings, "hitl_demo", "yes")
    at = app(PAGE)
    assert not at.exception
    picked = [
        (
            at.selectbox(key=f"timeline-compare-thread-{side}").value,
            at.selectbox(key=f"timeline-compare-run-{side}").value,
        )
        for side in ("A", "B")
    ]
    assert picked == [("lecture-1", "par-1"), ("lecture-2", "par-2")]
    # The thread shown above is still the newest one, at its latest run (the resume).
    assert at.selectbox(key="timeline-thread").value == "hitl_demo"
    figures = compared_figures(at)
    assert figures["efficiency of parallel supersteps"] == {"A": "1.0", "B": "1.0"}
    assert figures["thread"] == {"A": "lecture-1", "B": "lecture-2"}


def test_a_run_of_another_thread_is_the_figure_drawn_from_the_agents_rows(app, store, two_threads):
    first, second, parallel = two_threads
    at = app(PAGE)
    at.selectbox(key="timeline-thread").set_value("hitl_demo").run()
    at.selectbox(key="timeline-compare-thread-A").set_value("hitl_demo").run()
    at.selectbox(key="timeline-compare-run-A").set_value(second).run()
    at.selectbox(key="timeline-compare-thread-B").set_value("other").run()
    at.selectbox(key="timeline-compare-run-B").set_value(parallel).run()
    assert not at.exception

    same_figure(drawn(at), figure_from_the_agents_rows(store, {"A": ("hitl_demo", second), "B": ("other", parallel)}))
    run_b = at.selectbox(key="timeline-compare-run-B")
    assert run_b.format_func(parallel).endswith(" · 4 calls")


def test_the_comparison_reads_the_runs_it_draws_not_every_row_of_the_agent(app, store, two_threads, monkeypatch):
    _, _, parallel = two_threads
    reads: list[dict[str, Any]] = []
    real_node_runs = agents.nodelog.node_runs

    def recorded(store, **where):
        reads.append(where)
        return real_node_runs(store, **where)

    monkeypatch.setattr(agents.nodelog, "node_runs", recorded)
    at = app(PAGE)
    at.selectbox(key="timeline-thread").set_value("hitl_demo").run()
    reads.clear()
    at.selectbox(key="timeline-compare-thread-B").set_value("other").run()
    at.selectbox(key="timeline-compare-run-B").set_value(parallel).run()
    assert not at.exception

    assert all("agent" not in where for where in reads)
    # The run shown above, and run B of the other thread, each on its own: no thread's every row.
    assert {"thread_id": "other", "run_id": parallel} in reads
    assert {tuple(sorted(where)) for where in reads} == {("run_id", "thread_id")}


def insert_single_runs(store, count: int) -> None:
    """``count`` one-call runs, one per thread ``t-0``…, a minute apart, before the parallel run."""
    with store.transaction() as cursor:
        for index in range(count):
            start = PARALLEL_RUN_T0 - 3600 * 24 + 60.0 * index
            cursor.execute(
                "INSERT INTO node_log (agent, thread_id, run_id, node, task_id, step, label, started_at,"
                " ended_at, status) VALUES ('robot', ?, ?, 'propose', ?, 1, '', ?, ?, 'ok')",
                (f"t-{index}", f"r-{index}", f"task-{index}", start, start + 1.0),
            )


def test_the_latest_runs_are_listed_and_more_are_one_click_away(app, store, settings):
    runs.start_run(store, settings, "robot", {})  # hitl_demo, the thread shown above
    insert_single_runs(store, 60)
    at = app(PAGE)
    assert not at.exception
    threads = at.selectbox(key="timeline-compare-thread-B").options
    # The latest 50 runs: hitl_demo's and the 49 latest single runs, oldest first.
    assert threads == [f"t-{index}" for index in range(11, 60)] + ["hitl_demo"]
    assert "latest 50 runs" in " ".join(caption.value for caption in at.caption)

    at.button(key="timeline-compare-more-robot").click().run()

    assert not at.exception
    threads = at.selectbox(key="timeline-compare-thread-B").options
    assert threads == [f"t-{index}" for index in range(60)] + ["hitl_demo"]
    assert "timeline-compare-more-robot" not in [button.key for button in at.button]  # every run is listed


def test_korean_show_more_button(app, store, settings):
    runs.start_run(store, settings, "robot", {})
    insert_single_runs(store, 50)
    at = app(PAGE)
    at.selectbox(key="lang").select("ko").run()
    assert at.button(key="timeline-compare-more-robot").label == "실행 50개 더 보기"


def test_a_long_run_compared_is_read_only_as_far_as_it_is_drawn(app, store, settings, monkeypatch):
    runs.start_run(store, settings, "robot", {})  # hitl_demo, the thread shown above
    calls = MAX_DRAWN_CALLS + 150
    insert_long_run(store, calls, thread_id="long-thread")
    reads: list[dict[str, Any]] = []
    real_node_runs = agents.nodelog.node_runs

    def recorded(store, **where):
        reads.append(where)
        return real_node_runs(store, **where)

    monkeypatch.setattr(agents.nodelog, "node_runs", recorded)
    at = app(PAGE)
    assert not at.exception
    assert at.selectbox(key="timeline-compare-run-B").value == "long"  # the two latest fresh starts

    assert {"thread_id": "long-thread", "run_id": "long"} not in reads  # its latest rows only, in SQL
    figure = drawn(at)
    assert sum(len(trace["y"]) for trace in figure["data"] if trace["xaxis"] == "x2") == MAX_DRAWN_CALLS
    assert figure["layout"]["xaxis2"]["ticktext"][0] != "0 s"  # its ticks count from the run's start
    figures = compared_figures(at)
    assert (figures["run"]["B"], figures["tasks"]["B"]) == ("long", str(calls))  # the summary counts every call

    at.checkbox(key="timeline-compare-draw-all").check().run()

    figure = drawn(at)
    assert sum(len(trace["y"]) for trace in figure["data"] if trace["xaxis"] == "x2") == calls
