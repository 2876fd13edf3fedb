"""Hostile input is a clear message (exit 2, nothing changed), never a traceback; ids in any script.

Each case came from an independent fault and input probe: deeply nested JSON, integers beyond 64
bits, oversized objects, lone surrogates and bytes that are not UTF-8, bad settings, a closed pipe,
``--db`` after the command, and thread and case ids in Korean, Japanese and accented Latin.
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from agents import lifecycle, readmodel, runs
from agents.errors import InputError
from agents.refund import ledger
from agents.spec import Field
from agents.validation import parse_json, validate_thread_id
from tests.conftest import PROJECT_ROOT
from tests.factories import pause_robot as _paused_robot
from tests.factories import table_cells

DEEP = "[" * 50_000 + "]" * 50_000
DEEP_OBJECT = '{"a": ' * 5_000 + "1" + "}" * 5_000


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _refused_unchanged(run_cli, db_path, *args, message):
    before = _digest(db_path)
    result = run_cli(*args)
    assert result.code == 2, (args[:2], result.err[-300:])
    assert message in result.err and "Traceback" not in result.err, result.err[-300:]
    assert _digest(db_path) == before
    return result


@pytest.mark.parametrize("text", [DEEP, DEEP_OBJECT])
def test_deeply_nested_json_is_refused_on_every_command(run_cli, store, settings, db_path, text):
    _paused_robot(store, settings)
    _refused_unchanged(run_cli, db_path, "update", "hitl_demo", "--values", text, message="nests deeper than 32")
    _refused_unchanged(run_cli, db_path, "resume", "hitl_demo", text, message="nests deeper than 32")
    result = run_cli("run", "robot", "--thread", "other", "--answer", text)
    assert result.code == 2 and "nests deeper than 32" in result.err
    assert readmodel.head_checkpoint_id(store, "other") is None


def test_integers_beyond_64_bits_are_refused_and_change_nothing(run_cli, store, settings, db_path):
    _paused_robot(store, settings)
    _refused_unchanged(
        run_cli,
        db_path,
        "update",
        "hitl_demo",
        "--values",
        '{"pending_action": {"x": 99999999999999999999999999}}',
        message="beyond 64 bits",
    )
    with pytest.raises(InputError, match="beyond 64 bits"):
        runs.update_thread(store, settings, "hitl_demo", {"pending_action": {"x": -(2**64)}})


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('{"pending_action": 1' + "2" * 4_999 + "}", "beyond 64 bits"),  # past int()'s 4,300 digits
        ('{"pending_action": -' + "3" * 6_000 + "}", "beyond 64 bits"),
        ('{"pending_action": NaN}', "holds NaN"),
        ('{"pending_action": Infinity}', "holds Infinity"),
        ('{"pending_action": 1e999}', "holds 1e999"),
    ],
    ids=["5000-digits", "negative-6000-digits", "nan", "infinity", "float-overflow"],
)
def test_numbers_no_json_reader_takes_back_are_refused_and_change_nothing(
    run_cli, store, settings, db_path, text, message
):
    _paused_robot(store, settings)
    _refused_unchanged(run_cli, db_path, "update", "hitl_demo", "--values", text, message=message)
    _refused_unchanged(run_cli, db_path, "resume", "hitl_demo", text, message=message)
    with pytest.raises(InputError, match=message):
        parse_json(text, "values")


def test_object_fields_and_whole_updates_have_a_size_limit(run_cli, store, settings, db_path):
    _paused_robot(store, settings)
    big = json.dumps({"pending_action": {"text": "x" * 1_000_000}})
    _refused_unchanged(run_cli, db_path, "update", "hitl_demo", "--values", big, message="the limit is")
    # No agent has an object field now (the robot's action is text); the kind keeps its limit.
    field = Field(name="payload", kind="object")
    with pytest.raises(InputError, match="payload: is .* bytes once encoded; the limit is 16,384"):
        field.validate({"text": "가" * 6_000})
    assert field.validate({"text": "가" * 1_000}) == {"text": "가" * 1_000}
    with pytest.raises(InputError, match="pending_action: is 1000 characters long; the limit is 500"):
        runs.update_thread(store, settings, "hitl_demo", {"pending_action": "가" * 1_000})


def test_a_lone_surrogate_in_an_approver_is_refused_before_anything_is_saved(run_cli, store, settings, db_path):
    runs.start_run(store, settings, "refund", {"case_id": "W1", "customer": "kim", "amount": 500_000, "reason": "r"})
    _refused_unchanged(
        run_cli, db_path, "resume", "refund-W1", '{"action": "approve", "approver": "\\ud800"}', message="U+D800"
    )
    assert lifecycle.thread_status(store, "refund-W1").status == "waiting"
    assert ledger.ledger_rows(store) == []
    with pytest.raises(InputError, match="approver: contains U\\+DC80"):
        runs.resume_thread(store, settings, "refund-W1", {"action": "approve", "approver": "kim\udc80"})


def test_command_line_bytes_that_are_not_utf8_are_refused_not_garbled(db_path):
    env = {**os.environ, "HITL_DB": str(db_path), "PYTHONIOENCODING": "utf-8"}
    args = [
        os.fsencode(sys.executable),
        b"-m",
        b"agents",
        b"run",
        b"refund",
        b"--case",
        b"N1",
        b"--customer",
        b"\xc7\xd1\xb1\xdb",
        b"--amount",
        b"500000",
        b"--reason",
        b"r",
    ]  # EUC-KR bytes
    done = subprocess.run(args, cwd=PROJECT_ROOT, env=env, capture_output=True, check=False, timeout=120)
    err = done.stderr.decode("utf-8", "replace")
    assert done.returncode == 2 and "customer: contains U+DCC7" in err and "Traceback" not in err, err
    listed = subprocess.run(
        [sys.executable, "-m", "agents", "threads", "--json"],
        cwd=PROJECT_ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    assert json.loads(listed.stdout) == []


@pytest.mark.parametrize("value", ["-1", "nan", "inf", "abc"])
def test_a_bad_latency_setting_is_refused_naming_it(run_cli, monkeypatch, value):
    monkeypatch.setenv("HITL_MODEL_LATENCY", value)
    result = run_cli(
        "run",
        "lecture",
        "--topic",
        "t",
        "--audience-level",
        "a",
        "--duration",
        "1일 8시간",
        "--delivery-method",
        "d",
        "--platform-tools",
        "p",
        "--constraints",
        "c",
    )
    assert result.code == 2 and "HITL_MODEL_LATENCY:" in result.err, result.err
    # Settings are validated when they are loaded: every command refuses the bad value, by name.
    assert "HITL_MODEL_LATENCY:" in run_cli("threads", "--json").err
    monkeypatch.delenv("HITL_MODEL_LATENCY")
    assert run_cli("threads", "--json").out.strip() == "[]"  # and the refused run wrote nothing


def test_a_pipe_closed_before_the_output_gives_exit_141_and_no_traceback(store, settings, db_path):
    for index in range(40):
        runs.start_run(store, settings, "robot", {}, thread_id=f"t{index}")
    read_end, write_end = os.pipe()
    os.close(read_end)  # nobody reads: the first flush of stdout fails with EPIPE
    env = {**os.environ, "HITL_DB": str(db_path)}
    done = subprocess.run(
        [sys.executable, "-m", "agents", "threads"],
        cwd=PROJECT_ROOT,
        env=env,
        stdout=write_end,
        stderr=subprocess.PIPE,
        text=True,
        check=False,
        timeout=120,
    )
    os.close(write_end)
    assert done.returncode == 141, done.stderr
    assert done.stderr == ""


def test_db_is_accepted_after_the_command_too(run_cli, db_location, capsys):
    from agents.cli import main

    assert main(["run", "robot", "--db", db_location, "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["status"] == "waiting"
    assert main(["threads", "--db", db_location]) == 0
    assert "hitl_demo\trobot\twaiting" in capsys.readouterr().out
    assert main(["resume", "hitl_demo", "yes", "--db", db_location]) == 0


# --- Thread ids in the user's own language --------------------------------------------------------------


@pytest.mark.parametrize("thread_id", ["건-1042", "案件_7", "ケース.3", "café-1", "Ünïcödé:9", "１２３"])
def test_thread_ids_in_any_script_are_accepted(thread_id):
    assert validate_thread_id(thread_id) == thread_id


def test_thread_ids_are_nfc_normalised():
    assert validate_thread_id("cafe\u0301") == "caf\u00e9"


@pytest.mark.parametrize(
    "thread_id",
    [
        "a b",
        "a\tb",
        "a/b",
        "a\\b",
        "'x'",
        '"x"',
        "a\u200bb",
        "a\u202eb",
        "-x",
        "x" * 129,
        "a\x00b",
        "건 1042",
        "a;b",
        "\ud800x",
    ],
)
def test_whitespace_controls_formats_quotes_slashes_and_long_ids_are_refused(thread_id):
    with pytest.raises(InputError, match="thread_id"):
        validate_thread_id(thread_id)


def test_korean_and_japanese_ids_through_the_cli(run_cli):
    started = run_cli(
        "run",
        "refund",
        "--case",
        "건-1042",
        "--customer",
        "홍길동",
        "--amount",
        "500,000",
        "--reason",
        "파손",
        "--json",
    )
    assert started.code == 0, started.err
    assert json.loads(started.out)["thread_id"] == "refund-건-1042"
    done = run_cli("resume", "refund-건-1042", '{"action": "approve", "approver": "김"}', "--json")
    assert json.loads(done.out)["outcome"] == "paid"
    assert run_cli("run", "robot", "--thread", "案件_7", "--answer", "yes").code == 0
    inspect = json.loads(run_cli("inspect", "案件_7", "--json").out)
    assert inspect["thread_id"] == "案件_7" and inspect["counts"]["checkpoints"] == 5
    assert run_cli("delete", "案件_7", "--yes").code == 0


def test_unicode_ids_on_the_pages_and_in_links(app, store, settings):
    runs.start_run(
        store, settings, "refund", {"case_id": "건-1042", "customer": "홍길동", "amount": 500_000, "reason": "r"}
    )
    runs.start_run(store, settings, "robot", {}, thread_id="café-1")
    refund = app("app_pages/refund.py")
    refund.query_params["thread"] = "refund-건-1042"
    refund.run()
    assert not refund.exception, refund.exception
    assert refund.selectbox(key="refund-case").value == "refund-건-1042"
    robot = app("app_pages/robot.py")
    robot.query_params["thread"] = "café-1"
    robot.run()
    assert not robot.exception, robot.exception
    assert any("café-1" in m.value for m in robot.markdown)
    explorer = app("app_pages/explorer.py")
    explorer.query_params["thread"] = "refund-건-1042"
    explorer.run()
    assert explorer.selectbox(key="explorer-thread").value == "refund-건-1042"
    home = app()
    assert not home.exception
    cells = table_cells(home)
    assert "refund-건-1042" in cells and "refund?thread=refund-%EA%B1%B4-1042" in cells


def test_parse_json_refuses_what_no_state_could_hold():
    with pytest.raises(InputError, match="not valid JSON"):
        parse_json("{", "values")
    assert parse_json('{"a": "[[[[", "b": "\\\\"}', "values") == {"a": "[[[[", "b": "\\"}


# --- A damaged, foreign, immutable or unreachable database ---------------------------------------------


@pytest.mark.parametrize(
    ("damage", "message"),
    [
        ("UPDATE hitl_meta SET value = 'abc' WHERE key = 'schema_version'", "schema_version is 'abc'"),
        ("DROP TABLE refund_ledger", "the table 'refund_ledger' is missing"),
        ("DROP TABLE checkpoints", "the table 'checkpoints' is missing"),
        (
            "ALTER TABLE refund_ledger RENAME COLUMN paid_amount TO paid",
            "'refund_ledger' lacks the column(s) paid_amount",
        ),
        ("ALTER TABLE writes RENAME COLUMN channel TO chan", "'writes' lacks the column(s) channel"),
    ],
)
def test_a_damaged_sqlite_database_is_refused_with_a_clear_message(run_cli, store, settings, db_path, damage, message):
    import sqlite3

    runs.start_run(store, settings, "refund", {"case_id": "D1", "customer": "kim", "amount": 500_000, "reason": "r"})
    store.close()
    with sqlite3.connect(db_path) as conn:
        conn.execute(damage)
    before = _digest(db_path)
    for args in (("threads",), ("resume", "refund-D1", '{"action": "approve", "approver": "kim"}')):
        result = run_cli(*args)
        assert result.code == 2, result.err
        assert "this database is damaged or was written by something else" in result.err and message in result.err
        assert "Traceback" not in result.err
    assert _digest(db_path) == before


def test_a_damaged_postgres_database_is_refused_with_a_clear_message(postgres_location):
    import psycopg

    from agents.db import DatabaseError
    from agents.runtime import open_store

    open_store(postgres_location).close()
    with psycopg.connect(postgres_location, autocommit=True) as conn:
        conn.execute("UPDATE hitl_meta SET value = 'abc' WHERE key = 'schema_version'")
    with pytest.raises(DatabaseError, match="damaged or was written by something else: hitl_meta.schema_version"):
        open_store(postgres_location)
    with psycopg.connect(postgres_location, autocommit=True) as conn:
        conn.execute("UPDATE hitl_meta SET value = '1' WHERE key = 'schema_version'")
        conn.execute("DROP TABLE refund_ledger")
    with pytest.raises(DatabaseError, match="the table 'refund_ledger' is missing"):
        open_store(postgres_location)


@pytest.fixture
def postgres_location():
    from tests.conftest import _postgres_schema

    with _postgres_schema() as url:
        yield url


def test_an_immutable_file_is_opened_read_only_like_a_chmod_one(run_cli, store, settings, db_path):
    runs.start_run(store, settings, "robot", {})
    store.close()
    if subprocess.run(["chattr", "+i", str(db_path)], capture_output=True, check=False).returncode != 0:
        pytest.skip("chattr +i is not possible here (not root, or the file system has no immutable flag)")
    try:
        listed = run_cli("threads")
        assert listed.code == 0 and "hitl_demo\trobot\twaiting" in listed.out
        refused = run_cli("resume", "hitl_demo", "yes")
        assert refused.code == 2 and "is read-only; nothing can be changed" in refused.err, refused.err
    finally:
        subprocess.run(["chattr", "-i", str(db_path)], check=True)


@pytest.mark.parametrize("url", ["postgresql://u:secretpw@[::1/x", "postgresql://u:secretpw@127.0.0.1:99999/x"])
def test_a_malformed_postgres_url_names_the_setting_and_hides_the_password(url):
    import contextlib
    import io

    from agents.cli import main

    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        code = main(["--db", url, "threads"])
    assert code == 2 and "HITL_DB" in err.getvalue() and "secretpw" not in err.getvalue(), err.getvalue()
