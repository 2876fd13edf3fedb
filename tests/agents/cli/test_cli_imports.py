"""A command loads what it uses: a read command imports no agent graph and no LangGraph graph module.

Each command runs in a fresh interpreter (``python -m agents``'s ``main``), which then lists the modules it
loaded. Structural, not timed: what ``benchmarks/bench_cli_start.py`` measures follows from it.
"""

from __future__ import annotations

import json
import subprocess
import sys

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

_CHILD = """
import json, sys
watched = tuple(json.loads(sys.stdin.read()))
from agents.cli import main
try:
    code = main(sys.argv[1:])
except SystemExit as exit:
    code = exit.code
loaded = [name for name in sys.modules if name.startswith(watched)]
print(json.dumps({"code": code, "loaded": sorted(loaded)}), file=sys.stderr)
"""


def _loaded_by(*argv: str) -> tuple[int, list[str]]:
    """Runs one command in a fresh interpreter; returns its exit code and the graph modules it loaded."""
    child = subprocess.run(
        [sys.executable, "-c", _CHILD, *argv],
        input=json.dumps(GRAPH_MODULES),
        cwd=PROJECT_ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    report = json.loads(child.stderr.strip().splitlines()[-1])
    return report["code"], report["loaded"]


@pytest.mark.parametrize(
    "argv",
    [("threads", "--json"), ("inbox", "--json"), ("inbox",), ("--help",), ("threads", "--help"), ("ledger",)],
)
def test_a_read_command_on_an_empty_database_imports_no_graph(db_path, argv):
    code, loaded = _loaded_by("--db", str(db_path), *argv)
    assert code == 0
    assert loaded == []


def test_the_graph_is_imported_when_a_command_needs_one(db_path, store, settings):
    runs.start_run(store, settings, "robot", {})  # a waiting thread: its status needs no graph
    code, loaded = _loaded_by("--db", str(db_path), "threads", "--json")
    assert code == 0  # decoding its question loads LangGraph's types, and no graph
    assert not [name for name in loaded if name.startswith(("langgraph.graph", "langgraph.pregel", "agents."))]
    runs.resume_thread(store, settings, DEFAULT_THREAD_ID, "yes")  # done, and its status kept by the run's read
    code, loaded = _loaded_by("--db", str(db_path), "threads", "--json")
    assert code == 0 and not [name for name in loaded if name.startswith(("langgraph.graph", "agents."))]
    with store.transaction() as cursor:  # no kept status: its outcome is read through the graph
        cursor.execute("DELETE FROM thread_summaries")
    code, loaded = _loaded_by("--db", str(db_path), "threads", "--json")
    assert code == 0 and "agents.robot.graph" in loaded and "agents.lecture.graph" not in loaded
