"""The one database: LangGraph's checkpointer and the project's own tables.

By default a :class:`SqliteStore` opens the SQLite file once and shares one
connection between the ``SqliteSaver`` and the project's tables (node log,
ledger, leases). A ``postgresql://`` location opens a ``PostgresStore``
instead (``agents/db_postgres.py``), for several dashboard replicas.

SQLite connection settings, and why:

* ``journal_mode=WAL``: readers (the dashboard) never block the writer (a run),
  and another process (the CLI) can read while this one writes.
* ``busy_timeout`` (``timeout``, 30 s unless ``HITL_DB_BUSY_TIMEOUT`` says otherwise): when another
  process holds the write lock, SQLite waits for it instead of failing with "database is locked".
* ``synchronous=NORMAL``: in WAL mode a commit is durable against a killed
  process (the data is in the OS's page cache); only a power cut can lose the
  last commits. This keeps the node log's two writes per call cheap.
* ``wal_autocheckpoint`` (:data:`WAL_AUTOCHECKPOINT_PAGES`): the commit that takes the
  WAL past this many pages copies them into the file, with two ``fdatasync`` calls
  (milliseconds each); ten times SQLite's default makes that ten times rarer, and
  the pages a run rewrites (a table's last page) are copied once. The WAL may grow to
  about 40 MB; the last connection to close folds it into the file and removes it.
"""

from __future__ import annotations

import errno
import functools
import os
import sqlite3
import threading
from abc import ABC, abstractmethod
from collections.abc import Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path
from typing import Any, NoReturn

from langgraph.checkpoint.sqlite import SqliteSaver

from agents import changefeed
from agents.errors import UserError
from agents.readsql import ReadQueries, SqliteQueries
from agents.schema import (
    ADDED_COLUMNS,
    CHANGES_TABLE,
    REBUILT_TABLES,
    SQLITE_TYPES,
    TableSchema,
    fingerprint,
    project_tables,
    schema_text,
)
from agents.schema_check import RELEASED_TABLES, ForeignSchema, FoundSchema, NewerSchema, WantedSchema, verify_schema
from agents.sqlite_probe import probe_btrees

#: Version of the project's own tables; a database from a newer release is refused. Added tables and
#: added nullable columns (:data:`ADDED_COLUMNS`) keep it: the previous release still reads and writes
#: such a database, so it must not refuse it. Only a change that release cannot live with raises it.
SCHEMA_VERSION = 1
BUSY_TIMEOUT_SECONDS = 30.0
WAL_AUTOCHECKPOINT_PAGES = 10_000
#: How long a write that may be skipped waits for another writer's lock (:meth:`Store.write_if_free`).
FREE_WRITE_WAIT_SECONDS = 0.05
CALLERS_ERRORS = (sqlite3.IntegrityError, sqlite3.ProgrammingError, sqlite3.DataError, sqlite3.NotSupportedError)


class DatabaseError(UserError):
    """The database cannot be used (not a database, newer schema, read-only, unreachable, busy, damaged)."""


class Store(ABC):
    """The process-wide handle on the database: LangGraph's saver and the project's tables.

    Two implementations: :class:`SqliteStore` (one file, the default) and
    ``agents.db_postgres.PostgresStore`` (a ``postgresql://`` URL, for several
    replicas). Everything else in the project is written against this class.
    Project SQL uses ``?`` placeholders and syntax both backends share
    (``ON CONFLICT``, ``RETURNING``).

    Attributes:
        path: Where the database is (a file path or a URL without its password).
        saver: The LangGraph checkpointer.
        read_only: True when nothing may be written.
        queries: The read-model's SQL for this backend (:mod:`agents.readsql`).
        missing_columns: Added columns (:data:`ADDED_COLUMNS`) a read-only older file lacks.
    """

    backend: str = ""
    path: str
    saver: Any
    read_only: bool = False
    queries: ReadQueries
    #: (table, column) of :data:`ADDED_COLUMNS` this database lacks: only a read-only file of an older release.
    missing_columns: frozenset[tuple[str, str]] = frozenset()

    #: The project's tables in this database (the core ones and the registered agents').
    tables: tuple[TableSchema, ...] = ()
    #: Whether the database notes each thread's changes (:mod:`agents.changefeed`): all but a read-only
    #: file of an older release.
    notes_changes: bool = False

    @abstractmethod
    def transaction(self) -> AbstractContextManager[Any]:
        """A cursor inside one committed-or-rolled-back transaction."""

    @abstractmethod
    def read(self) -> AbstractContextManager[Any]:
        """A cursor for reads; one snapshot per ``with`` block where the backend allows."""

    @abstractmethod
    def close(self) -> None:
        """Releases the connection(s)."""

    def insert(self, table: str, columns: tuple[str, ...], values: Sequence[Any]) -> int:
        """Inserts one row in its own committed transaction and returns its ``id``."""
        with self.transaction() as cursor:
            cursor.execute(f"{insert_sql(table, columns)} RETURNING id", values)
            row = cursor.fetchone()
            return int(row[0])

    def execute_one(self, sql: str, params: Sequence[Any]) -> None:
        """Runs one writing statement in its own committed transaction."""
        with self.transaction() as cursor:
            cursor.execute(sql, params)

    def write_if_free(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        """Runs ``sql`` once per row in one committed transaction, for a write that may be skipped.

        For what the database keeps only to be faster (``agents.summarytable``): it waits at most
        :data:`FREE_WRITE_WAIT_SECONDS` for another writer's lock instead of the busy timeout, and raises
        (nothing written) when it cannot have it.
        """
        with self.transaction() as cursor:
            cursor.executemany(sql, rows)

    def change_token(self) -> object | None:
        """A value that differs after any commit to the database, by any process; None when unknown.

        Read before the data it guards: equal tokens mean nothing was committed in between, so what
        was read under the first may be used again. The base answers None (always read again).
        """
        return None

    def live_token(self) -> object | None:
        """A cheap value, read in constant time, that differs after any commit to the database; None when unknown.

        What the dashboard's live pages compare every few seconds (``dashboard.live``): equal values
        mean nothing was committed in between. Unlike :meth:`change_token` it may also change without
        a commit here (a spurious redraw costs a rerun, a missed commit a stale queue). The base
        answers the change token.
        """
        return self.change_token()


@functools.cache
def insert_sql(table: str, columns: tuple[str, ...]) -> str:
    """``INSERT INTO table (columns) VALUES (?, ...)``, built once per table and columns."""
    return f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({', '.join('?' * len(columns))})"


class SqliteStore(Store):
    """One SQLite file; one connection shared by the ``SqliteSaver`` and the project's tables.

    Every use of the connection goes through the saver's own lock, so parallel
    graph nodes, the dashboard's sessions and the read-model never interleave
    statements on it.
    """

    backend = "sqlite"

    def __init__(
        self,
        path: str | Path,
        *,
        tables: Sequence[TableSchema] | None = None,
        read_only: bool = False,
        busy_timeout: float = BUSY_TIMEOUT_SECONDS,
    ) -> None:
        self.tables = tuple(tables) if tables is not None else project_tables()
        self.schema = schema_text(self.tables, **SQLITE_TYPES)
        self.fingerprint = fingerprint(self.schema)
        self.path = str(path)
        self.read_only = read_only
        self.conn = _connect(self.path, read_only=read_only, busy_timeout=busy_timeout)
        self._skippable_changes = 0  # rows written by write_if_free (see change_token)
        self.saver = SqliteSaver(self.conn)
        self.saver.location = self.path  # named by a refusal of its own reads and writes (agents.runs)
        self.queries = SqliteQueries()
        try:
            self._setup()
        except sqlite3.DatabaseError as error:
            self.conn.close()
            raise DatabaseError(explain_refusal(self.path, error)) from None

    @property
    def lock(self) -> threading.Lock:
        """The lock that serialises every use of the shared connection."""
        return self.saver.lock

    def _setup(self) -> None:
        """Checks the tables before anything is written (:mod:`agents.schema_check`), then sets them up.

        The project's part is one transaction, so another process opening the file meanwhile sees
        it either not set up or set up, never half-way.
        """
        with self.lock:
            wanted = wanted_schema("sqlite", self.tables, expected_tables(self.tables), self.fingerprint)
            found = _found_schema(self.conn, self.path)
            needs_setup = verified(self.path, found, wanted)
            probe_btrees(self.conn)
            if not self.read_only:  # only now: switching a foreign file to WAL would rewrite its header
                self.conn.execute("PRAGMA journal_mode=WAL")
                self.conn.execute(f"PRAGMA wal_autocheckpoint={WAL_AUTOCHECKPOINT_PAGES}")
            if self.read_only or not needs_setup:
                # Already set up (or cannot be): opening must not write to the file.
                self.saver.is_setup = True
                self.notes_changes = CHANGES_TABLE.name in found.tables
                self.missing_columns = frozenset(
                    (table, column)
                    for table, column, _type in ADDED_COLUMNS
                    if (present := _columns(self.conn, table)) and column not in present
                )
                return
            self.saver.setup()
            self.conn.execute("BEGIN IMMEDIATE")
            try:
                for statement in filter(str.strip, self.schema.split(";")):
                    self.conn.execute(statement)
                _add_columns(self.conn)
                _rebuild_tables(self.conn, self.tables)
                for statement in changefeed.sqlite_triggers(self.tables):  # also on a file of an older release
                    self.conn.execute(statement)
                self.conn.executemany(
                    "INSERT OR REPLACE INTO hitl_meta (key, value) VALUES (?, ?)",
                    [("schema_version", str(SCHEMA_VERSION)), ("schema_fingerprint", self.fingerprint)],
                )
                self.conn.commit()
            except BaseException:
                self.conn.rollback()
                raise
            self.notes_changes = True

    @contextmanager
    def transaction(self) -> Iterator[sqlite3.Cursor]:
        """A cursor inside one committed-or-rolled-back transaction, under the lock."""
        if self.read_only:
            raise DatabaseError(f"{self.path} is read-only; nothing can be changed")
        with self.lock:
            cursor = self.conn.cursor()
            try:
                cursor.execute("BEGIN IMMEDIATE")
                yield cursor
                self.conn.commit()
            except sqlite3.DatabaseError as error:  # busy past the timeout, damaged, full: nothing was changed
                self.conn.rollback()
                _raise_refusal(self.path, error)
            except BaseException:
                self.conn.rollback()
                raise
            finally:
                cursor.close()

    def write_if_free(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        """See :meth:`Store.write_if_free`: the busy timeout is lowered for this one transaction."""
        if self.read_only:
            raise DatabaseError(f"{self.path} is read-only; nothing can be changed")
        with self.lock:
            waited = self.conn.execute("PRAGMA busy_timeout").fetchone()[0]
            self.conn.execute(f"PRAGMA busy_timeout = {int(FREE_WRITE_WAIT_SECONDS * 1000)}")
            changed = self.conn.total_changes
            try:
                self.conn.execute("BEGIN IMMEDIATE")
                try:
                    self.conn.executemany(sql, rows)
                    self.conn.commit()
                except BaseException:
                    self.conn.rollback()
                    raise
            finally:
                self._skippable_changes += self.conn.total_changes - changed
                self.conn.execute(f"PRAGMA busy_timeout = {int(waited)}")

    def insert(self, table: str, columns: tuple[str, ...], values: Sequence[Any]) -> int:
        """Inserts one row in its own committed transaction and returns its ``id`` (``lastrowid``)."""
        return int(self._commit_one(insert_sql(table, columns), values).lastrowid or 0)

    def execute_one(self, sql: str, params: Sequence[Any]) -> None:
        """Runs one writing statement in its own committed transaction."""
        self._commit_one(sql, params)

    def _commit_one(self, sql: str, params: Sequence[Any]) -> sqlite3.Cursor:
        """One statement, committed: for a single write, with fewer steps than a transaction.

        Fewer steps than :meth:`transaction` around the same commit: the statement runs in SQLite's
        autocommit mode (``isolation_level=None`` for its length, under the lock), so it commits
        itself, with no ``BEGIN`` and ``COMMIT`` to prepare and run, and the id comes from
        ``lastrowid`` (no ``RETURNING``).
        For one statement that is as safe as ``BEGIN IMMEDIATE``: it takes the write lock as it
        starts (the busy timeout waits for another process's), so no earlier read of its transaction
        can be stale, and a statement that fails is rolled back by SQLite.
        """
        if self.read_only:
            raise DatabaseError(f"{self.path} is read-only; nothing can be changed")
        with self.lock:
            level, self.conn.isolation_level = self.conn.isolation_level, None
            try:
                return self.conn.execute(sql, params)
            except sqlite3.DatabaseError as error:  # the statement rolled itself back
                _raise_refusal(self.path, error)
            finally:
                self.conn.isolation_level = level

    @contextmanager
    def read(self) -> Iterator[sqlite3.Cursor]:
        """A cursor for reads, under the lock; one snapshot per ``with`` block."""
        with self.lock:
            cursor = self.conn.cursor()
            try:
                cursor.execute("BEGIN")
                yield cursor
            except sqlite3.DatabaseError as error:  # e.g. a damaged page: a message, not a traceback
                _raise_refusal(self.path, error)
            finally:
                self.conn.rollback()
                cursor.close()

    def change_token(self) -> object | None:
        """SQLite's ``data_version`` and the rows this process's connection changed, less its kept statuses'.

        ``PRAGMA data_version`` changes when another connection commits (another process's, or another
        of this one's), never with the connection's own commits; those are counted by ``total_changes``.
        The rows of :meth:`write_if_free` (statuses kept only to be faster, which no cached answer is made
        from) are left out, so keeping them does not make this process read everything again.
        """
        with self.lock:
            try:
                version = int(self.conn.execute("PRAGMA data_version").fetchone()[0])
            except sqlite3.Error:
                return None
            return version, self.conn.total_changes - self._skippable_changes

    def close(self) -> None:
        """Closes the connection."""
        with self.lock:
            self.conn.close()


def verified(location: str, found: FoundSchema, wanted: WantedSchema) -> bool:
    """:func:`agents.schema_check.verify_schema` with its refusals as :class:`DatabaseError`."""
    try:
        return verify_schema(found, wanted)
    except NewerSchema as newer:
        raise DatabaseError(
            f"{location} was written by a newer release (schema {newer.found}, "
            f"this release reads up to {SCHEMA_VERSION}); refusing to touch it"
        ) from None
    except ForeignSchema as error:
        raise damaged(location, str(error)) from None


def wanted_schema(
    backend: str, tables: Sequence[TableSchema], expected: dict[str, set[str]], fingerprint: str, other: Any = ()
) -> WantedSchema:
    """What this release makes on ``backend``: ``expected`` holds LangGraph's tables and the project's."""
    project = frozenset(table.name for table in tables)
    return WantedSchema(
        tables=expected,
        project=project,
        langgraph=frozenset(expected) - project,
        fingerprint=fingerprint,
        released=RELEASED_TABLES[backend],
        version=SCHEMA_VERSION,
        other_langgraph=frozenset(other),
    )


def _connect(path: str, *, read_only: bool, busy_timeout: float) -> sqlite3.Connection:
    if not read_only and not _writable(path):
        raise DatabaseError(f"{path} is read-only")  # open_store then opens it read-only
    try:
        if not read_only:
            Path(path).parent.mkdir(parents=True, exist_ok=True)
            target, uri = path, False
        else:
            target, uri = f"file:{Path(path).resolve()}?mode=ro", True
        # check_same_thread=False is safe: every use goes through Store.lock.
        conn = sqlite3.connect(target, timeout=busy_timeout, check_same_thread=False, uri=uri)
    except (OSError, sqlite3.Error) as error:
        raise DatabaseError(f"{path} cannot be opened: {error}") from None
    try:
        conn.execute("PRAGMA synchronous=NORMAL")
    except sqlite3.DatabaseError as error:
        conn.close()
        raise DatabaseError(explain_refusal(path, error)) from None
    return conn


def _writable(path: str) -> bool:
    """Whether an existing file can really be opened for writing.

    SQLite silently opens a file it cannot write read-only, and the permission bits do not tell
    (an immutable file, ``chattr +i``, refuses even root): so the file is opened for writing once.
    """
    try:
        handle = os.open(path, os.O_RDWR)
    except FileNotFoundError:
        return True  # created on connect
    except OSError as error:
        if error.errno in (errno.EPERM, errno.EACCES, errno.EROFS):  # immutable, permission bits, read-only mount
            return False
        raise DatabaseError(
            f"{path} cannot be opened: {error.strerror}"
        ) from None  # a symlink loop, a file as a folder
    os.close(handle)
    return True


def _columns(conn: sqlite3.Connection, table: str) -> set[str]:
    return {row[1] for row in conn.execute(f"PRAGMA table_info({table})")}


def _add_columns(conn: sqlite3.Connection) -> None:
    """Adds the :data:`ADDED_COLUMNS` a table of an older release lacks (SQLite has no ADD COLUMN IF NOT EXISTS)."""
    for table, column, column_type in ADDED_COLUMNS:
        if column in _columns(conn, table):
            continue
        try:
            conn.execute(f"ALTER TABLE {table} ADD COLUMN {column} {column_type}")
        except sqlite3.OperationalError as error:
            if "duplicate column" not in str(error):  # another process added it in between
                raise


def _defined_with(conn: sqlite3.Connection, table: str, text: str) -> bool:
    row = conn.execute("SELECT sql FROM sqlite_master WHERE type='table' AND name=?", (table,)).fetchone()
    return row is not None and text.upper() in str(row[0]).upper()


def _rebuild_tables(conn: sqlite3.Connection, tables: Sequence[TableSchema]) -> None:
    """Rebuilds the :data:`REBUILT_TABLES` a file of an older release still defines the old way.

    Inside the setup's transaction, which holds the write lock (another process may have rebuilt a
    table since it was read): the old table is renamed and its indexes dropped, the table and its
    indexes are created from the current DDL, and the rows are copied with their ids.
    """
    current = {table.name: table for table in tables}
    for name, old_text in REBUILT_TABLES:
        if name in current and _defined_with(conn, name, old_text):
            _rebuild(conn, current[name])


def _rebuild(conn: sqlite3.Connection, table: TableSchema) -> None:
    old = f"{table.name}_before_rebuild"
    indexes = conn.execute(
        "SELECT name FROM sqlite_master WHERE type='index' AND tbl_name=? AND sql IS NOT NULL", (table.name,)
    ).fetchall()
    for (index,) in indexes:
        conn.execute(f"DROP INDEX {index}")
    conn.execute(f"ALTER TABLE {table.name} RENAME TO {old}")
    for statement in filter(str.strip, table.ddl.format(**SQLITE_TYPES).split(";")):
        conn.execute(statement)
    kept = _columns(conn, old)
    columns = ", ".join(row[1] for row in conn.execute(f"PRAGMA table_info({table.name})") if row[1] in kept)
    conn.execute(f"INSERT INTO {table.name} ({columns}) SELECT {columns} FROM {old}")
    conn.execute(f"DROP TABLE {old}")  # and its sqlite_sequence row


def damaged(location: str, detail: str) -> DatabaseError:
    """The error for a database whose tables are not the ones this project (and LangGraph) wrote."""
    return DatabaseError(f"{location}: this database is damaged or was written by something else: {detail}")


def _found_schema(conn: sqlite3.Connection, location: str) -> FoundSchema:
    tables = _sqlite_tables(conn)
    if "hitl_meta" not in tables:
        return FoundSchema(tables, None)
    try:
        rows = conn.execute("SELECT key, value FROM hitl_meta").fetchall()
    except sqlite3.OperationalError as error:
        raise damaged(location, f"hitl_meta cannot be read ({error})") from None
    return FoundSchema(tables, {str(key): str(value) for key, value in rows})


def _sqlite_tables(conn: sqlite3.Connection) -> dict[str, set[str]]:
    names = [
        row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type='table' AND name NOT LIKE 'sqlite_%'")
    ]  # SQLite's own tables
    return {name: _columns(conn, name) for name in names}


_EXPECTED: dict[tuple[TableSchema, ...], dict[str, set[str]]] = {}


def expected_tables(tables: Sequence[TableSchema]) -> dict[str, set[str]]:
    """Every table LangGraph's ``SqliteSaver`` and this project create, with their columns.

    Read from a schema made the same way in memory, so it always matches the
    installed LangGraph release; the PostgreSQL store compares the project's
    tables (same column names) and the columns the read-model uses.
    """
    key = tuple(tables)
    if key not in _EXPECTED:
        with sqlite3.connect(":memory:", check_same_thread=False) as probe:
            SqliteSaver(probe).setup()
            probe.executescript(schema_text(key, **SQLITE_TYPES))
            _EXPECTED[key] = _sqlite_tables(probe)
    return _EXPECTED[key]


def _raise_refusal(path: str, error: sqlite3.DatabaseError) -> NoReturn:
    """What the database refused (busy, damaged, full) as a message; a constraint or statement error as it is."""
    if isinstance(error, CALLERS_ERRORS):
        raise error
    raise DatabaseError(explain_refusal(path, error)) from error


def explain_refusal(path: str, error: sqlite3.DatabaseError) -> str:
    text = str(error)
    if "file is not a database" in text:
        return f"{path} is not a SQLite database"
    if "readonly" in text or "read-only" in text:
        return f"{path} is read-only"
    if "locked" in text or "busy" in text:
        return f"{path} is busy: another process held its write lock for too long; nothing was changed, try again"
    if "malformed" in text:
        return f"{path} is damaged ({text}); restore it from a backup (sqlite3's .recover can save what is left)"
    return f"{path} cannot be used: {text}"


def is_postgres_url(location: str | Path) -> bool:
    """Whether a database location names a PostgreSQL server rather than a file."""
    return str(location).startswith(("postgresql://", "postgres://"))


def open_sqlite(
    location: str | Path, tables: Sequence[TableSchema] | None = None, busy_timeout: float = BUSY_TIMEOUT_SECONDS
) -> SqliteStore:
    """Opens a SQLite file (``agents.runtime.open_store`` chooses the backend, the tables and the
    seconds a write waits for another process's lock). A file that cannot be written is opened read-only.

    Raises:
        DatabaseError: The file is not a database or is from a newer schema.
    """
    try:
        return SqliteStore(location, tables=tables, busy_timeout=busy_timeout)
    except DatabaseError as error:
        if "read-only" not in str(error) or not Path(location).exists():
            raise
        return SqliteStore(location, tables=tables, read_only=True, busy_timeout=busy_timeout)
