"""The ``timeline`` command: a thread's node calls and their parallelism statistics."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import Any

from agents import lifecycle, readmodel
from agents.cli.core import print_json
from agents.durations import format_duration, iso_utc
from agents.errors import InputError
from agents.nodelog import node_runs
from agents.strings import STRINGS
from agents.texts import text
from agents.timing import RunSummary, SuperstepStats, timeline_csv, timeline_json, timeline_of


def timeline_rows(store: Any, thread_id: str, run_id: str | None = None) -> list[dict[str, Any]]:
    """A thread's node-log rows, optionally of one run.

    Raises:
        InputError: The thread has neither checkpoints nor node-log rows, or
            the run is not one of the thread's runs (the message lists them).
    """
    rows = node_runs(store, thread_id=thread_id)
    if not rows and readmodel.head_checkpoint_id(store, thread_id) is None:
        raise InputError("thread_id", text(STRINGS, "error.no_thread_named", thread=repr(thread_id)))
    if run_id is None:
        return rows
    selected = [row for row in rows if row["run_id"] == run_id]
    if not selected:
        known = ", ".join(dict.fromkeys(row["run_id"] for row in rows)) or "none"
        raise InputError("run", f"thread {thread_id!r} has no run {run_id!r}; its runs: {known}")
    return selected


def _table(headers: Sequence[str], lines: Sequence[Sequence[str]]) -> list[str]:
    """Plain text columns, left-aligned, two spaces apart."""
    widths = [max(len(str(cell)) for cell in column) for column in zip(headers, *lines, strict=True)]
    return [
        "  ".join(str(cell).ljust(width) for cell, width in zip(line, widths, strict=True)).rstrip()
        for line in (headers, *lines)
    ]


def _duration(seconds: float) -> str:
    """Sub-second durations keep two decimals of milliseconds (cheap nodes are fast)."""
    return f"{seconds * 1000:.2f} ms" if seconds < 1 else format_duration(seconds)


def _ratio(value: float) -> str:
    return f"{value:.2f}"


def timeline_text(rows: Sequence[dict[str, Any]]) -> str:
    """The human-readable report: node calls, supersteps, and one summary per run."""
    timeline = timeline_of(rows)  # resolved once for the three tables
    calls = timeline.calls
    if not calls:
        return "no node calls logged for this thread"
    call_lines = [
        (
            iso_utc(c.started_at)[11:26],
            c.run_id,
            str(c.step),
            c.node,
            c.label or "-",
            _duration(c.duration) + (" (no end logged)" if c.open else ""),
            c.status,
            c.error.replace("\n", " ")[:80] or "-",
        )
        for c in calls
    ]
    steps: Sequence[SuperstepStats] = timeline.supersteps
    step_lines = [
        (
            s.run_id,
            str(s.step),
            str(s.tasks),
            _duration(s.wall_seconds),
            _duration(s.summed_seconds),
            _ratio(s.speedup),
            _ratio(s.efficiency),
            ", ".join(s.nodes),
        )
        for s in steps
    ]
    summaries: Sequence[RunSummary] = timeline.runs
    run_lines = [
        (
            r.run_id,
            iso_utc(r.started_at)[:19].replace("T", " ") + "Z",
            str(r.supersteps),
            str(r.tasks),
            _duration(r.wall_seconds),
            _duration(r.summed_seconds),
            _ratio(r.speedup),
            _ratio(r.efficiency),
            str(r.errors),
            str(r.interrupted),
            str(r.open_tasks),
        )
        for r in summaries
    ]
    out = [f"node calls ({len(calls)}; start times UTC)"]
    out += _table(("start", "run", "step", "node", "label", "duration", "status", "error"), call_lines)
    out += ["", "supersteps"]
    out += _table(("run", "step", "tasks", "wall", "summed", "speed-up", "efficiency", "nodes"), step_lines)
    out += ["", "runs"]
    out += _table(
        (
            "run",
            "started",
            "supersteps",
            "tasks",
            "wall",
            "summed",
            "speed-up",
            "efficiency",
            "errors",
            "interrupted",
            "open",
        ),
        run_lines,
    )
    return "\n".join(out)


def cmd_timeline(args: argparse.Namespace, context: Any) -> int:
    rows = timeline_rows(context.store, lifecycle.thread_named(context.store, args.thread, exact=True), args.run)
    if args.json:
        print_json(timeline_json(rows))
    elif args.csv:
        sys.stdout.write(timeline_csv(rows))
    else:
        print(timeline_text(rows))
    return 0


def add_commands(subparsers: Any) -> None:
    """Adds the ``timeline`` command."""
    p = subparsers.add_parser("timeline", help="a thread's node timeline with its parallelism statistics")
    p.add_argument("thread")
    p.add_argument("--run", help="only this run id (default: every run of the thread)")
    output = p.add_mutually_exclusive_group()
    output.add_argument("--json", action="store_true", help="rows, supersteps and runs as JSON")
    output.add_argument("--csv", action="store_true", help="START/END lines (subagent_log.csv columns first)")
    p.set_defaults(handler=cmd_timeline)
