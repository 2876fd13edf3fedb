"""A cheap look at every b-tree of a SQLite file when it is opened, so damage there is found at once.

A page overwritten in the file (a table's or an index's root page) would otherwise be found by whichever
statement reads it first: a listing would refuse the file while a run, whose writes go through other
pages, carried on or failed half-way as if a step had raised. :func:`probe_btrees` reads each table's and
each index's root page and its first leaf (one ``LIMIT 1`` query each, so the cost follows the number of
tables, not the size of the file) and lets SQLite's own error ("database disk image is malformed")
through, which the store turns into its one message for a damaged file. Damage deeper in a tree is found
by the statement that reaches it, with the same message.
"""

from __future__ import annotations

import re
import sqlite3


def _quoted(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def probe_btrees(conn: sqlite3.Connection) -> None:
    """Reads the root and first leaf of every table and index; raises ``sqlite3.DatabaseError`` on damage."""
    trees = conn.execute(
        "SELECT type, name, tbl_name, sql FROM sqlite_master WHERE type IN ('table', 'index') AND rootpage > 0"
    ).fetchall()
    for kind, name, table, sql in trees:
        if kind == "table":
            conn.execute(f"SELECT 1 FROM {_quoted(name)} NOT INDEXED LIMIT 1").fetchall()
            continue
        first = conn.execute(f"PRAGMA index_info({_quoted(name)})").fetchone()
        if first is None or first[2] is None:  # an index on an expression: its table's scan is enough
            continue
        # a partial index serves only a query that asks for what its WHERE does
        where = re.search(r"\bWHERE\b(.*)$", sql or "", re.IGNORECASE | re.DOTALL)
        condition = f" WHERE {where.group(1).strip().rstrip(';')}" if where else ""
        conn.execute(
            f"SELECT 1 FROM {_quoted(table)} INDEXED BY {_quoted(name)}{condition} ORDER BY {_quoted(first[2])} LIMIT 1"
        ).fetchall()
