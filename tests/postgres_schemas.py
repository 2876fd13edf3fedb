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

A copy is made once and used by test after test: when a test ends its schema is emptied and renamed in one
transaction (its tables locked first, every row deleted, the copy's rows and sequence starts put back), for
about a tenth of the server time of dropping it and running the script again. It is dropped instead when
its test changed its structure (a column, index, constraint, trigger, function, sequence or table added,
dropped or altered): ``tests/test_postgres_copies.py`` proves the next test finds nothing of the one before.

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
from dataclasses import dataclass, field
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


def process_database() -> str:
    """The URL of this process's database, where its tests' schemas are."""
    return _process_database()


def drop_process_database() -> None:
    """Drops this process's database if a test made one (FORCE: a connection left open must not keep it)."""
    if _schema_maker.cache_info().currsize:
        _schema_maker().close()
        _schema_maker.cache_clear()
    if _process_database.cache_info().currsize:
        name = urlsplit(_process_database()).path.lstrip("/")
        _execute(POSTGRES_URL, f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
        _process_database.cache_clear()
        _template.cache_clear()  # its schemas ready for tests were in it


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
    """The SQL that makes a copy of the template schema (named ``TEMPLATE_SCHEMA`` in it), or None when
    ``pg_dump`` cannot write it: see :func:`_template`."""
    template = _current_template()
    return None if template is None else template.script


def _current_template() -> _Template | None:
    """See :func:`_template`: made once per process and set of tables (a test that registers an agent of
    its own gets its tables), whichever thread asks first."""
    from agents.db_postgres import POSTGRES_TYPES
    from agents.registry import AGENTS
    from agents.schema import fingerprint, project_tables, schema_text

    tables = project_tables([table for spec in AGENTS.values() for table in spec.run.tables])
    with _MAKING_SCRIPT:
        return _template(fingerprint(schema_text(tables, **POSTGRES_TYPES)))


#: The structure of a schema as one text (its name left out): its relations, columns with their types,
#: defaults and nullability, constraints, indexes, triggers (enabled or not), functions and sequences. A
#: schema given back after a test is used again only while this is what its copy had: a test that added,
#: dropped or changed any of them leaves it to be dropped. The function lives in the database's ``public``
#: schema, on no test's search path.
_STRUCTURE_FUNCTION = r"""
CREATE OR REPLACE FUNCTION public.hitl_test_structure(target regnamespace) RETURNS text
LANGUAGE plpgsql STABLE AS $$ BEGIN
RETURN replace(concat_ws(E'\n',
    (SELECT string_agg(format('%s %s %s %s %s %s', relname, relkind, relpersistence, reloptions, relacl,
                              relrowsecurity), ',' ORDER BY relname)
     FROM pg_class WHERE relnamespace = target),
    (SELECT string_agg(format('%s %s %s %s %s %s', c.relname, a.attnum, a.attname,
                              format_type(a.atttypid, a.atttypmod), a.attnotnull,
                              pg_get_expr(d.adbin, d.adrelid)), ',' ORDER BY c.relname, a.attnum)
     FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid
     LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
     WHERE c.relnamespace = target AND a.attnum > 0 AND NOT a.attisdropped),
    (SELECT string_agg(format('%s %s %s', conrelid::regclass, conname, pg_get_constraintdef(oid)), ','
                       ORDER BY conrelid::regclass::text, conname)
     FROM pg_constraint WHERE connamespace = target),
    (SELECT string_agg(pg_get_indexdef(i.indexrelid), ',' ORDER BY c.relname)
     FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid WHERE c.relnamespace = target),
    (SELECT string_agg(format('%s %s', pg_get_triggerdef(t.oid), t.tgenabled), ',' ORDER BY c.relname, t.tgname)
     FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid WHERE c.relnamespace = target AND NOT t.tgisinternal),
    (SELECT string_agg(format('%s(%s) %s %s %s', proname, pg_get_function_identity_arguments(oid), prorettype,
                              provolatile, prosrc), ',' ORDER BY proname)
     FROM pg_proc WHERE pronamespace = target),
    (SELECT string_agg(format('%s %s %s %s %s %s %s', c.relname, s.seqtypid, s.seqstart, s.seqincrement,
                              s.seqmax, s.seqmin, s.seqcycle), ',' ORDER BY c.relname)
     FROM pg_sequence s JOIN pg_class c ON c.oid = s.seqrelid WHERE c.relnamespace = target)
), target::text, '');
END $$
"""


@dataclass(frozen=True)
class _Template:
    """How this process makes a set-up schema and how it empties one a test gave back."""

    script: str  # makes a copy (the template's name in it)
    tables: tuple[str, ...]  # the copy's tables
    rows: str  # the statements that put the copy's rows back and its sequences where they start
    structure: str  # what :data:`_STRUCTURE_FUNCTION` gives for a copy
    ready: list[str] = field(default_factory=list)  # schemas given back and emptied, for the next tests


@functools.cache
def _template(tables: str) -> _Template | None:  # the tables' fingerprint: one template for each set of tables
    """The template of this process's set-up schemas, or None when ``pg_dump`` cannot write its script (not
    installed, or older than the server).

    The template schema is set up by the store exactly as a test's ``store`` fixture opens a database (every
    registered agent's tables), then dumped, then dropped: the script is all that is kept. A first copy
    gives the structure a schema must still have to be used again, and is the first schema ready.
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
    script = _CLIENT_LINES.sub("", written.stdout)
    prefix = re.escape(TEMPLATE_SCHEMA)
    first = _new_name()
    maker.execute(_STRUCTURE_FUNCTION)
    maker.execute(script.replace(TEMPLATE_SCHEMA, first))
    structure = maker.execute("SELECT public.hitl_test_structure(%s::regnamespace)", (first,)).fetchone()
    return _Template(
        script=script,
        tables=tuple(re.findall(rf"^CREATE TABLE {prefix}\.(\w+) \(", script, re.MULTILINE)),
        rows="\n".join(
            re.findall(rf"^(?:INSERT INTO {prefix}\.|SELECT pg_catalog\.setval\(').*$", script, re.MULTILINE)
        ),
        structure=structure[0] if structure else "",
        ready=[first],
    )


def _new_name() -> str:
    return f"test_{uuid.uuid4().hex[:12]}"


_READY = threading.Lock()  # the property runs give schemas back from a thread of their own


def _emptied(template: _Template, schema: str, name: str) -> str:
    """The SQL that, in one transaction, empties a schema a test gave back and renames it ``name``, or fails
    (leaving it as it is) when its structure is no longer its copy's.

    Its tables are locked first, as dropping them would: a transaction the test left open ends before they
    are emptied, and nothing it wrote stays. Triggers are off meanwhile (the deletes note no changes); the
    rows the copy had (the schema's version, LangGraph's migrations) go back, and each sequence starts where
    the copy's does. Renamed, the schema is no longer at the URL the test had.
    """
    tables = ", ".join(f"{schema}.{table}" for table in template.tables)
    return "\n".join(
        [
            f"LOCK TABLE {tables} IN ACCESS EXCLUSIVE MODE;",
            f"DO $check$ BEGIN IF public.hitl_test_structure('{schema}'::regnamespace)"
            f" IS DISTINCT FROM {_literal(template.structure)} THEN"
            " RAISE EXCEPTION 'changed by its test'; END IF; END $check$;",
            "SET LOCAL session_replication_role = replica;",
            *(f"DELETE FROM {schema}.{table};" for table in template.tables),
            template.rows.replace(TEMPLATE_SCHEMA, schema),
            f"ALTER SCHEMA {schema} RENAME TO {name};",
        ]
    )


def _literal(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"  # inside the DO block's $check$ quotes


@contextmanager
def set_up_schema() -> Iterator[str]:
    """A schema for one test, set up as the store sets up an empty one; the URL puts it first on the search
    path.

    A copy of the process's template (:func:`copy_script`), made in one round trip, or one an earlier test
    gave back, emptied: when the test ends its schema is emptied and renamed in one transaction
    (:func:`_emptied`), for a fraction of the server time of dropping it and making another copy, unless the
    test changed its structure, and then it is dropped.
    """
    if not POSTGRES_URL:
        pytest.skip("HITL_TEST_POSTGRES_URL is not set (scripts/test.sh starts a PostgreSQL server)")
    template = _current_template()
    if template is None:
        from agents.runtime import open_store

        with postgres_schema() as url:
            open_store(url).close()
            yield url
        return
    with _READY:
        schema = template.ready.pop() if template.ready else None
    if schema is None:
        schema = _new_name()
        _schema_maker().execute(template.script.replace(TEMPLATE_SCHEMA, schema))  # one transaction, one round trip
    try:
        yield schema_url(schema)
    finally:
        _give_back(template, schema)


def _give_back(template: _Template, schema: str) -> None:
    import psycopg

    name = _new_name()
    try:
        _schema_maker().execute(_emptied(template, schema, name))
    except psycopg.Error:  # its structure changed (or a table is gone): a new copy replaces it
        _schema_maker().execute(f"DROP SCHEMA {schema} CASCADE")
        return
    with _READY:
        template.ready.append(name)
