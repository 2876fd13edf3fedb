"""A file that is not this project's save file as a release wrote it is refused at open, on every path.

Another application's SQLite file, a save file whose ``hitl_meta`` is dropped or renamed, whose
``schema_version`` or fingerprint is missing or changed, whose tables have a column renamed or added, or
whose pages are overwritten: every command, every page and the API's ``serve`` refuse it with one message,
and the file is byte-for-byte unchanged. A new empty file and LangGraph's tables alone stay accepted.
"""

from __future__ import annotations

import hashlib
import os
import sqlite3
from collections.abc import Callable
from contextlib import closing
from pathlib import Path

import pytest
from langgraph.checkpoint.sqlite import SqliteSaver

from agents import lifecycle, runs
from agents.db import DatabaseError, Store
from agents.runtime import open_store
from agents.settings import Settings
from tests.conftest import PROJECT_ROOT
from tests.factories import pause_robot
from tests.fresh_process import run_command
from tests.serving import free_port
from tests.templates import copy_into

FOREIGN = "this database is damaged or was written by something else"
REFUND = {"case_id": "R1", "customer": "kim", "amount": 500_000, "reason": "r"}


def _sql(*statements: str) -> Callable[[Path], None]:
    def damage(path: Path) -> None:
        with closing(sqlite3.connect(path)) as conn:  # closed: the WAL is folded into the file
            for statement in statements:
                conn.execute(statement)
            conn.commit()

    return damage


def _another_application(path: Path) -> None:
    path.unlink()
    _sql("CREATE TABLE customers (id)", "INSERT INTO customers VALUES (1)")(path)


def _page_of(name: str) -> Callable[[Path], None]:
    """Overwrites the root page of a table or index (as a disk or a careless tool would)."""

    def damage(path: Path) -> None:
        with closing(sqlite3.connect(path)) as conn:
            root = conn.execute("SELECT rootpage FROM sqlite_master WHERE name = ?", (name,)).fetchone()[0]
            size = conn.execute("PRAGMA page_size").fetchone()[0]
        with path.open("r+b") as file:
            file.seek((root - 1) * size)
            file.write(b"\xff" * size)

    return damage


def _first_page(path: Path) -> None:
    with path.open("r+b") as file:
        file.write(b"\xff" * 4096)


#: (id, damage, what the message says)
DAMAGES = [
    ("another application's file", _another_application, "the table 'customers'"),
    ("another application's table added", _sql("CREATE TABLE customers (id)"), "the table 'customers'"),
    ("hitl_meta dropped", _sql("DROP TABLE hitl_meta"), "hitl_meta is missing"),
    ("hitl_meta renamed", _sql("ALTER TABLE hitl_meta RENAME TO meta_old"), "the table 'meta_old'"),
    ("schema_version deleted", _sql("DELETE FROM hitl_meta WHERE key = 'schema_version'"), "no schema_version"),
    ("schema_version -1", _sql("UPDATE hitl_meta SET value = '-1' WHERE key = 'schema_version'"), "is '-1'"),
    ("schema_version 0", _sql("UPDATE hitl_meta SET value = '0' WHERE key = 'schema_version'"), "is '0'"),
    (
        "fingerprint changed",
        _sql("UPDATE hitl_meta SET value = 'x' WHERE key = 'schema_fingerprint'"),
        "schema_fingerprint is 'x'",
    ),
    (
        "fingerprint of no release",
        _sql("UPDATE hitl_meta SET value = '0123456789abcdef' WHERE key = 'schema_fingerprint'"),
        "which no release of this project wrote",
    ),
    (
        "fingerprint deleted",
        _sql("DELETE FROM hitl_meta WHERE key = 'schema_fingerprint'"),
        "no schema_fingerprint",
    ),
    (
        "process_start renamed",
        _sql("ALTER TABLE thread_leases RENAME COLUMN process_start TO started"),
        "lacks the column(s) process_start",
    ),
    (
        "a column added to the ledger",
        _sql("ALTER TABLE refund_ledger ADD COLUMN note TEXT"),
        "has the column(s) note",
    ),
    ("page 1 overwritten", _first_page, "is not a SQLite database"),
    ("a table's root page overwritten", _page_of("checkpoints"), "is damaged"),
    ("an index's root page overwritten", _page_of("sqlite_autoindex_checkpoints_1"), "is damaged"),
    ("the ledger's index overwritten", _page_of("sqlite_autoindex_refund_ledger_1"), "is damaged"),
]

COMMANDS = [
    ("threads",),
    ("inbox", "--json"),
    ("inspect", "refund-R1"),
    ("ledger",),
    ("ledger", "--audit"),
    ("timeline", "hitl_demo"),
    ("graph", "hitl_demo", "--json"),
    ("run", "refund", "--case", "N1", "--customer", "lee", "--amount", "500000", "--reason", "r"),
    ("run", "robot", "--thread", "fresh"),
    ("resume", "refund-R1", '{"action": "approve", "approver": "park"}'),
    ("resume", "hitl_demo", "yes"),
    ("update", "hitl_demo", "--values", '{"decision": "no"}', "--as-node", "approval"),
    ("continue", "hitl_demo"),
    ("delete", "hitl_demo", "--yes"),
]

PAGES = [
    "app_pages/home.py",
    "app_pages/robot.py",
    "app_pages/refund.py",
    "app_pages/lecture.py",
    "app_pages/explorer.py",
    "app_pages/timeline.py",
]


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _robot_and_refund_waiting(store: Store, settings: Settings) -> None:
    pause_robot(store, settings)
    runs.start_run(store, settings, "refund", REFUND)


@pytest.fixture
def damaged_file(request, store, db_path):
    """The test's save file with a waiting robot and refund, closed, then damaged as the test's ``damage`` says.

    The two runs are made once per process and copied into the test's file (``tests/templates.py``).
    """
    copy_into(store, "robot-and-refund-waiting", _robot_and_refund_waiting)
    store.close()  # the last connection folds the WAL into the file
    _id, damage, message = request.param
    damage(db_path)
    return message


@pytest.mark.parametrize("damaged_file", DAMAGES, ids=[d[0] for d in DAMAGES], indirect=True)
def test_every_command_refuses_the_file_with_one_message_and_writes_nothing(run_cli, db_path, damaged_file):
    before = _digest(db_path)
    for command in COMMANDS:
        result = run_cli(*command)
        assert result.code == 2, (command, result.code, result.err[-400:])
        assert damaged_file in result.err and "Traceback" not in result.err, (command, result.err[-400:])
        if damaged_file not in ("is not a SQLite database", "is damaged"):  # the tables, not the pages
            assert FOREIGN in result.err, (command, result.err)
        assert _digest(db_path) == before, command


@pytest.mark.parametrize("damaged_file", DAMAGES, ids=[d[0] for d in DAMAGES], indirect=True)
def test_every_page_shows_the_refusal_and_writes_nothing(app, db_path, damaged_file):
    before = _digest(db_path)
    for page in PAGES:
        at = app(page)
        assert not at.exception, (page, at.exception[0].message)
        errors = [error.value for error in at.error]
        assert any(damaged_file in error for error in errors), (page, errors)
    assert _digest(db_path) == before


@pytest.mark.parametrize("damaged_file", DAMAGES[::3], ids=[d[0] for d in DAMAGES[::3]], indirect=True)
def test_the_api_server_refuses_to_start_on_the_file(db_path, damaged_file):
    before = _digest(db_path)
    env = {k: v for k, v in os.environ.items() if not k.startswith("HITL_")}
    env.update(HITL_DB=str(db_path), HITL_MODEL_LATENCY="0")
    done = run_command(["serve", "--port", str(free_port())], PROJECT_ROOT, env)
    assert done.returncode == 2 and damaged_file in done.stderr and "Traceback" not in done.stderr, done.stderr
    assert _digest(db_path) == before


def test_a_new_empty_file_and_langgraphs_tables_alone_are_accepted(run_cli, db_path, tmp_path):
    db_path.touch()  # an empty file, as `touch` leaves it
    assert run_cli("run", "robot").code == 0
    langgraph_only = tmp_path / "langgraph.sqlite"
    with sqlite3.connect(langgraph_only, check_same_thread=False) as conn:
        SqliteSaver(conn).setup()
    store = open_store(langgraph_only)
    try:
        assert {"hitl_meta", "node_log", "refund_ledger"} <= {table.name for table in store.tables}
        with store.read() as cursor:
            cursor.execute("SELECT value FROM hitl_meta WHERE key = 'schema_version'")
            assert cursor.fetchone() == ("1",)
    finally:
        store.close()


def test_an_earlier_releases_file_is_still_opened_and_brought_up_to_date(store, settings, db_location):
    pause_robot(store, settings)
    with store.transaction() as cursor:  # as the release before the refund assessments left it
        cursor.execute("DROP TABLE refund_assessments")
        cursor.execute("UPDATE hitl_meta SET value = '4d4ca35bf0b25714' WHERE key = 'schema_fingerprint'")
    store.close()
    reopened = open_store(db_location)
    try:
        assert lifecycle.thread_status(reopened, "hitl_demo").status == "waiting"
        with reopened.read() as cursor:
            cursor.execute("SELECT count(*) FROM refund_assessments")
            assert cursor.fetchone() == (0,)
    finally:
        reopened.close()


# --- Paths that cannot be opened are not "read-only" ---------------------------------------------------


def _symlink_loop(tmp_path: Path) -> str:
    (tmp_path / "loop.sqlite").symlink_to(tmp_path / "loop.sqlite")
    return str(tmp_path / "loop.sqlite")


def _under_a_file(tmp_path: Path) -> str:
    (tmp_path / "plain").write_text("not a folder")
    return str(tmp_path / "plain" / "db.sqlite")


@pytest.mark.parametrize("make", [_symlink_loop, _under_a_file], ids=["symlink loop", "path under a file"])
def test_a_path_that_cannot_be_opened_is_named_so_on_every_command(capsys, tmp_path, make):
    from agents.cli import main

    location = make(tmp_path)
    for command in (("threads",), ("run", "robot"), ("ledger", "--audit"), ("inspect", "hitl_demo")):
        code = main(["--db", location, *command])
        err = capsys.readouterr().err
        assert code == 2 and "cannot be opened" in err and "read-only" not in err, (command, err)
    with pytest.raises(DatabaseError, match="cannot be opened"):
        open_store(location)


# --- PostgreSQL: another application's tables in the schema --------------------------------------------


@pytest.fixture
def postgres_location():
    from tests.conftest import _postgres_schema

    with _postgres_schema() as url:
        yield url


@pytest.mark.parametrize(
    ("damage", "message"),
    [
        ("CREATE TABLE customers (id integer)", "the table 'customers'"),
        ("DROP TABLE hitl_meta", "hitl_meta is missing"),
        ("DELETE FROM hitl_meta WHERE key = 'schema_version'", "no schema_version"),
        ("UPDATE hitl_meta SET value = '-1' WHERE key = 'schema_version'", "is '-1'"),
        ("UPDATE hitl_meta SET value = 'x' WHERE key = 'schema_fingerprint'", "schema_fingerprint is 'x'"),
        ("ALTER TABLE thread_leases RENAME COLUMN process_start TO started", "lacks the column(s) process_start"),
    ],
)
def test_a_foreign_or_damaged_postgres_schema_is_refused(postgres_location, damage, message):
    import psycopg

    open_store(postgres_location).close()
    with psycopg.connect(postgres_location, autocommit=True) as conn:
        conn.execute(damage)
    with pytest.raises(DatabaseError, match=FOREIGN) as refused:
        open_store(postgres_location)
    assert message in str(refused.value)


def test_a_postgres_schema_with_another_applications_tables_alone_is_refused(postgres_location):
    import psycopg

    with psycopg.connect(postgres_location, autocommit=True) as conn:
        conn.execute("CREATE TABLE customers (id integer)")
    with pytest.raises(DatabaseError, match="the table 'customers'"):
        open_store(postgres_location)
    with psycopg.connect(postgres_location, autocommit=True) as conn:
        tables = conn.execute("SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema()")
        assert [row[0] for row in tables] == ["customers"]
