"""A path with no database: only ``run`` and ``serve`` make one; every other command says so and makes nothing.

A mistyped ``--db`` (or ``HITL_DB``) used to be read as a new, empty database: ``inbox --overdue`` from
cron then reported nothing overdue while the real queue waited, and the typo was left behind as a file.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from agents.cli import main as cli_main

READING = [
    ["threads"],
    ["inbox", "--overdue"],
    ["inbox", "--json"],
    ["ledger"],
    ["inspect", "hitl_demo"],
    ["timeline", "hitl_demo"],
    ["resume", "hitl_demo", "yes"],
    ["delete", "hitl_demo"],
    ["decide", "refund-C01", "--action", "approve", "--approver", "kim"],
    ["notify", "--status"],
]


@pytest.mark.parametrize("command", READING, ids=" ".join)
@pytest.mark.parametrize("lang", ["en", "ko"])
def test_a_command_on_a_path_with_no_database_is_refused_and_makes_nothing(
    command: list[str], lang: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    typo = tmp_path / "folder" / "checkpoints.sqllite"
    assert cli_main(["--db", str(typo), "--lang", lang, *command]) == 2
    err = capsys.readouterr().err
    assert str(typo) in err
    expected = "no database at" if lang == "en" else "데이터베이스가 없습니다"
    assert expected in err
    assert not typo.exists() and not typo.parent.exists()


def test_the_environment_s_path_is_refused_as_the_option_is(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    typo = tmp_path / "typo.sqlite"
    monkeypatch.setenv("HITL_DB", str(typo))
    assert cli_main(["inbox", "--overdue"]) == 2
    assert "HITL_DB" in capsys.readouterr().err and not typo.exists()


def test_run_makes_a_new_database_and_the_other_commands_then_read_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    new = tmp_path / "new" / "checkpoints.sqlite"
    assert cli_main(["--db", str(new), "run", "robot", "--json"]) == 0
    assert new.exists()
    capsys.readouterr()
    assert cli_main(["--db", str(new), "threads", "--json"]) == 0
    assert [row["thread_id"] for row in json.loads(capsys.readouterr().out)] == ["hitl_demo"]


def test_commands_that_use_no_database_run_without_one(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    typo = tmp_path / "none.sqlite"
    assert cli_main(["--db", str(typo), "roles"]) == 0
    assert not typo.exists()
