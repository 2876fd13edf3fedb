"""A command loads what it uses: a read command imports no agent graph and no LangGraph graph module.

Each command runs in a process of its own that then lists the modules it loaded: a child forked, one per
command, from one interpreter of the module that has imported ``agents.cli`` and nothing else, which is
exactly what ``python -m agents`` has loaded when it calls ``main`` (so the interpreter's start and that
import are paid once per module, not once per command). Structural, not timed: what
``benchmarks/bench_cli_start.py`` measures follows from it.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Callable, Iterator

import pytest

from agents import runs
from agents.robot.spec import DEFAULT_THREAD_ID
from tests.conftest import PROJECT_ROOT

#: Loaded by an agent's graph (LangGraph's graph and Pregel loop, LangChain's tracers with LangSmith).
GRAPH_MODULES = (
    "langgraph.graph",
    "langgraph.pregel",
    "langgraph.types",
    "langsmith",
    "agents.robot.graph",
    "agents.refund.graph",
    "agents.lecture.graph",
)

#: Imports what ``python -m agents`` imports before ``main`` and, per command line read from stdin, forks a
#: child that runs it (its output goes to stderr) and reports its exit code and the watched modules it loaded
#: as one line on stdout. Nothing else runs in this interpreter before a fork: no thread, no database.
_FORK_SERVER = """
import json, os, sys
watched = tuple(json.loads(sys.stdin.readline()))
from agents.cli import main
import threading
assert threading.active_count() == 1, threading.enumerate()
for line in sys.stdin:
    reading, writing = os.pipe()
    sys.stdout.flush()
    sys.stderr.flush()
    pid = os.fork()
    if pid == 0:
        os.close(reading)
        os.dup2(2, 1)
        try:
            code = main(json.loads(line))
        except SystemExit as exit:
            code = exit.code
        loaded = [name for name in sys.modules if name.startswith(watched)]
        sys.stdout.flush()
        sys.stderr.flush()
        os.write(writing, json.dumps({"code": code, "loaded": sorted(loaded)}).encode())
        os._exit(0)
    os.close(writing)
    with os.fdopen(reading, "rb") as report:
        found = report.read().decode()
    _, status = os.waitpid(pid, 0)
    print(found or json.dumps({"status": status}), flush=True)
"""


@pytest.fixture(scope="module")
def fork_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[subprocess.Popen[str]]:
    """The module's interpreter that forks one child per command (what they print goes to a file)."""
    printed = tmp_path_factory.mktemp("cli-imports") / "printed.txt"
    with printed.open("w") as output:
        server = subprocess.Popen(
            [sys.executable, "-c", _FORK_SERVER],
            cwd=PROJECT_ROOT,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=output,
            text=True,
        )
    assert server.stdin is not None
    server.stdin.write(json.dumps(GRAPH_MODULES) + "\n")
    server.printed = printed  # type: ignore[attr-defined]
    yield server
    server.stdin.close()
    server.wait(timeout=120)


@pytest.fixture
def loaded_by(fork_server: subprocess.Popen[str]) -> Callable[..., tuple[int, list[str]]]:
    """Runs one command in a child of its own; returns its exit code and the graph modules it loaded."""

    def run(*argv: str) -> tuple[int, list[str]]:
        assert fork_server.stdin is not None and fork_server.stdout is not None
        fork_server.stdin.write(json.dumps(argv) + "\n")
        fork_server.stdin.flush()
        line = fork_server.stdout.readline()
        printed = fork_server.printed.read_text()[-2000:]  # type: ignore[attr-defined]
        assert line, f"the forking interpreter ended ({fork_server.wait(timeout=120)}): {printed}"
        report = json.loads(line)
        assert "code" in report, f"the command's child ended before its report ({report}): {printed}"
        return report["code"], report["loaded"]

    return run


@pytest.mark.parametrize(
    "argv",
    [("threads", "--json"), ("inbox", "--json"), ("inbox",), ("--help",), ("threads", "--help"), ("ledger",)],
)
def test_a_read_command_on_an_empty_database_imports_no_graph(loaded_by, db_path, store, argv):
    code, loaded = loaded_by("--db", str(db_path), *argv)
    assert code == 0
    assert loaded == []


def test_a_read_command_on_a_path_with_no_database_is_refused_importing_no_graph(loaded_by, tmp_path):
    code, loaded = loaded_by("--db", str(tmp_path / "typo.sqlite"), "inbox", "--overdue")
    assert code == 2 and loaded == []


def test_the_graph_is_imported_when_a_command_needs_one(loaded_by, db_path, store, settings):
    runs.start_run(store, settings, "robot", {})  # a waiting thread: its status needs no graph
    code, loaded = loaded_by("--db", str(db_path), "threads", "--json")
    assert code == 0  # decoding its question loads LangGraph's types, and no graph
    assert not [name for name in loaded if name.startswith(("langgraph.graph", "langgraph.pregel", "agents."))]
    runs.resume_thread(store, settings, DEFAULT_THREAD_ID, "yes")  # done, and its status kept by the run's read
    code, loaded = loaded_by("--db", str(db_path), "threads", "--json")
    assert code == 0 and not [name for name in loaded if name.startswith(("langgraph.graph", "agents."))]
    with store.transaction() as cursor:  # no kept status: its outcome is read through the graph
        cursor.execute("DELETE FROM thread_summaries")
        cursor.execute("DELETE FROM thread_status_index")
        cursor.execute("DELETE FROM hitl_meta WHERE key = 'status_index_complete_at'")
    code, loaded = loaded_by("--db", str(db_path), "threads", "--json")
    assert code == 0 and "agents.robot.graph" in loaded and "agents.lecture.graph" not in loaded
