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
from agents.cli.base import Context, say, word
from agents.cli.core import print_json
from agents.deletion_record import deleted_by_words
from agents.refund import ledger
from agents.refund.rules import AUTOMATIC_APPROVER, krw
from agents.refund.strings import STRINGS as REFUND_STRINGS
from agents.texts import DEFAULT_LANGUAGE, render
from agents.texts import say as say_in


def _amount(amount: int | None, lang: str) -> str:
    """An amount with thousands separators, with the won sign in Korean; ``—`` for none."""
    return krw(amount) if amount is None else say("cli.ledger.amount", lang, amount=krw(amount))


def _approver(approver: str, lang: str) -> str:
    """Who approved: a person's name as written; the refund agent's automatic payout in words."""
    if approver == AUTOMATIC_APPROVER and lang != DEFAULT_LANGUAGE:
        return say_in(REFUND_STRINGS, "refund.approver.automatic", lang)
    return approver


def _deletion(row: dict[str, Any], lang: str) -> str:
    """A case deleted with a record (unfinished, with a reason; or once a person decided it): its status then,
    who, when and why."""
    if not row["deleted_at"]:
        return ""
    status = word("status", row["status_at_deletion"], lang)
    who = render(deleted_by_words(row["deleted_by"]), lang)
    words = say(
        "cli.ledger.deletion",
        lang,
        status=status,
        who=who,
        when=row["deleted_at"],
        reason=row["deletion_reason"] or say("cli.deletions.no_reason", lang),
    )
    return "\t" + words


def cmd_ledger(args: argparse.Namespace, context: Context) -> int:
    lang = context.lang
    if args.audit:
        found = lifecycle.thread_statuses(context.store, agent=ledger.AGENT_NAME)
        statuses = {s.thread_id: s.status for s in found}
        heads = {s.thread_id: s.head_checkpoint_id for s in found}  # each case as its status saw it
        rows = [row.to_json() for row in ledger.audit_rows(context.store, statuses, heads)]
        if args.json:
            print_json(rows)
            return 0
        if not rows:
            print(say("cli.ledger.none_audit", lang))
        for row in rows:
            cells = [
                row["case_id"],
                word("status", row["status"], lang),
                say("cli.ledger.requested", lang, amount=_amount(row["requested_amount"], lang)),
                say("cli.ledger.executed", lang, amount=_amount(row["executed_amount"], lang)),
                word("decision", row["decision"], lang) if row["decision"] else "-",
                _approver(row["approver"], lang) if row["approver"] else "-",
                word("outcome", row["outcome"], lang) if row["outcome"] else "-",
            ]
            print("\t".join(cells) + _deletion(row, lang))
        return 0
    payouts = ledger.payout_rows(context.store)  # a case with items: one row per item, named CASE:ITEM
    if args.json:
        print_json(payouts)
        return 0
    if not payouts:
        print(say("cli.ledger.none", lang))
    for row in payouts:
        cells = [
            ledger.payout_name(row),
            row["customer"],
            say("cli.ledger.requested", lang, amount=_amount(row["requested_amount"], lang)),
            say("cli.ledger.paid", lang, amount=_amount(row["paid_amount"], lang)),
            say("cli.ledger.by", lang, approver=_approver(row["approver"], lang)),
            str(row["paid_at"]),
            say("cli.ledger.repeats", lang, count=row["repeat_attempts"]),
        ]
        print("\t".join(cells))
    return 0


def add_commands(subparsers: Any, lang: str) -> None:
    """Adds ``ledger``, its help in ``lang``."""
    p = subparsers.add_parser("ledger", help=say("cli.help.ledger", lang))
    p.add_argument("--audit", action="store_true", help=say("cli.help.ledger.audit", lang))
    p.add_argument("--json", action="store_true", help=say("cli.help.ledger.json", lang))
    p.set_defaults(handler=cmd_ledger)
