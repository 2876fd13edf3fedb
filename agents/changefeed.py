"""Which threads changed since a reader last looked: a table the database keeps up to date itself.

A thread's status is read from its checkpoints, their writes, its node-log rows and, for a finished
refund, the agent's ledger rows. Triggers on those tables (LangGraph's and the project's that declare
``TableSchema.thread_column``) note every inserted, updated or deleted row's thread in
``thread_changes``, with a sequence number, in the writer's own transaction. So a write by any path is
noted, whoever makes it: a page, the CLI, the API, another process, ``langgraph dev`` or another
LangGraph program writing through its own saver, raw SQL. The table keeps one row per thread (its
latest change), so it grows with the threads, not with the writes; the rows of deleted threads are
pruned (:func:`prune`).

A reader takes a :func:`position` before it reads anything else; :func:`changed_since` that position
later names every thread changed since (and perhaps a few more), at the cost of an indexed range
query, whatever the number of threads:

* SQLite: writers take the file's write lock one at a time, so the sequence is a counter (the
  largest plus one) and the position is the next number;
* PostgreSQL: transactions commit in any order, so the sequence is the writer's transaction id and the
  position the oldest transaction still running when it was taken that may write this database (one
  of another database of the server is left out, ``readsql.PostgresQueries.change_position``, as
  :func:`_feed_read` looks them up): every transaction that commits later has an id at least as large.

``python benchmarks/bench_inbox_scale.py`` measures a read after a write at 200 and at 10,000 threads
(its goal: within 1.5× of each other).
"""

from __future__ import annotations

import logging
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from agents.schema import TableSchema

logger = logging.getLogger(__name__)

#: LangGraph's tables whose rows a thread's status reads, per backend.
LANGGRAPH_FED = {
    "sqlite": ("checkpoints", "writes"),
    "postgres": ("checkpoints", "checkpoint_blobs", "checkpoint_writes"),
}


def fed_tables(backend: str, tables: Sequence[TableSchema]) -> list[str]:
    """The tables whose changes are noted: LangGraph's and the project's with a ``thread_column``."""
    return [*LANGGRAPH_FED[backend], *(table.name for table in tables if table.thread_column)]


def _holds_feed(tables: Sequence[TableSchema]) -> bool:
    """Whether these tables hold ``thread_changes`` (a store opened with some tables only, e.g. a
    benchmark's, has no feed and no triggers writing to it)."""
    return any(table.name == "thread_changes" for table in tables)


def _thread_column(name: str, tables: Sequence[TableSchema]) -> str:
    return next((table.thread_column for table in tables if table.name == name), "thread_id")


def sqlite_triggers(tables: Sequence[TableSchema]) -> list[str]:
    """``CREATE TRIGGER`` statements noting each fed table's changes (one statement each)."""
    if not _holds_feed(tables):
        return []
    note = (
        "INSERT INTO thread_changes (thread_id, seq) VALUES ({row}.{column},"
        " (SELECT COALESCE(MAX(seq), 0) + 1 FROM thread_changes))"
        " ON CONFLICT (thread_id) DO UPDATE SET seq = excluded.seq;"
    )
    statements = []
    for name in fed_tables("sqlite", tables):
        column = _thread_column(name, tables)
        for event, rows in (("INSERT", ("NEW",)), ("UPDATE", ("OLD", "NEW")), ("DELETE", ("OLD",))):
            body = " ".join(note.format(row=row, column=column) for row in rows)
            statements.append(
                f"CREATE TRIGGER IF NOT EXISTS {name}_noted_{event.lower()} AFTER {event} ON {name}"
                f" FOR EACH ROW BEGIN {body} END"
            )
    return statements


def postgres_triggers(tables: Sequence[TableSchema]) -> list[str]:
    """The trigger function and a trigger per fed table, in the current schema (one statement each)."""
    if not _holds_feed(tables):
        return []
    statements = [
        """
CREATE OR REPLACE FUNCTION hitl_note_thread_change() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    noted BIGINT := pg_current_xact_id()::text::bigint;
BEGIN
    IF TG_OP <> 'INSERT' THEN
        INSERT INTO thread_changes (thread_id, seq) VALUES (OLD.thread_id, noted)
        ON CONFLICT (thread_id) DO UPDATE SET seq = excluded.seq WHERE thread_changes.seq < excluded.seq;
    END IF;
    IF TG_OP <> 'DELETE' THEN
        INSERT INTO thread_changes (thread_id, seq) VALUES (NEW.thread_id, noted)
        ON CONFLICT (thread_id) DO UPDATE SET seq = excluded.seq WHERE thread_changes.seq < excluded.seq;
    END IF;
    RETURN NULL;
END $$"""
    ]
    for name in fed_tables("postgres", tables):
        if _thread_column(name, tables) != "thread_id":
            raise ValueError(f"{name}: the PostgreSQL trigger reads a column named thread_id")
        statements.append(
            f"CREATE OR REPLACE TRIGGER {name}_noted AFTER INSERT OR UPDATE OR DELETE ON {name}"
            " FOR EACH ROW EXECUTE FUNCTION hitl_note_thread_change()"
        )
    return statements


@contextmanager
def _feed_read(store: Any) -> Iterator[tuple[Any, frozenset[int]]]:
    """A read of the feed, and the transactions known to be of another database of the server.

    On PostgreSQL they are looked up on the read's connection just before its snapshot is taken. Looked up
    after, a transaction of another database that ended in between could not be told from one of this
    database's, and would count as running: a busy database beside this one would then make readers read
    again the threads they had read after their latest change (``agents.statuspages``). Looked up before,
    every one running then is known; one that started since has an id larger than every change committed
    before then, and counts.
    """
    sql = store.queries.elsewhere_sql
    if sql is None:
        with store.read() as cursor:
            yield cursor, frozenset()
        return
    with store.read_after(sql) as (cursor, rows):
        yield cursor, frozenset(int(row[0]) for row in rows)


def position(store: Any) -> int | None:
    """Where the changes stand now, to ask :func:`changed_since` later; None when the database notes none
    (a read-only file the project never set up)."""
    if not store.notes_changes:
        return None
    with _feed_read(store) as (cursor, elsewhere):
        return store.queries.change_position(cursor, elsewhere)


def changed_since(store: Any, since: int) -> tuple[int, set[str]] | None:
    """(the position now, the threads changed since ``since``); None when the database notes none, or
    when changes noted after ``since`` may have been pruned (:func:`prune`): the caller reads everything."""
    if not store.notes_changes:
        return None
    with _feed_read(store) as (cursor, elsewhere):
        if since < (pruned_below(cursor) or 0):
            return None
        now = store.queries.change_position(cursor, elsewhere)
        cursor.execute("SELECT thread_id FROM thread_changes WHERE seq >= ?", (since,))
        return now, {row[0] for row in cursor.fetchall()}


@dataclass(frozen=True)
class Changes:
    """What :func:`changes_since` found, in one snapshot.

    Attributes:
        position: Where the changes stand now (:func:`position`).
        marks: Each thread changed since the position asked about → its latest change (its ``seq``).
        running: The transactions still running that may write this database (ids, as ``seq``): on
            PostgreSQL a change of a thread by one of them with an id below the thread's ``seq`` leaves the
            ``seq`` as it is, since it keeps the largest.
    """

    position: int
    marks: dict[str, int]
    running: frozenset[int]


def changes_since(store: Any, since: int | None = None) -> Changes | None:
    """As :func:`changed_since`, with each thread's latest change and the transactions still running, all
    read in one snapshot; None as there. ``since`` None: the changes the position now has not passed
    (those a later :func:`changed_since` of it finds again)."""
    if not store.notes_changes:
        return None
    with _feed_read(store) as (cursor, elsewhere):
        if since is not None and since < (pruned_below(cursor) or 0):
            return None
        now = store.queries.change_position(cursor, elsewhere)
        cursor.execute("SELECT thread_id, seq FROM thread_changes WHERE seq >= ?", (now if since is None else since,))
        marks = {row[0]: int(row[1]) for row in cursor.fetchall()}
        return Changes(now, marks, store.queries.running_writers(cursor, elsewhere))


def thread_mark(store: Any, thread_id: str) -> int | None:
    """The thread's latest change as noted (its ``seq``); None when the database notes none or has none noted
    for it (a thread untouched since an earlier release set the database up), and when a transaction still
    running could change the thread without moving the mark.

    Two equal marks read at two moments mean no row of the thread changed in between: a reader that read
    the thread after the first may keep what it read. A mark read after the thread is not worth that.

    On PostgreSQL the ``seq`` kept is the largest noted, so a change by a transaction with a smaller id that
    commits later leaves it as it is. A mark is given only when the position, read in the same snapshot,
    is past it: every transaction that commits later then has a larger id than the mark, and its change
    of the thread moves it. On SQLite the position is always past every change.
    """
    if not store.notes_changes:
        return None
    with _feed_read(store) as (cursor, elsewhere):
        now = store.queries.change_position(cursor, elsewhere)
        cursor.execute("SELECT seq FROM thread_changes WHERE thread_id = ?", (thread_id,))
        row = cursor.fetchone()
    return None if row is None or int(row[0]) >= now else int(row[0])


def pruned_below(cursor: Any) -> int | None:
    """The position below which changes may have been pruned (None: none was)."""
    cursor.execute("SELECT value FROM hitl_meta WHERE key = ?", (PRUNED_KEY,))
    row = cursor.fetchone()
    try:
        return int(row[0]) if row is not None else None
    except (TypeError, ValueError):
        return None


#: ``hitl_meta`` key: changes noted before this position may have been pruned.
PRUNED_KEY = "thread_changes_pruned_below"
#: Deleted threads whose changes are kept before they are pruned.
PRUNE_ABOVE = 256
_GONE = "NOT EXISTS (SELECT 1 FROM checkpoints k WHERE k.thread_id = c.thread_id)"


def prune(store: Any, *, above: int | None = None) -> int:
    """Deletes the noted changes of threads the database no longer holds, once there are more than
    ``above`` (default :data:`PRUNE_ABOVE`) of them; returns how many it deleted.

    A reader that took its position before the pruned changes could miss a thread's deletion, so the
    position below which changes were pruned is kept (``hitl_meta``) and such a reader reads everything
    again (:func:`changed_since`, and the kept index of statuses, whose rows of those threads go in the
    same transaction). So the table holds the threads there are and at most ``above`` deleted ones,
    plus those deleted since the last prune. On SQLite the newest change is kept, since the next
    number is the largest plus one. Best effort: a busy database is pruned by a later deletion.
    """
    if not store.notes_changes or store.read_only:
        return 0
    above = PRUNE_ABOVE if above is None else above
    with _feed_read(store) as (cursor, elsewhere):
        now = store.queries.change_position(cursor, elsewhere)
        cursor.execute(f"SELECT COUNT(*) FROM thread_changes c WHERE {_GONE}")
        count = cursor.fetchone()[0]
        cursor.execute("SELECT MAX(seq) FROM thread_changes")
        newest = cursor.fetchone()[0]
    if int(count or 0) <= above or newest is None:
        return 0
    below = min(now, int(newest))
    gone = f"SELECT c.thread_id FROM thread_changes c WHERE c.seq < ? AND {_GONE}"
    try:
        with store.transaction() as cursor:
            for table in ("thread_status_index", "thread_summaries"):
                cursor.execute(f"DELETE FROM {table} WHERE thread_id IN ({gone})", (below,))
            cursor.execute(f"DELETE FROM thread_changes WHERE thread_id IN ({gone})", (below,))
            pruned = int(cursor.rowcount or 0)
            if (pruned_below(cursor) or 0) < below:
                cursor.execute(
                    "INSERT INTO hitl_meta (key, value) VALUES (?, ?)"
                    " ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                    (PRUNED_KEY, str(below)),
                )
    except Exception as error:  # noqa: BLE001 - pruning is housekeeping; the deletion itself is done
        logger.info("thread changes of deleted threads not pruned: %s", error)
        return 0
    return pruned
