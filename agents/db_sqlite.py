"""The SQLite backend: one file, one connection shared by LangGraph's saver and the project's tables.

A :class:`SqliteStore` opens the SQLite file once and shares one connection between the
``SqliteSaver`` and the project's tables (node log, ledger, leases); every use goes through the
saver's lock. A file that cannot be written is opened read-only (:func:`open_sqlite`), unless an earlier
release set it up: its tables cannot be brought up to date, so it is refused.

SQLite connection settings, and why:

* ``journal_mode=WAL``: readers (the dashboard) never block the writer (a run),
  and another process (the CLI) can read while this one writes.
* ``busy_timeout`` (``timeout``, 30 s unless ``HITL_DB_BUSY_TIMEOUT`` says otherwise): when another
  process holds the write lock, SQLite waits for it instead of failing with "database is locked". A command
  of the CLI waits that long in all (:meth:`SqliteStore.give_up_once_busy`): once one of its writes was
  refused busy, the rest (its node log, its lease) try once instead of each waiting the timeout again.
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
import os
import sqlite3
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

from langgraph.checkpoint.sqlite import SqliteSaver

from agents import changefeed
from agents.db import (
    FREE_WRITE_WAIT_SECONDS,
    DatabaseError,
    Store,
    db_text,
    explain_refusal,
    insert_sql,
    is_busy,
    raise_refusal,
)
from agents.db_setup import (
    SCHEMA_VERSION,
    add_columns,
    expected_tables,
    found_schema,
    rebuild_tables,
    verified,
    wanted_schema,
)
from agents.readsql import SqliteQueries
from agents.schema import CHANGES_TABLE, SQLITE_TYPES, TableSchema, fingerprint, project_tables, schema_text
from agents.sqlite_probe import probe_btrees

if TYPE_CHECKING:  # the saver's own signatures, for the writes it wraps
    from langchain_core.runnables import RunnableConfig
    from langgraph.checkpoint.base import ChannelVersions, Checkpoint, CheckpointMetadata

BUSY_TIMEOUT_SECONDS = 30.0
WAL_AUTOCHECKPOINT_PAGES = 10_000
#: The catalogue key of SQLite's refusal to write a file it opened read-only (:func:`agents.db.explain_refusal`).
READ_ONLY_KEY = "error.db.read_only"


class _Saver(SqliteSaver):
    """LangGraph's ``SqliteSaver`` that tells its store when one of its writes was refused (``on_refusal``).

    Its checkpoints and writes wait for another process's write lock as the store's own writes do, and stop
    waiting with them (:meth:`SqliteStore.give_up_once_busy`). Only the writes are wrapped: a read of a file
    in WAL mode never waits for a writer.
    """

    def __init__(self, conn: sqlite3.Connection, on_refusal: Callable[[sqlite3.DatabaseError], None]) -> None:
        super().__init__(conn)
        self.on_refusal = on_refusal

    def put(
        self,
        config: RunnableConfig,
        checkpoint: Checkpoint,
        metadata: CheckpointMetadata,
        new_versions: ChannelVersions,
    ) -> RunnableConfig:
        try:
            return super().put(config, checkpoint, metadata, new_versions)
        except sqlite3.DatabaseError as error:
            self.on_refusal(error)
            raise

    def put_writes(
        self, config: RunnableConfig, writes: Sequence[tuple[str, Any]], task_id: str, task_path: str = ""
    ) -> None:
        try:
            super().put_writes(config, writes, task_id, task_path)
        except sqlite3.DatabaseError as error:
            self.on_refusal(error)
            raise

    def delete_thread(self, thread_id: str) -> None:
        try:
            super().delete_thread(thread_id)
        except sqlite3.DatabaseError as error:
            self.on_refusal(error)
            raise


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
        self._gives_up_once_busy = False  # give_up_once_busy() was called
        self._gave_up = False  # ... and a read or write was refused busy since: the others no longer wait
        self.saver = _Saver(self.conn, self._saver_refused)
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
            found = found_schema(self.conn, self.path)
            needs_setup = verified(self.path, found, wanted)
            probe_btrees(self.conn)
            if not self.read_only:  # only now: switching a foreign file to WAL would rewrite its header
                self.conn.execute("PRAGMA journal_mode=WAL")
                self.conn.execute(f"PRAGMA wal_autocheckpoint={WAL_AUTOCHECKPOINT_PAGES}")
            if self.read_only and needs_setup and found.meta is not None:
                raise DatabaseError(db_text("earlier_read_only", path=self.path))
            if self.read_only or not needs_setup:
                # Already set up (or an empty file that cannot be): opening must not write to the file.
                self.saver.is_setup = True
                self.notes_changes = CHANGES_TABLE.name in found.tables
                return
            self.saver.setup()
            self.conn.execute("BEGIN IMMEDIATE")
            try:
                for statement in filter(str.strip, self.schema.split(";")):
                    self.conn.execute(statement)
                add_columns(self.conn)
                rebuild_tables(self.conn, self.tables)
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
            self.notes_changes = any(table.name == CHANGES_TABLE.name for table in self.tables)

    @contextmanager
    def transaction(self) -> Iterator[sqlite3.Cursor]:
        """A cursor inside one committed-or-rolled-back transaction, under the lock."""
        if self.read_only:
            raise DatabaseError(db_text("read_only_change", path=self.path))
        with self.lock:
            cursor = self.conn.cursor()
            try:
                cursor.execute("BEGIN IMMEDIATE")
                yield cursor
                self.conn.commit()
            except sqlite3.DatabaseError as error:  # busy past the timeout, damaged, full: nothing was changed
                self.conn.rollback()
                self._refused(error)
                raise_refusal(self.path, error)
            except BaseException:
                self.conn.rollback()
                raise
            finally:
                cursor.close()

    def write_if_free(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        """See :meth:`Store.write_if_free`: the busy timeout is lowered for this one transaction."""
        if self.read_only:
            raise DatabaseError(db_text("read_only_change", path=self.path))
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
            raise DatabaseError(db_text("read_only_change", path=self.path))
        with self.lock:
            level, self.conn.isolation_level = self.conn.isolation_level, None
            try:
                return self.conn.execute(sql, params)
            except sqlite3.DatabaseError as error:  # the statement rolled itself back
                self._refused(error)
                raise_refusal(self.path, error)
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
                self._refused(error)
                raise_refusal(self.path, error)
            finally:
                self.conn.rollback()
                cursor.close()

    def cannot_write(self) -> tuple[str, tuple[str, ...]] | None:
        """See :meth:`Store.cannot_write`: the file is asked (one ``access`` call). An immutable file still takes
        writes to its write-ahead log and fails at SQLite's next write to the file itself."""
        return None if os.access(self.path, os.W_OK) else ("file", ())

    def give_up_once_busy(self) -> None:
        """See :meth:`Store.give_up_once_busy`: the connection's busy timeout drops to 0 at the first refusal."""
        self._gives_up_once_busy = True

    def _refused(self, error: sqlite3.DatabaseError) -> None:
        """Notes a refusal, the lock held: after the first busy one, when :meth:`give_up_once_busy` asked for it,
        no read or write of this connection waits for another process's lock (each tries once)."""
        if self._gives_up_once_busy and not self._gave_up and is_busy(error):
            self._gave_up = True
            self.conn.execute("PRAGMA busy_timeout = 0")  # the saver's writes too: they share the connection

    def _saver_refused(self, error: sqlite3.DatabaseError) -> None:
        """:meth:`_refused` for a write of the saver, which has let the lock go by the time its error is here."""
        if self._gives_up_once_busy and not self._gave_up and is_busy(error):
            with self.lock:
                self._refused(error)

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


class NotWritable(DatabaseError):
    """The file, or the folder SQLite writes its ``-wal`` and ``-shm`` files in, cannot be written."""


def _connect(path: str, *, read_only: bool, busy_timeout: float) -> sqlite3.Connection:
    if not read_only and not _writable(path):
        raise NotWritable(db_text("read_only", path=path))  # open_sqlite then opens it read-only
    try:
        if read_only:
            conn = _open_read_only(path, busy_timeout)
        else:
            Path(path).parent.mkdir(parents=True, exist_ok=True)
            # check_same_thread=False is safe: every use goes through Store.lock.
            conn = sqlite3.connect(path, timeout=busy_timeout, check_same_thread=False)
    except (OSError, sqlite3.Error) as error:
        if not _folder_writable(path):
            raise DatabaseError(db_text("folder_not_writable", path=path, folder=str(Path(path).parent))) from None
        raise DatabaseError(db_text("cannot_open", path=path, detail=str(error))) from None
    try:
        conn.execute("PRAGMA synchronous=NORMAL")
    except sqlite3.DatabaseError as error:
        conn.close()
        raise DatabaseError(explain_refusal(path, error)) from None
    return conn


def _open_read_only(path: str, busy_timeout: float) -> sqlite3.Connection:
    """A connection that never writes to the file, nor beside it.

    A WAL file is read through its ``-shm`` file, which SQLite creates beside it: in a folder that cannot
    be written it can only be read as an immutable file. That is safe there: no process can write it
    either, for every write needs a ``-wal`` or ``-journal`` file in that folder (unless a ``-wal`` file is
    already there, and then the first way reads it).
    """
    resolved = Path(path).resolve()
    conn = sqlite3.connect(f"file:{resolved}?mode=ro", timeout=busy_timeout, check_same_thread=False, uri=True)
    try:
        conn.execute("SELECT count(*) FROM sqlite_master").fetchone()
    except sqlite3.OperationalError as error:
        conn.close()
        if "unable to open" not in str(error) or _folder_writable(path) or Path(f"{resolved}-wal").exists():
            raise
        conn = sqlite3.connect(
            f"file:{resolved}?mode=ro&immutable=1", timeout=busy_timeout, check_same_thread=False, uri=True
        )
    except sqlite3.DatabaseError:  # not a database: said by the caller's first statement
        pass
    return conn


def _folder_writable(path: str) -> bool:
    """Whether files can be made in the folder of ``path`` (an immutable folder refuses even root)."""
    return os.access(Path(path).resolve().parent, os.W_OK | os.X_OK)


def _writable(path: str) -> bool:
    """Whether an existing file can really be written, with SQLite's files beside it.

    SQLite silently opens a file it cannot write read-only, and the permission bits do not tell
    (an immutable file, ``chattr +i``, refuses even root): so the file is opened for writing once.
    A write also needs the ``-wal`` and ``-shm`` files beside it (a ``-journal`` one before the file is
    set up): a folder where they cannot be made, and are not there yet, makes the file read-only too.
    """
    try:
        handle = os.open(path, os.O_RDWR)
    except FileNotFoundError:
        return True  # created on connect
    except OSError as error:
        if error.errno in (errno.EPERM, errno.EACCES, errno.EROFS):  # immutable, permission bits, read-only mount
            return False
        # a symlink loop, a file as a folder
        raise DatabaseError(db_text("cannot_open", path=path, detail=error.strerror)) from None
    os.close(handle)
    if _folder_writable(path):
        return True
    return all(Path(f"{path}{suffix}").exists() for suffix in ("-wal", "-shm"))


def open_sqlite(
    location: str | Path, tables: Sequence[TableSchema] | None = None, busy_timeout: float = BUSY_TIMEOUT_SECONDS
) -> SqliteStore:
    """Opens a SQLite file (``agents.runtime.open_store`` chooses the backend, the tables and the
    seconds a write waits for another process's lock). A file that cannot be written, or whose folder
    cannot be (SQLite makes its ``-wal`` and ``-shm`` files there), is opened read-only.

    Raises:
        DatabaseError: The file is not a database, is from a newer schema, or cannot be written and
            was set up by an earlier release.
    """
    try:
        return SqliteStore(location, tables=tables, busy_timeout=busy_timeout)
    except DatabaseError as error:
        refused_writing = isinstance(error, NotWritable) or (error.text is not None and error.text.key == READ_ONLY_KEY)
        if not refused_writing or not Path(location).exists():
            raise
        return SqliteStore(location, tables=tables, read_only=True, busy_timeout=busy_timeout)
