"""The robot's and the lecture's open thread leave no element of a run behind when the thread has less to show.

Their thread is a live part: a run of it removes what the run before drew only by drawing over it (the
browser drops what a run left out only when that run's end reaches it as a fragment run's end; see
``dashboard/boxes.py``). Here the thread goes back to its question (a rerun from the waiting checkpoint,
as ``python -m agents rerun`` does from another process), so the robot has no outcome and one message
fewer, the lecture a draft instead of its saved plan, and the head's "What changed" says something else.
What the browser keeps of the run before when the new run's end does not reach it (:func:`_kept`) is
Streamlit's frontend's rule: an element drawn at a place replaces what stood there, a block drawn where a
block of its type stood keeps what it held and the run did not draw again, and a place the run did not
draw stays. ``tests/browser/test_live_box_shrinks_flow.py`` sees it in a browser.

The agent's queue under the thread is a live part too: a case that arrives or leaves changes the count in
its expander's title (a title Streamlit takes as another element, drawn closed unless its state is carried
over), and the last case leaving draws a message where the table was. The robot's thread deleted elsewhere
is one warning where the thread was.
"""

from __future__ import annotations

from typing import Any
from unittest import mock

import pytest

from agents import deletion, runs, runtime
from agents.lecture.inputs import DEFAULT_LECTURE_INPUT
from agents.registry import get_agent
from dashboard import agent_pages
from tests.factories import answer_robot, pause_robot


def _back_to_the_question(store: Any, settings: Any, agent: str, thread: str, node: str) -> None:
    """Runs ``thread`` again from its newest checkpoint whose next step is ``node``."""
    config = runs.run_config(get_agent(agent), thread)
    history = runtime.graph(store, agent).get_state_history(config)
    before = next(state for state in history if state.next == (node,))
    done = runs.continue_thread(store, settings, thread, checkpoint_id=before.config["configurable"]["checkpoint_id"])
    assert done.status == "waiting"


def _is_block(node: Any) -> bool:
    return isinstance(getattr(node, "children", None), dict)


def _leaves(node: Any, path: tuple[int, ...]) -> list[tuple[tuple[int, ...], str]]:
    """Each element under ``node`` (an empty block as itself): its place and what it shows."""
    if not _is_block(node) or not node.children:
        try:
            shown = str(getattr(node, "value", ""))[:60]
        except KeyError:  # a widget the new run did not draw: its value left the session with it
            shown = ""
        return [(path, f"{type(node).__name__} {shown}")]
    return [leaf for index, child in node.children.items() for leaf in _leaves(child, (*path, index))]


def _kept(old: Any, new: Any, path: tuple[int, ...] = ()) -> list[tuple[tuple[int, ...], str]]:
    """The elements of the run drawing ``old`` that the browser keeps beside what the run drawing ``new`` drew."""
    kept = []
    for index, child in old.children.items():
        place = (*path, index)
        drawn = new.children.get(index)
        if drawn is None:
            kept += _leaves(child, place)
        elif _is_block(child) and _is_block(drawn) and child.type == drawn.type:
            kept += _kept(child, drawn, place)
    return kept


def _left_by(at: Any, change: Any) -> list[tuple[tuple[int, ...], str]]:
    before = at.main
    change()
    at.run()
    assert not at.exception, at.exception
    return _kept(before, at.main)


def test_the_robots_thread_sent_back_to_its_question_leaves_nothing_of_its_outcome(app, store, settings):
    answer_robot(store, settings)  # the default thread: executed, two messages
    at = app("app_pages/robot.py")
    at.session_state["robot-diff-open"] = True  # "What changed" open: its lines are drawn
    at.run()
    assert any(message.value.startswith("Executed:") for message in at.text)
    assert _left_by(at, lambda: _back_to_the_question(store, settings, "robot", "hitl_demo", "approval")) == []
    assert not any(message.value.startswith("Executed:") for message in at.text)


def test_the_robots_presenter_rows_leave_nothing_behind_when_fewer_are_new(app, store, settings):
    answer_robot(store, settings)
    at = app("app_pages/robot.py")
    at.query_params["present"] = "1"
    at.run()
    assert not at.exception, at.exception
    assert _left_by(at, lambda: _back_to_the_question(store, settings, "robot", "hitl_demo", "approval")) == []


def test_the_lectures_thread_sent_back_to_its_gate_leaves_nothing_of_its_saved_plan(app, store, settings):
    started = runs.start_run(store, settings, "lecture", dict(DEFAULT_LECTURE_INPUT), thread_id="plan-1")
    assert started.status == "waiting"
    assert runs.resume_thread(store, settings, "plan-1", "save").status == "done"
    at = app("app_pages/lecture.py")
    at.query_params["thread"] = "plan-1"
    at.session_state["lecture-diff-open"] = True
    at.run()
    assert any(heading.value == "Final plan" for heading in at.subheader)
    assert _left_by(at, lambda: _back_to_the_question(store, settings, "lecture", "plan-1", "decide")) == []
    assert not any(heading.value == "Final plan" for heading in at.subheader)


def _queue_open(at: Any, shown: str) -> Any:
    """The robot's page of ``shown``, its queue opened (as a click on its header leaves it)."""
    at.query_params["thread"] = shown
    at.run()
    at.session_state["robot-queue-open"] = True
    at.run()
    assert not at.exception, at.exception
    return at


def _queue(at: Any) -> tuple[str, list[str]]:
    """The queue's title and the threads its table lists (none while it is closed)."""
    [queue] = [box for box in at.expander if box.label.startswith("Other robot threads")]
    return queue.label, [cell for frame in queue.dataframe for cell in frame.value.get("thread", [])]


@pytest.mark.parametrize(
    ("queued", "change", "after"),
    [
        (["w1"], lambda store, settings: pause_robot(store, settings, "w2"), ["w1", "w2"]),  # one arrives
        (["w1", "w2"], lambda store, settings: runs.resume_thread(store, settings, "w1", "no"), ["w2"]),  # one leaves
        (["w1"], lambda store, settings: runs.resume_thread(store, settings, "w1", "no"), []),  # the last one leaves
    ],
    ids=["arrives", "leaves", "last-leaves"],
)
def test_the_open_robot_queue_keeps_no_old_row_when_its_count_changes(app, store, settings, queued, change, after):
    for thread in ["shown", *queued]:
        pause_robot(store, settings, thread)
    at = _queue_open(app("app_pages/robot.py"), "shown")
    assert _queue(at) == (f"Other robot threads that need a human ({len(queued)})", queued)
    assert _left_by(at, lambda: change(store, settings)) == []
    assert _queue(at) == (f"Other robot threads that need a human ({len(after)})", after)  # still open
    empty = [] if after else ["No other robot thread waits or needs attention."]
    assert [note.value for note in at.info if note.value.startswith("No other robot")] == empty


def test_the_robot_queue_that_fits_again_drops_its_show_all_button(app, store, settings):
    for thread in ("shown", "w1", "w2", "w3"):
        pause_robot(store, settings, thread)
    with mock.patch.object(agent_pages, "HOME_ROWS", 2):
        at = _queue_open(app("app_pages/robot.py"), "shown")
        assert [button.label for button in at.button if button.label.startswith("Show all")] == ["Show all 3"]
        assert _left_by(at, lambda: runs.resume_thread(store, settings, "w1", "no")) == []
        assert _queue(at) == ("Other robot threads that need a human (2)", ["w2", "w3"])
        assert not [button for button in at.button if button.label.startswith("Show all")]


def test_the_robots_thread_deleted_elsewhere_leaves_nothing_but_its_warning(app, store, settings):
    answer_robot(store, settings)
    at = app("app_pages/robot.py")
    at.session_state["robot-diff-open"] = True
    at.run()
    assert any(message.value.startswith("Executed:") for message in at.text)
    assert _left_by(at, lambda: deletion.delete_thread(store, "hitl_demo")) == []
    assert not any(message.value.startswith("Executed:") for message in at.text)
    assert "This thread has no checkpoints yet. Press Start over." in [warning.value for warning in at.warning]


def test_the_open_lecture_queue_keeps_no_old_row_when_its_last_case_is_saved(app, store, settings):
    for thread in ("plan-shown", "plan-queued"):
        assert (
            runs.start_run(store, settings, "lecture", dict(DEFAULT_LECTURE_INPUT), thread_id=thread).status
            == "waiting"
        )
    at = app("app_pages/lecture.py")
    at.query_params["thread"] = "plan-shown"
    at.run()
    at.session_state["lecture-queue-open"] = True
    at.run()
    assert not at.exception, at.exception
    title = "Other lecture threads that need a human"
    assert [box.label for box in at.expander if box.label.startswith(title)] == [f"{title} (1)"]
    assert _left_by(at, lambda: runs.resume_thread(store, settings, "plan-queued", "save")) == []
    [queue] = [box for box in at.expander if box.label.startswith(title)]
    assert queue.label == f"{title} (0)"  # still open, saying so
    assert [note.value for note in queue.info] == ["No other lecture thread waits or needs attention."]
