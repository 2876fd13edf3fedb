"""A page of a list is read through an index in the list's order, on both backends: no sort of every row.

The lists order by head, then thread id, in code point order; on PostgreSQL that is ``COLLATE "C"``, which an
index in the database's own collation cannot serve. The status index's ids are declared ``COLLATE "C"`` there,
and a database set up before they were is brought to it when opened.
"""

from __future__ import annotations

import itertools
from unittest import mock

import pytest

from agents import db_postgres, statusindex
from agents.runtime import load_settings, open_store
from agents.schema import ADDED_COLUMNS
from agents.settings import Settings
from tests.agents.test_statusindex import mixed_threads
from tests.agents.test_statuspages import pages_agree
from tests.conftest import _postgres_schema

pytestmark = pytest.mark.usefixtures("backend")
#: Every list a page is read of: (agent, unfinished, newest first).
PAGES = list(itertools.product((None, "robot"), (True, False), (True, False)))
#: The fingerprint of the PostgreSQL schema whose ids compared in the database's collation (with this
#: release's indexes: those an older database lacks are made at open whatever its collation).
BEFORE_CODE_ORDER = "51ffb07cb414ca87"
#: The columns a release after that one added (``agents.schema.ADDED_COLUMNS``): its database lacks them.
ADDED_AFTER_CODE_ORDER = [added for added in ADDED_COLUMNS if added[:2] == ("refund_deletions", "kept")]


def plan(store, agent, unfinished, newest_first):
    """The plan of one page's query, as text; on PostgreSQL with sorting priced out, so that a plan
    without a Sort node is one an index serves in the page's order."""
    sql, args = statusindex.page_query(store, agent=agent, unfinished=unfinished, newest_first=newest_first)
    if store.backend == "sqlite":
        with store.read() as cursor:
            cursor.execute(f"EXPLAIN QUERY PLAN {sql}", (*args, 51, 0))
            return "\n".join(str(row[-1]) for row in cursor.fetchall())
    with store.transaction() as cursor:
        cursor.execute("SET LOCAL enable_sort = off")
        cursor.execute(f"EXPLAIN {sql}", (*args, 51, 0))
        return "\n".join(str(row[0]) for row in cursor.fetchall())


def assert_indexed(store):
    for agent, unfinished, newest_first in PAGES:
        found = plan(store, agent, unfinished, newest_first)
        if store.backend == "sqlite":
            assert "TEMP B-TREE" not in found and "USING INDEX" in found, (agent, unfinished, newest_first, found)
        else:
            assert "Sort" not in found and "Index Scan" in found, (agent, unfinished, newest_first, found)


def test_every_page_query_is_served_by_an_index_in_its_order(store):
    assert_indexed(store)


def test_a_postgres_database_set_up_before_code_order_is_brought_to_it_when_opened(backend):
    if backend != "postgres":
        pytest.skip("SQLite's text compares by code point already (its schema did not change)")
    with _postgres_schema() as url:  # an empty schema: the previous release sets up its own tables in it
        brought_to_code_order(url, load_settings(db_override=url, secrets={}))


def brought_to_code_order(db_location: str, settings: Settings) -> None:
    previous = mock.patch.dict(db_postgres.POSTGRES_TYPES, code_order="")  # the previous release's schema
    with previous, mock.patch.object(db_postgres, "_order_by_code_point"):
        old = open_store(db_location)
    try:
        with old.transaction() as cursor:  # and without what came after it (a column added at open)
            for table, column, _type in ADDED_AFTER_CODE_ORDER:
                cursor.execute(f"ALTER TABLE {table} DROP COLUMN {column}")
            cursor.execute("UPDATE hitl_meta SET value = %s WHERE key = 'schema_fingerprint'", (BEFORE_CODE_ORDER,))
            cursor.execute("SELECT value FROM hitl_meta WHERE key = 'schema_fingerprint'")
            assert cursor.fetchone()[0] == BEFORE_CODE_ORDER
        mixed_threads(old, settings)
        pages_agree(old)  # every row kept
        with old.read() as cursor:
            cursor.execute("SELECT datcollate FROM pg_database WHERE datname = current_database()")
            code_point_server = cursor.fetchone()[0] in ("C", "POSIX")
        if not code_point_server:  # a "C" database needed no sort before either
            assert "Sort" in plan(old, None, True, False)  # what the previous release's pages cost
    finally:
        old.close()
    store = open_store(db_location)
    try:
        with store.read() as cursor:
            cursor.execute("SELECT value FROM hitl_meta WHERE key = 'schema_fingerprint'")
            assert cursor.fetchone()[0] == store.fingerprint != BEFORE_CODE_ORDER
            cursor.execute(
                "SELECT column_name, collation_name FROM information_schema.columns"
                " WHERE table_schema = current_schema() AND table_name = 'thread_status_index'"
                " AND column_name IN ('thread_id', 'agent', 'head_checkpoint_id')"
            )
            assert dict(cursor.fetchall()) == {"thread_id": "C", "agent": "C", "head_checkpoint_id": "C"}
            cursor.execute("SELECT COUNT(*) FROM thread_status_index")
            assert cursor.fetchone()[0] == 8  # the rows stay
        assert_indexed(store)
        pages_agree(store)
    finally:
        store.close()
