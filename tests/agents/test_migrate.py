"""``migrate``: a SQLite save file copied into PostgreSQL, counts verified, threads still resumable."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest

from agents import ages, readmodel, runs, threadindex
from agents.cli import main as cli_main
from agents.notify.scan import scan
from agents.runtime import load_settings, open_store
from agents.settings import notify_setting
from tests.conftest import _postgres_schema
from tests.factories import answer_robot, pause_robot, start_refund


@pytest.fixture
def postgres_url():
    with _postgres_schema() as url:
        yield url


def _fill(sqlite_path: Path) -> None:
    store = open_store(sqlite_path)
    settings = load_settings(db_override=str(sqlite_path), secrets={})
    pause_robot(store, settings)
    answer_robot(store, settings, "done-robot", "yes")
    start_refund(store, settings, "M1", 50_000, customer="kim", reason="broken")
    start_refund(store, settings, "M2", 500_000, customer="lee", reason="broken")
    items = [{"item": "A", "amount": 50_000}, {"item": "B", "amount": 300_000}]  # A is paid, B waits
    runs.start_run(store, settings, "refund", {"case_id": "M3", "customer": "kim", "reason": "r", "items": items})
    runs.delete_thread(store, "refund-M2", reason="entered twice")  # its deletion row is copied too
    pause_robot(store, settings, "gone-robot")
    runs.delete_thread(store, "gone-robot")  # an unfinished robot thread's deletion row is copied too
    notifying = dataclasses.replace(settings, notify=notify_setting({"HITL_NOTIFY_WEBHOOK": "http://127.0.0.1:9/"}))
    assert scan(store, notifying, ages.utc_now()) > 0  # and the notifications recorded (not sent)
    store.close()


def test_migrate_copies_everything_and_verifies_counts(tmp_path, postgres_url, capsys):
    sqlite_path = tmp_path / "source.sqlite"
    _fill(sqlite_path)
    assert cli_main(["migrate", "--from", str(sqlite_path), "--to", postgres_url, "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["threads"] == 4
    assert all(pair["source"] == pair["target"] > 0 for pair in report["counts"].values())

    source, target = open_store(sqlite_path), open_store(postgres_url)
    for thread_id in ("hitl_demo", "done-robot", "refund-M1", "refund-M3"):
        assert readmodel.checkpoint_chain(source, thread_id) == readmodel.checkpoint_chain(target, thread_id)
    assert [p.payload for p in threadindex.pending_interrupts(target)] == [
        p.payload for p in threadindex.pending_interrupts(source)
    ]
    settings = load_settings(db_override=postgres_url, secrets={})
    assert runs.resume_thread(target, settings, "hitl_demo", "yes").status == "done"
    answer = {"action": "approve", "approver": "lee"}
    assert runs.resume_thread(target, settings, "refund-M3", answer).outcome == "paid"  # its one item left
    source.close()
    target.close()


def test_migrate_refuses_a_target_that_holds_threads(tmp_path, postgres_url, capsys):
    sqlite_path = tmp_path / "source.sqlite"
    _fill(sqlite_path)
    assert cli_main(["migrate", "--from", str(sqlite_path), "--to", postgres_url]) == 0
    assert cli_main(["migrate", "--from", str(sqlite_path), "--to", postgres_url]) == 2
    assert "already holds threads" in capsys.readouterr().err


def test_migrate_bad_arguments(tmp_path, capsys):
    assert cli_main(["migrate", "--from", str(tmp_path / "missing.sqlite"), "--to", "postgresql://x/y"]) == 2
    assert "from: no SQLite file" in capsys.readouterr().err
    (tmp_path / "a.sqlite").write_bytes(b"")
    assert cli_main(["migrate", "--from", str(tmp_path / "a.sqlite"), "--to", "/tmp/other.sqlite"]) == 2
    assert "to: must be a postgresql:// URL" in capsys.readouterr().err
