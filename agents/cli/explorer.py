"""Checkpoint explorer commands: ``graph`` (the parent-chained checkpoints) and ``rerun``.

``graph`` prints exactly the chain the dashboard's figure is drawn from
(:func:`agents.chain_layout.chain_to_json`), so what a script reads and what a
person sees never disagree. ``rerun`` re-runs a thread from an older
checkpoint; LangGraph stores the re-run as a new branch, the history stays.
Forking with edited state is ``update THREAD --checkpoint ID --values JSON``
(a core command).
"""

from __future__ import annotations

import argparse
from typing import Any

from agents import lifecycle, readmodel, runs
from agents.chain_layout import chain_to_json
from agents.cli.base import Context, thread_command
from agents.cli.core import print_json, print_result
from agents.errors import ThreadNotFoundError

_COLUMNS = ("step", "lane", "source", "checkpoint_id", "parent_checkpoint_id", "writers", "next", "flags")


def graph_rows(store: Any, thread_id: str) -> list[dict[str, Any]]:
    """The laid-out chain of a thread (``graph --json``), parents before children.

    Raises:
        ThreadNotFoundError: The thread has no checkpoints.
    """
    chain = readmodel.checkpoint_chain(store, lifecycle.thread_named(store, thread_id, exact=True))
    if not chain:
        raise ThreadNotFoundError(thread_id)
    return chain_to_json(chain)


def _flags(row: dict[str, Any]) -> str:
    flags = (["head"] if row["is_head"] else []) + (["waiting"] if row["is_waiting"] else [])
    return ",".join(flags) or "-"


def format_graph_table(rows: list[dict[str, Any]]) -> str:
    """A readable, aligned table of the chain (full ids, so they can be pasted into ``--checkpoint``)."""
    cells = [
        [
            str(row["step"]),
            str(row["lane"]),
            row["source"],
            row["checkpoint_id"],
            row["parent_checkpoint_id"] or "-",
            ",".join(row["writers"]) or "-",
            ",".join(row["next"]) or "-",
            _flags(row),
        ]
        for row in rows
    ]
    widths = [max(len(name), *(len(line[i]) for line in cells)) for i, name in enumerate(_COLUMNS)]
    lines = ["  ".join(name.ljust(width) for name, width in zip(_COLUMNS, widths, strict=True)).rstrip()]
    lines += ["  ".join(c.ljust(width) for c, width in zip(line, widths, strict=True)).rstrip() for line in cells]
    lanes = 1 + max(row["lane"] for row in rows)
    lines.append(f"{len(rows)} checkpoints, {lanes} lane{'s' if lanes != 1 else ''}")
    return "\n".join(lines)


def cmd_graph(args: argparse.Namespace, context: Context) -> int:
    rows = graph_rows(context.store, args.thread)
    if args.json:
        print_json(rows)
    else:
        print(format_graph_table(rows))
    return 0


def cmd_rerun(args: argparse.Namespace, context: Context) -> int:
    result = runs.continue_thread(context.store, context.settings, args.thread, checkpoint_id=args.checkpoint)
    print_result(result, args.json, context.settings.lang)
    return 0


def add_commands(subparsers: Any) -> None:
    """Adds ``graph`` and ``rerun``."""
    thread_command(
        subparsers,
        "graph",
        "print a thread's parent-chained checkpoint graph",
        cmd_graph,
        json_help="the chain as JSON (what the explorer's figure draws)",
    )
    p = thread_command(subparsers, "rerun", "re-run a thread from an older checkpoint (a new branch)", cmd_rerun)
    p.add_argument("--checkpoint", required=True, help="full checkpoint id (see `graph THREAD`)")
