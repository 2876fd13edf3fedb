"""Opening a SQLite file reads the root page of every table and index, partial indexes included."""

from __future__ import annotations

import sqlite3

import pytest

from agents.db import DatabaseError
from agents.runtime import open_store


@pytest.mark.parametrize(
    "index", ["thread_status_index_open", "thread_status_index_unknown", "thread_status_index_open_counts"]
)
def test_a_partial_index_is_probed_and_its_damage_refuses_the_file(tmp_path, index):
    path = tmp_path / "probe.sqlite"
    open_store(str(path)).close()  # set up, then the index's root page overwritten
    with sqlite3.connect(path) as conn:
        page_size = conn.execute("PRAGMA page_size").fetchone()[0]
        root = conn.execute("SELECT rootpage FROM sqlite_master WHERE name = ?", (index,)).fetchone()[0]
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    with open(path, "r+b") as file:
        file.seek((root - 1) * page_size)
        file.write(b"\xff" * page_size)
    with pytest.raises(DatabaseError):
        open_store(str(path))


def test_a_set_up_file_with_partial_indexes_opens(tmp_path):
    path = tmp_path / "ok.sqlite"
    open_store(str(path)).close()
    open_store(str(path)).close()
