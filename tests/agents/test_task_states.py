"""The chain's tasks query says which tasks completed and which wait on an interrupt, from their writes' channels."""

from __future__ import annotations

import pytest

from agents import readmodel
from agents.readsql import NULL_TASK_ID
from tests.factories import pause_robot

pytestmark = pytest.mark.usefixtures("backend")

THREAD = "r-states"

#: A task's channels → (completed, interrupted). Bookkeeping (error, interrupt, resume, scheduled) completes
#: nothing; an interrupt with nothing else waits; any other channel, a Send's included, completes the task.
CASES = {
    "output": (("messages",), (True, False)),
    "error": (("__error__",), (False, False)),
    "asked": (("__interrupt__",), (False, True)),
    "asked, resumed": (("__interrupt__", "__resume__"), (False, True)),
    "asked, answered": (("__interrupt__", "messages"), (True, False)),
    "scheduled": (("__scheduled__",), (False, False)),
    "resumed only": (("__resume__",), (False, False)),
    "sent": (("__pregel_tasks",), (True, False)),
    "branch": (("branch:to:approval",), (True, False)),
}


def test_each_task_is_completed_or_interrupted_by_its_channels(store, settings):
    pause_robot(store, settings, THREAD)
    head = readmodel.head_checkpoint_id(store, THREAD)
    config = {"configurable": {"thread_id": THREAD, "checkpoint_ns": "", "checkpoint_id": head}}
    for name, (channels, _expected) in CASES.items():
        store.saver.put_writes(config, [(channel, "value") for channel in channels], f"task {name}")
    store.saver.put_writes(config, [("__resume__", "yes")], NULL_TASK_ID)  # the whole graph's: no task
    with store.read() as cursor:
        rows = store.queries.tasks(cursor, THREAD)
    found = {task: (bool(done), bool(asked)) for checkpoint, task, _path, done, asked in rows if checkpoint == head}
    assert {task: state for task, state in found.items() if task.startswith("task ")} == {
        f"task {name}": expected for name, (_channels, expected) in CASES.items()
    }
    assert NULL_TASK_ID not in found
    assert len(found) == len(CASES) + 1  # and the robot's own task, interrupted at the head
