"""The suite's markers select what they say (``-m browser``, ``-m reliability``, ``-m "not slow"``).

The markers are read off the tests this very run collected (``tests/conftest.py`` keeps them before
``-m`` deselects any) and matched with pytest's own ``-m`` expression, so the check costs no second
collection. Run on part of the suite, the whole suite is collected once, in a subprocess.
"""

from __future__ import annotations

import functools
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from _pytest.mark.expression import Expression

from tests.selection import COLLECTED, PROJECT_ROOT

#: Prints every collected test's id and marker names as JSON lines, for the subprocess collection.
_DUMP_PLUGIN = """
import json
def pytest_collection_finish(session):
    for item in session.items:
        print("MARKS " + json.dumps([item.nodeid, sorted({m.name for m in item.iter_markers()})]))
"""


@functools.cache
def _whole_suite_marks(tmp_dir: str) -> dict[str, frozenset[str]]:
    plugin = Path(tmp_dir) / "marks_dump_plugin.py"
    plugin.write_text(_DUMP_PLUGIN)
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider", "-p", "marks_dump_plugin"],
        cwd=PROJECT_ROOT,
        env={**os.environ, "PYTHONPATH": f"{tmp_dir}:{PROJECT_ROOT}"},
        capture_output=True,
        text=True,
        check=False,
        timeout=300,
    )
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    rows = [json.loads(line[len("MARKS ") :]) for line in done.stdout.splitlines() if line.startswith("MARKS ")]
    return {nodeid: frozenset(names) for nodeid, names in rows}


def _covers_the_suite(config: pytest.Config) -> bool:
    tests = (PROJECT_ROOT / "tests").resolve()
    roots = {Path(arg.split("::")[0]).resolve() for arg in config.args}
    return bool(roots) and roots <= {tests, PROJECT_ROOT.resolve()}


@pytest.fixture(scope="module")
def suite_marks(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> dict[str, frozenset[str]]:
    """Every test of the suite by id, with its marker names."""
    if _covers_the_suite(request.config):
        items = request.config.stash[COLLECTED]
        return {item.nodeid: frozenset(mark.name for mark in item.iter_markers()) for item in items}
    return _whole_suite_marks(str(tmp_path_factory.mktemp("marks")))


def _selected(marks: dict[str, frozenset[str]], expression: str) -> list[str]:
    """What ``pytest -m EXPRESSION`` selects, by pytest's own expression parser (markers without arguments)."""
    compiled = Expression.compile(expression)
    return [nodeid for nodeid, names in marks.items() if compiled.evaluate(names.__contains__)]


@pytest.mark.parametrize(("marker", "folder"), [("browser", "tests/browser/"), ("reliability", "tests/reliability/")])
def test_a_marker_selects_exactly_its_folder(suite_marks, marker, folder):
    selected = _selected(suite_marks, marker)
    assert len(selected) >= 5 and all(test.startswith(folder) for test in selected)
    assert len(selected) == sum(test.startswith(folder) for test in suite_marks)


def test_not_slow_leaves_out_the_browser_and_the_kill_tests(suite_marks):
    quick = _selected(suite_marks, "not slow")
    assert quick and not [t for t in quick if t.startswith("tests/browser/") or "test_kill_points" in t]
    assert len(quick) < len(suite_marks)


def test_an_unknown_marker_is_an_error():
    # The markers and --strict-markers are the configuration's (pyproject.toml), not the fixtures': the
    # child leaves out tests/conftest.py and the dashboard it imports.
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "--noconftest",
            "--collect-only",
            "-q",
            "-p",
            "no:cacheprovider",
            "-m",
            "nonexistent_marker_typo",
            "tests/test_markers.py",
        ],
        cwd=PROJECT_ROOT,
        capture_output=True,
        text=True,
        check=False,
        timeout=300,
    )
    assert done.returncode == 4 and "nonexistent_marker_typo" in done.stdout + done.stderr  # --strict-markers


def test_the_longest_files_exist_and_run_first(suite_marks):
    # A renamed file would drop out of the order silently and run last again.
    from tests.conftest import LONGEST_FILES

    assert [name for name in LONGEST_FILES if not (PROJECT_ROOT / name).is_file()] == []
    files = list(dict.fromkeys(nodeid.split("::")[0] for nodeid in suite_marks))
    assert files[: len(LONGEST_FILES)] == list(LONGEST_FILES)
