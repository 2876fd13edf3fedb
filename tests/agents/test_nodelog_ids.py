"""Node-log ids: a plain ``INTEGER PRIMARY KEY`` (no ``sqlite_sequence``), the first release's table rebuilt
on open, and an end write that never lands on a row that took a deleted row's id."""

from __future__ import annotations

import sqlite3

import pytest

from agents import nodelog, nodelog_queue
from agents.db import DatabaseError
from agents.db_postgres import POSTGRES_TYPES
from agents.db_sqlite import SqliteStore
from agents.nodelog import delete_node_runs, node_runs
from agents.runtime import open_store
from agents.schema import NODE_LOG_TABLE, fingerprint, schema_text


def _config(thread_id: str) -> dict:
    return {"configurable": {"thread_id": thread_id}, "metadata": {"run_id": f"run-{thread_id}"}}


#: The first release's node log: ids from AUTOINCREMENT (``sqlite_sequence``).
_FIRST_RELEASE_TABLE = """
CREATE TABLE node_log (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    agent TEXT NOT NULL, thread_id TEXT NOT NULL, run_id TEXT NOT NULL, node TEXT NOT NULL,
    task_id TEXT NOT NULL DEFAULT '', step INTEGER NOT NULL DEFAULT 0, label TEXT NOT NULL DEFAULT '',
    started_at REAL NOT NULL, ended_at REAL, status TEXT NOT NULL, error TEXT NOT NULL DEFAULT ''
);
CREATE INDEX node_log_thread ON node_log (thread_id, started_at);
"""
_FIRST_RELEASE_ROWS = [
    (1, "robot", "a", "r1", "propose", "t1", 1, "", 10.25, 11.5, "ok", ""),
    (2, "robot", "a", "r1", "approval", "t2", 2, "", 11.75, 12.0, "interrupted", ""),
    (5, "lecture", "b", "r2", "research", "t5", 3, "sub 1", 13.125, None, "running", ""),
]


def _make_first_release(db_path) -> None:
    """A file as the first release left it: its node log, ids with gaps, the sequence past the last id."""
    conn = sqlite3.connect(db_path)
    try:
        conn.executescript("DROP TABLE node_log;" + _FIRST_RELEASE_TABLE)
        conn.executemany(f"INSERT INTO node_log VALUES ({', '.join('?' * 12)})", _FIRST_RELEASE_ROWS)
        conn.execute("UPDATE sqlite_sequence SET seq = 9 WHERE name = 'node_log'")  # rows 6 to 9 were deleted
        conn.execute("UPDATE hitl_meta SET value = 'e28625a439a24afa' WHERE key = 'schema_fingerprint'")
        conn.commit()
    finally:
        conn.close()


def _stored(db_path) -> tuple[str, list[str], list[tuple]]:
    """The node log's stored definition, its indexes and its ``sqlite_sequence`` rows, read by another connection."""
    conn = sqlite3.connect(db_path)
    try:
        sql = conn.execute("SELECT sql FROM sqlite_master WHERE type='table' AND name='node_log'").fetchone()[0]
        indexes = [
            r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='index' AND tbl_name='node_log'")
        ]
        has_sequence = conn.execute("SELECT 1 FROM sqlite_master WHERE name = 'sqlite_sequence'").fetchone()
        sequence = conn.execute("SELECT name, seq FROM sqlite_sequence").fetchall() if has_sequence else []
        return sql, indexes, sequence
    finally:
        conn.close()


def test_a_new_file_gives_node_log_ids_without_sqlite_sequence(store, db_path):
    nodelog.logged_node(store, "robot", lambda state: {}, name="work")({}, _config("t"))
    sql, indexes, sequence = _stored(db_path)
    assert "AUTOINCREMENT" not in sql.upper() and "INTEGER PRIMARY KEY" in sql
    assert indexes == ["node_log_thread"]
    assert sequence == []
    assert [r["id"] for r in node_runs(store)] == [1]


def test_a_first_release_node_log_is_rebuilt_when_opened_rows_and_ids_kept(store, db_path):
    store.close()
    _make_first_release(db_path)
    reopened = open_store(db_path)
    try:
        sql, indexes, sequence = _stored(db_path)
        assert "AUTOINCREMENT" not in sql.upper()
        assert indexes == ["node_log_thread"]
        assert sequence == []  # dropping the old table took its sequence row
        rows = node_runs(reopened)
        assert [tuple(r.values()) for r in rows] == _FIRST_RELEASE_ROWS
        call = nodelog._start(reopened, "robot", "execute", "", _config("c"))
        nodelog.flush(reopened)
        assert call.row_id == 6  # the largest id plus one
        nodelog._finish(reopened, call, "ok")
        assert node_runs(reopened, thread_id="c")[0]["status"] == "ok"
        with reopened.read() as cursor:  # the thread index is used again
            cursor.execute("EXPLAIN QUERY PLAN SELECT id FROM node_log WHERE thread_id = ? ORDER BY started_at", ("b",))
            assert "node_log_thread" in str(cursor.fetchall())
    finally:
        reopened.close()
    again = open_store(db_path)  # opening it again changes nothing
    try:
        assert _stored(db_path) == (sql, indexes, [])
        assert [r["id"] for r in node_runs(again)] == [1, 2, 5, 6]
    finally:
        again.close()


def test_a_read_only_first_release_file_is_refused_and_left_as_it_is(store, db_path):
    store.close()
    _make_first_release(db_path)
    with pytest.raises(DatabaseError, match="earlier release.*open it once with write access"):
        SqliteStore(db_path, tables=store.tables, read_only=True)
    assert "AUTOINCREMENT" in _stored(db_path)[0]  # not rebuilt: nothing may be written


def test_the_previous_release_still_writes_a_rebuilt_node_log(store, db_path):
    """The previous release inserts without an id and ends a row by its id alone."""
    conn = sqlite3.connect(db_path)
    try:
        row_id = conn.execute(
            "INSERT INTO node_log (agent, thread_id, run_id, node, started_at, status) VALUES (?, ?, ?, ?, ?, ?)",
            ("robot", "old", "r", "propose", 1.5, "running"),
        ).lastrowid
        conn.execute("UPDATE node_log SET ended_at = ?, status = ? WHERE id = ?", (2.5, "ok", row_id))
        conn.commit()
    finally:
        conn.close()
    assert [(r["id"], r["status"], r["ended_at"]) for r in node_runs(store, thread_id="old")] == [(1, "ok", 2.5)]


@pytest.mark.usefixtures("backend")
def test_a_late_end_write_leaves_the_row_that_took_its_id_alone(store):
    """A call whose thread is deleted while it runs: its end write must not end another call's row."""
    stale = nodelog._start(store, "robot", "work", "", _config("deleted"))
    nodelog.flush(store)  # its running row is written
    with store.transaction() as cursor:
        delete_node_runs(cursor, "deleted")
    fresh = nodelog._start(store, "robot", "work", "", _config("other"))
    nodelog.flush(store)
    if store.backend == "sqlite":
        assert fresh.row_id == stale.row_id  # the newest row was deleted, so its id came back
    nodelog._finish(store, stale, "ok")
    assert [(r["id"], r["status"]) for r in node_runs(store)] == [(fresh.row_id, "running")]
    nodelog._finish(store, fresh, "ok")
    assert [(r["id"], r["status"]) for r in node_runs(store)] == [(fresh.row_id, "ok")]


@pytest.mark.usefixtures("backend")
def test_a_queued_call_of_a_deleted_thread_is_never_written(store, monkeypatch):
    """A call still queued when its thread is deleted: neither its start nor its end comes back."""
    monkeypatch.setattr(nodelog_queue, "FLUSH_INTERVAL", 3600.0)
    queued = nodelog._start(store, "robot", "work", "", _config("deleted"))
    with store.transaction() as cursor:
        delete_node_runs(cursor, "deleted")
    kept = nodelog._start(store, "robot", "work", "", _config("deleted"))  # a new run of the same id
    nodelog._finish(store, queued, "ok")
    nodelog._finish(store, kept, "ok")
    # Ended before its batch, the kept call is written whole, with no id read back: its start time names it.
    assert [(r["started_at"], r["status"]) for r in node_runs(store)] == [(kept.started_at, "ok")]


def test_the_postgresql_node_log_is_unchanged():
    """PostgreSQL's BIGSERIAL never gives an id twice: its DDL (so a database's fingerprint) is the first release's."""
    text = schema_text((NODE_LOG_TABLE,), **POSTGRES_TYPES)
    assert "id BIGSERIAL PRIMARY KEY," in text
    assert fingerprint(text) == "a6a069bc40715c31"
