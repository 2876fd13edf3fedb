"""A refund case's figures beside its amounts: what the ledger paid for it, what its waiting questions ask for."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from agents.db import Store
from agents.refund import item_ledger, ledger


def paid_amount(store: Store, case_id: str, *, with_items: bool) -> int | None:
    """What the ledger paid for ``case_id``: its one payout, or for a case with items what their payouts add
    up to; None when nothing is paid."""
    if with_items:
        paid_items = item_ledger.item_payouts(store, case_id)
        return sum(row["paid_amount"] for row in paid_items) if paid_items else None
    payout = ledger.payout_for(store, case_id)
    return payout["paid_amount"] if payout else None


def asked_amount(questions: Iterable[Any]) -> int:
    """What the waiting questions ask for together (an items case's waiting items); 0 for none."""
    asked = (question.get("requested_amount") for question in questions if isinstance(question, dict))
    return sum(value for value in asked if isinstance(value, int) and not isinstance(value, bool))
