"""A new process for a test to run code in, without paying Python's start and the project's imports each time.

The tests of what a *new* process reads (it kept no rows and read no thread before; it sees what others wrote)
ran ``python -c CODE``: about a second of CPU each, most of it importing LangGraph and the project again. What
they need is a process that shares no memory with the test's, not a new interpreter. :func:`run_code` runs the
code in a fork of multiprocessing's fork server, a process that has imported :data:`PRELOAD` and done nothing
else (no store opened, no row read): each call gets its own fork, with the caller's environment and working
folder, and its own connections to the database. A fork that dies (a signal, ``os._exit``) reports its exit code
as a child process would.
"""

from __future__ import annotations

import io
import multiprocessing
import os
import sys
import traceback
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager, redirect_stderr, redirect_stdout
from dataclasses import dataclass
from multiprocessing import spawn
from multiprocessing.connection import Connection
from typing import Any
from unittest import mock

#: What the fork server imports once: the project's modules that the code run in a new process uses.
PRELOAD = [
    "agents.runtime",
    "agents.runs",
    "agents.cli",
    "agents.lifecycle",
    "agents.statusindex",
    "agents.statuspages",
    "agents.threadindex",
    "agents.summarytable",
    "agents.robot.graph",
    "agents.refund.graph",
    "agents.lecture.graph",
    "tests.factories",
]

_CONTEXT: Any = multiprocessing.get_context("forkserver")
_CONTEXT.set_forkserver_preload(PRELOAD)


@dataclass(frozen=True)
class Finished:
    """What the code did: its exit code (negative: the signal that ended it) and what it printed."""

    returncode: int
    stdout: str
    stderr: str


def _run(code: str, environ: dict[str, str], folder: str, answer: Connection) -> None:
    os.environ.clear()
    os.environ.update(environ)
    os.chdir(folder)
    out, err = io.StringIO(), io.StringIO()
    returncode = 0
    with redirect_stdout(out), redirect_stderr(err):
        try:
            exec(compile(code, "<new process>", "exec"), {"__name__": "__main__"})
        except SystemExit as stop:
            returncode = stop.code if isinstance(stop.code, int) else (0 if stop.code is None else 1)
            if not isinstance(stop.code, int | None):
                print(stop.code, file=sys.stderr)
        except BaseException:
            traceback.print_exc()
            returncode = 1
    answer.send((returncode, out.getvalue(), err.getvalue()))
    answer.close()


def _preparation_without_main(name: str) -> dict[str, Any]:
    data: dict[str, Any] = _PREPARATION(name)
    data.pop("init_main_from_path", None)
    data.pop("init_main_from_name", None)
    return data


_PREPARATION = spawn.get_preparation_data


@contextmanager
def _without_main() -> Iterator[None]:
    """The fork starts without running this process's ``__main__`` again: under AppTest that is the page script."""
    with mock.patch.object(spawn, "get_preparation_data", _preparation_without_main):
        yield


def run_code(code: str, cwd: str | os.PathLike[str] | None = None, env: Mapping[str, str] | None = None) -> Finished:
    """Runs ``code`` as ``__main__`` in a new process (a fork of the fork server), in ``cwd`` (default: this
    process's folder) with the environment ``env`` (default: this process's), and waits for it to end."""
    receive, send = _CONTEXT.Pipe(duplex=False)
    environ = dict(os.environ if env is None else env)
    process = _CONTEXT.Process(target=_run, args=(code, environ, os.fspath(cwd or os.getcwd()), send))
    with _without_main():
        process.start()
    send.close()
    try:
        returncode, stdout, stderr = receive.recv()
    except EOFError:  # it ended without answering: killed, or left through os._exit
        returncode, stdout, stderr = None, "", ""
    finally:
        receive.close()
    process.join()
    return Finished(process.exitcode if returncode is None else returncode, stdout, stderr)


def run_command(
    args: Sequence[str], cwd: str | os.PathLike[str] | None = None, env: Mapping[str, str] | None = None
) -> Finished:
    """``python -m agents ARGS`` in a new process (a fork of the fork server): :func:`run_code` of the module."""
    argv = ["agents", *args]
    return run_code(
        f"import runpy, sys\nsys.argv = {argv!r}\nrunpy.run_module('agents', run_name='__main__')", cwd, env
    )
