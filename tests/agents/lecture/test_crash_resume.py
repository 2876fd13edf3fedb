"""A process killed in the middle of the research fan-out loses nothing that had finished.

A child process runs the planner with a research source that never returns
for one subtopic. When the other four research tasks have their writes in the
database, and the node log's writer has written the five calls (four ended, one
running; it writes within ``agents.nodelog_queue.FLUSH_INTERVAL``), the child prints ``READY``;
the test kills it (SIGKILL) and continues the thread in-process. Only the unfinished task runs again.
"""

from __future__ import annotations

import os
import subprocess
import sys
import threading

from agents import lifecycle, runs
from agents.nodelog import node_runs
from tests.conftest import PROJECT_ROOT

THREAD = "lecture-crash"
BLOCKED = "프롬프트 작성 기본"

CHILD = """
import sys, threading
from agents import runs
from agents.lecture import services as lecture_services
from agents.lecture.inputs import DEFAULT_LECTURE_INPUT
from agents.runtime import open_store
from agents.lecture.research import CorpusResearch
from agents.runtime import load_settings

db, thread, blocked = sys.argv[1], sys.argv[2], sys.argv[3]


class BlockOne(CorpusResearch):
    def search(self, query, k=3):
        if query == blocked:
            threading.Event().wait()  # never returns: the process is killed while this task runs
        return super().search(query, k)


lecture_services.LectureServices.research_source = lambda self: BlockOne()
store = open_store(db)


def announce_when_four_are_saved():
    while True:
        with store.read() as cursor:
            cursor.execute("SELECT COUNT(DISTINCT task_id) FROM writes WHERE thread_id = ? AND channel = 'research'",
                           (thread,))
            saved = cursor.fetchone()[0]
            cursor.execute("SELECT COUNT(*), SUM(status = 'ok') FROM node_log"
                           " WHERE thread_id = ? AND node = 'research'", (thread,))
            logged, ended = cursor.fetchone()
            if saved >= 4 and logged == 5 and ended == 4:
                print("READY", flush=True)
                return
        threading.Event().wait(0.02)


threading.Thread(target=announce_when_four_are_saved, daemon=True).start()
runs.start_run(store, load_settings(db_override=db, secrets={}), "lecture", dict(DEFAULT_LECTURE_INPUT),
               thread_id=thread)
print("FINISHED (the blocked task should have kept the run from finishing)", flush=True)
"""


def _first_line(process: subprocess.Popen, timeout: float = 120.0) -> str:
    """The child's first stdout line, waiting at most ``timeout`` seconds."""
    lines: list[str] = []
    reader = threading.Thread(target=lambda: lines.append(process.stdout.readline()), daemon=True)
    reader.start()
    reader.join(timeout)
    return lines[0].strip() if lines else ""


def test_a_killed_fan_out_resumes_and_redoes_only_the_unfinished_task(store, settings, db_path):
    env = {**os.environ, "PYTHONPATH": str(PROJECT_ROOT)}
    child = subprocess.Popen(
        [sys.executable, "-c", CHILD, str(db_path), THREAD, BLOCKED],
        cwd=PROJECT_ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        line = _first_line(child)
    finally:
        child.kill()  # SIGKILL: no cleanup, exactly like a crash
        _, stderr = child.communicate(timeout=60)
    assert line == "READY", stderr

    crashed = [r for r in node_runs(store, thread_id=THREAD) if r["node"] == "research"]
    assert sorted(r["status"] for r in crashed) == ["ok"] * 4 + ["running"]
    assert [r["label"] for r in crashed if r["status"] == "running"] == [BLOCKED]
    stopped = lifecycle.thread_status(store, THREAD)
    assert stopped is not None and (stopped.status, stopped.reason_code) == ("attention", "stopped")
    assert stopped.reason.startswith("its run stopped before research finished"), stopped.reason  # the cut task

    result = runs.continue_thread(store, settings, THREAD)

    assert result.status == "waiting" and result.interrupts[0]["stage"] == "gate"
    research_rows = [r for r in node_runs(store, thread_id=THREAD) if r["node"] == "research"]
    by_label: dict[str, list[str]] = {}
    for row in research_rows:
        by_label.setdefault(row["label"], []).append(row["status"])
    assert by_label.pop(BLOCKED) == ["running", "ok"]  # cut by the kill, then redone once
    assert len(by_label) == 4 and all(statuses == ["ok"] for statuses in by_label.values())
    assert len(result.values["research"]) == 5 == len(result.values["subtopics"])
    rows = node_runs(store, thread_id=THREAD)
    assert [r["node"] for r in rows].count("plan") == 1 and [r["node"] for r in rows].count("validate") == 1
    assert len({r["run_id"] for r in research_rows}) == 2
