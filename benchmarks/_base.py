"""Loading modules of a base commit beside today's, so a benchmark times "before" and "after" in one run."""

from __future__ import annotations

import subprocess
import sys
import types
from pathlib import Path
from typing import Any

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


def load_chain_modules(commit: str, prefix: str = "_base") -> tuple[Any, Any, Any]:
    """The read-model, its SQL and the checkpoint figure as ``commit`` had them, under ``prefix`` names."""
    modules = load_base_modules(
        commit,
        {
            f"{prefix}_readsql": "agents/readsql.py",
            f"{prefix}_chain_layout": "agents/chain_layout.py",
            f"{prefix}_readmodel": "agents/readmodel.py",
            f"{prefix}_checkpoint_figure": "dashboard/checkpoint_figure.py",
        },
        {
            "from agents.readsql import": f"from {prefix}_readsql import",
            "from agents.chain_layout import": f"from {prefix}_chain_layout import",
        },
    )
    return modules[f"{prefix}_readmodel"], modules[f"{prefix}_readsql"], modules[f"{prefix}_checkpoint_figure"]


class BaseStore:
    """A store as an earlier read-model sees it: the same connection, that read-model's SQL."""

    def __init__(self, store: Any, queries: Any) -> None:
        self._store, self.queries = store, queries

    def __getattr__(self, name: str) -> Any:
        return getattr(self._store, name)
