"""The record of an unfinished thread deleted, for an agent that keeps no record of its own (the robot, the
lecture), so its deletion is announced as a ``deleted`` notification like a refund's.

A waiting or stuck thread is someone's open question: deleting it must not make it vanish unseen. The
agent's :class:`~agents.spec.EditPart` plugs :func:`record_delete` (run by ``agents.deletion.delete_thread``
under the thread's lock, before its checkpoints go) and :func:`deleted_unfinished` (read by
``agents.notify.scan``) in; the rows stay in the core table ``thread_deletions``, one per (thread, head),
so a deletion retried after a crash is recorded once.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from typing import Any

from agents.db import Store
from agents.schema import DELETIONS_COLUMNS
from agents.spec import DeleteRequest


def record_delete(store: Store, request: DeleteRequest, agent: str) -> None:
    """Writes the row of an unfinished thread about to be deleted (a finished one is news to no one)."""
    if request.status != "done":
        insert_deletion(store, "thread_deletions", DELETIONS_COLUMNS, deletion_row(request, agent))


def deletion_row(request: DeleteRequest, *about: Any) -> tuple[Any, ...]:
    """A deletion record's row: the thread and its head, what the agent keeps ``about`` it, then its status,
    who deleted it (email or name, and name), when (UTC, to the second) and why.

    Both records (this module's and the refund's ``refund_deletions``) have these columns in this order.
    """
    actor = request.actor
    when = dt.datetime.now(dt.UTC).replace(microsecond=0).isoformat()
    return (
        request.thread_id,
        request.head_checkpoint_id,
        *about,
        request.status,
        actor.email or actor.name,
        actor.name,
        when,
        request.reason or "",
    )


def insert_deletion(store: Store, table: str, columns: tuple[str, ...], row: tuple[Any, ...]) -> None:
    """Inserts a deletion record's row, once per (thread, head): a deletion retried after a crash is recorded once."""
    store.execute_one(
        f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({', '.join('?' * len(row))})"
        " ON CONFLICT (thread_id, head_checkpoint_id) DO NOTHING",
        row,
    )


def deleted_unfinished(store: Store, agent: str) -> list[dict[str, Any]]:
    """The agent's recorded deletions (keys :data:`~agents.schema.DELETIONS_COLUMNS`), newest first."""
    with store.read() as cursor:
        cursor.execute(
            f"SELECT {', '.join(DELETIONS_COLUMNS)} FROM thread_deletions WHERE agent = ?"
            " ORDER BY deleted_at DESC, thread_id",
            (agent,),
        )
        return [dict(zip(DELETIONS_COLUMNS, found, strict=True)) for found in cursor.fetchall()]


def recorded_for(
    agent: str,
) -> tuple[Callable[[Any, DeleteRequest], None], Callable[[Any], list[dict[str, Any]]]]:
    """``record_delete`` and ``deleted_unfinished`` of an agent's :class:`~agents.spec.EditPart`."""
    return (
        lambda store, request: record_delete(store, request, agent),
        lambda store: deleted_unfinished(store, agent),
    )
