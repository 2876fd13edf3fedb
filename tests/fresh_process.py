"""New processes for the tests, started as forks of a server that has imported the project once.

A test of what a *new* process reads (it kept no rows and read no thread before; it sees what others wrote),
of a command another process runs, or of an API server needs a process that shares no memory with the
test's, not a new interpreter: ``python -c`` or ``python -m agents`` pays about a second of CPU each time,
most of it importing LangGraph, FastAPI and the project again. Here each process is a fork of
multiprocessing's fork server, which has imported :data:`PRELOAD` and done nothing else (no store opened, no
row read, no setting read); it gets the caller's environment and working folder and opens its own
connections. :func:`run_code` and :func:`run_command` run code or ``python -m agents ARGS`` to the end,
:func:`start_command` starts a command that keeps running (a server). A fork that dies (a signal,
``os._exit``) reports its exit code as a child process would.

What a fork does not show is the interpreter's own start: the tests of imports, command-line bytes, exit
codes of a closed pipe and ``python -m agents`` itself start a real interpreter.
"""

from __future__ import annotations

import io
import multiprocessing
import os
import runpy
import signal
import subprocess
import sys
import traceback
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager, redirect_stderr, redirect_stdout
from dataclasses import dataclass
from multiprocessing import spawn
from multiprocessing.connection import Connection
from typing import Any, TextIO
from unittest import mock

#: What the fork server imports once: the project's modules that the code run in a new process uses.
PRELOAD = [
    "agents.runtime",
    "agents.runs",
    "agents.cli",
    "agents.api.app",
    "agents.api.access_log",
    "agents.notify.deliverer",
    "uvicorn",
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

#: What the fork server imports besides, if a dashboard is its first use (:func:`start_streamlit`): Streamlit's
#: command line and the libraries the dashboard's first page reads with. Not for a fork server that starts
#: for other tests (the quick set has no dashboard), which would pay two seconds of CPU for nothing.
DASHBOARD_PRELOAD = ["streamlit.web.cli", "pandas", "pyarrow"]

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
    # An empty standard input, as ``subprocess.run(..., stdin=DEVNULL)`` gives: never a terminal to ask on.
    with open(os.devnull, encoding="utf-8") as nothing, redirect_stdout(out), redirect_stderr(err):
        sys.stdin = nothing
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


def run_code(
    code: str,
    cwd: str | os.PathLike[str] | None = None,
    env: Mapping[str, str] | None = None,
    timeout: float | None = None,
) -> Finished:
    """Runs ``code`` as ``__main__`` in a new process (a fork of the fork server), in ``cwd`` (default: this
    process's folder) with the environment ``env`` (default: this process's), and waits for it to end: at most
    ``timeout`` seconds if given, after which it is killed and ``subprocess.TimeoutExpired`` raised."""
    receive, send = _CONTEXT.Pipe(duplex=False)
    environ = dict(os.environ if env is None else env)
    process = _CONTEXT.Process(target=_run, args=(code, environ, os.fspath(cwd or os.getcwd()), send))
    with _without_main():
        process.start()
    send.close()
    try:
        if timeout is not None and not receive.poll(timeout):
            process.kill()
            process.join()
            raise subprocess.TimeoutExpired(code, timeout)
        returncode, stdout, stderr = receive.recv()
    except EOFError:  # it ended without answering: killed, or left through os._exit
        returncode, stdout, stderr = None, "", ""
    finally:
        receive.close()
    process.join()
    return Finished(process.exitcode if returncode is None else returncode, stdout, stderr)


def run_command(
    args: Sequence[str],
    cwd: str | os.PathLike[str] | None = None,
    env: Mapping[str, str] | None = None,
    timeout: float | None = None,
) -> Finished:
    """``python -m agents ARGS`` in a new process (a fork of the fork server): :func:`run_code` of the module."""
    argv = ["agents", *args]
    return run_code(
        f"import runpy, sys\nsys.argv = {argv!r}\nrunpy.run_module('agents', run_name='__main__')", cwd, env, timeout
    )


class ForkedCommand:
    """A command running in a fork of the fork server: what the tests use of a ``subprocess.Popen``
    (``stdout`` is its standard output and error, as lines of text)."""

    def __init__(self, process: Any, stdout: TextIO) -> None:
        self._process = process
        self.pid: int = process.pid
        self.stdout = stdout

    @property
    def returncode(self) -> int | None:
        return self._process.exitcode  # type: ignore[no-any-return]

    def poll(self) -> int | None:
        return self.returncode

    def wait(self, timeout: float | None = None) -> int:
        self._process.join(timeout)
        if self.returncode is None:
            raise subprocess.TimeoutExpired(f"agents (pid {self.pid})", timeout or 0)
        return self.returncode

    def send_signal(self, number: int) -> None:
        if self.returncode is None:
            os.kill(self.pid, number)

    def terminate(self) -> None:
        self.send_signal(signal.SIGTERM)

    def kill(self) -> None:
        self.send_signal(signal.SIGKILL)


def _command(module: str, args: list[str], environ: dict[str, str], folder: str, output: Connection) -> None:
    written = output.fileno()
    os.dup2(written, 1)
    os.dup2(written, 2)
    output.close()
    nothing = os.open(os.devnull, os.O_RDONLY)
    os.dup2(nothing, 0)
    os.close(nothing)
    sys.stdout = open(1, "w", buffering=1, closefd=False)  # noqa: SIM115 (the process's own streams)
    sys.stderr = open(2, "w", buffering=1, closefd=False)  # noqa: SIM115
    os.environ.clear()
    os.environ.update(environ)
    os.chdir(folder)
    sys.argv = [module, *args]
    runpy.run_module(module, run_name="__main__")  # its SystemExit is the fork's exit code


def start_command(
    args: Sequence[str], cwd: str | os.PathLike[str] | None = None, env: Mapping[str, str] | None = None
) -> ForkedCommand:
    """Starts ``python -m agents ARGS`` in a new process (a fork of the fork server) and returns at once;
    the command's output and errors are read, line by line, from the returned command's ``stdout``."""
    return _start_module("agents", args, cwd, env)


def start_streamlit(
    args: Sequence[str],
    cwd: str | os.PathLike[str] | None = None,
    env: Mapping[str, str] | None = None,
    module: str = "streamlit",
) -> ForkedCommand:
    """Starts ``python -m streamlit ARGS`` (``run streamlit_app.py ...``) in a new process, as
    :func:`start_command` does: Streamlit's own command line, from its argument parsing to the served
    script, in a process that did not import Streamlit and the project again. ``module``: another module
    run as ``__main__`` that ends in Streamlit's command line (the tests' fixed clock).

    If this is the fork server's first use, it also imports :data:`DASHBOARD_PRELOAD`.
    """
    _CONTEXT.set_forkserver_preload([*PRELOAD, *DASHBOARD_PRELOAD])  # no effect once the server runs
    return _start_module(module, args, cwd, env)


def _start_module(
    module: str, args: Sequence[str], cwd: str | os.PathLike[str] | None, env: Mapping[str, str] | None
) -> ForkedCommand:
    receive, send = _CONTEXT.Pipe(duplex=False)
    environ = dict(os.environ if env is None else env)
    target_args = (module, list(args), environ, os.fspath(cwd or os.getcwd()), send)
    process = _CONTEXT.Process(target=_command, args=target_args)
    with _without_main():
        process.start()
    send.close()
    output = os.dup(receive.fileno())
    receive.close()
    return ForkedCommand(process, open(output, encoding="utf-8", errors="replace"))  # noqa: SIM115
