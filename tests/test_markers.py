"""The suite's markers select what they say (``-m browser``, ``-m reliability``, ``-m "not slow"``)."""

from __future__ import annotations

import functools
import re
import subprocess
import sys

import pytest

from tests.conftest import PROJECT_ROOT


@functools.cache
def _collected(*args: str) -> list[str]:
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider", *args],
        cwd=PROJECT_ROOT,
        capture_output=True,
        text=True,
        check=False,
        timeout=300,
    )
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    return [line for line in done.stdout.splitlines() if re.match(r"tests/\S+::", line)]  # cached: one run each


@pytest.mark.parametrize(("marker", "folder"), [("browser", "tests/browser/"), ("reliability", "tests/reliability/")])
def test_a_marker_selects_exactly_its_folder(marker, folder):
    selected = _collected("-m", marker)
    everything = _collected()
    assert len(selected) >= 5 and all(test.startswith(folder) for test in selected)
    assert len(selected) == sum(test.startswith(folder) for test in everything)


def test_not_slow_leaves_out_the_browser_and_the_kill_tests():
    quick = _collected("-m", "not slow")
    assert quick and not [t for t in quick if t.startswith("tests/browser/") or "test_kill_points" in t]


def test_an_unknown_marker_is_an_error():
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
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
