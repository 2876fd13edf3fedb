"""Checkpoint explorer commands: ``graph`` (the parent-chained checkpoints), ``diff`` and ``rerun``.

``graph`` prints exactly the chain the dashboard's figure is drawn from
(:func:`agents.chain_layout.chain_to_json`), so what a script reads and what a
person sees never disagree. ``diff`` prints what a checkpoint changed against another
(:func:`agents.diff.checkpoint_diff`, what the explorer and the agents' pages show). ``rerun``
re-runs a thread from an older checkpoint; LangGraph stores the re-run as a new branch, the history stays.
Forking with edited state is ``update THREAD --checkpoint ID --values JSON``
(a core command).
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from agents import diff, lifecycle, readmodel, runs
from agents.chain_layout import chain_to_json
from agents.cli.base import Context, thread_command
from agents.cli.core import print_json, print_result
from agents.errors import ThreadNotFoundError, short_id

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


def _value_text(value: Any) -> str:
    """A decoded value on one line: a text as it is, a message as ``type: content``, anything else as JSON."""
    plain = readmodel.to_jsonable(value)
    if isinstance(plain, str):
        return plain
    if isinstance(plain, dict) and set(plain) == {"type", "content"} and isinstance(plain["content"], str):
        return f"{plain['type']}: {plain['content']}"
    return json.dumps(plain, ensure_ascii=False)


def _side_text(side: diff.Side | None) -> str:
    if side is None:
        return "(empty state)"
    return f"{side.checkpoint_id} (step {side.step}, {side.source})"


def format_diff(found: diff.CheckpointDiff) -> str:
    """``diff``'s text: the two checkpoints, one line per change, then the writes on the way."""
    lines = [f"thread {found.thread_id}: {_side_text(found.before)} -> {_side_text(found.after)}"]
    relation = found.relation + (f", common ancestor {found.common_ancestor}" if found.relation == "branches" else "")
    lines.append(f"relation: {relation}")
    if not found.changes:
        lines.append("no changes")
    for change in found.changes:
        if change.kind == "appended":
            shown = " | ".join(_value_text(item) for item in change.after)
        elif change.kind == "added":
            shown = _value_text(change.after)
        elif change.kind == "removed":
            shown = _value_text(change.before)
        else:
            shown = f"{_value_text(change.before)} -> {_value_text(change.after)}"
        lines.append(f"  {change.summary():<12} {change.key}: {shown}")
    if found.writes_left_out:
        lines.append(f"writes of the {found.writes_left_out} older step(s) on the way are not listed")
    lines.append(f"writes ({len(found.writes)}), by the checkpoint they produced:" if found.writes else "writes: none")
    for write in found.writes:
        lines.append(
            f"  {short_id(write.produced)}  {write.node}  {write.channel} = {_value_text(write.value)}".rstrip()
        )
    return "\n".join(lines)


def cmd_diff(args: argparse.Namespace, context: Context) -> int:
    store = context.store
    thread_id = lifecycle.thread_named(store, args.thread, exact=True)
    found = diff.checkpoint_diff(store, thread_id, args.from_id, args.to_id)
    if args.json:
        print_json(found.to_json())
    else:
        print(format_diff(found))
    return 0


def cmd_rerun(args: argparse.Namespace, context: Context) -> int:
    result = runs.continue_thread(context.store, context.settings, args.thread, checkpoint_id=args.checkpoint)
    print_result(result, args.json, context.settings.lang)
    return 0


def add_commands(subparsers: Any) -> None:
    """Adds ``graph``, ``diff`` and ``rerun``."""
    thread_command(
        subparsers,
        "graph",
        "print a thread's parent-chained checkpoint graph",
        cmd_graph,
        json_help="the chain as JSON (what the explorer's figure draws)",
    )
    p = thread_command(
        subparsers,
        "diff",
        "what a checkpoint changed: keys added, changed and removed, appends, and the writes that made it",
        cmd_diff,
        json_help="the comparison as JSON (see the README)",
    )
    p.add_argument(
        "--from", dest="from_id", metavar="ID", help="the checkpoint to compare with (default: --to's parent)"
    )
    p.add_argument("--to", dest="to_id", metavar="ID", help="the checkpoint compared (default: the head)")
    p = thread_command(subparsers, "rerun", "re-run a thread from an older checkpoint (a new branch)", cmd_rerun)
    p.add_argument("--checkpoint", required=True, help="full checkpoint id (see `graph THREAD`)")
