"""A research task that raises in a fresh process (the CLI's, the API's first lecture run) is saved as an error.

The research tasks run in parallel. If numpy was first imported by one of them, LangGraph could not save
another one's error while the import was under way, and the thread read "stopped (the process ended)"
with "continue" as its action, not "a node raised" and "re-run". The child here is a process that has
imported neither numpy nor bm25s, as the CLI has not when it starts.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

from tests.conftest import PROJECT_ROOT

CHILD = """
import json, sys
from agents import lifecycle, runs
from agents.errors import RunFailedError
from agents.lecture import graph
from agents.lecture.inputs import DEFAULT_LECTURE_INPUT
from agents.runtime import load_settings, open_store

assert "numpy" not in sys.modules, "the child must start without numpy"
db = sys.argv[1]
real, calls = graph.research_subtopic, []

def research_subtopic(chat, source, lecture, subtopic):
    calls.append(subtopic)
    if len(calls) == 2:
        raise RuntimeError("search service down")
    return real(chat, source, lecture, subtopic)

graph.research_subtopic = research_subtopic
store = open_store(db)
try:
    runs.start_run(store, load_settings(db_override=db, secrets={}), "lecture", dict(DEFAULT_LECTURE_INPUT))
except RunFailedError:
    pass
status = next(s for s in lifecycle.thread_statuses(store) if s.agent == "lecture")
print(json.dumps([status.status, status.reason_code, status.action, status.reason]))
"""


def test_a_research_task_that_raises_in_a_fresh_process_reads_as_an_error(tmp_path):
    env = {**os.environ, "PYTHONPATH": str(PROJECT_ROOT), "HITL_MODEL_LATENCY": "0"}
    for attempt in range(3):  # the lost error was a race: each attempt is a new process
        done = subprocess.run(
            [sys.executable, "-c", CHILD, str(tmp_path / f"run{attempt}.sqlite")],
            cwd=PROJECT_ROOT,
            env=env,
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
        assert done.returncode == 0, done.stderr
        status, code, action, reason = json.loads(done.stdout.strip().splitlines()[-1])
        assert (status, code, action) == ("attention", "error", "rerun"), reason
        assert "search service down" in reason
