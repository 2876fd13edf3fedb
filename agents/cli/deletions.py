"""``deletions``: the unfinished threads deleted, of every agent (or one), newest first.

A thread deleted while it waited or needed attention leaves a record (``agents.deletion_record``: the robot's
and the lecture's in the core table, the refund's in its deletion audit), and so does a refund case deleted
once a person decided it; this lists them all alike, when, which agent, the thread, its status then, who
deleted it and why (and how a decided case had ended), as the checkpoint explorer's *Deleted threads* does.
``--json`` keeps the codes and UTC times.
"""

from __future__ import annotations

import argparse
import datetime as dt
from typing import Any

from agents.cli.base import Context, say, word
from agents.cli.core import print_json
from agents.deletion_record import DeletedThread, deleted_by_words, deleted_threads
from agents.registry import AGENTS, get_agent
from agents.texts import render


def _when(gone: DeletedThread, context: Context) -> str:
    """When it was deleted, in ``HITL_TIMEZONE`` as ``threads`` writes times (a time that cannot be read as it is)."""
    try:
        at = dt.datetime.fromisoformat(gone.deleted_at)
    except ValueError:
        return gone.deleted_at
    at = at if at.tzinfo is not None else at.replace(tzinfo=dt.UTC)
    return f"{at.astimezone(context.settings.zone):%Y-%m-%d %H:%M:%S %Z}"


def deletion_line(gone: DeletedThread, context: Context) -> str:
    """One deletion as the text output lists it: when, agent, thread, its status then, who, and why; for a thread
    deleted once decided (a refund case), how it had ended."""
    lang = context.lang
    cells = [
        _when(gone, context),
        gone.agent,
        gone.thread_id,
        say("cli.deletions.was", lang, status=word("status", gone.status, lang)),
        say("cli.deletions.by", lang, who=render(deleted_by_words(gone.deleted_by), lang)),
        gone.reason or say("cli.deletions.no_reason", lang),
    ]
    if gone.outcome:
        cells.append(render(gone.outcome, lang))
    return "\t".join(cells)


def cmd_deletions(args: argparse.Namespace, context: Context) -> int:
    agents = [get_agent(args.agent)] if args.agent is not None else list(AGENTS.values())
    found = deleted_threads(context.store, agents)
    if args.json:
        print_json([gone.to_json() for gone in found])
        return 0
    if not found:
        print(say("cli.deletions.none", context.lang))
    for gone in found:
        print(deletion_line(gone, context))
    return 0


def add_commands(subparsers: Any, lang: str) -> None:
    """Adds ``deletions``, its help in ``lang``."""
    p = subparsers.add_parser("deletions", help=say("cli.help.deletions", lang))
    p.add_argument("--agent", help=say("cli.help.deletions.agent", lang))
    p.add_argument("--json", action="store_true", help=say("cli.help.deletions.json", lang))
    p.set_defaults(handler=cmd_deletions)
