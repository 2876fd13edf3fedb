"""On PostgreSQL the change feed's position is held back only by transactions that may write this database:
one running long in another database of the server does not make every read look at more threads, nor is
one that ends while a read runs taken for this database's."""

from __future__ import annotations

from unittest import mock

import psycopg
import pytest
from psycopg.conninfo import conninfo_to_dict, make_conninfo

from agents import changefeed, db_postgres
from tests.factories import answer_robot

pytestmark = pytest.mark.usefixtures("backend")


def running_transaction(url, **changes):
    """A connection in a transaction that holds a transaction id (as a long write would), and that id."""
    info = conninfo_to_dict(url)
    info.pop("options", None)
    conn = psycopg.connect(make_conninfo(**{**info, **changes}))
    return conn, int(conn.execute("SELECT pg_current_xact_id()::text::bigint").fetchone()[0])


def test_a_long_transaction_elsewhere_does_not_hold_the_position_back(store, settings, db_location):
    if store.backend != "postgres":
        pytest.skip("SQLite's position is a counter of this file's changes")
    elsewhere, other_id = running_transaction(db_location, dbname="template1")
    here, own_id = running_transaction(db_location)
    try:
        answer_robot(store, settings, "after")  # transactions that commit after both started
        position = changefeed.position(store)
        assert position is not None and position <= own_id  # this database's may still write a change
        here.rollback()
        answer_robot(store, settings, "later")
        assert changefeed.position(store) > other_id  # the other database's cannot
        assert changefeed.changed_since(store, position)[1] >= {"later"}
    finally:
        here.rollback()
        here.close()
        elsewhere.rollback()
        elsewhere.close()


def ending_in_the_read(end):
    """The store's cursors patched so that ``end`` runs once, in the first read that lists the snapshot's running
    transactions: after that read's snapshot is taken, before the list is read."""
    execute, pending = db_postgres._QmarkCursor.execute, [end]  # every query of the store

    def ends_in_the_read(cursor, sql, params=()):
        if pending and "pg_snapshot_xip" in sql:
            execute(cursor, "SELECT 1")  # the read's snapshot, if no query of it took it yet
            pending.pop()()
        return execute(cursor, sql, params)

    return mock.patch.object(db_postgres._QmarkCursor, "execute", ends_in_the_read)


def test_a_transaction_elsewhere_that_ends_during_a_read_is_not_taken_for_this_databases(store, settings, db_location):
    if store.backend != "postgres":
        pytest.skip("SQLite's position is a counter of this file's changes")
    elsewhere, other_id = running_transaction(db_location, dbname="template1")
    try:
        answer_robot(store, settings, "after")  # noted with ids larger than the other transaction's
        with ending_in_the_read(elsewhere.commit):
            changes = changefeed.changes_since(store)
        assert elsewhere.info.transaction_status == psycopg.pq.TransactionStatus.IDLE  # it ended in the read
        assert other_id not in changes.running and changes.position > other_id
        elsewhere.execute("SELECT pg_current_xact_id()")  # another, older than the next change
        answer_robot(store, settings, "later")
        with ending_in_the_read(elsewhere.commit):
            assert changefeed.thread_mark(store, "later") is not None  # the position is past the change
    finally:
        elsewhere.rollback()
        elsewhere.close()
