"""The set-up schema each PostgreSQL test gets (tests/postgres_schemas.py) is the one the store makes, whether
a new copy or one an earlier test gave back: nothing an earlier test wrote or changed is in it."""

from __future__ import annotations

import glob
import shutil
import threading
from contextlib import ExitStack
from typing import Any
from unittest import mock

import pytest
from langgraph.checkpoint.postgres import PostgresSaver

from agents.runtime import open_store
from tests.postgres_schemas import POSTGRES_URL, copy_script, postgres_schema, process_database, set_up_schema

pytestmark = pytest.mark.skipif(not POSTGRES_URL, reason="HITL_TEST_POSTGRES_URL is not set")

#: What a schema holds, each query giving rows to compare; ``%(schema)s`` is the schema's name.
CATALOG = {
    "columns": """
        SELECT table_name, ordinal_position, column_name, data_type, is_nullable,
               replace(column_default, %(schema)s || '.', '')
        FROM information_schema.columns WHERE table_schema = %(schema)s""",
    "constraints": """
        SELECT cls.relname, con.conname, con.contype, pg_get_constraintdef(con.oid)
        FROM pg_constraint con JOIN pg_class cls ON cls.oid = con.conrelid
        WHERE con.connamespace = %(schema)s::regnamespace""",
    "indexes": """
        SELECT tablename, indexname, replace(indexdef, %(schema)s || '.', '')
        FROM pg_indexes WHERE schemaname = %(schema)s""",
    "triggers": """
        SELECT cls.relname, trg.tgname, replace(pg_get_triggerdef(trg.oid), %(schema)s || '.', '')
        FROM pg_trigger trg JOIN pg_class cls ON cls.oid = trg.tgrelid
        WHERE cls.relnamespace = %(schema)s::regnamespace AND NOT trg.tgisinternal""",
    "functions": """
        SELECT proname, prosrc, prorettype::regtype::text, prolang
        FROM pg_proc WHERE pronamespace = %(schema)s::regnamespace""",
    "sequences": """
        SELECT sequencename, data_type::text, start_value, increment_by, last_value
        FROM pg_sequences WHERE schemaname = %(schema)s""",
    "relations": """
        SELECT relname, relkind, relpersistence FROM pg_class WHERE relnamespace = %(schema)s::regnamespace""",
    "hitl_meta rows": "SELECT key, value FROM {schema}.hitl_meta",
    "checkpoint_migrations rows": "SELECT v FROM {schema}.checkpoint_migrations",
}


def described(url: str) -> dict[str, list[tuple[Any, ...]]]:
    """The schema at ``url`` (its name read from the connection's search path), query by query, sorted."""
    import psycopg

    with psycopg.connect(url) as conn:
        schema = conn.execute("SELECT current_schema()").fetchone()[0]  # type: ignore[index]
        return {
            what: sorted(conn.execute(query.replace("{schema}", schema), {"schema": schema}).fetchall())
            for what, query in CATALOG.items()
        }


def described_by_the_store() -> dict[str, list[tuple[Any, ...]]]:
    """What the store sets up in an empty schema, as :func:`described` gives it."""
    with postgres_schema() as url:
        open_store(url).close()
        return described(url)


def test_a_copy_holds_what_the_store_sets_up_in_an_empty_schema():
    if copy_script() is None:
        assert not glob.glob("/usr/lib/postgresql/*/bin/pg_dump") and not shutil.which("pg_dump"), "no copy script"
        pytest.skip("no pg_dump: each test's schema is set up by the store")
    by_the_store = described_by_the_store()
    with set_up_schema() as url:
        copy = described(url)
    assert copy == by_the_store
    # Not two empty descriptions: the tables, their triggers and the schema's version are there.
    assert {"hitl_meta", "node_log", "checkpoints", "thread_changes"} <= {row[0] for row in copy["columns"]}
    assert copy["triggers"] and copy["functions"] and copy["sequences"] and copy["checkpoint_migrations rows"]
    assert {"schema_version", "schema_fingerprint"} <= {key for key, _value in copy["hitl_meta rows"]}


def test_the_store_opens_a_copy_as_set_up_and_writes_in_it_alone():
    """The product's schema check (agents/schema_check.py) finds the copy current: nothing is set up again."""
    with (
        set_up_schema() as url,
        set_up_schema() as other_url,
        mock.patch.object(PostgresSaver, "setup", side_effect=AssertionError("set up again")),
    ):
        store, other = open_store(url), open_store(other_url)
        try:
            with store.transaction() as cursor:
                cursor.execute(
                    "INSERT INTO node_log (agent, thread_id, run_id, node, status, started_at)"
                    " VALUES ('robot', 't1', 'r1', 'n', 'running', 1)"
                )
            with store.read() as cursor:
                assert cursor.execute("SELECT id FROM node_log").fetchall() == [(1,)]  # its own sequence
                assert cursor.execute("SELECT thread_id FROM thread_changes").fetchall() == [("t1",)]  # its trigger
            with other.read() as cursor:
                assert cursor.execute("SELECT count(*) FROM node_log").fetchone() == (0,)
                assert cursor.execute("SELECT count(*) FROM thread_changes").fetchone() == (0,)
        finally:
            store.close()
            other.close()


def namespace(url: str) -> int:
    """The schema's object id: the same schema under another name has the same one."""
    import psycopg

    with psycopg.connect(url) as conn:
        return conn.execute("SELECT oid::bigint FROM pg_namespace WHERE nspname = current_schema()").fetchone()[0]  # type: ignore[index]


def exists(namespace_id: int) -> bool:
    import psycopg

    with psycopg.connect(process_database()) as conn:
        return conn.execute("SELECT count(*) FROM pg_namespace WHERE oid = %s", (namespace_id,)).fetchone() == (1,)


def test_a_schema_given_back_is_used_again_emptied_and_under_another_name():
    """Its rows are gone (those a transaction still open at the test's end committed too), the copy's rows
    are back, its sequence starts again, and the URL the earlier test had reaches nothing."""
    import psycopg

    if copy_script() is None:
        pytest.skip("no pg_dump: each test's schema is set up by the store and dropped")
    by_the_store = described_by_the_store()
    given_back = ExitStack()
    url = given_back.enter_context(set_up_schema())
    used = namespace(url)
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(
            "INSERT INTO node_log (agent, thread_id, run_id, node, status, started_at)"
            " VALUES ('robot', 't1', 'r1', 'n', 'running', 1)"
        )
        conn.execute("UPDATE hitl_meta SET value = '0' WHERE key = 'schema_version'")
        conn.execute("DELETE FROM checkpoint_migrations WHERE v = 0")
        conn.execute("INSERT INTO checkpoint_migrations VALUES (999)")
        assert conn.execute("SELECT count(*) FROM thread_changes").fetchone() == (1,)
    left_open = psycopg.connect(url)  # a transaction the test did not end: its row is written when it commits
    left_open.execute(
        "INSERT INTO node_log (agent, thread_id, run_id, node, status, started_at)"
        " VALUES ('robot', 't2', 'r2', 'n', 'running', 2)"
    )
    giving_back = threading.Thread(target=given_back.close)
    giving_back.start()
    with psycopg.connect(process_database(), autocommit=True) as watcher:
        # The schema is not emptied while the transaction holds its table: it waits for it, as a drop would.
        while giving_back.is_alive() and watcher.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND datname = current_database()"
        ).fetchone() == (0,):
            giving_back.join(0.01)
    assert giving_back.is_alive(), "the schema was emptied while a transaction in it was open"
    left_open.commit()
    left_open.close()
    giving_back.join()
    with set_up_schema() as again:
        assert namespace(again) == used  # the same schema, given to the next test
        assert again != url
        assert described(again) == by_the_store  # the copy's rows and sequence; none of the test's
        with psycopg.connect(again, autocommit=True) as conn:
            for table in ("node_log", "thread_changes"):
                assert conn.execute(f"SELECT count(*) FROM {table}").fetchone() == (0,), table
            conn.execute(
                "INSERT INTO node_log (agent, thread_id, run_id, node, status, started_at)"
                " VALUES ('robot', 't3', 'r3', 'n', 'running', 3)"
            )
            assert conn.execute("SELECT id FROM node_log").fetchall() == [(1,)]
            assert conn.execute("SELECT thread_id FROM thread_changes").fetchall() == [("t3",)]  # its trigger
        with psycopg.connect(url) as conn, pytest.raises(psycopg.errors.UndefinedTable):
            conn.execute("SELECT count(*) FROM node_log")


@pytest.mark.parametrize(
    "change",
    [
        "ALTER TABLE node_log ADD COLUMN extra text",
        "ALTER TABLE hitl_meta ALTER COLUMN value DROP NOT NULL",
        "ALTER TABLE node_log ALTER COLUMN step SET DEFAULT 1",
        "CREATE INDEX extra ON node_log (node)",
        "ALTER TABLE node_log DISABLE TRIGGER node_log_noted",
        "DROP TRIGGER node_log_noted ON node_log",
        "ALTER SEQUENCE node_log_id_seq INCREMENT BY 2",
        "CREATE TABLE extra (x integer)",
        "DROP TABLE thread_changes",
        "CREATE FUNCTION extra() RETURNS integer LANGUAGE sql AS 'SELECT 1'",
    ],
)
def test_a_schema_whose_structure_its_test_changed_is_dropped(change):
    import psycopg

    if copy_script() is None:
        pytest.skip("no pg_dump: each test's schema is set up by the store and dropped")
    by_the_store = described_by_the_store()
    with set_up_schema() as url:
        used = namespace(url)
        with psycopg.connect(url, autocommit=True) as conn:
            conn.execute(change)
    assert not exists(used)
    with set_up_schema() as again:
        assert namespace(again) != used
        assert described(again) == by_the_store
