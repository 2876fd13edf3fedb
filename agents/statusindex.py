"""Every thread's status as last read, kept in the database, so a new process lists every thread from one table.

What a thread's status costs to find out is its head, its agent (its first checkpoint's metadata), what
waits at its head (the interrupt, decoded) and, for a settled head, LangGraph's state there
(:mod:`agents.summarytable`). A process that already listed every thread reads only the threads the
database noted changes of since (:mod:`agents.changefeed`); a new process would read them all. So each
status read is also kept here, one row per thread (``thread_status_index``): its agent, head and
checkpoint count, status, outcome, reason, action, ``waiting_since``, how many questions wait and the
waiting question itself (what the inbox and the queues list), with the change feed's position taken
before it was read (``seen``).

A row holds while the database noted no change of its thread since ``seen``: every table a status reads
feeds ``thread_changes`` (the thread's checkpoints and writes, its node-log rows, the agent's own rows),
so nothing it was computed from was written since. A new process reads every row with its thread's
latest change in one query (:func:`read`); the rows that hold are used as they are, the others' threads
are read again, and their rows replaced (:func:`save`).

A thread the table has no row of is found the same way: ``hitl_meta`` keeps the position of the last
read that left a row for every thread (``status_index_complete_at``), and every thread created or
changed since has a change noted at or after it. Where there is no such position yet, the first read
reads every thread and keeps them all. Whether a thread runs depends on its lease, which lapses with
time: a row's ``running`` is checked against the live leases on every read.

What this table and the summary table save a new process is measured by ``python
benchmarks/bench_inbox_scale.py --whole --without kept-tables`` (see :mod:`agents.summarytable`); home's
pages, which read nothing else (:mod:`agents.statuspages`), by the same benchmark without ``--whole``.
"""

from __future__ import annotations

import base64
import datetime as dt
import json
import logging
from collections import Counter
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from agents import changefeed, readcache, readmodel
from agents.db import DatabaseError, Store
from agents.schema import INDEX_COLUMNS
from agents.summarytable import decode_reason, encode_reason
from agents.texts import Text
from agents.threadstatus import UNFINISHED, ThreadStatus

logger = logging.getLogger(__name__)

#: ``hitl_meta`` key: the change feed's position of the last read that left a row for every thread.
COMPLETE_KEY = "status_index_complete_at"


@dataclass(frozen=True)
class Kept:
    """What the table holds now, checked against the change feed (see :func:`read`).

    Attributes:
        statuses: Thread id → its status, for the rows that hold.
        stale: Threads to read again: their rows do not hold, or they have none and changed since the
            table last had a row for every thread.
    """

    statuses: dict[str, ThreadStatus]
    stale: set[str]


def meta_position(cursor: Any, key: str) -> int | None:
    """A position kept in ``hitl_meta`` under ``key`` (None: none kept, or unreadable)."""
    cursor.execute("SELECT value FROM hitl_meta WHERE key = ?", (key,))
    row = cursor.fetchone()
    try:
        return int(row[0]) if row is not None else None
    except (TypeError, ValueError):
        return None


def read(store: Store) -> Kept | None:
    """The rows that hold and the threads to read again; None when the table cannot say which threads
    there are (no read has kept a row for every thread yet, or the database notes no changes)."""
    if not store.notes_changes:
        return None
    columns = ", ".join(f"i.{column}" for column in INDEX_COLUMNS)
    try:
        with store.read() as cursor:
            complete = meta_position(cursor, COMPLETE_KEY)
            if complete is None:
                return None
            pruned = changefeed.pruned_below(cursor) or 0
            cursor.execute(
                f"SELECT {columns}, c.seq FROM thread_status_index i LEFT JOIN thread_changes c USING (thread_id)"
            )
            rows = cursor.fetchall()
            cursor.execute(
                "SELECT c.thread_id FROM thread_changes c WHERE c.seq >= ? AND NOT EXISTS"
                " (SELECT 1 FROM thread_status_index i WHERE i.thread_id = c.thread_id)",
                (complete,),
            )
            stale = {row[0] for row in cursor.fetchall()}
    except DatabaseError as error:  # a read-only file the project never set up
        logger.info("thread status index not read: %s", error)
        return None
    statuses: dict[str, ThreadStatus] = {}
    reasons: dict[str, tuple[str, Text | None]] = {}  # a reason kept by many rows is decoded once
    for values in rows:
        thread_id, seen, changed_at = values[0], values[-2], values[-1]
        # A row holds when no change of its thread was noted since it was read; a row without any change
        # noted is of a thread older than the feed, unless changes before it were pruned (its deletion's).
        if changed_at is not None:
            holds = isinstance(seen, int) and changed_at < seen
        else:
            holds = isinstance(seen, int) and seen >= pruned
        status = _decoded(store, values[:-1], reasons) if holds else None
        if status is None:
            stale.add(thread_id)
        else:
            statuses[thread_id] = status
    return Kept(statuses, stale)


def _decoded(store: Store, values: Sequence[Any], reasons: dict[str, tuple[str, Text | None]]) -> ThreadStatus | None:
    """The status a row keeps (None: a row garbled by another writer, read again)."""
    try:
        (thread_id, agent, head, count, status, outcome, code, reason, action, _since, waiting, payload, _seen) = values
        updated = readmodel.checkpoint_time(head)
        words = reasons.get(reason)
        if words is None:
            decoded = decode_reason(reason) if reason else ""
            words = reasons[reason] = (str(decoded), decoded if isinstance(decoded, Text) else None)
        found = ThreadStatus(
            thread_id,
            agent,
            status,
            outcome,
            code,
            words[0],
            action,
            updated,
            int(count),
            head,
            _payload(store, payload),
            words[1],
            updated if status in UNFINISHED else None,
            int(waiting),
        )
    except (ValueError, KeyError, TypeError, IndexError):
        return None
    return found


def _payload(store: Store, stored: str | None) -> Any:
    if not stored:
        return None
    data = json.loads(stored)
    if "json" in data:
        return data["json"]
    return store.saver.serde.loads_typed((data["type"], base64.b64decode(data["bytes"])))


def _encode_payload(store: Store, payload: Any) -> str | None:
    """The waiting question as kept: JSON when it reads back the same, else as LangGraph's serializer keeps it."""
    if payload is None:
        return None
    try:
        text = json.dumps({"json": payload}, ensure_ascii=False)
        if json.loads(text)["json"] == payload:
            return text
    except (TypeError, ValueError):
        pass
    type_, blob = store.saver.serde.dumps_typed(payload)
    return json.dumps({"type": type_, "bytes": base64.b64encode(blob).decode("ascii")})


def _row(store: Store, status: ThreadStatus, seen: int) -> tuple[Any, ...]:
    reason = status.reason_text if status.reason_text is not None else status.reason
    return (
        status.thread_id,
        status.agent,
        status.head_checkpoint_id,
        status.checkpoint_count,
        status.status,
        status.outcome,
        status.reason_code,
        encode_reason(reason) if reason else "",
        status.action,
        status.waiting_since.astimezone(dt.UTC).isoformat() if status.waiting_since else None,
        status.waiting_count,
        _encode_payload(store, status.payload),
        seen,
    )


def save(
    store: Store, statuses: Iterable[ThreadStatus], seen: int, *, gone: Collection[str] = (), complete: bool = False
) -> bool:
    """Keeps ``statuses``, read after the change feed stood at ``seen``, and takes out the rows of the
    threads in ``gone`` (found deleted) that were read before; ``complete``: every thread the database
    holds is among ``statuses`` or was kept before (the table then says which threads there are).

    Best effort, as :func:`agents.summarytable.save`: a row that cannot be written is logged and left
    out (the thread is read again by the next new process). A row read before the one kept (a smaller
    ``seen``, written late by a slower reader) does not replace it. Returns whether everything was written.
    """
    if store.read_only or not store.notes_changes:
        return False
    updates = ", ".join(f"{column} = excluded.{column}" for column in INDEX_COLUMNS[1:])
    upsert = (
        f"INSERT INTO thread_status_index ({', '.join(INDEX_COLUMNS)})"
        f" VALUES ({', '.join('?' * len(INDEX_COLUMNS))}) ON CONFLICT (thread_id) DO UPDATE SET {updates}"
        " WHERE thread_status_index.seen <= excluded.seen"
    )
    rows = [_row(store, status, seen) for status in statuses]
    try:
        if rows:
            store.write_if_free(upsert, rows)
        if gone:  # a row another process read after ``seen`` found the thread again: it stays
            store.write_if_free(
                "DELETE FROM thread_status_index WHERE thread_id = ? AND seen <= ?", [(t, seen) for t in gone]
            )
        if complete:
            store.write_if_free(_SET_META, [(COMPLETE_KEY, str(seen))])
    except Exception as error:  # noqa: BLE001 - an index that cannot be written must not fail a read
        logger.info("thread status index not kept (%d threads): %s", len(rows), error)
        return False
    return True


def kept_ids(store: Store) -> set[str]:
    """Every thread the table has a row of (none when it cannot be read)."""
    try:
        with store.read() as cursor:
            cursor.execute("SELECT thread_id FROM thread_status_index")
            return {row[0] for row in cursor.fetchall()}
    except DatabaseError:
        return set()


def stale(store: Store, running: Collection[str], agents: Collection[str]) -> set[str] | None:
    """The threads whose rows may not hold now, found without reading every row; None when the table
    cannot say which threads there are (no read has kept a row for every thread, or changes since it
    may have been pruned).

    The last read that left a row for every thread (at ``status_index_complete_at``) left each row true
    as of its position, so a row that does not hold now is of a thread changed since (its change noted
    at or after the row's ``seen``, or a thread without a row), one whose ``running`` differs from the
    leases live now, or one kept by a process with other agents (read again by this one's).
    """
    if not store.notes_changes:
        return None
    ordered = sorted(agents)
    try:
        with store.read() as cursor:
            complete = meta_position(cursor, COMPLETE_KEY)
            if complete is None or complete < (changefeed.pruned_below(cursor) or 0):
                return None
            cursor.execute(
                "SELECT c.thread_id FROM thread_changes c LEFT JOIN thread_status_index i USING (thread_id)"
                " WHERE c.seq >= ? AND (i.seen IS NULL OR c.seq >= i.seen)",
                (complete,),
            )
            found = {row[0] for row in cursor.fetchall()}
            cursor.execute("SELECT thread_id FROM thread_status_index WHERE status = 'running'")
            found |= {row[0] for row in cursor.fetchall()} ^ set(running)
            # each range between the agents' names is an index seek, whatever the number of rows
            ranges, bounds = ["1 = 1"], []
            if ordered:
                ranges = ["agent < ?", *["(agent > ? AND agent < ?)"] * (len(ordered) - 1), "agent > ?"]
                between = [name for pair in zip(ordered, ordered[1:], strict=False) for name in pair]
                bounds = [ordered[0], *between, ordered[-1]]
            cursor.execute(f"SELECT thread_id FROM thread_status_index WHERE {' OR '.join(ranges)}", bounds)
            found |= {row[0] for row in cursor.fetchall()}
            cursor.execute("SELECT thread_id FROM thread_status_index WHERE reason_code = 'unknown_agent'")
            found |= {row[0] for row in cursor.fetchall()}
    except DatabaseError as error:  # a read-only file the project never set up
        logger.info("thread status index not read: %s", error)
        return None
    return found


def page_rows(
    store: Store, *, agent: str | None, unfinished: bool, newest_first: bool, limit: int, offset: int
) -> list[tuple[Any, ...]]:
    """One page of rows in a list's order (by head, then thread id; oldest first or newest first)."""
    sql, args = page_query(store, agent=agent, unfinished=unfinished, newest_first=newest_first)
    with store.read() as cursor:
        cursor.execute(sql, (*args, limit, offset))
        return list(cursor.fetchall())


def page_query(store: Store, *, agent: str | None, unfinished: bool, newest_first: bool) -> tuple[str, list[str]]:
    """The SQL of one page of rows (its last two parameters the limit and the offset) and its other parameters.

    The rows are in code point order, as Python sorts: on PostgreSQL the ids are compared ``COLLATE "C"``,
    the collation their columns are declared with (:data:`agents.schema.CODE_ORDER_COLUMNS`), so an index
    serves the page (the partial indexes on ``status <> 'done'`` for the unfinished rows) rather than a sort
    of every row.
    """
    where, args = [], []
    if unfinished:
        where.append("status <> 'done'")
    if agent is not None:
        where.append("agent = ?")
        args.append(agent)
    way = " DESC" if newest_first else ""
    collate = ' COLLATE "C"' if store.backend == "postgres" else ""
    order = f"head_checkpoint_id{collate}{way}, thread_id{collate}{way}"
    clause = f" WHERE {' AND '.join(where)}" if where else ""
    return f"SELECT {', '.join(INDEX_COLUMNS)} FROM thread_status_index{clause} ORDER BY {order} LIMIT ? OFFSET ?", args


def decoded(store: Store, rows: Iterable[Sequence[Any]]) -> tuple[list[ThreadStatus], list[str]]:
    """(the statuses these rows keep, in order; the threads whose rows cannot be read back)."""
    found, garbled = [], []
    reasons: dict[str, tuple[str, Text | None]] = {}
    made = readcache.cache_for(store, "status-rows")  # a row (every column) decoded once per process
    for values in rows:
        status = made.lookup(tuple(values))
        if status is None:
            status = _decoded(store, values, reasons)
            if status is not None:
                made.put(tuple(values), status)
        if status is None:
            garbled.append(values[0])
        else:
            found.append(status)
    return found, garbled


def open_counts(store: Store, agent: str | None = None) -> Counter[str]:
    """How many rows (or one agent's) have each status but ``done``: status → count.

    Counted by the database, one row per agent and status, from the index of the unfinished rows' agent
    and status (``thread_status_index_open_counts``): no table row is read, and no row of a thread done.
    """
    where, args = "status <> 'done'", tuple[str, ...]()
    if agent is not None:
        where, args = f"{where} AND agent = ?", (agent,)
    with store.read() as cursor:
        cursor.execute(
            f"SELECT agent, status, COUNT(*) FROM thread_status_index WHERE {where} GROUP BY agent, status", args
        )
        found: Counter[str] = Counter()
        for _agent, status, count in cursor.fetchall():
            found[status] += int(count)
    return found


def overdue_count(store: Store, agent: str, before: dt.datetime) -> int:
    """How many of the agent's waiting or attention threads have waited since before ``before``.

    ``waiting_since`` is kept as ISO 8601 in UTC, whose text order is its time order (a time on the second
    leaves the fraction out, and ``+`` sorts before ``.``).
    """
    cutoff = before.astimezone(dt.UTC).isoformat()
    with store.read() as cursor:
        cursor.execute(
            "SELECT COUNT(*) FROM thread_status_index WHERE status IN ('waiting', 'attention') AND agent = ?"
            " AND waiting_since < ?",
            (agent, cutoff),
        )
        return int(cursor.fetchone()[0])


_SET_META = "INSERT INTO hitl_meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value"
