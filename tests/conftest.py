"""Shared fixtures: a temp database per test, clean settings, the CLI and AppTest."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from agents.cli import main as cli_main
from agents.db import Store, open_store
from agents.settings import Settings, load_settings

PROJECT_ROOT = Path(__file__).resolve().parent.parent
APP_FILE = str(PROJECT_ROOT / "streamlit_app.py")


@pytest.fixture(autouse=True)
def isolated_environment(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """Every test gets its own database file and the embedded model with zero latency."""
    db_path = tmp_path / "checkpoints.sqlite"
    monkeypatch.setenv("HITL_DB", str(db_path))
    monkeypatch.setenv("HITL_MODEL_LATENCY", "0")
    for name in ("GOOGLE_API_KEY", "GEMINI_API_KEY", "TAVILY_API_KEY"):
        monkeypatch.delenv(name, raising=False)
    return db_path


@pytest.fixture
def db_path(isolated_environment: Path) -> Path:
    """The test's database file."""
    return isolated_environment


@pytest.fixture
def store(db_path: Path) -> Iterator[Store]:
    """The test's database, opened."""
    opened = open_store(db_path)
    yield opened
    opened.close()


@pytest.fixture
def settings(db_path: Path) -> Settings:
    """Settings pointing at the test's database, without reading any secrets file."""
    return load_settings(db_override=str(db_path), secrets={})


@dataclass
class CliResult:
    """What a CLI call returned and printed."""

    code: int
    out: str
    err: str


@pytest.fixture
def run_cli(capsys: pytest.CaptureFixture[str], db_path: Path) -> Callable[..., CliResult]:
    """Runs ``python -m agents --db <test db> ARGS`` in-process."""

    def run(*args: str) -> CliResult:
        capsys.readouterr()
        code = cli_main(["--db", str(db_path), *args])
        captured = capsys.readouterr()
        return CliResult(code, captured.out, captured.err)

    return run


@pytest.fixture
def app() -> Callable[[str], AppTest]:
    """Returns ``open(page_path)``: the dashboard switched to a page, run once."""

    def open_page(page: str = "app_pages/home.py") -> AppTest:
        test = AppTest.from_file(APP_FILE, default_timeout=60)
        test.run()
        if page != "app_pages/home.py":
            test.switch_page(page)
            test.run()
        return test

    return open_page
