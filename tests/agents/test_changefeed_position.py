"""On PostgreSQL the change feed's position is held back only by transactions that may write this database:
one running long in another database of the server does not make every read look at more threads."""

from __future__ import annotations

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
