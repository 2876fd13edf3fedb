"""The node log's runs, one row per run, summed up by the database.

A view that lists the runs of an agent (the Timeline page's "compare two
runs" pickers) needs each run's thread, first start and number of calls, not
its calls: :func:`latest_runs` asks the database for those per-run aggregates
(``GROUP BY thread_id, run_id``), the latest ``limit`` runs only, so listing
the runs of an agent with a thousand of them fetches ``limit`` rows instead of
every node-log row of the agent. The SQL is standard (aggregates, ``ORDER BY``
an aggregate, ``LIMIT``), the same on SQLite and PostgreSQL. A run's calls are
then read on their own with ``agents.nodelog.node_runs(thread_id=..., run_id=...)``.
"""

from __future__ import annotations

from dataclasses import dataclass

from agents.db import Store


@dataclass(frozen=True)
class RunEntry:
    """One run of the node log, as a picker lists it.

    Attributes:
        thread_id: The run's thread.
        run_id: The run (one invoke/stream call).
        started_at: Its first call's start, Unix epoch seconds
            (``agents.timing.RunSummary.started_at``).
        calls: Its number of node calls (``agents.timing.RunSummary.tasks``).
    """

    thread_id: str
    run_id: str
    started_at: float
    calls: int


@dataclass(frozen=True)
class RunList:
    """The latest runs of an agent, oldest first.

    Attributes:
        runs: At most the ``limit`` asked for, ordered by first start (ties
            by lowest row id), as ``agents.timing.run_summaries`` orders runs.
        more: True when the agent has older runs than those listed.
    """

    runs: tuple[RunEntry, ...]
    more: bool


def latest_runs(store: Store, agent: str, *, limit: int) -> RunList:
    """The agent's ``limit`` latest runs (by first start), summed up in SQL.

    Args:
        store: The project store.
        agent: Agent name.
        limit: How many runs to list, at least 1.

    Returns:
        The runs, oldest first; ``more`` says whether older ones were left out.
        At most ``limit + 1`` rows are fetched, whatever the size of the log.

    Raises:
        ValueError: ``limit`` is below 1.
    """
    if limit < 1:
        raise ValueError(f"limit must be >= 1, got {limit!r}")
    with store.read() as cursor:
        # One more row than asked says whether older runs exist without counting them all.
        cursor.execute(
            "SELECT thread_id, run_id, MIN(started_at), COUNT(*) FROM node_log WHERE agent = ?"
            " GROUP BY thread_id, run_id ORDER BY MIN(started_at) DESC, MIN(id) DESC LIMIT ?",
            (agent, limit + 1),
        )
        rows = cursor.fetchall()
    entries = [RunEntry(str(thread), str(run), float(start), int(calls)) for thread, run, start, calls in rows]
    return RunList(runs=tuple(reversed(entries[:limit])), more=len(entries) > limit)
