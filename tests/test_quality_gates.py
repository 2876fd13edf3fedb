"""The quality gates: lint, format, the layer contracts (docs/ARCHITECTURE.md) and the type checks.

They are tests so that the suite's workers run them beside the other tests (``scripts/test.sh``),
and a failing gate is reported like a failing test, with the tool's own output.

mypy keeps its incremental cache between runs, outside the checkout (:data:`MYPY_CACHE`), so that every
copy of the project shares it: mypy then checks again only the modules whose files changed and those that
depend on them (about half a minute of CPU without the cache, a second with it when nothing changed). Each
run works in a copy of its own and then makes that copy the current one by renaming a link, as mypy's
cache is not safe for two runs writing into it at once.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

from tests.conftest import PROJECT_ROOT

pytestmark = pytest.mark.slow  # mypy alone takes a minute without its cache

GATES = {
    "ruff check": ["-m", "ruff", "check", "."],
    "ruff format": ["-m", "ruff", "format", "--check", "."],
    # Through the interpreter: a console script pip just installed may not be on PATH (pyenv shims).
    "import contracts": ["-c", "from importlinter.cli import lint_imports_command as lint; lint()", "--no-cache"],
    "mypy": ["-m", "mypy"],
}
#: Where mypy's cache is kept between runs (``HITL_MYPY_CACHE`` to choose): ``current`` links to the newest
#: run's copy.
MYPY_CACHE = Path(
    os.environ.get("HITL_MYPY_CACHE")
    or Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "hitl-dashboard" / "mypy"
)
#: A run's copy older than this, and no longer current, is removed (a run copies the current one in a second or two).
STALE_COPY_SECONDS = 600


def _own_mypy_cache(fallback: Path) -> tuple[Path, bool]:
    """(a cache directory for this run, filled with the current one if there is one; whether it is kept
    afterwards). Where the kept caches cannot be written, an empty one in ``fallback``."""
    try:
        MYPY_CACHE.mkdir(parents=True, exist_ok=True)
        mine = Path(tempfile.mkdtemp(prefix="run-", dir=MYPY_CACHE))
    except OSError:
        return fallback, False
    try:
        shutil.copytree(MYPY_CACHE / "current", mine, symlinks=True, dirs_exist_ok=True)
    except (OSError, shutil.Error):  # none yet, or removed meanwhile: mypy starts from an empty cache
        shutil.rmtree(mine, ignore_errors=True)
        mine.mkdir()
    return mine, True


def _make_current(mine: Path) -> None:
    """Points ``current`` at this run's cache (an atomic rename of a link) and removes old copies."""
    link = MYPY_CACHE / f"link-{os.getpid()}"
    link.unlink(missing_ok=True)
    link.symlink_to(mine.name)
    os.replace(link, MYPY_CACHE / "current")
    for old in MYPY_CACHE.glob("run-*"):
        try:
            if old != mine and time.time() - old.stat().st_mtime > STALE_COPY_SECONDS:
                shutil.rmtree(old, ignore_errors=True)
        except OSError:
            pass


@pytest.mark.parametrize("gate", list(GATES))
def test_the_quality_gate_passes(gate, tmp_path):
    command, environ = [sys.executable, *GATES[gate]], dict(os.environ)
    cache, kept = _own_mypy_cache(tmp_path / "mypy-cache") if gate == "mypy" else (None, False)
    if cache is not None:
        command += ["--cache-dir", str(cache)]
        environ.pop("MYPY_CACHE_DIR", None)  # it would override --cache-dir
    done = subprocess.run(
        command,
        cwd=PROJECT_ROOT,
        env=environ,
        capture_output=True,
        text=True,
        check=False,
        stdin=subprocess.DEVNULL,
        timeout=600,
    )
    if kept:
        _make_current(cache)  # type: ignore[arg-type]
    assert done.returncode == 0, f"{gate} failed:\n{done.stdout[-6000:]}\n{done.stderr[-3000:]}"
