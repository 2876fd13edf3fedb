"""Expanders whose content is made only while they are open: the queues, the payload and the node log.

A closed one sends nothing (a new tab loads no table or JSON code for it); opened, it shows what it
showed before, on that run.
"""

from __future__ import annotations

from streamlit.testing.v1 import AppTest

from agents import runs
from agents.lecture.inputs import DEFAULT_LECTURE_INPUT
from tests.factories import pause_robot


def _cells(at: AppTest) -> str:
    return " ".join(str(value) for table in at.dataframe for value in table.value.to_numpy().ravel())


def _open(at: AppTest, key: str) -> AppTest:
    at.session_state[key] = True  # as a click on the expander's header leaves it
    at.run()
    assert not at.exception, at.exception
    return at


def test_the_robot_queue_and_payload_are_made_only_once_opened(app, store, settings):
    pause_robot(store, settings, "shown")
    pause_robot(store, settings, "other-robot")
    at = app("app_pages/robot.py")
    at.query_params["thread"] = "shown"
    at.run()
    labels = [box.label for box in at.expander]
    assert "Other robot threads that need a human (1)" in labels and "Interrupt payload" in labels
    assert "other-robot" not in _cells(at) and not at.json
    _open(at, "robot-queue-open")
    assert "other-robot" in _cells(at)
    _open(at, "robot-payload-open")
    assert at.json and "question" in at.json[0].value


def test_the_lecture_node_log_and_queue_are_made_only_once_opened(app, store, settings):
    runs.start_run(store, settings, "lecture", dict(DEFAULT_LECTURE_INPUT), thread_id="lecture-shown")
    runs.start_run(store, settings, "lecture", dict(DEFAULT_LECTURE_INPUT), thread_id="lecture-other")
    at = app("app_pages/lecture.py")
    at.query_params["thread"] = "lecture-shown"
    at.run()
    closed = _cells(at)
    assert "lecture-other" not in closed and "research" not in closed
    _open(at, "lecture-node-log-open")
    assert "research" in _cells(at)  # the node log's rows
    _open(at, "lecture-queue-open")
    assert "lecture-other" in _cells(at)
