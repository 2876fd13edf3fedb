"""The record of an unfinished thread deleted, for an agent that keeps no record of its own (the robot, the
lecture), so its deletion is announced as a ``deleted`` notification like a refund's.

A waiting or stuck thread is someone's open question: deleting it must not make it vanish unseen. The
agent's :class:`~agents.spec.EditPart` plugs :func:`record_delete` (run by ``agents.deletion.delete_thread``
under the thread's lock, before its checkpoints go) and :func:`deleted_unfinished` in; the rows stay in the
core table ``thread_deletions``, one per (thread, head), so a deletion retried after a crash is recorded once.

:func:`deleted_threads` lists every agent's records (this table's, and an agent's own, the refund's) alike:
what ``python -m agents deletions``, the checkpoint explorer's *Deleted threads* and ``agents.notify.scan``
(the ``deleted`` notifications; a refund case deleted once decided, its ``decided`` one) read, a thread deleted
once decided with how it ended (``DeletedThread.outcome``); :func:`deleted_by_words` says who deleted one in the
reader's language.
"""

from __future__ import annotations

import datetime as dt
import urllib.parse
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from agents.db import Store
from agents.identity import LOCAL_OPERATOR
from agents.schema import DELETIONS_COLUMNS
from agents.spec import AgentSpec, DeleteRequest
from agents.strings import STRINGS
from agents.texts import Text, text


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


#: What a record row of a thread deleted once decided says of its end (the refund's: its outcome code, the
#: decision, who decided, their note, what it paid), given by ``deletions --json``.
ENDED_FIELDS = ("outcome", "decision", "approver", "note", "paid_amount")

#: Where the dashboard lists the deleted threads of every agent: the checkpoint explorer's page (its URL path,
#: as ``dashboard.navigation`` serves it) with the thread to point out under this query key
#: (``/explorer?deleted=robo-old``), where a deletion's notification links to.
DELETED_PAGE, DELETED_QUERY = "explorer", "deleted"


def deleted_link(public_url: str, thread_id: str) -> str:
    """The dashboard's list of deleted threads at ``public_url``, pointing out ``thread_id``."""
    return f"{public_url}/{DELETED_PAGE}?{urllib.parse.urlencode({DELETED_QUERY: thread_id})}"


@dataclass(frozen=True)
class DeletedThread:
    """An unfinished thread deleted, as its agent's record keeps it.

    Attributes:
        agent: The agent whose thread it was.
        thread_id: The thread.
        status: Its status when it was deleted (``waiting`` or ``attention``).
        deleted_by: Who deleted it: their email, or their name (``local operator`` when no one was signed in).
        deleted_at: When (ISO 8601, UTC, to the second).
        reason: Why, as they gave it ("" for none).
        record: The record's whole row (an agent's own record holds more: the refund's case and amounts).
        outcome: How it had ended, for a thread deleted once it was decided (status ``done``: a refund case a
            person decided), in the reader's language when rendered ("rejected by park (note: …)"); "" for one
            deleted unfinished.
    """

    agent: str
    thread_id: str
    status: str
    deleted_by: str
    deleted_at: str
    reason: str
    record: Mapping[str, Any]
    outcome: str | Text = ""

    def to_json(self) -> dict[str, Any]:
        """What ``deletions --json`` prints of it (the record's ``case_id`` when it has one, and, for a thread
        deleted once decided, :data:`ENDED_FIELDS` as its record has them)."""
        found = {
            "agent": self.agent,
            "thread_id": self.thread_id,
            "status": self.status,
            "deleted_by": self.deleted_by,
            "deleted_at": self.deleted_at,
            "reason": self.reason,
        }
        found |= {"case_id": self.record["case_id"]} if self.record.get("case_id") else {}
        if self.status != "done":
            return found
        return found | {key: self.record[key] for key in ENDED_FIELDS if key in self.record}


def deleted_threads(store: Store, agents: Iterable[AgentSpec]) -> list[DeletedThread]:
    """The recorded deletions of ``agents`` (each agent's ``EditPart.deleted_unfinished``: its unfinished threads
    deleted, and, for the refund, its cases deleted once a person decided them), newest first (then by thread
    id)."""
    found = [
        DeletedThread(
            agent=spec.name,
            thread_id=str(row["thread_id"]),
            status=str(row.get("status") or ""),
            deleted_by=str(row.get("deleted_by") or ""),
            deleted_at=str(row.get("deleted_at") or ""),
            reason=str(row.get("reason") or ""),
            record=row,
            outcome=row.get("outcome_text") or "",
        )
        for spec in agents
        for row in spec.edit.deleted_unfinished(store)
    ]
    found.sort(key=lambda gone: gone.thread_id)
    found.sort(key=lambda gone: gone.deleted_at, reverse=True)
    return found


def deleted_by_words(deleted_by: str) -> str | Text:
    """Who deleted a thread, as shown: the local operator (no one was signed in) in the reader's words, else the
    email or name recorded. The one wording of it for the pages and the command line."""
    return text(STRINGS, "deletion.local_operator") if deleted_by == LOCAL_OPERATOR.name else deleted_by
