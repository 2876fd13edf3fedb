"""Checking a database's tables at open, and bringing an earlier release's up to date.

Both stores (:mod:`agents.db_sqlite`, :mod:`agents.db_postgres`) read what the database holds and ask
:func:`verified` (:func:`agents.schema_check.verify_schema`) before they write anything. A database an
earlier release set up is migrated in the store's setup transaction: the added columns
(:data:`~agents.schema.ADDED_COLUMNS`) with ``ALTER TABLE``, and, on SQLite, the tables whose stored
definition changed (:data:`~agents.schema.REBUILT_TABLES`) rebuilt with their rows and ids. Nothing
reads an old layout afterwards: the read side knows only this release's tables.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from typing import Any

from langgraph.checkpoint.sqlite import SqliteSaver

from agents.db import DatabaseError, damaged, db_text
from agents.schema import ADDED_COLUMNS, REBUILT_TABLES, SQLITE_TYPES, TableSchema, schema_text
from agents.schema_check import RELEASED_TABLES, ForeignSchema, FoundSchema, NewerSchema, WantedSchema, verify_schema

#: Version of the project's own tables; a database from a newer release is refused. Added tables and
#: added nullable columns (:data:`ADDED_COLUMNS`) keep it: the previous release still reads and writes
#: such a database, so it must not refuse it. Only a change that release cannot live with raises it.
SCHEMA_VERSION = 1


def verified(location: str, found: FoundSchema, wanted: WantedSchema) -> bool:
    """:func:`agents.schema_check.verify_schema` with its refusals as :class:`DatabaseError`."""
    try:
        return verify_schema(found, wanted)
    except NewerSchema as newer:
        raise DatabaseError(db_text("newer", location=location, found=newer.found, version=SCHEMA_VERSION)) from None
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


def found_schema(conn: sqlite3.Connection, location: str) -> FoundSchema:
    """What a SQLite file holds: its tables with their columns, and ``hitl_meta``'s rows."""
    tables = sqlite_tables(conn)
    if "hitl_meta" not in tables:
        return FoundSchema(tables, None)
    try:
        rows = conn.execute("SELECT key, value FROM hitl_meta").fetchall()
    except sqlite3.OperationalError as error:
        raise damaged(location, f"hitl_meta cannot be read ({error})") from None
    return FoundSchema(tables, {str(key): str(value) for key, value in rows})


def sqlite_tables(conn: sqlite3.Connection) -> dict[str, set[str]]:
    """Every table of a SQLite database (SQLite's own excepted) with its column names."""
    names = [
        row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type='table' AND name NOT LIKE 'sqlite_%'")
    ]  # SQLite's own tables
    return {name: column_names(conn, name) for name in names}


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
            _EXPECTED[key] = sqlite_tables(probe)
    return _EXPECTED[key]


def column_names(conn: sqlite3.Connection, table: str) -> set[str]:
    """The column names of a SQLite table."""
    return {row[1] for row in conn.execute(f"PRAGMA table_info({table})")}


def add_columns(conn: sqlite3.Connection) -> None:
    """Adds the :data:`ADDED_COLUMNS` a table of an older release lacks (SQLite has no ADD COLUMN IF NOT EXISTS);
    a table this store does not hold (a store opened with some of the tables) is left alone."""
    for table, column, column_type in ADDED_COLUMNS:
        present = column_names(conn, table)
        if not present or column in present:
            continue
        try:
            conn.execute(f"ALTER TABLE {table} ADD COLUMN {column} {column_type}")
        except sqlite3.OperationalError as error:
            if "duplicate column" not in str(error):  # another process added it in between
                raise


def _defined_with(conn: sqlite3.Connection, table: str, text: str) -> bool:
    row = conn.execute("SELECT sql FROM sqlite_master WHERE type='table' AND name=?", (table,)).fetchone()
    return row is not None and text.upper() in str(row[0]).upper()


def rebuild_tables(conn: sqlite3.Connection, tables: Sequence[TableSchema]) -> None:
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
    kept = column_names(conn, old)
    columns = ", ".join(row[1] for row in conn.execute(f"PRAGMA table_info({table.name})") if row[1] in kept)
    conn.execute(f"INSERT INTO {table.name} ({columns}) SELECT {columns} FROM {old}")
    conn.execute(f"DROP TABLE {old}")  # and its sqlite_sequence row
