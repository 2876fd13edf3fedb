"""The persistence tests' PostgreSQL schemas: one schema per test, in a database per process.

``tests/conftest.py`` gives each test on the ``postgres`` backend a set-up schema from
:func:`set_up_schema` and drops the process's database when its session ends; the tests that set up a
schema by hand (the schema checks, the migrations) take an empty one from :func:`postgres_schema` through
it. One module under one name, so both see the same database.

A set-up schema is a copy of a template schema the product's store set up once per process: ``pg_dump``
writes the template's tables, indexes, sequences, trigger function, triggers and rows as one script, and
each copy runs that script (its schema's name in place of the template's) in one round trip. The store's
own setup of an empty schema (LangGraph's migrations, whose indexes are built ``CONCURRENTLY``, then the
project's tables one statement at a time) costs the server several times as much, for each of several
hundred tests. ``tests/test_postgres_copies.py`` proves a copy is the schema the store makes and that
the store opens it without setting anything up. Without ``pg_dump`` each test's schema is set up by the
store, as before.

One connection per process makes and drops the schemas, rather than a new connection (a new server
process) for each statement.
"""

from __future__ import annotations

import functools
import os
import re
import shutil
import subprocess
import threading
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


#: The template schema's name, in each process's database (unique, so it appears nowhere else in the script).
TEMPLATE_SCHEMA = "hitl_template_c7e1d9"
#: What the copy script leaves out of ``pg_dump``'s output: its client settings (a search path of ``''``
#: among them) and its meta-commands, which are for ``psql``; every name in the script is schema-qualified.
_CLIENT_LINES = re.compile(r"^(SET |SELECT pg_catalog\.set_config\(|\\).*$", re.MULTILINE)


def _pg_dump(server_version: int) -> str | None:
    """The ``pg_dump`` of the server's major version (Debian's layout), else the one on the path."""
    matching = f"/usr/lib/postgresql/{server_version // 10000}/bin/pg_dump"
    return matching if os.access(matching, os.X_OK) else shutil.which("pg_dump")


def schema_url(schema: str) -> str:
    """The URL of a schema of this process's database: it first on the search path."""
    database = _process_database()
    separator = "&" if "?" in database else "?"
    return f"{database}{separator}options=-csearch_path%3D{schema}"


_MAKING_SCRIPT = threading.Lock()  # the property runs make their schemas in a thread of their own


def copy_script() -> str | None:
    """See :func:`_copy_script`: made once per process and set of tables (a test that registers an agent
    of its own gets its tables), whichever thread asks first."""
    from agents.db_postgres import POSTGRES_TYPES
    from agents.registry import AGENTS
    from agents.schema import fingerprint, project_tables, schema_text

    tables = project_tables([table for spec in AGENTS.values() for table in spec.run.tables])
    with _MAKING_SCRIPT:
        return _copy_script(fingerprint(schema_text(tables, **POSTGRES_TYPES)))


@functools.cache
def _copy_script(tables: str) -> str | None:  # the tables' fingerprint: one script for each set of tables
    """The SQL that makes a copy of the template schema (named ``TEMPLATE_SCHEMA`` in it), or None when
    ``pg_dump`` cannot write it (not installed, or older than the server).

    The template is set up by the store exactly as a test's ``store`` fixture opens a database (every
    registered agent's tables), then dumped, then dropped: the script is all that is kept.
    """
    from agents.runtime import open_store

    maker = _schema_maker()
    maker.execute(f"DROP SCHEMA IF EXISTS {TEMPLATE_SCHEMA} CASCADE")
    maker.execute(f"CREATE SCHEMA {TEMPLATE_SCHEMA}")
    try:
        open_store(schema_url(TEMPLATE_SCHEMA)).close()
        dump = _pg_dump(maker.info.server_version)
        if dump is None:
            return None
        written = subprocess.run(
            [dump, "--dbname", _process_database(), "--schema", TEMPLATE_SCHEMA, "--inserts", "--no-owner"],
            capture_output=True,
            text=True,
            check=False,
        )
    finally:
        maker.execute(f"DROP SCHEMA {TEMPLATE_SCHEMA} CASCADE")
    if written.returncode != 0:
        return None
    return _CLIENT_LINES.sub("", written.stdout)


@contextmanager
def set_up_schema() -> Iterator[str]:
    """A schema for one test, set up as the store sets up an empty one; the URL puts it first on the search
    path. A copy of the process's template (:func:`copy_script`), made in one round trip."""
    if not POSTGRES_URL:
        pytest.skip("HITL_TEST_POSTGRES_URL is not set (scripts/test.sh starts a PostgreSQL server)")
    script = copy_script()
    if script is None:
        from agents.runtime import open_store

        with postgres_schema() as url:
            open_store(url).close()
            yield url
        return
    schema = f"test_{uuid.uuid4().hex[:12]}"
    _schema_maker().execute(script.replace(TEMPLATE_SCHEMA, schema))  # one transaction, one round trip
    try:
        yield schema_url(schema)
    finally:
        _schema_maker().execute(f"DROP SCHEMA {schema} CASCADE")
