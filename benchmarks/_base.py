"""Loading modules of a base commit beside today's, so a benchmark times "before" and "after" in one run."""

from __future__ import annotations

import subprocess
import sys
import types
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def load_base_modules(commit: str, files: dict[str, str], renames: dict[str, str]) -> dict[str, types.ModuleType]:
    """Each ``name → path`` of ``files`` as ``commit`` had it, imported under ``name``, in order.

    ``renames`` rewrites import lines (``from agents.x import`` → ``from _base_x import``) so that the
    base modules use each other, not today's.
    """
    modules = {}
    for name, path in files.items():
        source = subprocess.run(
            ["git", "-C", str(ROOT), "show", f"{commit}:{path}"], check=True, capture_output=True, text=True
        ).stdout
        for old, new in renames.items():
            source = source.replace(old, new)
        module = types.ModuleType(name)
        sys.modules[name] = module  # dataclasses look their module up while the class is made
        exec(compile(source, f"{commit}:{path}", "exec"), module.__dict__)
        modules[name] = module
    return modules
