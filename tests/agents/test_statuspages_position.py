"""Pages and counts while PostgreSQL's change position is held back by a transaction still running: a change
this process read its thread after is not read again at each check, and a change it could not have seen
(by that older transaction, which leaves the thread's noted change as it is) is still read."""

from __future__ import annotations

from contextlib import contextmanager
from unittest import mock

import pytest
from psycopg.conninfo import conninfo_to_dict

from agents import changefeed, readcache, runs, statusindex
from tests.agents.test_changefeed_position import running_transaction
from tests.agents.test_statusindex import mixed_threads
from tests.agents.test_statuspages import pages_agree

pytestmark = pytest.mark.usefixtures("backend")


@contextmanager
def held_position(store, db_location):
    """A connection to this test's schema in a transaction that holds an id and stays open, as a long write
    in another schema of the database would; the change position stays at or below that id meanwhile."""
    if store.backend != "postgres":
        pytest.skip("SQLite's writers take the file's lock one at a time: nothing holds its position back")
    conn, held_id = running_transaction(db_location, options=conninfo_to_dict(db_location)["options"])
    try:
        position = changefeed.position(store)
        assert position is not None and position <= held_id
        yield conn
    finally:
        conn.rollback()
        conn.close()


def no_reads():
    no_read = mock.patch.object(statusindex, "page_rows", side_effect=AssertionError("the page was read again"))
    no_count = mock.patch.object(statusindex, "open_counts", side_effect=AssertionError("counted again"))
    return no_read, no_count


def test_a_page_asked_again_is_not_read_again_while_an_older_transaction_runs(store, settings, db_location):
    with held_position(store, db_location):
        mixed_threads(store, settings)  # changes noted after the held transaction's id
        first = pages_agree(store)
        no_read, no_count = no_reads()
        with no_read, no_count:
            pages_agree(store)  # the same changes found again: every page and count as it was read
        runs.resume_thread(store, settings, "w4", "no")  # a change read once, then kept too
        assert pages_agree(store)["w4"].outcome == "refused" != first["w4"].outcome
        with no_read, no_count:
            pages_agree(store)
        assert set(remembered(store)) == set(first)  # every thread, as read after its latest change
    pages_agree(store)  # the position passed every change: none is remembered
    assert remembered(store) == {}


def remembered(store):
    """The changes this process remembers reading its threads after."""
    return readcache.cache_for(store, "status-pages", size=1).lookup("current").read_again


def test_a_change_by_the_older_transaction_of_a_thread_read_again_is_read(store, settings, db_location):
    mixed_threads(store, settings)
    pages_agree(store)
    with held_position(store, db_location) as older:
        runs.resume_thread(store, settings, "w4", "no")  # noted with a larger id than the older transaction's
        assert pages_agree(store)["w4"].outcome == "refused"  # read again after that change
        marked = noted(store, "w4")
        assert changefeed.thread_mark(store, "w4") is None  # the older transaction's change would not move it
        for table in ("checkpoint_writes", "checkpoint_blobs", "checkpoints"):
            older.execute(f"DELETE FROM {table} WHERE thread_id = 'w4'")
        older.commit()
        assert noted(store, "w4") == marked  # the feed keeps the larger id it noted
        assert "w4" not in pages_agree(store)


def noted(store, thread_id):
    """The thread's latest change as ``thread_changes`` holds it."""
    with store.read() as cursor:
        cursor.execute("SELECT seq FROM thread_changes WHERE thread_id = ?", (thread_id,))
        return cursor.fetchone()[0]
