"""The ``timeline`` command: a thread's node calls and their parallelism statistics."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import Any

from agents import lifecycle, readmodel
from agents.cli.base import say, table_lines, word
from agents.cli.core import print_json
from agents.cli.strings import STRINGS as CLI_STRINGS
from agents.durations import iso_utc
from agents.errors import InputError
from agents.nodelog import node_runs
from agents.strings import STRINGS
from agents.texts import DEFAULT_LANGUAGE, text
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
        known = ", ".join(dict.fromkeys(row["run_id"] for row in rows))
        none = text(CLI_STRINGS, "cli.timeline.none")
        refusal = text(
            CLI_STRINGS, "cli.timeline.no_run", thread=repr(thread_id), run=repr(run_id), known=known or none
        )
        raise InputError("--run", refusal)
    return selected


def _duration(seconds: float, lang: str) -> str:
    """A duration in ``lang``: ``850.00 ms``, ``4.2 s``, ``12 min 3 s``, ``2 h 5 min`` (sub-second durations keep
    two decimals of milliseconds: cheap nodes are fast)."""
    if seconds < 1:
        return say("cli.duration.milliseconds", lang, value=f"{seconds * 1000:.2f}")
    if seconds < 59.95:  # anything that would print as "60.0 s" reads better as minutes
        return say("cli.duration.seconds", lang, value=f"{seconds:.1f}")
    whole = round(seconds)
    if whole < 3600:
        return say("cli.duration.minutes", lang, minutes=whole // 60, seconds=whole % 60)
    return say("cli.duration.hours", lang, hours=whole // 3600, minutes=whole % 3600 // 60)


def _ratio(value: float) -> str:
    return f"{value:.2f}"


def timeline_text(rows: Sequence[dict[str, Any]], lang: str = DEFAULT_LANGUAGE) -> str:
    """The human-readable report in ``lang``: node calls, supersteps, and one summary per run."""
    timeline = timeline_of(rows)  # resolved once for the three tables
    calls = timeline.calls
    if not calls:
        return say("cli.timeline.no_calls", lang)
    no_end = say("cli.timeline.open", lang)
    call_lines = [
        (
            iso_utc(c.started_at)[11:26],
            c.run_id,
            str(c.step),
            c.node,
            c.label or "-",
            _duration(c.duration, lang) + (no_end if c.open else ""),
            word("timeline.status", c.status, lang),
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
            _duration(s.wall_seconds, lang),
            _duration(s.summed_seconds, lang),
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
            _duration(r.wall_seconds, lang),
            _duration(r.summed_seconds, lang),
            _ratio(r.speedup),
            "-" if r.parallel_efficiency is None else _ratio(r.parallel_efficiency),
            str(r.errors),
            str(r.interrupted),
            str(r.open_tasks),
        )
        for r in summaries
    ]

    def columns(*names: str) -> list[str]:
        return [say(f"cli.timeline.col.{name}", lang) for name in names]

    out = [say("cli.timeline.calls", lang, count=len(calls))]
    out += table_lines(columns("start", "run", "step", "node", "label", "duration", "status", "error"), call_lines)
    out += ["", say("cli.timeline.supersteps", lang)]
    step_columns = columns("run", "step", "tasks", "wall", "summed", "speedup", "efficiency", "nodes")
    out += table_lines(step_columns, step_lines)
    out += ["", say("cli.timeline.runs", lang)]
    run_columns = columns(
        "run",
        "started",
        "supersteps",
        "tasks",
        "wall",
        "summed",
        "speedup",
        "parallel_efficiency",
        "errors",
        "interrupted",
        "open",
    )
    out += table_lines(run_columns, run_lines)
    return "\n".join(out)


def cmd_timeline(args: argparse.Namespace, context: Any) -> int:
    rows = timeline_rows(context.store, lifecycle.thread_named(context.store, args.thread, exact=True), args.run)
    if args.json:
        print_json(timeline_json(rows))
    elif args.csv:
        sys.stdout.write(timeline_csv(rows))
    else:
        print(timeline_text(rows, context.lang))
    return 0


def add_commands(subparsers: Any, lang: str) -> None:
    """Adds the ``timeline`` command, its help in ``lang``."""
    p = subparsers.add_parser("timeline", help=say("cli.help.timeline", lang))
    p.add_argument("thread", metavar="THREAD", help=say("cli.help.thread", lang))
    p.add_argument("--run", help=say("cli.help.timeline.run", lang))
    output = p.add_mutually_exclusive_group()
    output.add_argument("--json", action="store_true", help=say("cli.help.timeline.json", lang))
    output.add_argument("--csv", action="store_true", help=say("cli.help.timeline.csv", lang))
    p.set_defaults(handler=cmd_timeline)
