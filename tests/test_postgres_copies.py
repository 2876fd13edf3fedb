"""The set-up schema each PostgreSQL test gets (tests/postgres_schemas.py) is the one the store makes."""

from __future__ import annotations

import glob
import shutil
from typing import Any
from unittest import mock

import pytest
from langgraph.checkpoint.postgres import PostgresSaver

from agents.runtime import open_store
from tests.postgres_schemas import POSTGRES_URL, copy_script, postgres_schema, set_up_schema

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


def test_a_copy_holds_what_the_store_sets_up_in_an_empty_schema():
    if copy_script() is None:
        assert not glob.glob("/usr/lib/postgresql/*/bin/pg_dump") and not shutil.which("pg_dump"), "no copy script"
        pytest.skip("no pg_dump: each test's schema is set up by the store")
    with postgres_schema() as url:
        open_store(url).close()
        by_the_store = described(url)
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
