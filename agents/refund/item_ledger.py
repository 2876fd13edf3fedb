"""The payout ledger of refund items (a project table beside ``refund_ledger``).

A refund request with several items pays each item on its own, once: the key is (case, item), so a
second attempt for the same item (its task re-run after a crash, two approvers answering the same
question from two processes) inserts nothing, is counted in ``repeat_attempts`` and is reported as
"already paid". Single-amount cases keep their rows in ``refund_ledger``, unchanged; this table is
new beside it, so a database written before items existed needs no change of its rows.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from agents.db import Store, TableSchema
from agents.refund.ledger import ITEM_LEDGER_COLUMNS, Payout, pay_once

ITEM_LEDGER_TABLE = TableSchema(
    "refund_item_ledger",
    """
CREATE TABLE IF NOT EXISTS refund_item_ledger (
    case_id TEXT NOT NULL,
    item TEXT NOT NULL,
    thread_id TEXT NOT NULL,
    customer TEXT NOT NULL,
    requested_amount INTEGER NOT NULL,
    paid_amount INTEGER NOT NULL CHECK (paid_amount > 0),
    approver TEXT NOT NULL,
    paid_at TEXT NOT NULL,
    repeat_attempts INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (case_id, item)
);""",
    migrated_columns=ITEM_LEDGER_COLUMNS,
    thread_column="thread_id",  # a finished case's outcome reads its rows
)


@dataclass(frozen=True)
class ItemPayout(Payout):
    """The ledger row of one item of a case, and whether this attempt created it."""

    item: str


def pay_item(
    store: Store,
    *,
    case_id: str,
    item: str,
    thread_id: str,
    customer: str,
    requested_amount: int,
    amount: int,
    approver: str,
) -> ItemPayout:
    """Records the payout of one item exactly once (as ``ledger.pay`` does for a case).

    The insert and the read-back happen in one transaction, so of two attempts exactly one creates
    the row; the other changes only ``repeat_attempts``.

    Returns:
        The item's ledger row; ``created`` is False when it was already paid.
    """
    row = (case_id, item, thread_id, customer, requested_amount, amount, approver)
    paid, created = pay_once(store, "refund_item_ledger", ITEM_LEDGER_COLUMNS, 2, row)
    return ItemPayout(**paid, created=created)


def item_payouts(store: Store, case_id: str | None = None) -> list[dict[str, Any]]:
    """The item payouts (keys :data:`ITEM_LEDGER_COLUMNS`) of one case, or of every case; newest first."""
    where, params = ("WHERE case_id = ?", (case_id,)) if case_id is not None else ("", ())
    with store.read() as cursor:
        cursor.execute(
            f"SELECT {', '.join(ITEM_LEDGER_COLUMNS)} FROM refund_item_ledger {where}"
            " ORDER BY paid_at DESC, case_id, item",
            params,
        )
        return [dict(zip(ITEM_LEDGER_COLUMNS, row, strict=True)) for row in cursor.fetchall()]


def case_has_item_payouts(store: Store, case_id: str) -> bool:
    """Whether any item of the case was paid (a case id is used once, even after its thread is deleted)."""
    with store.read() as cursor:
        cursor.execute("SELECT 1 FROM refund_item_ledger WHERE case_id = ? LIMIT 1", (case_id,))
        return cursor.fetchone() is not None


def item_payout(store: Store, case_id: str, item: str) -> dict[str, Any] | None:
    """The ledger row of one item, or None when it was not paid."""
    with store.read() as cursor:
        cursor.execute(
            f"SELECT {', '.join(ITEM_LEDGER_COLUMNS)} FROM refund_item_ledger WHERE case_id = ? AND item = ?",
            (case_id, item),
        )
        found = cursor.fetchone()
    return dict(zip(ITEM_LEDGER_COLUMNS, found, strict=True)) if found else None
