"""agents.run_index: the latest runs of an agent, summed up in SQL, on both backends."""

from __future__ import annotations

import dataclasses
from contextlib import contextmanager
from typing import Any

import pytest

from agents.nodelog import node_runs
from agents.run_index import RunEntry, latest_runs, newest_parallel_run, run_summary, run_tail
from agents.timing import RunSummary, node_calls, run_summaries_of_calls, timeline_of

pytestmark = pytest.mark.usefixtures("backend")

T0 = 1_750_000_000.0


def insert_calls(store, calls: list[tuple[str, str, str, float, float | None]]) -> None:
    """Node-log rows ``(agent, thread, run, start offset, end offset or None)``, in the order given."""
    with store.transaction() as cursor:
        for index, (agent, thread_id, run_id, start, end) in enumerate(calls):
            cursor.execute(
                "INSERT INTO node_log (agent, thread_id, run_id, node, task_id, step, label, started_at,"
                " ended_at, status) VALUES (?, ?, ?, 'work', ?, 1, '', ?, ?, ?)",
                (
                    agent,
                    thread_id,
                    run_id,
                    f"task-{index}",
                    T0 + start,
                    None if end is None else T0 + end,
                    "running" if end is None else "ok",
                ),
            )


def many_runs(runs: int, calls_per_run: int = 3, agent: str = "robot") -> list[tuple[str, str, str, float, float]]:
    """``runs`` runs spread over ten threads, ``calls_per_run`` calls each, one run per 10 s."""
    return [
        (agent, f"thread-{index % 10}", f"run-{index}", index * 10.0 + call, index * 10.0 + call + 0.5)
        for index in range(runs)
        for call in range(calls_per_run)
    ]


def test_the_runs_listed_are_the_run_summaries_of_the_agents_rows(store):
    insert_calls(
        store,
        [
            ("robot", "a", "a-1", 0.0, 1.0),
            ("robot", "b", "b-1", 0.5, 2.0),
            ("robot", "a", "a-1", 0.2, None),  # still running: counted, its start the one that counts
            ("robot", "a", "a-2", 30.0, 31.0),
            ("refund", "r", "r-1", 10.0, 11.0),  # another agent's run is not listed
        ],
    )

    listed = latest_runs(store, "robot", limit=10)

    expected = [
        RunEntry(
            summary.thread_id, summary.run_id, summary.started_at, summary.tasks, summary.parallel_supersteps > 0, 1
        )
        for summary in run_summaries_of_calls(node_calls(node_runs(store, agent="robot")))
    ]
    assert list(listed.runs) == expected
    assert [(entry.run_id, entry.calls) for entry in listed.runs] == [("a-1", 2), ("b-1", 1), ("a-2", 1)]
    assert listed.more is False


def test_only_the_latest_runs_are_listed_oldest_first_and_more_says_older_ones_exist(store):
    insert_calls(store, many_runs(12))

    listed = latest_runs(store, "robot", limit=5)

    assert [entry.run_id for entry in listed.runs] == [f"run-{index}" for index in range(7, 12)]
    assert listed.more is True
    assert latest_runs(store, "robot", limit=12).more is False


def test_runs_starting_together_are_ordered_by_their_first_row(store):
    insert_calls(store, [("robot", "t", "first", 0.0, 1.0), ("robot", "t", "second", 0.0, 1.0)])

    assert [entry.run_id for entry in latest_runs(store, "robot", limit=5).runs] == ["first", "second"]


def test_an_agent_without_runs_lists_none(store):
    assert latest_runs(store, "robot", limit=5) == latest_runs(store, "lecture", limit=1)
    assert latest_runs(store, "robot", limit=5).runs == ()


def test_a_limit_below_one_is_refused(store):
    with pytest.raises(ValueError, match="limit"):
        latest_runs(store, "robot", limit=0)


class CountingCursor:
    """A cursor that counts the rows the database hands over."""

    def __init__(self, cursor: Any, fetched: list[int]) -> None:
        self._cursor, self._fetched = cursor, fetched

    def execute(self, *args: Any) -> Any:
        return self._cursor.execute(*args)

    def fetchall(self) -> list[Any]:
        rows = list(self._cursor.fetchall())
        self._fetched.append(len(rows))
        return rows


def test_listing_the_latest_runs_of_a_large_log_fetches_a_bounded_number_of_rows(store, monkeypatch):
    insert_calls(store, many_runs(1_000, calls_per_run=3))
    fetched: list[int] = []
    read = store.read

    @contextmanager
    def counting_read():
        with read() as cursor:
            yield CountingCursor(cursor, fetched)

    monkeypatch.setattr(store, "read", counting_read)

    listed = latest_runs(store, "robot", limit=50)

    assert len(listed.runs) == 50 and listed.more
    assert fetched == [51]  # the 50 runs and one to tell that more exist, not the 3,000 rows


def insert_rows(store, rows: list[tuple[str, int, str, float, float | None, str]]) -> None:
    """Rows ``(node, step, label, start offset, end offset or None, status)`` of run ``r`` of thread ``t``."""
    with store.transaction() as cursor:
        for index, (node, step, label, start, end, status) in enumerate(rows):
            cursor.execute(
                "INSERT INTO node_log (agent, thread_id, run_id, node, task_id, step, label, started_at,"
                " ended_at, status) VALUES ('lecture', 't', 'r', ?, ?, ?, ?, ?, ?, ?)",
                (node, f"task-{index}", step, label, T0 + start, None if end is None else T0 + end, status),
            )


MIXED_RUN = [
    ("plan", 1, "", 0.0, 1.0, "ok"),
    ("research", 2, "a", 1.0, 3.0, "ok"),
    ("research", 2, "b", 1.0, 2.5, "error"),
    ("research", 2, "c", 1.2, None, "running"),  # open: ends at the run's latest moment
    ("write", 3, "", 3.0, 2.9, "ok"),  # an end logged before its start counts as its start
    ("gate", 4, "", 4.0, 4.0, "interrupted"),
    ("pair", 5, "x", 5.0, 5.0, "ok"),  # two instantaneous calls: a parallel step of no wall time
    ("pair", 5, "y", 5.0, 5.0, "ok"),
]


def test_a_runs_summary_in_sql_equals_the_summary_of_its_rows(store):
    insert_rows(store, MIXED_RUN)
    _, latest = run_tail(store, "t", "r", limit=2)

    summary = run_summary(store, "t", "r", latest["r"])

    [expected] = run_summaries_of_calls(node_calls(node_runs(store, thread_id="t")))
    assert summary is not None
    for field in dataclasses.fields(RunSummary):
        value, wanted = getattr(summary, field.name), getattr(expected, field.name)
        assert value == (pytest.approx(wanted) if isinstance(wanted, float) else wanted), field.name
    assert run_summary(store, "t", "missing", latest["r"]) is None


def test_the_tail_of_a_run_is_its_latest_rows_resolved_as_among_all_its_rows(store):
    insert_rows(store, MIXED_RUN)

    rows, latest = run_tail(store, "t", "r", limit=5)

    every = timeline_of(node_runs(store, thread_id="t"))
    assert [row["node"] for row in rows] == ["research", "write", "gate", "pair", "pair"]
    assert list(timeline_of(rows, latest).calls) == list(every.calls[-5:])
    assert latest == {"r": T0 + 5.0}
    assert run_tail(store, "t", "missing", limit=5) == ([], {})


def test_the_newest_parallel_run_is_found_in_sql(store):
    assert newest_parallel_run(store) is None
    insert_rows(store, MIXED_RUN)  # run r of thread t: its step 2 has three calls
    with store.transaction() as cursor:  # a later run with nothing in parallel
        cursor.execute(
            "INSERT INTO node_log (agent, thread_id, run_id, node, task_id, step, started_at, ended_at, status)"
            " VALUES ('robot', 'u', 'later', 'execute', 'x', 3, ?, ?, 'ok')",
            (T0 + 100.0, T0 + 101.0),
        )
    assert newest_parallel_run(store) == ("lecture", "t", "r")
