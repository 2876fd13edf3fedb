"""A run that stopped between steps says so truthfully, whether it was cancelled or its process ended.

A cancel (the HTTP API's ``runs.cancel``, or a stream left with ``on_disconnect="cancel"``: both raise
``RunCancelled`` from the run's stream callback, ``agents.api.run_routes.ApiRun.check_cancelled``) and a
process killed mid-run leave the same saved state: a head with steps left and no error. The thread's reason
must not claim "the process ended" after a cancel; it names both, in English and in Korean.
"""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from agents import lifecycle, runs
from agents.errors import RunCancelled
from agents.lecture.inputs import DEFAULT_LECTURE_INPUT
from tests.conftest import PROJECT_ROOT
from tests.factories import cancel_at, stopped_status

THREAD = "lecture-stopped"
STOPPED_EN = "(it was cancelled, or its process ended); continue it to finish"
STOPPED_KO = "(취소되었거나 프로세스가 끝남). 계속 실행해 마치세요"

#: A child that runs the planner and is killed (SIGKILL, no cleanup: a crash) as its research tasks start.
CRASHING_CHILD = """
import os, signal, sys
from agents import runs
from agents.lecture.inputs import DEFAULT_LECTURE_INPUT
from agents.runtime import load_settings, open_store

db, thread = sys.argv[1], sys.argv[2]
store = open_store(db)

def crash_at_research(event):
    if event.get("name") == "research":
        os.kill(os.getpid(), signal.SIGKILL)

runs.start_run(store, load_settings(db_override=db, secrets={}), "lecture", dict(DEFAULT_LECTURE_INPUT),
               thread_id=thread, on_event=crash_at_research)
print("FINISHED (the kill should have stopped the run)", flush=True)
"""


def _says_either(status: lifecycle.ThreadStatus) -> None:
    english, korean = status.reason_in("en"), status.reason_in("ko")
    assert english.startswith("its run stopped before research") and english.endswith(STOPPED_EN), english
    assert "(the process ended)" not in english
    assert korean.endswith(STOPPED_KO) and "(프로세스 종료)" not in korean, korean


def test_a_cancelled_run_is_not_said_to_have_lost_its_process(store, settings):
    with pytest.raises(RunCancelled):
        runs.start_run(
            store, settings, "lecture", dict(DEFAULT_LECTURE_INPUT), thread_id=THREAD, on_event=cancel_at("research")
        )
    _says_either(stopped_status(store, THREAD))
    assert runs.continue_thread(store, settings, THREAD).status == "waiting"  # the action it names resolves it


@pytest.mark.slow
def test_a_run_whose_process_was_killed_says_the_same(store, db_path):
    env = {**os.environ, "PYTHONPATH": str(PROJECT_ROOT)}
    child = subprocess.run(
        [sys.executable, "-c", CRASHING_CHILD, str(db_path), THREAD],
        cwd=PROJECT_ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert child.returncode == -9 and "FINISHED" not in child.stdout, child.stderr
    _says_either(stopped_status(store, THREAD))
