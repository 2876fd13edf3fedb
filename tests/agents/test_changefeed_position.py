"""On PostgreSQL the change feed's position is held back only by transactions that may write this database:
one running long in another database of the server does not make every read look at more threads, nor is
one that ends while a read runs taken for this database's."""

from __future__ import annotations

from contextlib import contextmanager
from unittest import mock

import psycopg
import pytest
from psycopg.conninfo import conninfo_to_dict, make_conninfo

from agents import changefeed
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


class _EndsAtTheList:
    """A read's cursor that runs ``end`` once, after the read's snapshot is taken and before its first query
    of the snapshot's list of running transactions."""

    def __init__(self, cursor, end):
        self._cursor, self._end = cursor, end

    def execute(self, sql, params=()):
        if self._end is not None and "pg_snapshot_xip" in sql:
            self._cursor.execute("SELECT 1")  # the snapshot, if no query of the read took it yet
            self._end, end = None, self._end
            end()
        return self._cursor.execute(sql, params)

    def __getattr__(self, name):
        return getattr(self._cursor, name)


def ending_in_the_read(store, end):
    """The feed's reads patched so that ``end`` runs in the read, before its list of running transactions."""
    read_after = store.read_after

    @contextmanager
    def ends_in_the_read(sql):
        with read_after(sql) as (cursor, rows):
            yield _EndsAtTheList(cursor, end), rows

    return mock.patch.object(store, "read_after", ends_in_the_read)


def test_a_transaction_elsewhere_that_ends_during_a_read_is_not_taken_for_this_databases(store, settings, db_location):
    if store.backend != "postgres":
        pytest.skip("SQLite's position is a counter of this file's changes")
    elsewhere, other_id = running_transaction(db_location, dbname="template1")
    try:
        answer_robot(store, settings, "after")  # noted with ids larger than the other transaction's
        with ending_in_the_read(store, elsewhere.commit):
            changes = changefeed.changes_since(store)
        assert elsewhere.info.transaction_status == psycopg.pq.TransactionStatus.IDLE  # it ended in the read
        assert other_id not in changes.running and changes.position > other_id
        elsewhere.execute("SELECT pg_current_xact_id()")  # another, older than the next change
        answer_robot(store, settings, "later")
        with ending_in_the_read(store, elsewhere.commit):
            assert changefeed.thread_mark(store, "later") is not None  # the position is past the change
    finally:
        elsewhere.rollback()
        elsewhere.close()
