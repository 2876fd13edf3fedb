"""Shared fixtures: a temp database per test, clean settings, the CLI and AppTest."""

from __future__ import annotations

import functools
import os
import shutil
import sys
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from hypothesis import HealthCheck
from hypothesis import settings as hypothesis_settings
from streamlit.components.v2 import manifest_scanner
from streamlit.runtime.scriptrunner import ScriptRunnerEvent
from streamlit.testing.v1 import AppTest, local_script_runner

from agents.cli import main as cli_main
from agents.db import Store, is_postgres_url, project_tables
from agents.registry import AGENTS
from agents.runtime import load_settings, open_store
from agents.schema import SQLITE_TYPES, fingerprint, schema_text
from agents.settings import Settings
from dashboard.navigation import pages
from tests.postgres_schemas import POSTGRES_URL, drop_process_database, set_up_schema
from tests.postgres_schemas import postgres_schema as _postgres_schema
from tests.selection import COLLECTED, mark_by_place

__all__ = ["POSTGRES_URL", "_postgres_schema"]  # the tests that set up a PostgreSQL schema by hand import them here

PROJECT_ROOT = Path(__file__).resolve().parent.parent
APP_FILE = str(PROJECT_ROOT / "streamlit_app.py")

# Hypothesis's deadline (200 ms an example) and its "too slow" health check are timed assertions: with the
# suite on every core, an example that waits for one fails a test that checks no timing at all (a mail
# subject's first example took 317 ms beside a full run, 4 ms when tried again). Speed is measured by the
# benchmarks, so no property test is timed; a test's own ``@settings`` still sets its other values.
hypothesis_settings.register_profile("suite", deadline=None, suppress_health_check=[HealthCheck.too_slow])
hypothesis_settings.load_profile("suite")


_scan_component_manifests = manifest_scanner.scan_component_manifests


def _keep_compiled_modules() -> None:
    """Keeps the compiled test and project modules between runs, in a cache outside the checkout.

    An environment that writes no bytecode (``PYTHONDONTWRITEBYTECODE``, to keep ``__pycache__``
    folders out of the checkout) makes every worker of every run rewrite the asserts of every test
    module and compile it again: half of collecting. Python's ``pycache_prefix`` keeps the files
    elsewhere, and pytest keeps its rewritten modules there too; the servers and commands the tests
    start read and write the same cache through the environment.
    """
    if not sys.dont_write_bytecode or sys.pycache_prefix:
        return
    cache = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "hitl-tests" / "pycache"
    sys.dont_write_bytecode = False
    sys.pycache_prefix = str(cache)
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
    os.environ["PYTHONPYCACHEPREFIX"] = str(cache)


_keep_compiled_modules()


#: Where the tests' temporary folders go when the machine has a memory file system (Linux's ``/dev/shm``).
MEMORY_FOLDER = Path("/dev/shm")


def _temporary_folders_in_memory() -> None:
    """Puts the tests' temporary folders (``tmp_path``: every test's database) in memory, where there is one.

    Every test makes SQLite files, and closing one folds its write-ahead log into it and syncs it to disk;
    on a disk those syncs are waits of every test (about 6 % of the quick set's time, measured on two
    cores). A file in memory is the same file to SQLite (its locks, its write-ahead log and its shared
    memory work as on disk) and to a process killed mid-write; only a power cut, which no test makes, would
    tell them apart. ``PYTEST_DEBUG_TEMPROOT`` (pytest's own setting) chooses another place; the worker
    processes of ``pytest-xdist`` and the servers and commands the tests start inherit it.
    """
    if "PYTEST_DEBUG_TEMPROOT" not in os.environ and MEMORY_FOLDER.is_dir() and os.access(MEMORY_FOLDER, os.W_OK):
        os.environ["PYTEST_DEBUG_TEMPROOT"] = str(MEMORY_FOLDER)


_temporary_folders_in_memory()


@functools.cache
def _installed_component_manifests() -> tuple[tuple[object, Path], ...]:
    return tuple(_scan_component_manifests())


def _scan_once(max_workers: int | None = None) -> list[tuple[object, Path]]:
    return list(_installed_component_manifests())


def _wait_for_the_run_to_end(runner: local_script_runner.LocalScriptRunner, timeout: float = 3) -> None:
    """Waits for an ``AppTest`` run's script thread to say it ended (its ``SHUTDOWN`` event), as
    Streamlit's own wait does, with the same timeout and the same error when it passes.

    Streamlit's wait looks every millisecond, and each look reads every event of the run so far: the
    waiting thread takes the interpreter from the script's thread a thousand times a second, for the
    whole run. This one sleeps until the event is sent.
    """
    ended = threading.Event()

    def on_event(sender: object, event: ScriptRunnerEvent, **kwargs: object) -> None:
        if event == ScriptRunnerEvent.SHUTDOWN:
            ended.set()

    runner.on_event.connect(on_event, weak=False)
    try:
        if runner.script_stopped() or ended.wait(timeout):  # it may have ended before the line above
            return
    finally:
        runner.on_event.disconnect(on_event)
    runner.request_stop()  # as Streamlit's wait does, so that the script does not run on
    runner.join()
    raise RuntimeError(f"AppTest script run timed out after {timeout}(s)")


@pytest.fixture(autouse=True, scope="session")
def _component_manifests_scanned_once() -> Iterator[None]:
    """Every ``AppTest`` scans the installed distributions for Streamlit components (the metadata of
    a few hundred packages, most of a page test's time); the installed packages do not change during
    a run, so the scan is made once per process, as a real server makes it once at its start. Each
    run's end is waited for by :func:`_wait_for_the_run_to_end` rather than by looking every millisecond."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(manifest_scanner, "scan_component_manifests", _scan_once)
        patch.setattr(local_script_runner, "require_widgets_deltas", _wait_for_the_run_to_end)
        yield


#: Test files that take longest, longest first (seconds of one worker, measured on two cores). The workers
#: get whole files in collection order (``--dist loadfile --no-loadscope-reorder``), so these start first
#: and no long file is left to run alone on one core at the end. xdist's own order, by number of tests,
#: put a long file of one or two tests last.
LONGEST_FILES = (
    # The whole suite (browsers, property runs, races).
    "tests/reliability/test_refund_property.py",
    "tests/browser/test_signin_flow.py",
    # The request audit's three parts (tests/browser/request_audit.py), about 25 s each.
    "tests/browser/test_request_audit_lecture_explorer.py",
    "tests/browser/test_request_audit.py",
    "tests/browser/test_request_audit_timeline_typed.py",
    "tests/reliability/test_concurrency.py",
    "tests/browser/test_live_queue_flow.py",
    "tests/reliability/test_refund_items_property.py",
    "tests/browser/test_replicas.py",
    # The quick set (``-m "not browser and not slow"``).
    "tests/agents/test_statusindex.py",
    "tests/reliability/test_snapshot_reads.py",
    "tests/reliability/test_damaged_rows.py",
    "tests/reliability/test_foreign_files.py",
    "tests/api/test_api_errors.py",
    "tests/agents/refund/test_refund_rules.py",
    "tests/app_pages/test_korean_pages.py",
    "tests/api/test_api_bodies.py",
    "tests/dashboard/test_inert_markdown.py",
    "tests/reliability/test_bad_input_matrix.py",
    "tests/app_pages/test_explorer_page.py",
    "tests/test_bench_inbox_scale.py",
)


def longest_first(items: list[pytest.Item]) -> None:
    """Orders the files: those of :data:`LONGEST_FILES` in its order, then every other browser or slow file,
    then the rest by number of tests, most first; a file's own tests keep their order."""
    rank = {name: place for place, name in enumerate(LONGEST_FILES)}
    files: dict[str, list[pytest.Item]] = {}
    for item in items:
        files.setdefault(item.path.relative_to(PROJECT_ROOT).as_posix(), []).append(item)

    def weight(name: str) -> tuple[int, int, int]:
        tests = files[name]
        slow = any(item.get_closest_marker("slow") for item in tests)
        return (rank.get(name, len(rank)), 0 if slow else 1, -len(tests))

    items[:] = [item for name in sorted(files, key=weight) for item in files[name]]


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Marks by place (``tests/selection.py``), then puts the longest files first (:func:`longest_first`);
    runs before pytest's own ``-m`` selection reads the marks."""
    mark_by_place(config, items)
    longest_first(items)
    config.stash[COLLECTED] = list(items)  # in the order run


@pytest.fixture(params=["sqlite", "postgres"])
def backend(request: pytest.FixtureRequest) -> str:
    """Runs a test on both backends; persistence-facing modules opt in with
    ``pytestmark = pytest.mark.usefixtures("backend")``."""
    return str(request.param)


def _stop_chromium() -> None:
    """Stops the process's Chromium (``tests/browser/chromium.py``), if a browser test started one."""
    chromium = sys.modules.get("tests.browser.chromium")  # not imported: no browser test ran here
    if chromium is not None:
        chromium.stop()


BROWSER_TESTS = PROJECT_ROOT / "tests" / "browser"


def pytest_runtest_setup(item: pytest.Item) -> None:
    """Before a test outside tests/browser/, stops the process's Chromium: Playwright's sync API keeps an event
    loop running while it is open, which a test calling ``asyncio.run`` would find. A browser module's
    ``browser`` stays open for its every test (no test there calls ``asyncio.run``)."""
    if not item.path.is_relative_to(BROWSER_TESTS):
        _stop_chromium()


def pytest_sessionfinish(session: pytest.Session) -> None:
    """Stops the process's Chromium; drops the database this process made its tests' PostgreSQL schemas in."""
    _stop_chromium()
    drop_process_database()


@pytest.fixture(autouse=True)
def isolated_environment(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, request: pytest.FixtureRequest
) -> Iterator[str]:
    """Every test gets its own database and the embedded model with zero latency."""
    monkeypatch.setenv("HITL_MODEL_LATENCY", "0")
    for name in ("GOOGLE_API_KEY", "GEMINI_API_KEY", "TAVILY_API_KEY", "HITL_LANG", "HITL_SLA"):
        monkeypatch.delenv(name, raising=False)
    # Times read the same on every machine; the tests of the machine's own zone unset it.
    monkeypatch.setenv("HITL_TIMEZONE", "UTC")
    callspec = getattr(request.node, "callspec", None)
    if callspec is not None and callspec.params.get("backend") == "postgres":
        with set_up_schema() as url:  # a copy of a schema the store set up, as a first open leaves it
            monkeypatch.setenv("HITL_DB", url)
            # Plans are files: with PostgreSQL they would go to the checkout's data/plans, shared by
            # every test running at the same time.
            monkeypatch.setenv("HITL_PLANS_DIR", str(tmp_path / "plans"))
            yield url
        return
    location = str(tmp_path / "checkpoints.sqlite")
    monkeypatch.setenv("HITL_DB", location)
    yield location


@pytest.fixture
def db_location(isolated_environment: str) -> str:
    """The test's database: a SQLite file path, or a PostgreSQL URL."""
    return isolated_environment


@pytest.fixture
def db_path(isolated_environment: str) -> Path:
    """The test's database file (SQLite tests only)."""
    return Path(isolated_environment)


@functools.cache
def _set_up_sqlite_file(tables: str, folder: Path) -> Path:  # the tables' fingerprint: one file for each set
    """A SQLite file the store set up, closed (its write-ahead log folded in and removed): made once per
    process and set of tables, in ``folder``."""
    template = folder / f"set-up-{tables}.sqlite"
    open_store(template).close()
    return template


def _copy_of_set_up_sqlite(location: Path, tmp_path_factory: pytest.TempPathFactory) -> None:
    """Writes at ``location`` a copy of a file the store set up as it sets up a new one.

    Setting up a new file creates every table and index in commits of their own, each one synced to
    disk; a copy is one write of about 200 kB, and opening it then finds every table there. The bytes are
    those the store writes (a SQLite file names neither its path nor its time), and a test that registers
    an agent of its own gets a file with its tables.
    """
    tables = project_tables([table for spec in AGENTS.values() for table in spec.run.tables])
    template = _set_up_sqlite_file(
        fingerprint(schema_text(tables, **SQLITE_TYPES)), tmp_path_factory.getbasetemp() / "set-up-sqlite"
    )
    shutil.copyfile(template, location)


@pytest.fixture
def store(db_location: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    """The test's database, opened: a new SQLite file starts as a copy of one the store set up
    (:func:`_copy_of_set_up_sqlite`), a PostgreSQL schema as a copy too (``tests/postgres_schemas.py``)."""
    if not is_postgres_url(db_location) and not Path(db_location).exists():
        _copy_of_set_up_sqlite(Path(db_location), tmp_path_factory)
    opened = open_store(db_location)
    yield opened
    opened.close()


@pytest.fixture
def settings(db_location: str) -> Settings:
    """Settings pointing at the test's database, without reading any secrets file."""
    return load_settings(db_override=db_location, secrets={})


@pytest.fixture
def use_roles(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Callable[[str], Path]:
    """Returns ``use(text)``: writes ``text`` (UTF-8) to the test's ``roles.toml``, points ``HITL_ROLES_FILE``
    at it and returns its path."""

    def use(text: str) -> Path:
        path = tmp_path / "roles.toml"
        path.write_text(text, encoding="utf-8")
        monkeypatch.setenv("HITL_ROLES_FILE", str(path))
        return path

    return use


@dataclass
class CliResult:
    """What a CLI call returned and printed."""

    code: int
    out: str
    err: str


@pytest.fixture
def run_cli(
    capsys: pytest.CaptureFixture[str], db_location: str, tmp_path_factory: pytest.TempPathFactory
) -> Callable[..., CliResult]:
    """Runs ``python -m agents --db <test db> ARGS`` in-process, on a database that exists, as the dashboard's
    first start (or a ``run``) leaves it: a command that only reads refuses a path with no database."""
    if not is_postgres_url(db_location) and not Path(db_location).exists():
        _copy_of_set_up_sqlite(Path(db_location), tmp_path_factory)

    def run(*args: str) -> CliResult:
        capsys.readouterr()
        code = cli_main(["--db", db_location, *args])
        captured = capsys.readouterr()
        return CliResult(code, captured.out, captured.err)

    return run


@pytest.fixture
def app() -> Callable[[str], AppTest]:
    """Returns ``open(page_path)``: the dashboard opened at a page, run once."""

    def open_page(page: str = "app_pages/home.py") -> AppTest:
        test = AppTest.from_file(APP_FILE, default_timeout=60)
        if any(entry.path == page and entry.url_path == Path(page).stem for entry in pages()):
            # Opened at its address, as a browser opens a link to it: before a first run AppTest names a
            # page by its file's name, which is the page's URL path here, so home is not drawn first.
            test.switch_page(page)
            test.run()
            return test
        test.run()
        if page != "app_pages/home.py":
            test.switch_page(page)
            test.run()
        return test

    return open_page
