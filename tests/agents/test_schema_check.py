"""The fingerprints of every release are known, so a fingerprint no release wrote means another writer."""

from __future__ import annotations

import pytest

from agents.db_postgres import POSTGRES_TYPES
from agents.registry import AGENTS
from agents.schema import SQLITE_TYPES, fingerprint, project_tables, schema_text
from agents.schema_check import RELEASED_TABLES

SHIPPED = project_tables([table for spec in AGENTS.values() for table in spec.run.tables])


@pytest.mark.parametrize(("kind", "types"), [("sqlite", SQLITE_TYPES), ("postgres", POSTGRES_TYPES)])
def test_this_releases_fingerprint_and_tables_are_listed_as_released(kind, types):
    current = fingerprint(schema_text(SHIPPED, **types))
    assert current in RELEASED_TABLES[kind], f"add {current!r} to RELEASED_TABLES[{kind!r}]"
    assert RELEASED_TABLES[kind][current] == {table.name for table in SHIPPED}


def test_every_release_made_the_first_releases_tables():
    first = {"hitl_meta", "node_log", "refund_ledger", "thread_leases"}
    for released in RELEASED_TABLES.values():
        assert all(first <= tables for tables in released.values())
