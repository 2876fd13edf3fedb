"""The quality gates: lint, format, the layer contracts (docs/ARCHITECTURE.md) and the type checks.

They are tests so that the suite's workers run them beside the other tests (``scripts/test.sh``),
and a failing gate is reported like a failing test, with the tool's own output.
"""

from __future__ import annotations

import subprocess
import sys

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


@pytest.mark.parametrize("gate", list(GATES))
def test_the_quality_gate_passes(gate):
    done = subprocess.run(
        [sys.executable, *GATES[gate]],
        cwd=PROJECT_ROOT,
        capture_output=True,
        text=True,
        check=False,
        stdin=subprocess.DEVNULL,
        timeout=600,
    )
    assert done.returncode == 0, f"{gate} failed:\n{done.stdout[-6000:]}\n{done.stderr[-3000:]}"
