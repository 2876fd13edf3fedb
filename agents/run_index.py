"""The node log's runs, one row per run, summed up by the database.

A view that lists the runs of an agent (the Timeline page's "compare two
runs" pickers) needs each run's thread, first start and number of calls, not
its calls: :func:`latest_runs` asks the database for those per-run aggregates
(per superstep, then per run: ``GROUP BY thread_id, run_id``), the latest
``limit`` runs only, so listing the runs of an agent with a thousand of them
fetches ``limit`` rows instead of every node-log row of the agent;
:func:`thread_runs` lists one thread's runs the same way (the run picker of
the thread shown). The SQL is standard (aggregates over a grouped subquery,
``ORDER BY`` an aggregate, ``LIMIT``), the same on SQLite and PostgreSQL. A
run's calls are then read on their own with
``agents.nodelog.node_runs(thread_id=..., run_id=...)``.

:func:`comparable_pair` is the rule for which two runs a comparison opens on.
A chart of a long run draws only its latest calls: :func:`run_tail` reads just
those rows, and :func:`run_summary` sums the whole run up in SQL, equal to
``agents.timing.run_summaries_of_calls`` of all its rows, without reading them.

``python benchmarks/bench_comparison.py`` measures the comparison read this way against reading every
node-log row of the agent, for an agent with 1,000 runs.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from agents import nodelog_queue
from agents.db import Store
from agents.schema import NODE_LOG_COLUMNS
from agents.timing import RunSummary, parallel_ratios


@dataclass(frozen=True)
class RunEntry:
    """One run of the node log, as a picker lists it.

    Attributes:
        thread_id: The run's thread.
        run_id: The run (one invoke/stream call).
        started_at: Its first call's start, Unix epoch seconds
            (``agents.timing.RunSummary.started_at``).
        calls: Its number of node calls (``agents.timing.RunSummary.tasks``).
        parallel: It has a superstep of more than one call (a fan-out;
            ``agents.timing.RunSummary.parallel_supersteps`` > 0).
        first_step: Its lowest superstep number: a run started afresh begins
            at the graph's first step, a resume where the thread paused.
    """

    thread_id: str
    run_id: str
    started_at: float
    calls: int
    parallel: bool = False
    first_step: int = 0


@dataclass(frozen=True)
class RunList:
    """The latest runs of an agent, oldest first.

    Attributes:
        runs: At most the ``limit`` asked for, ordered by first start (ties
            by lowest row id), as ``agents.timing.run_summaries_of_calls`` orders runs.
        more: True when the agent has older runs than those listed.
    """

    runs: tuple[RunEntry, ...]
    more: bool


#: Per superstep (its first start, calls and first row), then per run; ``{where}`` picks the rows.
_RUNS_SQL = (
    "SELECT thread_id, run_id, MIN(first_start), SUM(calls), MAX(calls), MIN(step) FROM"
    " (SELECT thread_id, run_id, step, MIN(started_at) AS first_start, COUNT(*) AS calls, MIN(id) AS first_id"
    " FROM node_log WHERE {where} GROUP BY thread_id, run_id, step) AS steps"
    " GROUP BY thread_id, run_id ORDER BY MIN(first_start) DESC, MIN(first_id) DESC LIMIT ?"
)


def _entries(store: Store, where: str, params: tuple[Any, ...]) -> list[RunEntry]:
    """The runs of the rows ``where`` picks, newest first (at most the ``LIMIT`` ending ``params``)."""
    nodelog_queue.flush(store)  # this process's queued calls too
    with store.read() as cursor:
        cursor.execute(_RUNS_SQL.format(where=where), params)
        rows = cursor.fetchall()
    return [
        RunEntry(str(thread), str(run), float(start), int(calls), int(widest) > 1, int(step or 0))
        for thread, run, start, calls, widest, step in rows
    ]


def latest_runs(store: Store, agent: str, *, limit: int) -> RunList:
    """The agent's ``limit`` latest runs (by first start), summed up in SQL, oldest first.

    ``more`` says whether older ones were left out. At most ``limit + 1`` rows are fetched,
    whatever the size of the log.

    Raises:
        ValueError: ``limit`` is below 1.
    """
    if limit < 1:
        raise ValueError(f"limit must be >= 1, got {limit!r}")
    # One more row than asked says whether older runs exist without counting them all.
    entries = _entries(store, "agent = ?", (agent, limit + 1))
    return RunList(runs=tuple(reversed(entries[:limit])), more=len(entries) > limit)


def thread_runs(store: Store, thread_id: str, *, limit: int = 100_000) -> tuple[RunEntry, ...]:
    """The thread's runs (at most ``limit``, the latest), oldest first, summed up in SQL.

    The same runs, in the same order, as ``agents.timing.run_summaries_of_calls`` of
    the thread's rows, without reading the rows.
    """
    return tuple(reversed(_entries(store, "thread_id = ?", (thread_id, limit))))


#: The newest superstep of more than one call, and its run: what the Timeline opens on.
_NEWEST_PARALLEL_SQL = (
    "SELECT agent, thread_id, run_id FROM node_log GROUP BY agent, thread_id, run_id, step"
    " HAVING COUNT(*) > 1 ORDER BY MIN(started_at) DESC, MIN(id) DESC LIMIT 1"
)


def newest_parallel_run(store: Store) -> tuple[str, str, str] | None:
    """``(agent, thread_id, run_id)`` of the run with the newest parallel superstep, or None when none has one.

    A run's latest calls are often a resume of two nodes one after the other, whose chart says nothing
    about parallelism; the newest fan-out is what an analyst opens the Timeline for.
    """
    with store.read() as cursor:
        cursor.execute(_NEWEST_PARALLEL_SQL)
        row = cursor.fetchone()
    return (str(row[0]), str(row[1]), str(row[2])) if row else None


def opening_run(runs: Sequence[RunEntry]) -> RunEntry | None:
    """A thread's opening run among ``runs`` (oldest first): the newest with parallel work, else the newest."""
    parallel = [entry for entry in runs if entry.parallel]
    return parallel[-1] if parallel else (runs[-1] if runs else None)


def comparable_pair(runs: Sequence[RunEntry]) -> tuple[RunEntry, RunEntry] | None:
    """The two runs a comparison opens on, from ``runs`` (oldest first); None when there are none.

    The rule: the two latest runs with parallel work (a fan-out), which is
    what a comparison of parallelism is for; failing two of those, the two
    latest runs started afresh (at the lowest first step among ``runs``), so a
    resume of two calls is not set against a whole run; failing those, the two
    latest runs. The older of the two comes first; a single run is paired with
    itself.
    """
    if not runs:
        return None
    lowest = min(entry.first_step for entry in runs)
    for kind in ([e for e in runs if e.parallel], [e for e in runs if e.first_step == lowest], list(runs)):
        if len(kind) >= 2:
            return kind[-2], kind[-1]
    return runs[-1], runs[-1]


def run_tail(store: Store, thread_id: str, run_id: str, limit: int) -> tuple[list[dict[str, Any]], dict[str, float]]:
    """The run's latest ``limit`` node-log rows (oldest first, as ``node_runs``) and its latest moment logged.

    The second part is ``agents.timing.timeline_of``'s ``latest``: an open call
    among the rows ends where it would among all the run's rows.
    """
    nodelog_queue.flush(store)  # this process's queued calls too
    where = "WHERE thread_id = ? AND run_id = ?"
    with store.read() as cursor:
        cursor.execute(
            f"SELECT {', '.join(NODE_LOG_COLUMNS)} FROM node_log {where} ORDER BY started_at DESC, id DESC LIMIT ?",
            (thread_id, run_id, limit),
        )
        rows = [dict(zip(NODE_LOG_COLUMNS, row, strict=True)) for row in reversed(cursor.fetchall())]
        cursor.execute(f"SELECT MAX(started_at), MAX(ended_at) FROM node_log {where}", (thread_id, run_id))
        started, ended = cursor.fetchone()
    latest = {} if started is None else {run_id: max(float(started), float(ended if ended is not None else started))}
    return rows, latest


#: Per superstep, each call ending at its logged end (never before its start) or, open, at the run's latest moment.
_STEPS_SQL = (
    "SELECT step, COUNT(*) AS calls, MIN(started_at) AS first_start, MAX(call_end) AS last_end,"
    " SUM(call_end - started_at) AS summed, SUM(CASE WHEN status = 'error' THEN 1 ELSE 0 END) AS errors,"
    " SUM(CASE WHEN status = 'interrupted' THEN 1 ELSE 0 END) AS interrupted,"
    " SUM(CASE WHEN ended_at IS NULL THEN 1 ELSE 0 END) AS open_calls, MIN(agent) AS agent FROM"
    " (SELECT step, started_at, ended_at, status, agent, CASE WHEN ended_at IS NULL THEN ?"
    " WHEN ended_at < started_at THEN started_at ELSE ended_at END AS call_end"
    " FROM node_log WHERE thread_id = ? AND run_id = ?) AS calls GROUP BY step"
)
_RUN_SQL = (
    "SELECT COUNT(*), SUM(calls), MIN(first_start), SUM(summed), SUM(errors), SUM(interrupted), SUM(open_calls),"
    " MIN(agent), SUM(CASE WHEN calls > 1 THEN 1 ELSE 0 END), SUM(CASE WHEN calls > 1 THEN summed ELSE 0 END),"
    " SUM(CASE WHEN calls > 1 THEN calls * (last_end - first_start) ELSE 0 END),"
    " SUM(CASE WHEN calls > 1 THEN 1.0 / calls ELSE 0 END) FROM (" + _STEPS_SQL + ") AS steps"
)


def run_summary(store: Store, thread_id: str, run_id: str, latest: float) -> RunSummary | None:
    """The run's ``agents.timing.RunSummary``, summed up in SQL (per superstep, then per run).

    Equal to ``agents.timing.run_summaries_of_calls`` of the run's rows up to float rounding; None when the
    run has no rows. Open calls end at ``latest``, the run's latest moment logged (``run_tail``).
    """
    nodelog_queue.flush(store)  # this process's queued calls too
    with store.read() as cursor:
        cursor.execute(_RUN_SQL, (latest, thread_id, run_id))
        steps, calls, started, summed, errors, interrupted, open_calls, agent, wide, wide_summed, capacity, instant = (
            cursor.fetchone()
        )
    if not calls:
        return None
    speedup, efficiency = parallel_ratios(latest - float(started), float(summed), int(calls))
    # As agents.timing.parallel_efficiency: weighted by tasks x wall, or (no wall time) the mean of 1 / tasks.
    parallel = None if not wide else float(wide_summed) / capacity if capacity else float(instant) / int(wide)
    return RunSummary(
        run_id=run_id,
        agent=str(agent),
        thread_id=thread_id,
        started_at=float(started),
        ended_at=latest,
        supersteps=int(steps),
        tasks=int(calls),
        wall_seconds=latest - float(started),
        summed_seconds=float(summed),
        speedup=speedup,
        efficiency=efficiency,
        errors=int(errors),
        interrupted=int(interrupted),
        open_tasks=int(open_calls),
        parallel_supersteps=int(wide),
        parallel_efficiency=parallel,
    )
