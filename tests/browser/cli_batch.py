"""Runs several ``python -m agents`` commands in one process, in order (``Dashboard.cli_batch``, in a fork of
the tests' fork server).

A browser test that seeds its database with many commands starts one process for all of them, not one a
command. Each command goes through the CLI's own ``main()``, as ``python -m agents`` does, with its own
store opened and closed, so what it writes is what the command would write. :func:`main` takes the steps as
JSON and prints the results as JSON, one per step:

* ``{"cli": [args...], "env": {...}}``: ``agents.cli.main(args)``; its exit code and what it printed;
* ``{"call": "module:function", "args": [...], "kwargs": {...}, "env": {...}}``: a function's result, as text.

``env`` (optional): settings set for that step only (what the command's own environment would add).
"""

from __future__ import annotations

import contextlib
import importlib
import io
import json
import os
from collections.abc import Iterator
from typing import Any


@contextlib.contextmanager
def _environment(extra: dict[str, str]) -> Iterator[None]:
    """``extra`` in ``os.environ`` while a step runs; what was there before afterwards."""
    before = {name: os.environ.get(name) for name in extra}
    os.environ.update(extra)
    try:
        yield
    finally:
        for name, value in before.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value


def run_step(step: dict[str, Any]) -> dict[str, Any]:
    """One step's result: ``code``, ``out`` and ``err`` for a command, ``out`` for a call."""
    out, err = io.StringIO(), io.StringIO()
    with _environment(step.get("env", {})), contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        if "cli" in step:
            from agents.cli import main

            code = main(step["cli"])
        else:
            module, name = step["call"].split(":")
            print(getattr(importlib.import_module(module), name)(*step.get("args", []), **step.get("kwargs", {})))
            code = 0
    return {"code": code, "out": out.getvalue(), "err": err.getvalue()}


def main(steps: str) -> None:
    """Runs the steps (a JSON list) in order and prints their results as a JSON list."""
    print(json.dumps([run_step(step) for step in json.loads(steps)]))
