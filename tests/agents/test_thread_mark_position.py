"""A thread's change mark on PostgreSQL while a transaction older than its latest change still runs: that
transaction's change of the thread leaves the noted change as it is, so the mark is not given then, and a
decision checked before the lease reads the thread again under it."""

from __future__ import annotations

from contextlib import contextmanager
from unittest import mock

import pytest
from psycopg.conninfo import conninfo_to_dict

from agents import changefeed, leases, lifecycle, readmodel, runs
from agents.errors import NotWaitingError
from tests.agents.test_changefeed_position import running_transaction
from tests.factories import pause_robot

pytestmark = pytest.mark.usefixtures("backend")


@contextmanager
def older_transaction(store, db_location):
    """A connection to this test's schema in a transaction that holds an id and stays open (another program's
    write, begun before the thread's latest change)."""
    if store.backend != "postgres":
        pytest.skip("SQLite's writers take the file's lock one at a time: no older write commits later")
    conn, _held_id = running_transaction(db_location, options=conninfo_to_dict(db_location)["options"])
    try:
        yield conn
    finally:
        conn.rollback()
        conn.close()


def test_no_mark_is_given_while_an_older_transaction_runs(store, settings, db_location):
    with older_transaction(store, db_location) as older:
        pause_robot(store, settings, "w")  # noted with larger ids than the older transaction's
        assert changefeed.thread_mark(store, "w") is None  # its change of "w" would not move the mark
        for table in ("checkpoint_writes", "checkpoint_blobs", "checkpoints"):
            older.execute(f"DELETE FROM {table} WHERE thread_id = 'w'")
        older.commit()
        marked = changefeed.thread_mark(store, "w")
        assert marked is not None  # every transaction running now has a larger id than the mark
        pause_robot(store, settings, "w")
        assert changefeed.thread_mark(store, "w") not in (None, marked)


def test_a_question_withdrawn_by_an_older_transaction_before_the_lease_is_not_answered(store, settings, db_location):
    with older_transaction(store, db_location) as older:
        pause_robot(store, settings, "w")
        asked = readmodel.head_checkpoint_id(store, "w")
        before = checkpoint_ids(store, "w")
        for table in ("checkpoint_writes", "checkpoints"):  # the head that asks: its parent is the head again
            older.execute(f"DELETE FROM {table} WHERE thread_id = 'w' AND checkpoint_id = %s", (asked,))
        # not committed yet: the check before the lease sees the question waiting
        take = leases.thread_lease

        @contextmanager
        def committed_first(*args, **kwargs):
            older.commit()  # between the check before the lease and the one under it
            with take(*args, **kwargs):
                yield

        with mock.patch.object(leases, "thread_lease", committed_first), pytest.raises(NotWaitingError):
            runs.resume_thread(store, settings, "w", "yes")
    assert checkpoint_ids(store, "w") == before - {asked}  # nothing ran: the robot did not do what was not asked
    assert lifecycle.thread_status(store, "w").status != "done"


def checkpoint_ids(store, thread_id):
    with store.read() as cursor:
        cursor.execute("SELECT checkpoint_id FROM checkpoints WHERE thread_id = ?", (thread_id,))
        return {row[0] for row in cursor.fetchall()}
