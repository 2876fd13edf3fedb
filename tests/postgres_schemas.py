"""The persistence tests' PostgreSQL schemas: one fresh schema per test, in a database per process.

``tests/conftest.py`` gives each test on the ``postgres`` backend a schema from :func:`postgres_schema`
and drops the process's database when its session ends; the tests that set up a schema by hand import
:func:`postgres_schema` through it. One module under one name, so both see the same database.

One connection per process makes and drops the schemas, rather than a new connection (a new server
process) for each statement.
"""

from __future__ import annotations

import functools
import os
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING
from urllib.parse import urlsplit, urlunsplit

import pytest

if TYPE_CHECKING:
    import psycopg

#: A PostgreSQL server for the persistence tests' second backend (``scripts/test.sh`` starts one).
POSTGRES_URL = os.environ.get("HITL_TEST_POSTGRES_URL", "")


def _execute(url: str, statement: str) -> None:
    import psycopg

    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(statement)


@functools.cache
def _process_database() -> str:
    """The URL of this process's own database on the server, made at its first use.

    Each test's schema is made in it rather than in the server's shared database: LangGraph's
    setup builds its indexes ``CONCURRENTLY``, which waits for every older transaction in the same
    database, so the tests of other workers (and of other runs on the server) would wait for each other.
    """
    name = f"hitl_test_{uuid.uuid4().hex[:12]}"
    _execute(POSTGRES_URL, f"CREATE DATABASE {name}")
    return urlunsplit(urlsplit(POSTGRES_URL)._replace(path=f"/{name}"))


@functools.cache
def _schema_maker() -> psycopg.Connection:
    """One connection of this process to its database, which makes the tests' schemas (autocommit: it
    holds no transaction, so LangGraph's concurrent index builds never wait for it)."""
    import psycopg

    return psycopg.connect(_process_database(), autocommit=True)


def drop_process_database() -> None:
    """Drops this process's database if a test made one (FORCE: a connection left open must not keep it)."""
    if _schema_maker.cache_info().currsize:
        _schema_maker().close()
        _schema_maker.cache_clear()
    if _process_database.cache_info().currsize:
        name = urlsplit(_process_database()).path.lstrip("/")
        _execute(POSTGRES_URL, f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
        _process_database.cache_clear()


@contextmanager
def postgres_schema() -> Iterator[str]:
    """A fresh, empty schema for one test; the URL puts it first on the search path."""
    if not POSTGRES_URL:
        pytest.skip("HITL_TEST_POSTGRES_URL is not set (scripts/test.sh starts a PostgreSQL server)")
    database = _process_database()
    schema = f"test_{uuid.uuid4().hex[:12]}"
    _schema_maker().execute(f"CREATE SCHEMA {schema}")
    separator = "&" if "?" in database else "?"
    try:
        yield f"{database}{separator}options=-csearch_path%3D{schema}"
    finally:
        _schema_maker().execute(f"DROP SCHEMA {schema} CASCADE")
