"""The change feed stays bounded: the changes of deleted threads are pruned, and a reader whose position
is older than the pruned changes reads everything again rather than miss a deletion."""

from __future__ import annotations

from unittest import mock

import pytest

from agents import changefeed, runs
from agents.runtime import open_store
from tests.agents.test_changefeed import served
from tests.factories import answer_robot, pause_robot

pytestmark = pytest.mark.usefixtures("backend")


def noted(store):
    with store.read() as cursor:
        cursor.execute("SELECT COUNT(*) FROM thread_changes")
        return int(cursor.fetchone()[0])


def test_the_changes_of_deleted_threads_stay_bounded_and_a_reader_behind_them_reads_again(store, settings, db_location):
    pause_robot(store, settings, "kept")
    reader = open_store(db_location)  # a process that read before the deletions, and not since
    try:
        assert set(served(reader)) == {"kept"}
        with mock.patch.object(changefeed, "PRUNE_ABOVE", 3):
            for round_ in range(3):
                for number in range(4):
                    answer_robot(store, settings, f"gone-{round_}-{number}")
                for number in range(4):
                    runs.delete_thread(store, f"gone-{round_}-{number}")
                # the thread that is left, at most 3 deleted ones and the newest change
                assert noted(store) <= 1 + 3 + 1
        with store.read() as cursor:
            assert changefeed.pruned_below(cursor) is not None
        assert set(served(reader)) == {"kept"}  # fell behind the pruned changes: read again, all of it
        answer_robot(store, settings, "new")
        assert set(served(reader)) == {"kept", "new"}
    finally:
        reader.close()


def test_a_reader_behind_pruned_changes_is_told_to_read_everything(store, settings):
    answer_robot(store, settings, "a")
    start = changefeed.position(store)
    for number in range(3):
        answer_robot(store, settings, f"gone-{number}")
        runs.delete_thread(store, f"gone-{number}")
    assert changefeed.changed_since(store, start) is not None
    assert changefeed.prune(store, above=1) >= 2
    assert changefeed.changed_since(store, start) is None
    assert changefeed.changed_since(store, changefeed.position(store)) is not None
