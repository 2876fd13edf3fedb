"""``decide``: approve or reject several waiting refund questions in one command, each on its own.

The items are decided by :func:`agents.batch.decide_items` (the same for the API and the refund page);
this prints the result per item, and exits 2 when any item was refused or failed.
"""

from __future__ import annotations

import argparse
from dataclasses import asdict
from typing import Any

from agents.batch import decide_items
from agents.cli.base import EXIT_BAD_INPUT, Context, say, word
from agents.cli.core import print_json


def cmd_decide(args: argparse.Namespace, context: Context) -> int:
    answer = {"action": args.action, "approver": args.approver}
    if args.note:
        answer["note"] = args.note
    lang = context.lang
    done = decide_items(context.store, context.settings, list(args.items), answer, lang=lang)
    if args.json:
        print_json([asdict(d) for d in done])
    else:
        for d in done:
            print(f"{d.item}\t{word('decide', d.result, lang)}" + (f"\t{d.reason}" if d.reason else ""))
    return EXIT_BAD_INPUT if any(d.result in ("refused", "busy", "failed") for d in done) else 0


def add_commands(subparsers: Any, lang: str) -> None:
    """Adds ``decide``, its help in ``lang``."""
    p = subparsers.add_parser("decide", help=say("cli.help.decide", lang))
    p.add_argument("items", nargs="+", metavar="ITEM", help=say("cli.help.decide.items", lang))
    p.add_argument("--action", required=True, choices=("approve", "reject"), help=say("cli.help.decide.action", lang))
    p.add_argument("--approver", required=True, help=say("cli.help.decide.approver", lang))
    p.add_argument("--note", help=say("cli.help.decide.note", lang))
    p.add_argument("--json", action="store_true", help=say("cli.help.decide.json", lang))
    p.set_defaults(handler=cmd_decide)
