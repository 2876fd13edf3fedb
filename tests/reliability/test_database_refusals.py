"""The database's refusals in the reader's language, and a database in a folder that cannot be written.

A file that is not a database, one another process keeps locked, a folder given as the file and a path
under a file: the CLI says each in ``--lang``'s language. A database whose folder cannot be written
(SQLite makes its ``-wal`` and ``-shm`` files there) is opened read-only, as a read-only file is.
"""

from __future__ import annotations

import shutil
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest

from agents import lifecycle, readmodel
from agents.cli import main as cli_main
from agents.db import DatabaseError, explain_refusal
from agents.runtime import open_store
from tests.factories import pause_robot, unwritable

HANGUL = range(ord("가"), ord("힣") + 1)


def _has_hangul(message: str) -> bool:
    return any(ord(char) in HANGUL for char in message)


def _cli(capsys: pytest.CaptureFixture[str], db: str | Path, *args: str) -> tuple[int, str, str]:
    capsys.readouterr()
    code = cli_main(["--db", str(db), *args])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


@pytest.mark.parametrize(
    ("lang", "said"),
    [("en", "is not a SQLite database"), ("ko", "SQLite 데이터베이스가 아닙니다")],
)
def test_a_file_that_is_not_a_database_is_said_in_the_readers_language(capsys, tmp_path, lang, said):
    notdb = tmp_path / "notdb.sqlite"
    notdb.write_text("hello, not a database\n" * 100)
    code, _, err = _cli(capsys, notdb, "--lang", lang, "threads")
    assert code == 2 and said in err, err
    if lang == "ko":
        assert "is not" not in err, err


@pytest.mark.parametrize(("lang", "said"), [("en", "cannot be opened"), ("ko", "열 수 없습니다")])
def test_a_folder_or_a_path_under_a_file_is_said_in_the_readers_language(capsys, tmp_path, lang, said):
    (tmp_path / "file").write_text("x")
    for location in (tmp_path, tmp_path / "file" / "db.sqlite"):
        code, _, err = _cli(capsys, location, "--lang", lang, "threads")
        assert code == 2 and said in err, err


@pytest.mark.parametrize(("lang", "said"), [("en", "is busy"), ("ko", "사용 중입니다")])
def test_a_database_locked_by_another_process_is_said_in_the_readers_language(
    run_cli, store, settings, db_path, monkeypatch, lang, said
):
    pause_robot(store, settings)
    head = readmodel.head_checkpoint_id(store, "hitl_demo")
    monkeypatch.setenv("HITL_DB_BUSY_TIMEOUT", "0.05")  # the product waits 30 s; the refusal is the same
    holder = sqlite3.connect(db_path, isolation_level=None, timeout=1)
    holder.execute("BEGIN EXCLUSIVE")
    try:
        refused = run_cli("--lang", lang, "resume", "hitl_demo", "yes")
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert refused.code == 75 and said in refused.err, refused.err  # EX_TEMPFAIL: try again later, not bad input
    if lang == "ko":
        assert "busy" not in refused.err and "nothing was changed" not in refused.err, refused.err
    assert readmodel.head_checkpoint_id(store, "hitl_demo") == head


def test_every_refusal_of_sqlite_has_korean_words():
    for detail in (
        "file is not a database",
        "attempt to write a readonly database",
        "database is locked",
        "database disk image is malformed",
        "disk I/O error",
    ):
        message = explain_refusal("/x/k.sqlite", sqlite3.OperationalError(detail))
        assert _has_hangul(message.render("ko")), (detail, message.render("ko"))
        assert not _has_hangul(str(message)), detail


@pytest.fixture
def in_read_only_folder(store, settings, tmp_path) -> Iterator[Path]:
    """A set-up database with a waiting thread, copied into a folder that cannot be written."""
    pause_robot(store, settings)
    store.close()
    folder = tmp_path / "rodir"
    folder.mkdir()
    shutil.copyfile(store.path, folder / "ro.sqlite")
    with unwritable(folder):
        yield folder / "ro.sqlite"


@pytest.mark.parametrize(
    ("lang", "said"),
    [("en", "is read-only; nothing can be changed"), ("ko", "읽기 전용이라 아무것도 바꿀 수 없습니다")],
)
def test_a_database_in_a_folder_that_cannot_be_written_is_opened_read_only(capsys, in_read_only_folder, lang, said):
    code, out, err = _cli(capsys, in_read_only_folder, "--lang", lang, "threads")
    assert code == 0 and "hitl_demo" in out, (out, err)
    code, _, err = _cli(capsys, in_read_only_folder, "--lang", lang, "resume", "hitl_demo", "yes")
    assert code == 2 and said in err, err
    opened = open_store(in_read_only_folder)
    try:
        assert opened.read_only
        assert lifecycle.thread_status(opened, "hitl_demo").status == "waiting"
    finally:
        opened.close()
    assert sorted(path.name for path in in_read_only_folder.parent.iterdir()) == ["ro.sqlite"]


@pytest.mark.parametrize(("lang", "said"), [("en", "its folder"), ("ko", "폴더")])
def test_a_new_database_in_a_folder_that_cannot_be_written_names_the_folder(capsys, tmp_path, lang, said):
    folder = tmp_path / "rodir"
    folder.mkdir()
    with unwritable(folder):
        code, _, err = _cli(capsys, folder / "new.sqlite", "--lang", lang, "run", "robot")  # a command that makes one
        with pytest.raises(DatabaseError, match="its folder .* cannot be written"):
            open_store(folder / "new.sqlite")
    assert code == 2 and said in err and str(folder) in err, err
