"""A cheap look at every b-tree of a SQLite file when it is opened, so damage there is found at once.

A page overwritten in the file (a table's or an index's root page) would otherwise be found by whichever
statement reads it first: a listing would refuse the file while a run, whose writes go through other
pages, carried on or failed half-way as if a step had raised. :func:`probe_btrees` reads each table's and
each index's root page and its first leaf (one ``LIMIT 1`` subquery each, all in one statement, so the cost
follows the number of tables, not the size of the file) and lets SQLite's own error ("database disk image is malformed")
through, which the store turns into its one message for a damaged file. Damage deeper in a tree is found
by the statement that reaches it, with the same message.
"""

from __future__ import annotations

import re
import sqlite3


def _quoted(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def probe_btrees(conn: sqlite3.Connection) -> None:
    """Reads the root and first leaf of every table and index; raises ``sqlite3.DatabaseError`` on damage.

    Two statements whatever the number of trees: one lists them with each index's first column, one reads
    every tree (a subquery each), as opening the store costs every process and every command once."""
    trees = conn.execute(
        "SELECT m.type, m.name, m.tbl_name, m.sql, i.name FROM sqlite_master AS m"
        " LEFT JOIN pragma_index_info(m.name) AS i ON m.type = 'index' AND i.seqno = 0"
        " WHERE m.type IN ('table', 'index') AND m.rootpage > 0"
    ).fetchall()
    probes = []
    for kind, name, table, sql, first in trees:
        if kind == "table":
            probes.append(f"(SELECT 1 FROM {_quoted(name)} NOT INDEXED LIMIT 1)")
            continue
        if first is None:  # an index on an expression: its table's scan is enough
            continue
        # a partial index serves only a query that asks for what its WHERE does
        where = re.search(r"\bWHERE\b(.*)$", sql or "", re.IGNORECASE | re.DOTALL)
        condition = f" WHERE {where.group(1).strip().rstrip(';')}" if where else ""
        probes.append(
            f"(SELECT 1 FROM {_quoted(table)} INDEXED BY {_quoted(name)}{condition} ORDER BY {_quoted(first)} LIMIT 1)"
        )
    if probes:
        conn.execute(f"SELECT {', '.join(probes)}").fetchall()
