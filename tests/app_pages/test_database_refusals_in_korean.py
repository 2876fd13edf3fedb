"""The database's refusals on a Korean page: in Korean, and a database in a folder that cannot be written read-only.

A database another process keeps locked, a file that is not a database, and a database whose folder
cannot be written (shown as any read-only one: you can look, but not act).
"""

from __future__ import annotations

import shutil
import sqlite3

from streamlit.testing.v1 import AppTest

from agents import lifecycle, readmodel
from agents.runtime import open_store
from tests.conftest import APP_FILE
from tests.factories import pause_robot, unwritable


def _korean_page(path: str) -> AppTest:
    test = AppTest.from_file(APP_FILE, default_timeout=60)
    test.query_params["lang"] = "ko"  # a link in Korean: the page is drawn in it from the start
    test.run()
    test.switch_page(path)
    test.run()
    return test


def test_a_database_locked_by_another_process_is_said_in_korean(store, settings, db_path, monkeypatch):
    pause_robot(store, settings)
    head = readmodel.head_checkpoint_id(store, "hitl_demo")
    monkeypatch.setenv("HITL_DB_BUSY_TIMEOUT", "0.05")  # the product waits 30 s; the refusal is the same
    at = _korean_page("app_pages/robot.py")
    holder = sqlite3.connect(db_path, isolation_level=None, timeout=1)
    holder.execute("BEGIN EXCLUSIVE")
    try:
        next(b for b in [*at.button, *at.sidebar.button] if b.key == "robot-yes").click().run()
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert not at.exception, at.exception[0].message
    errors = [error.value for error in at.error]
    assert any("사용 중입니다" in error for error in errors), errors
    assert not any("busy" in error or "nothing was changed" in error for error in errors), errors
    assert readmodel.head_checkpoint_id(store, "hitl_demo") == head


def test_a_file_that_is_not_a_database_is_said_in_korean(tmp_path, monkeypatch):
    notdb = tmp_path / "notdb.sqlite"
    notdb.write_text("hello, not a database\n" * 100)
    monkeypatch.setenv("HITL_DB", str(notdb))
    at = _korean_page("app_pages/home.py")
    assert not at.exception, at.exception[0].message
    errors = [error.value for error in at.error]
    assert any("SQLite 데이터베이스가 아닙니다" in error for error in errors), errors
    assert not any("is not" in error for error in errors), errors


def test_a_database_in_a_folder_that_cannot_be_written_is_read_only_on_a_korean_page(
    store, settings, tmp_path, monkeypatch
):
    pause_robot(store, settings)
    store.close()
    folder = tmp_path / "rodir"
    folder.mkdir()
    shutil.copyfile(store.path, folder / "ro.sqlite")
    monkeypatch.setenv("HITL_DB", str(folder / "ro.sqlite"))
    with unwritable(folder):
        at = _korean_page("app_pages/robot.py")
        assert not at.exception, at.exception[0].message
        assert not at.error, [error.value for error in at.error]
        assert any("읽기 전용" in warning.value for warning in at.warning), [w.value for w in at.warning]
        next(b for b in [*at.button, *at.sidebar.button] if b.key == "robot-yes").click().run()
        assert not at.exception, at.exception[0].message
    opened = open_store(folder / "ro.sqlite")
    try:
        assert lifecycle.thread_status(opened, "hitl_demo").status == "waiting"
    finally:
        opened.close()
