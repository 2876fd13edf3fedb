"""A refund case's figures beside its amounts: what the ledger paid for it, what its waiting questions ask for."""

from __future__ import annotations

from agents.db import Store
from agents.refund import item_ledger, ledger
from agents.refund.amounts import asked_amount

__all__ = ["asked_amount", "paid_amount"]


def paid_amount(store: Store, case_id: str, *, with_items: bool) -> int | None:
    """What the ledger paid for ``case_id``: its one payout, or for a case with items what their payouts add
    up to; None when nothing is paid."""
    if with_items:
        paid_items = item_ledger.item_payouts(store, case_id)
        return sum(row["paid_amount"] for row in paid_items) if paid_items else None
    payout = ledger.payout_for(store, case_id)
    return payout["paid_amount"] if payout else None
