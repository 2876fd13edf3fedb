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
from agents.cli.base import Context, display_width, say, say_count, table_lines, thread_command, word
from agents.cli.core import print_json, print_result
from agents.cli.strings import STRINGS
from agents.errors import ThreadNotFoundError, short_id
from agents.texts import DEFAULT_LANGUAGE

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


def _flags(row: dict[str, Any], lang: str) -> str:
    flags = (["head"] if row["is_head"] else []) + (["waiting"] if row["is_waiting"] else [])
    return ",".join(say(f"cli.graph.flag.{flag}", lang) for flag in flags) or "-"


def format_graph_table(rows: list[dict[str, Any]], lang: str = DEFAULT_LANGUAGE) -> str:
    """A readable, aligned table of the chain (full ids, so they can be pasted into ``--checkpoint``), in ``lang``."""
    cells = [
        [
            str(row["step"]),
            str(row["lane"]),
            row["source"],
            row["checkpoint_id"],
            row["parent_checkpoint_id"] or "-",
            ",".join(row["writers"]) or "-",
            ",".join(row["next"]) or "-",
            _flags(row, lang),
        ]
        for row in rows
    ]
    lines = table_lines([say(f"cli.graph.{name}", lang) for name in _COLUMNS], cells)
    lanes = 1 + max(row["lane"] for row in rows)
    checkpoints = say_count("cli.graph.checkpoints", len(rows), lang)
    lines.append(say("cli.graph.total", lang, checkpoints=checkpoints, lanes=say_count("cli.graph.lanes", lanes, lang)))
    return "\n".join(lines)


def cmd_graph(args: argparse.Namespace, context: Context) -> int:
    rows = graph_rows(context.store, args.thread)
    if args.json:
        print_json(rows)
    else:
        print(format_graph_table(rows, context.lang))
    return 0


def _value_text(value: Any) -> str:
    """A decoded value on one line: a text as it is, a message as ``type: content``, anything else as JSON."""
    plain = readmodel.to_jsonable(value)
    if isinstance(plain, str):
        return plain
    if isinstance(plain, dict) and set(plain) == {"type", "content"} and isinstance(plain["content"], str):
        return f"{plain['type']}: {plain['content']}"
    return json.dumps(plain, ensure_ascii=False)


def _side_text(side: diff.Side | None, lang: str) -> str:
    if side is None:
        return say("cli.diff.empty_state", lang)
    return say("cli.diff.side", lang, checkpoint=side.checkpoint_id, step=side.step, source=side.source)


def _change_summary(change: diff.Change, lang: str) -> str:
    """The change in a word or two: ``added``, ``changed``, ``removed``, ``+1 message``, ``+3 items``."""
    if change.kind != "appended":
        return word("diff.kind", change.kind, lang)
    return say_count("cli.diff.messages" if change.messages else "cli.diff.items", change.count, lang)


def format_diff(found: diff.CheckpointDiff, lang: str = DEFAULT_LANGUAGE) -> str:
    """``diff``'s text in ``lang``: the two checkpoints, one line per change, then the writes on the way."""
    before, after = _side_text(found.before, lang), _side_text(found.after, lang)
    lines = [say("cli.diff.between", lang, thread=found.thread_id, before=before, after=after)]
    relation_key = f"cli.diff.relation.{found.relation}"
    relation = say(relation_key, lang, ancestor=found.common_ancestor) if relation_key in STRINGS else found.relation
    lines.append(say("cli.diff.relation", lang, relation=relation))
    if not found.changes:
        lines.append(say("cli.diff.no_changes", lang))
    for change in found.changes:
        if change.kind == "appended":
            shown = " | ".join(_value_text(item) for item in change.after)
        elif change.kind == "added":
            shown = _value_text(change.after)
        elif change.kind == "removed":
            shown = _value_text(change.before)
        else:
            shown = f"{_value_text(change.before)} -> {_value_text(change.after)}"
        summary = _change_summary(change, lang)
        lines.append(f"  {summary}{' ' * (12 - display_width(summary))} {change.key}: {shown}")
    if found.writes_left_out:
        lines.append(say_count("cli.diff.left_out", found.writes_left_out, lang))
    if found.writes:
        lines.append(say("cli.diff.writes", lang, count=len(found.writes)))
    else:
        lines.append(say("cli.diff.no_writes", lang))
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
        print(format_diff(found, context.lang))
    return 0


def cmd_rerun(args: argparse.Namespace, context: Context) -> int:
    result = runs.continue_thread(context.store, context.settings, args.thread, checkpoint_id=args.checkpoint)
    print_result(result, args.json, context.lang)
    return 0


def add_commands(subparsers: Any, lang: str) -> None:
    """Adds ``graph``, ``diff`` and ``rerun``, their help in ``lang``."""
    graph_json = say("cli.help.graph.json", lang)
    thread_command(subparsers, "graph", say("cli.help.graph", lang), cmd_graph, lang, json_help=graph_json)
    diff_json = say("cli.help.diff.json", lang)
    p = thread_command(subparsers, "diff", say("cli.help.diff", lang), cmd_diff, lang, json_help=diff_json)
    p.add_argument("--from", dest="from_id", metavar="ID", help=say("cli.help.diff.from", lang))
    p.add_argument("--to", dest="to_id", metavar="ID", help=say("cli.help.diff.to", lang))
    rerun_json = say("cli.help.rerun.json", lang)
    p = thread_command(subparsers, "rerun", say("cli.help.rerun", lang), cmd_rerun, lang, json_help=rerun_json)
    p.add_argument("--checkpoint", required=True, help=say("cli.help.rerun.checkpoint", lang))
