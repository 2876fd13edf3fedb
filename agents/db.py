"""The one database, as the rest of the project sees it: :class:`Store` and its errors.

A :class:`Store` holds LangGraph's checkpointer and the project's own tables (node log, ledger,
leases). Two backends implement it: ``agents.db_sqlite.SqliteStore`` (one file, the default) and
``agents.db_postgres.PostgresStore`` (a ``postgresql://`` location, for several dashboard replicas);
``agents.runtime.open_store`` chooses. Both check and set their tables up at open
(:mod:`agents.db_setup`).
"""

from __future__ import annotations

import functools
import sqlite3
from abc import ABC, abstractmethod
from collections.abc import Sequence
from contextlib import AbstractContextManager
from pathlib import Path
from typing import Any, NoReturn

from agents.errors import UserError
from agents.readsql import ReadQueries
from agents.schema import TableSchema, project_tables
from agents.strings import STRINGS
from agents.texts import Text, text

__all__ = [
    "DatabaseError",
    "Store",
    "TableSchema",
    "db_text",
    "is_busy",
    "is_busy_refusal",
    "is_postgres_url",
    "project_tables",
]

#: How long a write that may be skipped waits for another writer's lock (:meth:`Store.write_if_free`).
FREE_WRITE_WAIT_SECONDS = 0.05
CALLERS_ERRORS = (sqlite3.IntegrityError, sqlite3.ProgrammingError, sqlite3.DataError, sqlite3.NotSupportedError)


class DatabaseError(UserError):
    """The database cannot be used (not a database, newer schema, read-only, unreachable, busy, damaged).

    Given as a :class:`~agents.texts.Text` (every refusal of the database modules, :func:`db_text`), the
    message is said in the reader's language by :meth:`render`; ``str(error)`` is the English.
    """

    def __init__(self, message: str | Text) -> None:
        super().__init__(str(message))
        if isinstance(message, Text):
            self.text = message


def db_text(key: str, /, **params: object) -> Text:
    """The refusal ``error.db.<key>`` of :mod:`agents.db_strings` with ``params``."""
    return text(STRINGS, f"error.db.{key}", **params)


class Store(ABC):
    """The process-wide handle on the database: LangGraph's saver and the project's tables.

    Two implementations: :class:`agents.db_sqlite.SqliteStore` (one file, the default) and
    ``agents.db_postgres.PostgresStore`` (a ``postgresql://`` URL, for several
    replicas). Everything else in the project is written against this class.
    Project SQL uses ``?`` placeholders and syntax both backends share
    (``ON CONFLICT``, ``RETURNING``).

    Attributes:
        path: Where the database is (a file path or a URL without its password).
        saver: The LangGraph checkpointer.
        read_only: True when nothing may be written.
        queries: The read-model's SQL for this backend (:mod:`agents.readsql`).
    """

    backend: str = ""
    path: str
    saver: Any
    read_only: bool = False
    queries: ReadQueries

    #: The project's tables in this database (the core ones and the registered agents').
    tables: tuple[TableSchema, ...] = ()
    #: Whether the database notes each thread's changes (:mod:`agents.changefeed`): every database this
    #: release set up.
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

    def give_up_once_busy(self) -> None:
        """Makes the writes that follow a refusal for a busy database stop waiting (for a command that runs once).

        A write waits up to the busy timeout for another process's write lock, then is refused ("busy, try
        again"), nothing changed. Without this, each later write of the same process waits the whole timeout
        again: a command's cleanup (its node log, its lease) would make it wait several timeouts before it
        says busy. From this call on, once one read or write was refused busy, the others try once, so the
        command gives up about one busy timeout after it began to wait; each still commits whole or not at
        all. The base does nothing (PostgreSQL's waits are its server's).
        """
        return None  # deliberately: a backend whose writes do not wait for a busy timeout has nothing to change

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

    def cannot_write(self) -> tuple[str, tuple[str, ...]] | None:
        """Why a write would be refused, as seen now (``GET /ok`` asks at each poll): ``("file", ())``, a file
        that is no longer writable; ``("server", ())``, a server that takes no writes; ``("grants", tables)``,
        the tables written here that the role may not write; None when none is seen (the base sees none).
        A store opened read-only says so itself (:attr:`read_only`)."""
        return None


@functools.cache
def insert_sql(table: str, columns: tuple[str, ...]) -> str:
    """``INSERT INTO table (columns) VALUES (?, ...)``, built once per table and columns."""
    return f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({', '.join('?' * len(columns))})"


def damaged(location: str, detail: str) -> DatabaseError:
    """The error for a database whose tables are not the ones this project (and LangGraph) wrote."""
    return DatabaseError(db_text("damaged", location=location, detail=detail))


def raise_refusal(path: str, error: sqlite3.DatabaseError) -> NoReturn:
    """What the database refused (busy, damaged, full) as a message; a constraint or statement error as it is."""
    if isinstance(error, CALLERS_ERRORS):
        raise error
    raise DatabaseError(explain_refusal(path, error)) from error


def explain_refusal(path: str, error: sqlite3.DatabaseError) -> Text:
    """What a SQLite error means for the file at ``path``, in words (SQLite's own stay as they come)."""
    detail = str(error)
    if "file is not a database" in detail:
        return db_text("not_database", path=path)
    if "readonly" in detail or "read-only" in detail:
        return db_text("read_only", path=path)
    if is_busy(error):
        return db_text("busy", path=path)
    if "malformed" in detail:
        return db_text("malformed", path=path, detail=detail)
    return db_text("unusable", path=path, detail=detail)


def is_busy(error: sqlite3.Error) -> bool:
    """Whether SQLite refused because another connection held its lock past the busy timeout (busy, locked)."""
    detail = str(error)
    return "locked" in detail or "busy" in detail


#: The catalogue key of the refusal of a busy database (:func:`explain_refusal`).
BUSY_KEY = "error.db.busy"


def is_busy_refusal(error: BaseException) -> bool:
    """Whether ``error`` is the refusal of a busy database: nothing was changed, the same request may succeed later."""
    found = getattr(error, "text", None)
    return isinstance(error, DatabaseError) and isinstance(found, Text) and found.key == BUSY_KEY


def is_postgres_url(location: str | Path) -> bool:
    """Whether a database location names a PostgreSQL server rather than a file."""
    return str(location).startswith(("postgresql://", "postgres://"))
