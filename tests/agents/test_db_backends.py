"""Choosing the backend from the database location, and what each backend refuses."""

from __future__ import annotations

import threading
from typing import Any

import psycopg
import pytest

from agents import db_postgres
from agents.db import DatabaseError, Store, is_postgres_url
from agents.db_postgres import redact
from agents.db_sqlite import SqliteStore
from agents.lecture.plans import plans_dir_for
from agents.runtime import open_store
from agents.settings import DEFAULT_DB_PATH
from tests.conftest import POSTGRES_URL


def test_a_postgres_url_selects_the_postgres_backend():
    assert is_postgres_url("postgresql://u@h/db") and is_postgres_url("postgres://u@h/db")
    assert not is_postgres_url("data/checkpoints.sqlite")


def test_an_unreachable_server_is_a_clear_error_without_the_password():
    with pytest.raises(DatabaseError) as caught:
        open_store("postgresql://user:s3cret@127.0.0.1:1/db?connect_timeout=2")
    assert "cannot be used" in str(caught.value)
    assert "s3cret" not in str(caught.value)


def test_redact_hides_the_password_only():
    assert redact("postgresql://user:s3cret@host:5432/db") == "postgresql://user:***@host:5432/db"
    assert redact("postgresql://user@host/db") == "postgresql://user@host/db"
    assert redact("postgresql://user@host/db?password=s3cret&sslmode=require") == (
        "postgresql://user@host/db?password=***&sslmode=require"
    )


def test_plans_live_beside_a_sqlite_file_and_under_data_for_postgres(tmp_path):
    assert plans_dir_for(tmp_path / "x.sqlite") == tmp_path / "plans"
    assert plans_dir_for("postgresql://u@h/db") == DEFAULT_DB_PATH.parent / "plans"


def test_a_sqlite_path_opens_a_sqlite_store(tmp_path):
    store = open_store(tmp_path / "a.sqlite")
    assert isinstance(store, SqliteStore) and store.backend == "sqlite"
    store.close()


@pytest.mark.skipif(not POSTGRES_URL, reason="HITL_TEST_POSTGRES_URL is not set")
def test_a_postgres_database_from_a_newer_release_is_refused():
    from tests.conftest import _postgres_schema

    with _postgres_schema() as url:
        store = open_store(url)
        with store.transaction() as cursor:
            cursor.execute("UPDATE hitl_meta SET value = '999' WHERE key = 'schema_version'")
        store.close()
        with pytest.raises(DatabaseError, match="newer release"):
            open_store(url)


@pytest.mark.parametrize("backend", ["postgres"], indirect=True)
def test_a_read_waits_for_a_busy_pool_once_the_server_answers(
    backend: str, store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every pooled connection in use past the first wait: the server is asked and answers, so the read waits
    for a connection to come back (a busy pool is not a server that is away)."""
    assert isinstance(store, db_postgres.PostgresStore)
    monkeypatch.setattr(db_postgres, "POOL_FIRST_WAIT_SECONDS", 0.05)
    asked = threading.Event()
    real_connect = psycopg.connect

    def connect(*args: Any, **kwargs: Any) -> psycopg.Connection[Any]:
        answered = real_connect(*args, **kwargs)
        asked.set()
        return answered

    monkeypatch.setattr(db_postgres.psycopg, "connect", connect)
    held = [store.pool.getconn() for _connection in range(db_postgres.POOL_MAX_SIZE)]
    rows: list[Any] = []

    def read() -> None:
        with store.read() as cursor:
            rows.extend(cursor.execute("SELECT 1").fetchall())

    reader = threading.Thread(target=read)
    reader.start()
    try:
        assert asked.wait(timeout=30), "the server was not asked"
        store.pool.putconn(held.pop())
    finally:
        reader.join(timeout=60)
        for connection in held:
            store.pool.putconn(connection)
    assert rows == [(1,)]
