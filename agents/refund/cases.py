"""Which thread holds each refund case (a project table): one case, one thread, whatever the thread is called.

A refund may run on any thread id (``refund-<case id>`` by default, a server-made UUID from the API's
``threads.create()``), so the thread's name cannot say which case it holds, nor keep two starts of one
case apart. ``refund_cases`` does both: ``case_id`` is its key, so of two starts of one case (any thread
ids, any process, either backend) exactly one inserts the row and the other finds it, and ``thread_id`` is
unique, so a thread holds one case. :func:`claim` writes the row under the lease of the thread being
started, before anything of the run is saved; the audit and the deletion record read a thread's case from
here (:func:`case_of_thread`) when its state cannot be decoded.

A row outlives its thread: a claim names the thread a case was last started on. It is taken over only
when that thread has no checkpoint and no live lease (deleted, or a start that died before its first
checkpoint), which no running start can be: a start holds its thread's lease from its claim to its end.

A database an earlier release wrote has no table; opening it creates the table and fills it in the same
setup transaction from the ``refund-<case id>`` threads that release made (their name was their case).

A case id is one case however it is written: ``C1``, ``c1``, a fullwidth ``Ｃ1`` and a Cyrillic ``С1`` are
compared by :func:`agents.names.id_key` (case, width and look-alike letters folded; separators, digits and
scripts kept), so a duplicate request typed on another keyboard is not paid again. The key keeps ids
exact (the id as typed is the case's, shown and keyed in the ledger), so look-alikes are found by folding
both sides when a case starts (:func:`lookalike`): the ids already held here and paid, stored by any release,
need no migration. Of two starts at once with look-alike ids, one waits for the other's claim: SQLite's
write transactions take turns already; on PostgreSQL each claim locks the table against other claims first.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from agents.db import Store, TableSchema
from agents.errors import InputError
from agents.leases import lease_alive
from agents.names import id_key
from agents.readsql import rows_in
from agents.refund.strings import STRINGS
from agents.texts import text

#: The thread a case gets when none is named, and the prefix every earlier release named its threads with.
THREAD_PREFIX = "refund-"
CASE_COLUMNS = ("case_id", "thread_id", "claimed_at")

#: The DDL, then the fill of an earlier release's threads (run once, in the setup transaction that creates
#: the table): every ``refund-<case id>`` thread held the case its name gives (``substr`` from the 8th
#: character, after ``refund-``, counts characters on both backends).
CASES_TABLE = TableSchema(
    "refund_cases",
    """
CREATE TABLE IF NOT EXISTS refund_cases (
    case_id TEXT PRIMARY KEY,
    thread_id TEXT NOT NULL UNIQUE,
    claimed_at TEXT NOT NULL
);
INSERT INTO refund_cases (case_id, thread_id, claimed_at)
    SELECT DISTINCT substr(thread_id, 8), thread_id, ''
    FROM checkpoints WHERE substr(thread_id, 1, 7) = 'refund-' AND length(thread_id) > 7 AND checkpoint_ns = ''
    ON CONFLICT DO NOTHING;""",
    migrated_columns=CASE_COLUMNS,
)


def _has_checkpoint(cursor: Any, thread_id: str) -> bool:
    cursor.execute("SELECT 1 FROM checkpoints WHERE thread_id = ? AND checkpoint_ns = '' LIMIT 1", (thread_id,))
    return cursor.fetchone() is not None


def claim(store: Store, case_id: str, thread_id: str) -> None:
    """Makes ``thread_id`` the thread of ``case_id``, or refuses because another thread holds the case.

    Called under ``thread_id``'s lease, once it is known to have no checkpoint (a new thread), by
    ``agents.runs.start_run`` before the run saves anything. One transaction: the insert on the case's
    key decides between racing starts; the loser reads the winner's thread. A case whose id reads as
    ``case_id`` (:func:`lookalike`) refuses it too, in the same transaction.

    Raises:
        InputError: Naming ``case_id`` and the thread that holds it (or the look-alike case and its thread).
    """
    now = dt.datetime.now(dt.UTC).isoformat()
    with store.transaction() as cursor:
        if store.backend == "postgres":
            # Look-alike ids are different keys, so the key cannot keep two of them apart: claims take turns
            # (a mode that conflicts with itself; reads go on), each reading the rows of the one before it.
            cursor.execute("LOCK TABLE refund_cases IN SHARE ROW EXCLUSIVE MODE")
        # This thread has no checkpoint: a case it held before (it was deleted) is no longer its.
        cursor.execute("DELETE FROM refund_cases WHERE thread_id = ? AND case_id <> ?", (thread_id, case_id))
        if found := lookalike(cursor, case_id, thread_id):
            raise InputError("case_id", lookalike_message(case_id, *found))
        cursor.execute(
            "INSERT INTO refund_cases (case_id, thread_id, claimed_at) VALUES (?, ?, ?)"
            " ON CONFLICT (case_id) DO NOTHING",
            (case_id, thread_id, now),
        )
        if cursor.rowcount == 1:
            return
        cursor.execute("SELECT thread_id FROM refund_cases WHERE case_id = ?", (case_id,))
        row = cursor.fetchone()
        holder = str(row[0]) if row else ""
        if holder == thread_id:
            return
        if holder and (_has_checkpoint(cursor, holder) or lease_alive(cursor, holder)):
            raise InputError("case_id", held_message(case_id, holder))
        cursor.execute(
            "UPDATE refund_cases SET thread_id = ?, claimed_at = ? WHERE case_id = ? AND thread_id = ?",
            (thread_id, now, case_id, holder),
        )
        if cursor.rowcount != 1:  # taken over first by another start (PostgreSQL waited for its row lock)
            cursor.execute("SELECT thread_id FROM refund_cases WHERE case_id = ?", (case_id,))
            row = cursor.fetchone()
            raise InputError("case_id", held_message(case_id, str(row[0]) if row else holder))


def held_message(case_id: str, thread_id: str) -> Any:
    """The refusal of a case another thread holds, naming both."""
    return text(STRINGS, "refund.error.case_exists", case_id=repr(case_id), thread=repr(thread_id))


def lookalike(cursor: Any, case_id: str, thread_id: str = "") -> tuple[str, str, bool] | None:
    """Another case whose id reads as ``case_id`` (:func:`agents.names.id_key`), read with ``cursor``: its id,
    its thread and whether it was paid; None when there is none.

    Such a case counts when it was paid (a row in the ledger or the item ledger, even after its thread was
    deleted) or its thread holds it (a checkpoint, or, when ``thread_id`` names the thread being started, a
    live lease of another thread). A look-alike whose thread is gone unpaid may be started again under either
    spelling, as the case itself may. Both sides are folded here, so rows an earlier release stored count too.
    """
    key = id_key(case_id)
    cursor.execute(
        "SELECT case_id, thread_id FROM refund_ledger WHERE case_id <> ?"
        " UNION SELECT case_id, thread_id FROM refund_item_ledger WHERE case_id <> ?",
        (case_id, case_id),
    )
    for other, other_thread in cursor.fetchall():
        if id_key(str(other)) == key:
            return str(other), str(other_thread), True
    cursor.execute(
        "SELECT case_id, thread_id FROM refund_cases WHERE case_id <> ? AND thread_id <> ?", (case_id, thread_id)
    )
    for other, other_thread in cursor.fetchall():
        if id_key(str(other)) != key:
            continue
        if _has_checkpoint(cursor, str(other_thread)) or (thread_id and lease_alive(cursor, str(other_thread))):
            return str(other), str(other_thread), False
    return None


def lookalike_message(case_id: str, other: str, thread_id: str, paid: bool) -> Any:
    """The refusal of ``case_id`` because case ``other``, whose id reads as it, is held by ``thread_id`` or paid."""
    key = "refund.error.case_lookalike_paid" if paid else "refund.error.case_lookalike"
    return text(STRINGS, key, case_id=repr(case_id), existing=repr(other), thread=repr(thread_id))


def check_lookalike(store: Store, case_id: str) -> None:
    """Refuses ``case_id`` when another case whose id reads as it is held by a thread or paid (:func:`lookalike`).

    Raises:
        InputError: Naming ``case_id``, the other case and its thread.
    """
    with store.read() as cursor:
        found = lookalike(cursor, case_id)
    if found:
        raise InputError("case_id", lookalike_message(case_id, *found))


def holding_thread(store: Store, case_id: str) -> str | None:
    """The thread that holds ``case_id`` now: its row's thread, when that thread has a checkpoint."""
    with store.read() as cursor:
        cursor.execute("SELECT thread_id FROM refund_cases WHERE case_id = ?", (case_id,))
        row = cursor.fetchone()
        if row is None or not _has_checkpoint(cursor, str(row[0])):
            return None
        return str(row[0])


def claimed_here(store: Store, thread_ids: list[str]) -> set[tuple[str, str]]:
    """The (case, thread) pairs of ``thread_ids`` that a start here claimed (:func:`claim`): threads that were in
    this database, whatever became of them. A graph run elsewhere on the shared ledger (``langgraph dev``, its
    threads in its own storage) claims nothing here."""
    if not thread_ids:
        return set()
    with store.read() as cursor:
        found = rows_in(cursor, "SELECT case_id, thread_id FROM refund_cases WHERE thread_id", thread_ids)
    return {(str(case_id), str(thread_id)) for case_id, thread_id in found}


def case_of_thread(store: Store, thread_id: str) -> str:
    """The case ``thread_id`` was started for ('' when no start recorded one)."""
    with store.read() as cursor:
        cursor.execute("SELECT case_id FROM refund_cases WHERE thread_id = ?", (thread_id,))
        row = cursor.fetchone()
    return str(row[0]) if row else ""
