"""The read-model's SQL: one interface, one small implementation per backend.

The read-model (:mod:`agents.readmodel`) reads a thread's chain, its tasks and
its interrupts from the checkpointer's own tables without deserialising a
checkpoint. The tables differ by backend: ``SqliteSaver`` keeps JSON-text
metadata and a ``writes`` table; ``PostgresSaver`` keeps ``jsonb`` metadata,
a ``checkpoint_writes`` table with a ``blob`` column, and channel values in
``checkpoint_blobs``. Each class below answers the same questions in its own
backend's SQL; the shapes of the returned rows are the same.

What reading them so saves against LangGraph's ``get_state_history`` is measured by
``python benchmarks/bench_checkpoint_graph.py`` (see :mod:`agents.readmodel`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

#: The channels of the writes that hold the answers a task took from ``interrupt()``, and its error.
RESUME_CHANNEL, ERROR_CHANNEL = "__resume__", "__error__"
#: Write channels that LangGraph uses for bookkeeping rather than node output.
SPECIAL_CHANNELS = (ERROR_CHANNEL, "__interrupt__", RESUME_CHANNEL, "__scheduled__")
#: The task id of writes addressed to the whole graph (e.g. a resume value).
NULL_TASK_ID = "00000000-0000-0000-0000-000000000000"
_SPECIAL = ", ".join(f"'{name}'" for name in SPECIAL_CHANNELS)

Rows = list[tuple[Any, ...]]

#: A task's state from its writes, in one aggregate (the database computes an aggregate named twice once):
#: 2 when it wrote a channel that is not bookkeeping (completed), else 1 when it wrote an interrupt, else 0.
#: A simple ``CASE channel WHEN ...`` compares each write's channel once per name; SQLite evaluates it
#: faster than ``NOT IN`` followed by ``=`` (about 2.5 ms of 22 on a 10,000-checkpoint thread).
_TASK_STATE = (
    "MAX(CASE channel"
    + "".join(f" WHEN '{name}' THEN {int(name == '__interrupt__')}" for name in SPECIAL_CHANNELS)
    + " ELSE 2 END)"
)


class ReadQueries(Protocol):
    """The questions the read-model asks of the checkpointer's tables (root namespace only)."""

    def chain(self, cursor: Any, thread_id: str) -> Rows:
        """(checkpoint id, parent id, step, source), oldest first."""

    def tasks(self, cursor: Any, thread_id: str) -> Rows:
        """(checkpoint id, task id, task path, completed, interrupted), one row per task, in no set
        order. A task is completed when it wrote a channel that is not bookkeeping, interrupted when it
        wrote an interrupt and nothing else yet. A task's path is the greatest of its writes' paths: an
        ``update_state`` that reused a node's task writes ``~__interrupt__, <i>``, which sorts before
        the node's own ``~__pregel_pull, <node>``."""

    def links(self, cursor: Any, thread_id: str) -> Rows:
        """(checkpoint id, parent id), oldest first: the key and parent columns only, no metadata."""

    def chain_of(self, cursor: Any, thread_id: str, checkpoint_ids: Sequence[str]) -> Rows:
        """The rows of :meth:`chain` of these checkpoints only, oldest first."""

    def tasks_of(self, cursor: Any, thread_id: str, checkpoint_ids: Sequence[str]) -> Rows:
        """The rows of :meth:`tasks` of these checkpoints only."""

    def heads(self, cursor: Any, thread_id: str | None = None) -> Rows:
        """(thread id, checkpoint count, first checkpoint id, head id) per thread (or of one), from the key
        columns only."""

    def head_interrupts(self, cursor: Any, thread_id: str | None = None) -> Rows:
        """(thread id, checkpoint id, task id, task path, type, blob) of the unanswered ``__interrupt__``
        writes at thread heads (or one thread's), in one query (a task is unanswered while it wrote
        nothing but bookkeeping)."""

    def head_writes(self, cursor: Any, heads: Sequence[tuple[str, str]]) -> Rows:
        """(thread id, task id, index, channel, blob of an ``__error__`` write else None) of the root
        namespace's writes at these (thread id, checkpoint id) pairs, in no set order: besides the
        checkpoint itself, all that LangGraph's state at a checkpoint reads to say what runs next and
        which task raised."""

    def head_checkpoints(self, cursor: Any, heads: Sequence[tuple[str, str]]) -> Rows:
        """(thread id, serializer type, blob, metadata text) of these (thread id, checkpoint id) pairs'
        checkpoints, to tell whether they can be decoded; the type is None where the checkpoint is not one
        blob (PostgreSQL keeps its values apart), which only LangGraph's own read can tell."""

    def head_blobs(self, cursor: Any, heads: Sequence[tuple[str, str]]) -> Rows:
        """(thread id, serializer type, blob) of the values these heads keep apart from their checkpoint
        (PostgreSQL's ``checkpoint_blobs`` rows at each head's channel versions), in one query per 400; none
        where a checkpoint is one blob (SQLite), which :meth:`head_checkpoints` gives."""

    def writes_between(self, cursor: Any, thread_id: str, first_id: str, last_id: str) -> Rows:
        """(checkpoint id, task id, task path, channel, type, blob) of the writes of checkpoints
        ``first_id`` to ``last_id`` (inclusive; one checkpoint when they are equal), each checkpoint's
        ordered by task path, task id and index, as LangGraph orders them."""

    def interrupt_writes(self, cursor: Any, thread_ids: Sequence[str]) -> Rows:
        """(thread id, checkpoint id, type, blob) of every ``__interrupt__`` write of these threads' root
        namespace, answered or not (each checkpoint a thread waited at), by a seek on the writes table's
        key per thread, in one query per 400 threads; ordered by thread, checkpoint, task path, task, index."""

    def next_checkpoint(self, cursor: Any, thread_id: str, checkpoint_id: str) -> str | None:
        """The id of the thread's first root checkpoint after ``checkpoint_id`` (None: it is the head)."""

    def agent(self, cursor: Any, thread_id: str) -> str | None:
        """The agent named in the thread's checkpoint metadata."""

    def agents_at(self, cursor: Any, checkpoints: Sequence[tuple[str, str]]) -> Rows:
        """(thread id, agent named in the metadata or None) of these (thread id, checkpoint id) pairs, in one
        query per 400: a thread's first checkpoint names its agent when a run of this project wrote it."""

    def language(self, cursor: Any, thread_id: str) -> str | None:
        """The run language named in the thread's first checkpoint that names one."""

    def counts(self, cursor: Any, thread_id: str) -> tuple[int, int]:
        """Rows of the thread in the checkpoint and write tables."""

    #: Where other databases share the transaction ids (PostgreSQL's server), the query of their transactions
    #: running now (one row each, its id's low 32 bits), which :meth:`change_position` and
    #: :meth:`running_writers` leave out when they are given them; None on SQLite.
    elsewhere_sql: str | None

    def change_position(self, cursor: Any, elsewhere: frozenset[int] = frozenset()) -> int:
        """Where ``thread_changes`` stands: every change committed later has a ``seq`` at least this
        (see :mod:`agents.changefeed`). ``elsewhere``: transactions known to be of another database."""

    def running_writers(self, cursor: Any, elsewhere: frozenset[int] = frozenset()) -> frozenset[int]:
        """The transactions still running that may write this database, by id (the ``seq`` their changes
        get): the ones that hold :meth:`change_position` back. None on SQLite, whose writers take the file's
        write lock one at a time."""


def _one_thread(column: str, thread_id: str | None) -> tuple[str, tuple[Any, ...]]:
    """The SQL and parameter that keep a query to one thread (none: every thread)."""
    return ("", ()) if thread_id is None else (f" AND {column} = ?", (thread_id,))


def _among_ids(checkpoint_ids: Sequence[str]) -> str:
    """The condition that keeps only these checkpoints' rows (one placeholder at least, so the SQL stays valid)."""
    return f" AND checkpoint_id IN ({', '.join('?' * max(1, len(checkpoint_ids)))})"


def _rows(cursor: Any, sql: str, params: tuple[Any, ...] = ()) -> Rows:
    cursor.execute(sql, params)
    return list(cursor.fetchall())


#: (thread, checkpoint) pairs per query of :meth:`ReadQueries.head_writes` (two parameters each), or values
#: per query of :func:`rows_in`: well inside SQLite's and PostgreSQL's limits.
_PAIRS_PER_QUERY = 400


def rows_in(cursor: Any, sql: str, values: Sequence[str], tail: str = "") -> Rows:
    """The rows of ``sql`` + `` IN (…)`` + ``tail`` for all ``values``, in queries of at most 400 of them."""
    found: Rows = []
    for start in range(0, len(values), _PAIRS_PER_QUERY):
        chunk = tuple(values[start : start + _PAIRS_PER_QUERY])
        found += _rows(cursor, f"{sql} IN ({', '.join('?' * len(chunk))}){tail}", chunk)
    return found


def _per_head(cursor: Any, heads: Sequence[tuple[str, str]], select: str) -> Rows:
    """``select``'s rows for each (thread id, checkpoint id) of ``heads``, named ``heads h`` in it, in
    queries of at most :data:`_PAIRS_PER_QUERY` pairs."""
    found: Rows = []
    for start in range(0, len(heads), _PAIRS_PER_QUERY):
        chunk = heads[start : start + _PAIRS_PER_QUERY]
        found += _rows(
            cursor,
            f"WITH heads (thread_id, checkpoint_id) AS (VALUES {', '.join(['(?, ?)'] * len(chunk))}){select}",
            tuple(value for pair in chunk for value in pair),
        )
    return found


class _ChainQueries:
    """A thread's chain and tasks, in one backend's SQL: its metadata fields, its writes table, its "any"."""

    _step: str  # the metadata's step, as an integer expression
    _source: str  # the metadata's source
    _writes: str  # the writes table
    _blob: str  # the writes table's value column

    def _chain(self, ids: str) -> str:
        return (
            f"SELECT checkpoint_id, parent_checkpoint_id, {self._step}, {self._source}"
            f" FROM checkpoints WHERE thread_id = ? AND checkpoint_ns = ''{ids} ORDER BY checkpoint_id"
        )

    def _tasks(self, ids: str) -> str:
        # Grouped in primary-key order: one row per task, no sort (the read-model orders a checkpoint's tasks).
        return (
            f"SELECT checkpoint_id, task_id, MAX(task_path), {_TASK_STATE} = 2, {_TASK_STATE} = 1 FROM {self._writes}"
            f" WHERE thread_id = ? AND checkpoint_ns = '' AND task_id != ?{ids} GROUP BY checkpoint_id, task_id"
        )

    def chain(self, cursor: Any, thread_id: str) -> Rows:
        return _rows(cursor, self._chain(""), (thread_id,))

    def tasks(self, cursor: Any, thread_id: str) -> Rows:
        return _rows(cursor, self._tasks(""), (thread_id, NULL_TASK_ID))

    def links(self, cursor: Any, thread_id: str) -> Rows:
        return _rows(
            cursor,
            "SELECT checkpoint_id, parent_checkpoint_id FROM checkpoints"
            " WHERE thread_id = ? AND checkpoint_ns = '' ORDER BY checkpoint_id",
            (thread_id,),
        )

    def chain_of(self, cursor: Any, thread_id: str, checkpoint_ids: Sequence[str]) -> Rows:
        return _rows(cursor, self._chain(_among_ids(checkpoint_ids)), (thread_id, *(checkpoint_ids or ("",))))

    def tasks_of(self, cursor: Any, thread_id: str, checkpoint_ids: Sequence[str]) -> Rows:
        params = (thread_id, NULL_TASK_ID, *(checkpoint_ids or ("",)))
        return _rows(cursor, self._tasks(_among_ids(checkpoint_ids)), params)

    def head_writes(self, cursor: Any, heads: Sequence[tuple[str, str]]) -> Rows:
        # Each pair is a seek on the writes table's primary key. ``CROSS JOIN`` keeps the pairs the outer
        # loop in SQLite: with ``IN`` it scans the table, with ``JOIN`` it may build an automatic index of
        # the whole table first (1.3 s per query at 10,000 threads). PostgreSQL plans it as a join.
        return _per_head(
            cursor,
            heads,
            " SELECT w.thread_id, w.task_id, w.idx, w.channel,"
            f" CASE WHEN w.channel = '__error__' THEN w.{self._blob} END FROM heads h CROSS JOIN {self._writes} w"
            " WHERE w.thread_id = h.thread_id AND w.checkpoint_ns = '' AND w.checkpoint_id = h.checkpoint_id",
        )

    def interrupt_writes(self, cursor: Any, thread_ids: Sequence[str]) -> Rows:
        return rows_in(
            cursor,
            f"SELECT thread_id, checkpoint_id, type, {self._blob} FROM {self._writes}"
            " WHERE checkpoint_ns = '' AND channel = '__interrupt__' AND thread_id",
            thread_ids,
            " ORDER BY thread_id, checkpoint_id, task_path, task_id, idx",
        )

    def next_checkpoint(self, cursor: Any, thread_id: str, checkpoint_id: str) -> str | None:
        rows = _rows(
            cursor,
            "SELECT MIN(checkpoint_id) FROM checkpoints WHERE thread_id = ? AND checkpoint_ns = ''"
            " AND checkpoint_id > ?",
            (thread_id, checkpoint_id),
        )
        return rows[0][0] if rows else None

    def _meta(self, key: str) -> str:
        """The metadata's ``key``, as a text expression (NULL where it is missing)."""
        raise NotImplementedError

    def heads(self, cursor: Any, thread_id: str | None = None) -> Rows:
        # The primary key's index covers these columns: no metadata or blob is read.
        one, params = _one_thread("thread_id", thread_id)
        return _rows(
            cursor,
            "SELECT thread_id, COUNT(*), MIN(checkpoint_id), MAX(checkpoint_id)"
            f" FROM checkpoints WHERE checkpoint_ns = ''{one} GROUP BY thread_id",
            params,
        )

    def writes_between(self, cursor: Any, thread_id: str, first_id: str, last_id: str) -> Rows:
        return _rows(
            cursor,
            f"SELECT checkpoint_id, task_id, task_path, channel, type, {self._blob} FROM {self._writes}"
            " WHERE thread_id = ? AND checkpoint_ns = '' AND checkpoint_id BETWEEN ? AND ?"
            " ORDER BY checkpoint_id, task_path, task_id, idx",
            (thread_id, first_id, last_id),
        )

    def _first_meta(self, cursor: Any, thread_id: str, key: str) -> str | None:
        """The first of the thread's checkpoints' ``key`` in their metadata, or None."""
        rows = _rows(
            cursor,
            f"SELECT {self._meta(key)} FROM checkpoints WHERE thread_id = ? AND checkpoint_ns = ''"
            f" AND {self._meta(key)} IS NOT NULL ORDER BY checkpoint_id LIMIT 1",
            (thread_id,),
        )
        return rows[0][0] if rows else None

    def agent(self, cursor: Any, thread_id: str) -> str | None:
        return self._first_meta(cursor, thread_id, "agent")

    def language(self, cursor: Any, thread_id: str) -> str | None:
        return self._first_meta(cursor, thread_id, "lang")

    def counts(self, cursor: Any, thread_id: str) -> tuple[int, int]:
        checkpoints = _rows(cursor, "SELECT COUNT(*) FROM checkpoints WHERE thread_id = ?", (thread_id,))
        writes = _rows(cursor, f"SELECT COUNT(*) FROM {self._writes} WHERE thread_id = ?", (thread_id,))
        return int(checkpoints[0][0]), int(writes[0][0])


#: A checkpoint's metadata as JSON only where it is JSON: a row another writer garbled names no agent or
#: language (its thread shows as damaged), instead of failing the read of every thread.
_VALID_JSON = "CASE WHEN json_valid(CAST(metadata AS TEXT)) THEN"


class SqliteQueries(_ChainQueries):
    """``SqliteSaver``'s tables: ``checkpoints`` (JSON-text metadata) and ``writes``."""

    _step = "json_extract(CAST(metadata AS TEXT), '$.step')"
    _source = "json_extract(CAST(metadata AS TEXT), '$.source')"
    _writes = "writes"
    _blob = "value"

    def _meta(self, key: str) -> str:
        return f"{_VALID_JSON} json_extract(CAST(metadata AS TEXT), '$.{key}') END"

    def head_checkpoints(self, cursor: Any, heads: Sequence[tuple[str, str]]) -> Rows:
        return _per_head(
            cursor,
            heads,
            " SELECT c.thread_id, c.type, c.checkpoint, CAST(c.metadata AS TEXT) FROM heads h CROSS JOIN"
            " checkpoints c WHERE c.thread_id = h.thread_id AND c.checkpoint_ns = ''"
            " AND c.checkpoint_id = h.checkpoint_id",
        )

    def head_blobs(self, cursor: Any, heads: Sequence[tuple[str, str]]) -> Rows:
        return []

    def head_interrupts(self, cursor: Any, thread_id: str | None = None) -> Rows:
        # The heads from the checkpoints' primary-key index (no metadata read), then each head's writes by a
        # seek on the writes table's primary key, so the writes are never scanned: at 10,000 threads a scan
        # read every write (257,000 rows, a 516 MB file) on each status read after a change. ``CROSS JOIN``
        # keeps the heads the outer loop (see ``head_writes``).
        one, params = _one_thread("thread_id", thread_id)
        return _rows(
            cursor,
            "WITH heads (thread_id, checkpoint_id) AS (SELECT thread_id, MAX(checkpoint_id) FROM checkpoints"
            f"  WHERE checkpoint_ns = ''{one} GROUP BY thread_id)"
            " SELECT w.thread_id, w.checkpoint_id, w.task_id, w.task_path, w.type, w.value"
            " FROM heads h CROSS JOIN writes w"
            " WHERE w.thread_id = h.thread_id AND w.checkpoint_ns = '' AND w.checkpoint_id = h.checkpoint_id"
            " AND w.channel = '__interrupt__'"
            " AND NOT EXISTS (SELECT 1 FROM writes d WHERE d.thread_id = w.thread_id"
            "  AND d.checkpoint_ns = '' AND d.checkpoint_id = w.checkpoint_id"
            f"  AND d.task_id = w.task_id AND d.channel NOT IN ({_SPECIAL}))"
            " ORDER BY w.checkpoint_id, w.thread_id, w.task_path, w.task_id, w.idx",
            params,
        )

    def agents_at(self, cursor: Any, checkpoints: Sequence[tuple[str, str]]) -> Rows:
        return _per_head(
            cursor,
            checkpoints,
            f" SELECT c.thread_id, {_VALID_JSON} json_extract(CAST(c.metadata AS TEXT), '$.agent') END"
            " FROM heads h CROSS JOIN checkpoints c WHERE c.thread_id = h.thread_id AND c.checkpoint_ns = ''"
            " AND c.checkpoint_id = h.checkpoint_id",
        )

    elsewhere_sql: str | None = None

    def change_position(self, cursor: Any, elsewhere: frozenset[int] = frozenset()) -> int:
        # Writers take the write lock one at a time: the next change gets the next number.
        return int(_rows(cursor, "SELECT COALESCE(MAX(seq), 0) + 1 FROM thread_changes")[0][0])

    def running_writers(self, cursor: Any, elsewhere: frozenset[int] = frozenset()) -> frozenset[int]:
        return frozenset()


#: The transactions of sessions of another database of the server, by their id's low 32 bits (as the
#: sessions' ``backend_xid`` gives them). Run on its own, not in a read's snapshot: the view is read once per
#: transaction, and must be read before the snapshot whose running transactions it names.
_ELSEWHERE_NOW = """
SELECT backend_xid::text::bigint FROM pg_stat_activity
WHERE backend_xid IS NOT NULL AND datname IS NOT NULL AND datname <> current_database()"""


class PostgresQueries(_ChainQueries):
    """``PostgresSaver``'s tables: ``checkpoints`` (jsonb metadata) and ``checkpoint_writes``."""

    _step = "(metadata->>'step')::int"
    _source = "metadata->>'source'"
    _writes = "checkpoint_writes"
    _blob = "blob"

    def _meta(self, key: str) -> str:
        return f"metadata->>'{key}'"

    def head_checkpoints(self, cursor: Any, heads: Sequence[tuple[str, str]]) -> Rows:
        return [(thread_id, None, None, None) for thread_id, _head in heads]

    def head_blobs(self, cursor: Any, heads: Sequence[tuple[str, str]]) -> Rows:
        # The blobs LangGraph's read joins to a checkpoint: one per channel at the version the head names.
        return _per_head(
            cursor,
            heads,
            " SELECT c.thread_id, b.type, b.blob FROM heads h JOIN checkpoints c ON c.thread_id = h.thread_id"
            " AND c.checkpoint_ns = '' AND c.checkpoint_id = h.checkpoint_id"
            " CROSS JOIN LATERAL jsonb_each_text(c.checkpoint -> 'channel_versions') v"
            " JOIN checkpoint_blobs b ON b.thread_id = c.thread_id AND b.checkpoint_ns = ''"
            " AND b.channel = v.key AND b.version = v.value",
        )

    def head_interrupts(self, cursor: Any, thread_id: str | None = None) -> Rows:
        one, params = _one_thread("thread_id", thread_id)
        return _rows(
            cursor,
            "WITH heads AS (SELECT DISTINCT ON (thread_id) thread_id, checkpoint_id"
            f"  FROM checkpoints WHERE checkpoint_ns = ''{one} ORDER BY thread_id, checkpoint_id DESC)"
            " SELECT w.thread_id, w.checkpoint_id, w.task_id, w.task_path, w.type, w.blob"
            " FROM checkpoint_writes w JOIN heads h USING (thread_id, checkpoint_id)"
            " WHERE w.checkpoint_ns = '' AND w.channel = '__interrupt__'"
            " AND NOT EXISTS (SELECT 1 FROM checkpoint_writes d WHERE d.thread_id = w.thread_id"
            "  AND d.checkpoint_ns = '' AND d.checkpoint_id = w.checkpoint_id"
            f"  AND d.task_id = w.task_id AND d.channel NOT IN ({_SPECIAL}))"
            " ORDER BY w.checkpoint_id, w.thread_id, w.task_path, w.task_id, w.idx",
            params,
        )

    def agents_at(self, cursor: Any, checkpoints: Sequence[tuple[str, str]]) -> Rows:
        return _per_head(
            cursor,
            checkpoints,
            " SELECT c.thread_id, c.metadata->>'agent' FROM heads h JOIN checkpoints c"
            " ON c.thread_id = h.thread_id AND c.checkpoint_ns = '' AND c.checkpoint_id = h.checkpoint_id",
        )

    elsewhere_sql: str | None = _ELSEWHERE_NOW

    def change_position(self, cursor: Any, elsewhere: frozenset[int] = frozenset()) -> int:
        # The oldest transaction still running that may write this database: every transaction that
        # commits later has an id at least this. Transaction ids are the whole server's, so one running
        # long in another database would hold the position back (and make reads look at more threads);
        # such a one is left out when it is in ``elsewhere`` (looked up before this snapshot, as
        # ``agents.changefeed`` does). One that is not (started since, a prepared one) counts.
        return int(_rows(cursor, _POSITION, (sorted(elsewhere),))[0][0])

    def running_writers(self, cursor: Any, elsewhere: frozenset[int] = frozenset()) -> frozenset[int]:
        # The same transactions as the position's, in the transaction's snapshot (a read is one snapshot).
        return frozenset(int(row[0]) for row in _rows(cursor, _RUNNING, (sorted(elsewhere),)))


#: A running transaction (``x``, of the snapshot's list) known to be of another database of the server: its
#: id among those given (``?``), looked up before the snapshot was taken.
_ELSEWHERE = "mod(x::text::bigint, 4294967296) = ANY(?::bigint[])"

_POSITION = f"""
WITH now AS (SELECT pg_current_snapshot() AS snap)
SELECT LEAST(
    pg_snapshot_xmax(now.snap)::text::bigint,
    (SELECT MIN(x::text::bigint) FROM pg_snapshot_xip(now.snap) AS x WHERE NOT {_ELSEWHERE})
) FROM now"""

_RUNNING = f"SELECT x::text::bigint FROM pg_snapshot_xip(pg_current_snapshot()) AS x WHERE NOT {_ELSEWHERE}"
