"""The PostgreSQL backend: ``PostgresSaver`` on a connection pool, and the project's tables.

Used when the database location (``HITL_DB``, ``--db`` or the secrets entry)
is a ``postgresql://`` URL. LangGraph's ``PostgresSaver`` keeps its own tables
(``checkpoints``, ``checkpoint_blobs``, ``checkpoint_writes``); the project's
tables (node log, refund ledger, leases) are created beside them in the same
database, from the same table definitions as SQLite's (:class:`agents.db.TableSchema`).

Project SQL is written once, with ``?`` placeholders and syntax both backends
share; :class:`_QmarkCursor` turns the placeholders into psycopg's ``%s``.
Unlike the SQLite store there is no process-wide lock: every transaction
takes its own pooled connection, and PostgreSQL serialises the writers.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from contextlib import ExitStack, contextmanager
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import psycopg
from langgraph.checkpoint.postgres import PostgresSaver
from psycopg import IsolationLevel
from psycopg.pq import TransactionStatus
from psycopg.rows import dict_row, tuple_row
from psycopg_pool import ConnectionPool, PoolTimeout

from agents import changefeed
from agents.db import FREE_WRITE_WAIT_SECONDS, DatabaseError, Store, db_text
from agents.db_setup import SCHEMA_VERSION, expected_tables, verified, wanted_schema
from agents.readsql import PostgresQueries
from agents.schema import ADDED_COLUMNS, CODE_ORDER_COLUMNS, TableSchema, fingerprint, project_tables, schema_text
from agents.schema_check import FoundSchema

POOL_MAX_SIZE = 10
#: The user part (``user:password@``) of any URL in a message.
_USER_PART = re.compile(r"(\w+://)[^@\s\"']*@")
CONNECT_TIMEOUT_SECONDS = 10
#: How long a request waits for a pooled connection before it asks the server whether it answers at all
#: (:meth:`PostgresStore.connection`).
POOL_FIRST_WAIT_SECONDS = 1.0
POSTGRES_TYPES = {"id_column": "BIGSERIAL PRIMARY KEY", "float_type": "DOUBLE PRECISION", "code_order": ' COLLATE "C"'}


def redact(url: str) -> str:
    """The URL without its password (in the user part or a ``password=`` parameter), for messages."""
    try:
        parts = urlsplit(url)
        parts.port  # noqa: B018 - raises on a malformed host or port, like the connection would
    except ValueError:  # unparseable: hide everything between the scheme and the host
        scheme, _, rest = url.partition("://")
        return f"{scheme}://***@{rest.rpartition('@')[2]}" if "@" in rest else f"{scheme}://{rest}"
    netloc = parts.netloc
    if parts.password is not None:
        netloc = netloc.replace(f":{parts.password}@", ":***@")
    query = (
        "&".join("password=***" if item.lower().startswith("password=") else item for item in parts.query.split("&"))
        if parts.query
        else ""
    )
    return urlunsplit(parts._replace(netloc=netloc, query=query))


#: LangGraph's PostgreSQL tables, with the columns the read-model and the saver rely on.
_LANGGRAPH_TABLES = {
    "checkpoints": {
        "thread_id",
        "checkpoint_ns",
        "checkpoint_id",
        "parent_checkpoint_id",
        "type",
        "checkpoint",
        "metadata",
    },
    "checkpoint_blobs": {"thread_id", "checkpoint_ns", "channel", "version", "type", "blob"},
    "checkpoint_writes": {
        "thread_id",
        "checkpoint_ns",
        "checkpoint_id",
        "task_id",
        "idx",
        "channel",
        "type",
        "blob",
        "task_path",
    },
}


#: LangGraph's table of the migrations its saver ran: neither read nor written here.
_OTHER_TABLES = frozenset({"checkpoint_migrations"})


#: Whether the server takes no writes, and which of the tables named (``?``) the role may not write.
_CANNOT_WRITE = """
SELECT pg_is_in_recovery() OR current_setting('default_transaction_read_only') = 'on',
    ARRAY(SELECT name FROM unnest(?::text[]) AS name WHERE to_regclass(name) IS NOT NULL
        AND NOT (has_table_privilege(to_regclass(name), 'INSERT') AND has_table_privilege(to_regclass(name), 'UPDATE')
            AND has_table_privilege(to_regclass(name), 'DELETE'))
        ORDER BY name)"""


def _expected_tables(tables: Sequence[TableSchema]) -> dict[str, set[str]]:
    """LangGraph's tables and the project's (whose column names are the same on both backends)."""
    project = {
        name: columns for name, columns in expected_tables(tables).items() if name not in ("checkpoints", "writes")
    }
    return {**_LANGGRAPH_TABLES, **project}


class _QmarkCursor:
    """A psycopg cursor that takes the project's ``?`` placeholders."""

    def __init__(self, cursor: psycopg.Cursor[Any]) -> None:
        self._cursor = cursor

    def execute(self, sql: str, params: Sequence[Any] = ()) -> _QmarkCursor:
        self._cursor.execute(sql.replace("?", "%s"), tuple(params))
        return self

    def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        self._cursor.executemany(sql.replace("?", "%s"), [tuple(r) for r in rows])

    def fetchone(self) -> tuple[Any, ...] | None:
        return self._cursor.fetchone()

    def fetchall(self) -> list[tuple[Any, ...]]:
        return self._cursor.fetchall()

    @property
    def rowcount(self) -> int:
        return self._cursor.rowcount


#: SQLSTATEs of a server that is going away or not taking connections (besides class 08, connection exceptions).
_GOING_AWAY = frozenset({"57P01", "57P02", "57P03"})


@contextmanager
def _refusals(path: str) -> Iterator[None]:
    """The server's refusals that are no fault of the code, said as :class:`~agents.db.DatabaseError` (a 503 over
    HTTP, a message on the pages and in the CLI, not an internal error): it takes no writes, the role may not
    do what was asked, or it cannot be reached (down, restarting, a connection it closed). Any other error
    (a lock timeout, a serialization failure, a bug) is raised as it is."""
    try:
        yield
    except psycopg.errors.ReadOnlySqlTransaction as error:
        raise DatabaseError(db_text("postgres_read_only", path=path)) from error
    except psycopg.errors.InsufficientPrivilege as error:
        raise DatabaseError(db_text("postgres_privilege", path=path, detail=_said(error))) from error
    except (psycopg.OperationalError, PoolTimeout) as error:
        state = getattr(error, "sqlstate", None)
        if isinstance(error, psycopg.OperationalError) and state is not None:
            if not state.startswith("08") and state not in _GOING_AWAY:
                raise
        raise DatabaseError(db_text("postgres_unreachable", path=path, detail=_said(error))) from error


def _said(error: Exception) -> str:
    """The driver's words for an error, on one line, with no user name or password of a URL in them."""
    return _USER_PART.sub(r"\1***@", " ".join(str(error).split()))


@contextmanager
def _snapshot(conn: psycopg.Connection[Any]) -> Iterator[_QmarkCursor]:
    """A cursor in one repeatable-read, read-only transaction on ``conn`` (see :meth:`PostgresStore.read`)."""
    conn.isolation_level, conn.read_only = IsolationLevel.REPEATABLE_READ, True
    try:
        with conn.transaction(), conn.cursor(row_factory=tuple_row) as cursor:
            yield _QmarkCursor(cursor)
    finally:
        if conn.info.transaction_status == TransactionStatus.IDLE:
            conn.isolation_level, conn.read_only = None, None
        else:
            conn.close()


def _order_by_code_point(cursor: _QmarkCursor) -> None:
    """Declares ``COLLATE "C"`` the columns of :data:`agents.schema.CODE_ORDER_COLUMNS` that a database of an
    older release made in its own collation (PostgreSQL then builds their indexes again)."""
    cursor.execute(
        "SELECT table_name, column_name FROM information_schema.columns WHERE table_schema = current_schema()"
        " AND collation_name IS DISTINCT FROM 'C'"
    )
    other = {(str(table), str(column)) for table, column in cursor.fetchall()}
    changes: dict[str, list[str]] = {}
    for table, column in CODE_ORDER_COLUMNS:
        if (table, column) in other:
            changes.setdefault(table, []).append(f'ALTER COLUMN {column} TYPE TEXT COLLATE "C"')
    for table, clauses in changes.items():  # one statement a table: its indexes are built again once
        cursor.execute(f"ALTER TABLE {table} {', '.join(clauses)}")


class PostgresStore(Store):
    """A PostgreSQL database shared by every replica of the dashboard."""

    backend = "postgres"

    def __init__(self, url: str, *, tables: Sequence[TableSchema] | None = None) -> None:
        self.tables = tuple(tables) if tables is not None else project_tables()
        self.schema = schema_text(self.tables, **POSTGRES_TYPES)
        self.fingerprint = fingerprint(self.schema)
        self.path = redact(url)
        self._url = url  # what connection() asks the server on, beside the pool
        self.queries = PostgresQueries()
        # PostgresSaver needs autocommit connections that return dict rows.
        self.pool = ConnectionPool(
            url,
            min_size=1,
            max_size=POOL_MAX_SIZE,
            open=False,
            kwargs={
                "autocommit": True,
                "prepare_threshold": 0,
                "row_factory": dict_row,
                "connect_timeout": CONNECT_TIMEOUT_SECONDS,
            },
        )
        try:
            # One plain connection first: a wrong URL or a server that is down fails at once,
            # where the pool would keep retrying until its timeout.
            psycopg.connect(url, connect_timeout=CONNECT_TIMEOUT_SECONDS).close()
            self.pool.open(wait=True, timeout=CONNECT_TIMEOUT_SECONDS)
            # The pool's connections return dict rows, as PostgresSaver needs; its type parameter
            # cannot say so (psycopg's ConnectionPool is typed on the plain connection).
            self.saver = PostgresSaver(self.pool)  # type: ignore[arg-type]
            self._setup()
        except (psycopg.Error, TimeoutError) as error:
            self.pool.close()
            # libpq quotes the URL it could not parse: never show its password.
            detail = _USER_PART.sub(r"\1***@", str(error).replace(url, self.path))
            raise DatabaseError(
                db_text("postgres_unusable", path=self.path, kind=type(error).__name__, detail=detail)
            ) from None

    def _setup(self) -> None:
        with self.read() as cursor:
            cursor.execute(
                "SELECT table_name, column_name FROM information_schema.columns WHERE table_schema = current_schema()"
            )
            present: dict[str, set[str]] = {}
            for table, column in cursor.fetchall():
                present.setdefault(table, set()).add(column)
            meta = None
            if {"key", "value"} <= present.get("hitl_meta", set()):
                cursor.execute("SELECT key, value FROM hitl_meta")
                meta = {str(key): str(value) for key, value in cursor.fetchall()}
            elif "hitl_meta" in present:
                meta = {}  # the column check names what it lacks
        wanted = wanted_schema("postgres", self.tables, _expected_tables(self.tables), self.fingerprint, _OTHER_TABLES)
        if not verified(self.path, FoundSchema(present, meta), wanted):
            self.notes_changes = "thread_changes" in present
            return
        self.saver.setup()
        with self.transaction() as cursor:
            # One statement at a time: the text is shared with SQLite's executescript.
            for statement in filter(str.strip, self.schema.split(";")):
                cursor.execute(statement)
            # A table of an older release gets the columns added since (agents.schema.ADDED_COLUMNS).
            for table, column, column_type in ADDED_COLUMNS:
                cursor.execute(f"ALTER TABLE IF EXISTS {table} ADD COLUMN IF NOT EXISTS {column} {column_type}")
            _order_by_code_point(cursor)
            for statement in changefeed.postgres_triggers(self.tables):  # also on a database of an older release
                cursor.execute(statement)
            cursor.executemany(
                "INSERT INTO hitl_meta (key, value) VALUES (?, ?)"
                " ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                [("schema_version", str(SCHEMA_VERSION)), ("schema_fingerprint", self.fingerprint)],
            )
        self.notes_changes = any(table.name == "thread_changes" for table in self.tables)

    @contextmanager
    def transaction(self) -> Iterator[_QmarkCursor]:
        """A cursor inside one committed-or-rolled-back transaction on a pooled connection.

        Raises:
            DatabaseError: The server takes no writes (a standby, ``default_transaction_read_only``), the role
                may not write what the transaction writes, or the server cannot be reached (:func:`_refusals`):
                the transaction changed nothing.
        """
        with _refusals(self.path), self.connection() as conn, conn.transaction():
            with conn.cursor(row_factory=tuple_row) as cursor:
                yield _QmarkCursor(cursor)

    @contextmanager
    def connection(self) -> Iterator[psycopg.Connection[Any]]:
        """A connection of the pool, given back at the end of the ``with`` block.

        One that is not free within :data:`POOL_FIRST_WAIT_SECONDS` may never come: a pool whose connections
        the server dropped (down, restarting) makes new ones in the background, and while it cannot, every
        request would wait out the pool's whole timeout (30 s) before it is told. So the server is then asked
        once, on a connection of its own: one that does not answer ends the wait with its reason
        (``psycopg.OperationalError``, which :func:`_refusals` says as "cannot be reached now"); one that does
        (the pool is only busy, or connecting again) is waited for, up to the pool's timeout in all.
        """
        with ExitStack() as held:
            try:
                conn = held.enter_context(self.pool.connection(timeout=POOL_FIRST_WAIT_SECONDS))
            except PoolTimeout:
                psycopg.connect(self._url, connect_timeout=CONNECT_TIMEOUT_SECONDS).close()
                conn = held.enter_context(self.pool.connection(timeout=self.pool.timeout - POOL_FIRST_WAIT_SECONDS))
            yield conn

    def write_if_free(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        """See :meth:`Store.write_if_free`: a row lock held by another transaction is waited for briefly."""
        with self.transaction() as cursor:
            cursor.execute(f"SET LOCAL lock_timeout = '{int(FREE_WRITE_WAIT_SECONDS * 1000)}ms'")
            cursor.executemany(sql, rows)

    @contextmanager
    def read(self) -> Iterator[_QmarkCursor]:
        """A cursor for reads: one repeatable-read snapshot per ``with`` block.

        The transaction's ``BEGIN`` says so itself (``BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY``,
        from the connection's settings), one round trip fewer than a ``SET TRANSACTION`` after it: reads
        are most of the round trips a page or a command makes. The pooled connection gets its defaults
        back before it is returned; one that cannot take them is closed, so the pool drops it.
        """
        with _refusals(self.path), self.connection() as conn, _snapshot(conn) as cursor:
            yield cursor

    @contextmanager
    def read_after(self, sql: str) -> Iterator[tuple[_QmarkCursor, list[tuple[Any, ...]]]]:
        """A :meth:`read`, on a connection that ran ``sql`` just before, outside the read's transaction (so
        before its snapshot was taken), and ``sql``'s rows: one round trip more than a read, where a read
        before it would take three."""
        with _refusals(self.path), self.connection() as conn:
            with conn.cursor(row_factory=tuple_row) as first:
                rows = first.execute(sql).fetchall()
            with _snapshot(conn) as cursor:
                yield cursor, rows

    def cannot_write(self) -> tuple[str, tuple[str, ...]] | None:
        """See :meth:`Store.cannot_write`: a standby server, or one whose transactions are read-only by default;
        else the tables (LangGraph's and the project's) on which the role lacks ``INSERT``, ``UPDATE`` or
        ``DELETE`` (revoked since the store was opened). One query."""
        names = sorted({*_LANGGRAPH_TABLES, *(table.name for table in self.tables)})
        with self.read() as cursor:
            read_only, tables = cursor.execute(_CANNOT_WRITE, (names,)).fetchall()[0]
        if read_only:
            return ("server", ())
        return ("grants", tuple(tables)) if tables else None

    def live_token(self) -> object | None:
        """The server's transaction snapshot (``pg_current_snapshot()``) as text.

        Its ``xmax`` is one past the newest finished transaction and its list names the ones still
        running, so any commit changes it, at one pooled round trip whatever the number of threads.
        It is the whole server's (a commit in another database moves it too), which is why it is the
        live pages' token and not :meth:`~agents.db.Store.change_token`, whose equal values let
        caches be reused and must not churn with other databases' traffic.
        """
        try:
            with self.connection() as conn, conn.cursor(row_factory=tuple_row) as cursor:
                row = cursor.execute("SELECT pg_current_snapshot()::text").fetchone()
        except psycopg.Error:  # the server is away: unknown, and the page's own reads say why
            return None
        return None if row is None else str(row[0])

    def close(self) -> None:
        """Closes the pool."""
        self.pool.close()
