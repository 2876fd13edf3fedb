"""The notification outbox: one row per event and channel, claimed by one deliverer at a time.

An event's id is its kind, thread and waiting episode (``waiting:refund-C1:2026-12-05T04:00:00+00:00``),
so a scan that finds it again, in this process or another, inserts nothing (``ON CONFLICT DO NOTHING``):
an event is recorded once however many processes look. A deliverer claims due rows in one transaction
(on PostgreSQL with ``FOR UPDATE SKIP LOCKED``, on SQLite under the file's write lock), sends them, then
marks each delivered, or failed with the next attempt after a backoff. A claim names its process and
lapses after :data:`CLAIM_SECONDS`, or at once when that process is gone from this host (killed), so a
crash loses nothing: the row is sent again, and the receiver drops the repeat by its ``Idempotency-Key``.
"""

from __future__ import annotations

import datetime as dt
import json
import uuid
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from agents.db import Store
from agents.leases import process_running, this_process
from agents.readmodel import checkpoint_time
from agents.schema import OUTBOX_COLUMNS

#: The kinds of event, in the order a thread meets them (``attention``: a thread that is stuck, whose run
#: stopped or cannot go on by itself, announced as a wait is).
KINDS = ("waiting", "attention", "overdue", "escalated", "decided", "deleted")
#: The kinds of event that open an episode (a wait, or a stuck thread): each is closed once it is over.
EPISODE_KINDS = ("waiting", "attention")
#: Rows go out in the order their events happened; events of one moment (a thread's overdue and escalated
#: events share its deadline) in the order of :data:`KINDS`, then by row id.
_IN_ORDER = (
    "happened_at, CASE kind " + " ".join(f"WHEN '{kind}' THEN {rank}" for rank, kind in enumerate(KINDS))
    + f" ELSE {len(KINDS)} END, id"
)  # fmt: skip
#: How a dismissed row's ``last_error`` begins (:func:`dismiss`); a delivered row's is empty, or says whom the
#: mail server refused when it took the mail for the others (:func:`delivered`).
DISMISSED = "dismissed: "
#: How a sent row's ``last_error`` (whom the mail server refused) begins once an admin dismissed it from the
#: warnings (:func:`dismiss_refused`): still sent, no longer listed.
SEEN = "seen: "
#: The channel of a row that only closes a waiting episode (nothing is sent for it).
NO_CHANNEL = "-"
#: How long a claim holds a row before another deliverer may take it (a live claimer sends within it).
CLAIM_SECONDS = 120.0
#: Backoff after the n-th failed attempt: 10 s, 20 s, 40 s, ... up to an hour.
BACKOFF_FIRST_SECONDS = 10.0
BACKOFF_MAX_SECONDS = 3600.0
#: One row, once: a row already there (the same event and channel) is left as it is.
_INSERT = (
    f"INSERT INTO notify_outbox ({', '.join(OUTBOX_COLUMNS)}) VALUES ({', '.join('?' * len(OUTBOX_COLUMNS))})"
    " ON CONFLICT (id) DO NOTHING"
)


@dataclass(frozen=True)
class Event:
    """Something people are told about.

    Attributes:
        kind: One of :data:`KINDS`.
        thread_id: The thread.
        agent: Its agent.
        episode: What makes the event one of its kind per thread: the waiting episode's start (ISO 8601
            UTC) or, for a deletion, the deleted head.
        happened_at: When it happened (POSIX seconds): the thread started waiting, passed its deadline...
        facts: What the message says: amount, customer, outcome, reason (JSON values).
    """

    kind: str
    thread_id: str
    agent: str
    episode: str
    happened_at: float
    facts: dict[str, Any] = field(default_factory=dict)

    @property
    def event_id(self) -> str:
        """The event's unique key, sent as the ``Idempotency-Key``."""
        return f"{self.kind}:{self.thread_id}:{self.episode}"


@dataclass(frozen=True)
class Claimed:
    """A claimed outbox row: the event and the channel to send it on."""

    row_id: str
    channel: str
    event: Event
    attempts: int
    recorded_at: float


def record(store: Store, events: Iterable[Event], channels: Sequence[str], now: float) -> int:
    """Inserts each event once per channel (an event already recorded is left as it is); returns the new rows."""
    rows = [
        (
            f"{event.event_id}/{channel}",
            event.event_id,
            channel,
            event.kind,
            event.thread_id,
            event.agent,
            event.episode,
            json.dumps(event.facts, ensure_ascii=False, sort_keys=True),
            event.happened_at,
            now,
            0,
            now,
            now if channel == NO_CHANNEL else None,
            "",
        )
        for event in events
        for channel in channels
    ]
    added = 0
    with store.transaction() as cursor:
        # In key order: two processes recording the same events lock the same rows in the same order,
        # so on PostgreSQL neither waits for the other in a cycle (a deadlock).
        for row in sorted(rows, key=lambda row: row[0]):
            cursor.execute(_INSERT, row)
            added += max(cursor.rowcount, 0)
    return added


def recorded_ids(store: Store, event_ids: Sequence[str]) -> set[str]:
    """The ids among ``event_ids`` that are recorded (on any channel)."""
    found: set[str] = set()
    for start in range(0, len(event_ids), 400):
        chunk = event_ids[start : start + 400]
        with store.read() as cursor:
            cursor.execute(
                f"SELECT DISTINCT event_id FROM notify_outbox WHERE event_id IN ({', '.join('?' * len(chunk))})", chunk
            )
            found.update(row[0] for row in cursor.fetchall())
    return found


def open_episodes(store: Store) -> list[Event]:
    """The waiting and ``attention`` (stuck) events whose episode has not ended yet (no ``decided`` nor
    closing row of it)."""
    with store.read() as cursor:
        cursor.execute(
            "SELECT DISTINCT w.kind, w.thread_id, w.agent, w.episode, w.facts, w.happened_at FROM notify_outbox w"
            " WHERE w.kind IN ('waiting', 'attention') AND NOT EXISTS (SELECT 1 FROM notify_outbox d"
            " WHERE d.thread_id = w.thread_id AND d.episode = w.episode AND d.kind IN ('decided', 'ended'))"
        )
        rows = cursor.fetchall()
    return [
        Event(kind, thread, agent, episode, float(at), json.loads(facts))
        for kind, thread, agent, episode, facts, at in rows
    ]


def _deleted_after(head: str, start: dt.datetime) -> bool:
    """Whether a deletion whose head was ``head`` came after a wait that began at ``start``: its head is that
    wait's checkpoint or a later one (a checkpoint id holds its time; a deletion of an earlier thread of the
    same id has an earlier head). A deletion's own time is kept to the second only, so it cannot tell."""
    try:
        return checkpoint_time(head) >= start
    except ValueError:  # not a checkpoint id: a record made by other tooling
        return False


def is_stuck(event: Event) -> bool:
    """Whether ``event`` is about a stuck thread: its ``attention`` event, or the ``overdue`` or ``escalated``
    event of a thread that was stuck then (its fact ``status``), not waiting for a decision."""
    return event.kind == "attention" or (
        event.kind in ("overdue", "escalated") and event.facts.get("status") == "attention"
    )


def wait_end(store: Store, event: Event) -> tuple[str, float] | None:
    """How the wait of ``event`` (a ``waiting``, ``attention``, ``overdue`` or ``escalated`` event) ended, as the
    outbox knows it: ``("decided", when)`` from its episode's ``decided`` event; ``("ended", when)`` when the
    thread was deleted during it (its ``deleted`` event), or waited or stuck anew (a later ``waiting`` or
    ``attention`` event of the thread: the old episode was over by the new one's start); None while it goes on.

    A stuck thread's episode (:func:`is_stuck`) says ``("deleted", when)`` for a deletion, and ends too when its
    closing row says it ran on (:func:`agents.notify.scan.ended_episodes` dates that row when the thread left
    the stuck head).
    """
    start = dt.datetime.fromisoformat(event.episode)
    stuck = is_stuck(event)
    with store.read() as cursor:
        cursor.execute(
            "SELECT kind, episode, happened_at FROM notify_outbox WHERE thread_id = ?"
            " AND kind IN ('decided', 'deleted', 'waiting', 'attention', 'ended')",
            (event.thread_id,),
        )
        rows = [(str(kind), str(episode), float(at)) for kind, episode, at in cursor.fetchall()]
    decided = [at for kind, episode, at in rows if kind == "decided" and episode == event.episode]
    if decided:
        return "decided", min(decided)
    deleted = [at for kind, episode, at in rows if kind == "deleted" and _deleted_after(episode, start)]
    moved = [
        at
        for kind, episode, at in rows
        if (kind in EPISODE_KINDS and episode != event.episode and at > start.timestamp())
        or (stuck and kind == "ended" and episode == event.episode)
    ]
    if stuck and deleted and (not moved or min(deleted) <= min(moved)):
        return "deleted", min(deleted)
    ended = deleted + moved
    return ("ended", min(ended)) if ended else None


def _free(row: Sequence[Any], now: float) -> bool:
    """Whether a due row is unclaimed, its claim lapsed, or its claimer gone from this host."""
    owner, host, pid, start, until = row
    return owner is None or until is None or until < now or not process_running(host, int(pid), start)


def claim(store: Store, now: float, *, limit: int = 50, owner: str | None = None) -> list[Claimed]:
    """Claims up to ``limit`` due, undelivered rows for this deliverer, in the order their events happened
    (:data:`_IN_ORDER`: a thread's wait before its deadline, its overdue before its escalation, both before
    its decision), not the order a scan recorded them in (one scan records many events at one time).

    One transaction reads and claims them; on PostgreSQL ``FOR UPDATE SKIP LOCKED`` lets another replica
    claim other rows meanwhile instead of waiting, on SQLite the file's write lock serialises claimers.
    """
    owner = owner or uuid.uuid4().hex
    host, pid, start = this_process()
    lock = " FOR UPDATE SKIP LOCKED" if store.backend == "postgres" else ""
    with store.transaction() as cursor:
        cursor.execute(
            "SELECT id, channel, kind, thread_id, agent, episode, facts, happened_at, attempts, recorded_at,"
            " claim_owner, claim_host, claim_pid, claim_start, claimed_until FROM notify_outbox"
            " WHERE delivered_at IS NULL AND next_attempt_at <= ?"
            " AND (claim_owner IS NULL OR claimed_until < ? OR claim_host = ?)"
            f" ORDER BY {_IN_ORDER} LIMIT ?{lock}",
            (now, now, host, limit * 4),
        )
        rows = [row for row in cursor.fetchall() if _free(row[10:], now)][:limit]
        for row in rows:
            cursor.execute(
                "UPDATE notify_outbox SET claim_owner = ?, claim_host = ?, claim_pid = ?, claim_start = ?,"
                " claimed_until = ? WHERE id = ?",
                (owner, host, pid, start, now + CLAIM_SECONDS, row[0]),
            )
    return [
        Claimed(
            row[0], row[1], Event(row[2], row[3], row[4], row[5], float(row[7]), json.loads(row[6])), row[8], row[9]
        )
        for row in rows
    ]


def delivered(store: Store, row_id: str, now: float, refused: str = "") -> None:
    """Marks a row sent; ``refused``: whom the mail server refused when it took the mail for the others (kept
    as the row's ``last_error``, shown by ``notify --status``; the row is not sent again)."""
    store.execute_one(
        "UPDATE notify_outbox SET delivered_at = ?, attempts = attempts + 1, last_error = ?, claim_owner = NULL,"
        " claimed_until = NULL WHERE id = ?",
        (now, refused[:500], row_id),
    )


def backoff(attempts: int) -> float:
    """Seconds to wait after the ``attempts``-th failed attempt (doubling, capped)."""
    return min(BACKOFF_FIRST_SECONDS * 2 ** max(attempts - 1, 0), BACKOFF_MAX_SECONDS)


def failed(store: Store, row_id: str, attempts: int, error: str, now: float) -> None:
    """Records a failed attempt (the error, without any secret) and when to try again; a row dismissed while
    it was being sent stays dismissed."""
    store.execute_one(
        "UPDATE notify_outbox SET attempts = ?, last_error = ?, next_attempt_at = ?, claim_owner = NULL,"
        " claimed_until = NULL WHERE id = ? AND delivered_at IS NULL",
        (attempts, error[:500], now + backoff(attempts), row_id),
    )


#: An undelivered row whose last attempt failed: (event id, channel, attempts, error, next attempt).
Failing = tuple[str, str, int, str, float]
#: A row sent whose mail server refused some of its recipients: (event id, channel, whom it refused, when sent).
Refused = tuple[str, str, str, float]


@dataclass(frozen=True)
class OutboxStatus:
    """What the outbox holds, for ``notify --status`` and home.

    Attributes:
        delivered: Rows sent.
        pending: Rows not sent yet, none failed so far.
        failing: Rows not sent whose last attempt failed: (event id, channel, attempts, error, next attempt).
        dismissed: Rows an admin gave up on (``notify --dismiss``): never sent, no longer tried.
        refused: Rows sent (counted in ``delivered``) that the mail server refused for some of their recipients,
            in the order they were sent, until an admin dismisses them (:func:`refused`).
    """

    delivered: int
    pending: int
    failing: list[Failing]
    dismissed: int = 0
    refused: list[Refused] = field(default_factory=list)


def _failing(cursor: Any) -> list[Failing]:
    cursor.execute(
        "SELECT event_id, channel, attempts, last_error, next_attempt_at FROM notify_outbox"
        f" WHERE delivered_at IS NULL AND attempts > 0 ORDER BY {_IN_ORDER}"
    )
    return [(e, c, int(a), err, float(n)) for e, c, a, err, n in cursor.fetchall()]


#: A sent row whose mail server refused some recipients, not dismissed from the warnings, and its parameters.
_REFUSED = (
    "delivered_at IS NOT NULL AND last_error <> '' AND last_error NOT LIKE ? AND last_error NOT LIKE ?"
    f" AND channel <> '{NO_CHANNEL}'"
)
_REFUSED_PARAMS = (f"{DISMISSED}%", f"{SEEN}%")


def _refused(cursor: Any) -> list[Refused]:
    cursor.execute(
        f"SELECT event_id, channel, last_error, delivered_at FROM notify_outbox WHERE {_REFUSED}"
        " ORDER BY delivered_at, id",
        _REFUSED_PARAMS,
    )
    return [(e, c, err, float(at)) for e, c, err, at in cursor.fetchall()]


def failing(store: Store) -> list[Failing]:
    """Every undelivered row whose last attempt failed, in the order their events happened."""
    with store.read() as cursor:
        return _failing(cursor)


def refused(store: Store) -> list[Refused]:
    """Every row sent that the mail server refused for some of its recipients, in the order they were sent:
    (event id, channel, whom it refused, when sent); a row an admin dismissed (:func:`dismiss_refused`) is not."""
    with store.read() as cursor:
        return _refused(cursor)


def problems(store: Store) -> tuple[list[Failing], list[Refused]]:
    """:func:`failing` and :func:`refused`, in one read (home shows both to an admin at every rerun)."""
    with store.read() as cursor:
        return _failing(cursor), _refused(cursor)


def status(store: Store) -> OutboxStatus:
    """Counts of the outbox's rows (a dismissed row apart from the delivered ones: it was never sent), every
    row whose last attempt failed, and every row sent that the mail server refused for some recipients, in one
    read."""
    with store.read() as cursor:
        cursor.execute(
            "SELECT COALESCE(SUM(CASE WHEN delivered_at IS NOT NULL AND last_error NOT LIKE ? THEN 1 ELSE 0 END), 0),"
            " COALESCE(SUM(CASE WHEN delivered_at IS NULL AND attempts = 0 THEN 1 ELSE 0 END), 0),"
            " COALESCE(SUM(CASE WHEN delivered_at IS NOT NULL AND last_error LIKE ? THEN 1 ELSE 0 END), 0)"
            " FROM notify_outbox WHERE channel <> ?",
            (f"{DISMISSED}%", f"{DISMISSED}%", NO_CHANNEL),
        )
        sent, pending, given_up = cursor.fetchone()
        return OutboxStatus(int(sent), int(pending), _failing(cursor), int(given_up), _refused(cursor))


#: The outbox row that holds the scans' place in the checkpoint history (nothing is sent for it).
CURSOR_ID = "cursor/" + NO_CHANNEL


@dataclass(frozen=True)
class Cursor:
    """Where the scans stand in the checkpoint history (checkpoint ids, which LangGraph makes in time order).

    Attributes:
        first: The newest head when notifications were first on: history before it is not news ("": none).
        last: The newest head the last completed scan read: threads whose head is past it have moved since.
    """

    first: str
    last: str


def scan_cursor(store: Store) -> Cursor | None:
    """The scans' place (None before the first scan of this database)."""
    with store.read() as cursor:
        cursor.execute("SELECT episode, facts FROM notify_outbox WHERE id = ?", (CURSOR_ID,))
        row = cursor.fetchone()
    if row is None:
        return None
    return Cursor(str(row[0]), str(json.loads(row[1]).get("last", row[0])))


def advance_cursor(store: Store, head: str, now: float) -> None:
    """Records that a scan read every head up to ``head``: the first scan sets both ends, a later one moves
    ``last`` forward only (a slower scan that finishes after a faster one never moves it back)."""
    known = scan_cursor(store)
    if known is not None and head <= known.last:  # nothing to write: no write lock taken
        return
    lock = " FOR UPDATE" if store.backend == "postgres" else ""
    with store.transaction() as cursor:
        cursor.execute(f"SELECT facts FROM notify_outbox WHERE id = ?{lock}", (CURSOR_ID,))
        row = cursor.fetchone()
        if row is None:
            values = (CURSOR_ID, "cursor", NO_CHANNEL, "cursor", "", "", head, json.dumps({"last": head}))
            cursor.execute(_INSERT, (*values, now, now, 0, now, now, ""))
        elif head > str(json.loads(row[0]).get("last", "")):
            cursor.execute("UPDATE notify_outbox SET facts = ? WHERE id = ?", (json.dumps({"last": head}), CURSOR_ID))


def prune(store: Store, before: float) -> int:
    """Removes the delivered rows of events that are over and were delivered before ``before``; returns how many.

    An event is over when it is a deletion, or its waiting episode has a delivered ``decided`` (or closing)
    row from before ``before``: a thread still waiting keeps its rows, so a scan never finds its wait again
    as new and sends it twice; a row not delivered (failing) stays, shown, until it is. The scans' cursor
    is never removed.
    """
    with store.transaction() as cursor:
        cursor.execute(
            "DELETE FROM notify_outbox WHERE delivered_at IS NOT NULL AND delivered_at < ? AND kind <> 'cursor'"
            " AND (kind = 'deleted' OR EXISTS (SELECT 1 FROM notify_outbox c"
            " WHERE c.thread_id = notify_outbox.thread_id AND c.episode = notify_outbox.episode"
            " AND c.kind IN ('decided', 'ended') AND c.delivered_at IS NOT NULL AND c.delivered_at < ?))",
            (before, before),
        )
        return max(cursor.rowcount, 0)


def dismiss(store: Store, event_id: str, now: float) -> int:
    """Gives up on a failing event: its undelivered rows are no longer tried nor shown as failing; returns how many.

    A row's ``delivered_at`` is when the outbox was done with it: sent, or dismissed. A dismissed row keeps its
    last error after :data:`DISMISSED`, the mark that keeps it apart from the rows sent (:func:`status`; a
    sent row's error is empty, or names whom the mail server refused), and is removed with the delivered
    ones. Every release wrote that mark, so the rows an earlier one dismissed read as dismissed as they are,
    and one that still runs on the same database never sends a row this one dismissed.
    """
    with store.transaction() as cursor:
        cursor.execute(
            f"UPDATE notify_outbox SET delivered_at = ?, last_error = '{DISMISSED}' || last_error, claim_owner = NULL,"
            " claimed_until = NULL WHERE event_id = ? AND delivered_at IS NULL AND attempts > 0",
            (now, event_id),
        )
        return max(cursor.rowcount, 0)


def dismiss_refused(store: Store, event_id: str) -> int:
    """Dismisses from the warnings the event's rows sent that the mail server refused for some recipients (home,
    ``notify --status``); returns how many. They stay sent, and keep whom the server refused after :data:`SEEN`."""
    with store.transaction() as cursor:
        cursor.execute(
            f"UPDATE notify_outbox SET last_error = '{SEEN}' || last_error WHERE event_id = ? AND {_REFUSED}",
            (event_id, *_REFUSED_PARAMS),
        )
        return max(cursor.rowcount, 0)
