"""The record of refund cases deleted before they were finished (a project table).

A refund that waits for a decision, or needs attention, is a customer's open claim: deleting its thread
must not make it vanish. :func:`check_delete` refuses such a deletion without a reason ("reject it first,
or delete with a reason"); with one, :func:`record_delete` writes a permanent row (case, customer,
requested amount, status at deletion, who, when, why) before the thread's checkpoints go, and the audit
(``agents.refund.ledger.audit_rows``) shows it as a case whose outcome is ``deleted``. Both run from
``agents.deletion.delete_thread``, the one path the CLI, the sidebar form and the HTTP API take.
"""

from __future__ import annotations

from typing import Any

from agents.db import Store, TableSchema
from agents.deletion_record import deletion_row, insert_deletion
from agents.errors import InputError
from agents.refund.cases import case_of_thread
from agents.refund.strings import STRINGS
from agents.schema import deletion_ddl
from agents.spec import DeleteRequest
from agents.texts import text

DELETION_COLUMNS = (
    "thread_id", "head_checkpoint_id", "case_id", "customer", "requested_amount", "amount",
    "requested_at", "status", "deleted_by", "deleted_by_name", "deleted_at", "reason",
)  # fmt: skip

#: One row per deleted unfinished case; (thread, head) is the key, so a delete retried after a crash
#: between the record and the deletion records the case once.
DELETION_TABLE = TableSchema(
    "refund_deletions",
    deletion_ddl(
        "refund_deletions",
        """\
    case_id TEXT NOT NULL,
    customer TEXT NOT NULL,
    requested_amount INTEGER,
    amount INTEGER,
    requested_at TEXT NOT NULL,
""",
    ),
    migrated_columns=DELETION_COLUMNS,
)


def _amount(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def check_delete(store: Store, request: DeleteRequest) -> None:
    """Refuses deleting an unfinished case (waiting or attention) without a reason, naming ``reason``."""
    if request.status != "done" and request.reason is None:
        raise InputError(
            "reason",
            text(STRINGS, "refund.error.delete_unfinished", thread=repr(request.thread_id), status=request.status),
        )


def record_delete(store: Store, request: DeleteRequest) -> None:
    """Writes the permanent row of an unfinished case about to be deleted (a finished one keeps its ledger)."""
    if request.status == "done":
        return
    values = request.values
    row = deletion_row(
        request,
        str(values.get("case_id") or case_of_thread(store, request.thread_id)),  # unreadable: the case it claimed
        str(values.get("customer", "")),
        _amount(values.get("requested_amount")),
        _amount(values.get("amount")),
        str(values.get("requested_at", "")),
    )
    insert_deletion(store, "refund_deletions", DELETION_COLUMNS, row)


def deletion_rows(store: Store) -> list[dict[str, Any]]:
    """Every recorded deletion (keys :data:`DELETION_COLUMNS`), newest first."""
    with store.read() as cursor:
        cursor.execute(
            f"SELECT {', '.join(DELETION_COLUMNS)} FROM refund_deletions ORDER BY deleted_at DESC, thread_id"
        )
        return [dict(zip(DELETION_COLUMNS, found, strict=True)) for found in cursor.fetchall()]
