"""Refund commands: ``ledger`` lists payouts (and, with ``--audit``, every case).

Starting, resuming, updating and inspecting refund threads use the core
commands: ``run refund --case ID --customer NAME --amount N --reason TEXT`` (or ``--items JSON`` for
several items, each decided on its own: ``resume refund-ID --interrupt INTERRUPT_ID VALUE``),
``resume refund-ID '{"action": "approve", "approver": "kim"}'``,
``update refund-ID --values '{"amount": 50000}'``, ``inspect refund-ID``.
"""

from __future__ import annotations

import argparse
from typing import Any

from agents import lifecycle
from agents.cli.base import Context
from agents.cli.core import print_json
from agents.refund import ledger
from agents.refund.rules import krw


def _deletion(row: dict[str, Any]) -> str:
    """An unfinished case deleted with a reason: its status then, who, when and why."""
    if row["outcome"] != "deleted":
        return ""
    return (
        f"\twas {row['status_at_deletion']}, deleted by {row['deleted_by']} at {row['deleted_at']}"
        f": {row['deletion_reason']}"
    )


def cmd_ledger(args: argparse.Namespace, context: Context) -> int:
    if args.audit:
        found = lifecycle.thread_statuses(context.store, agent=ledger.AGENT_NAME)
        statuses = {s.thread_id: s.status for s in found}
        heads = {s.thread_id: s.head_checkpoint_id for s in found}  # each case as its status saw it
        rows = [row.to_json() for row in ledger.audit_rows(context.store, statuses, heads)]
        if args.json:
            print_json(rows)
            return 0
        if not rows:
            print("no refund cases")
        for row in rows:
            print(
                f"{row['case_id']}\t{row['status']}\trequested {krw(row['requested_amount'])}"
                f"\texecuted {krw(row['executed_amount'])}\t{row['decision'] or '-'}"
                f"\t{row['approver'] or '-'}\t{row['outcome'] or '-'}{_deletion(row)}"
            )
        return 0
    payouts = ledger.payout_rows(context.store)  # a case with items: one row per item, named CASE:ITEM
    if args.json:
        print_json(payouts)
        return 0
    if not payouts:
        print("no payouts")
    for row in payouts:
        print(
            f"{ledger.payout_name(row)}\t{row['customer']}\trequested {krw(row['requested_amount'])}"
            f"\tpaid {krw(row['paid_amount'])}\tby {row['approver']}\t{row['paid_at']}"
            f"\trepeat attempts {row['repeat_attempts']}"
        )
    return 0


def add_commands(subparsers: Any) -> None:
    """Adds ``ledger``."""
    p = subparsers.add_parser("ledger", help="list refund payouts (requested and paid side by side)")
    p.add_argument("--audit", action="store_true", help="list every refund case instead, paid or not")
    p.add_argument("--json", action="store_true")
    p.set_defaults(handler=cmd_ledger)
