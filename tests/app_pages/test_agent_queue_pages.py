"""An agent's queue shows the oldest page of its unfinished threads, the one its page shows left out, read
from the kept index of statuses with the whole queue's count, and every thread once "Show all" is pressed."""

from __future__ import annotations

from unittest import mock

from agents import lifecycle
from dashboard import agent_pages
from tests.factories import pause_robot


def _queued(at):
    return [cell for frame in at.dataframe for cell in frame.value.get("thread", [])]


def _open(at):
    """The page of the linked thread, then its queue's expander opened (as a click on its header leaves it)."""
    at.run()
    at.session_state["robot-queue-open"] = True
    return at.run()


def test_the_robot_queue_shows_its_oldest_page_without_the_shown_thread_then_every_thread(app, store, settings):
    for thread_id in ("w1", "w2", "w3", "w4"):
        pause_robot(store, settings, thread_id)
    every = AssertionError("the queue read every status")
    with mock.patch.object(agent_pages, "HOME_ROWS", 2), mock.patch.object(lifecycle, "inbox", side_effect=every):
        at = app("app_pages/robot.py")
        at.query_params["thread"] = "w2"
        at = _open(at)
        assert not at.exception, at.exception
        assert "Other robot threads that need a human (3)" in [box.label for box in at.expander]
        assert _queued(at) == ["w1", "w3"]  # the oldest first, the shown thread left out
        captions = [caption.value for caption in at.caption]
        assert "3 waiting" in captions and "The oldest 2 of 3 are shown." in captions
        [show_all] = [button for button in at.button if button.label == "Show all 3"]
    at = show_all.click().run()
    assert not at.exception, at.exception
    assert _queued(at) == ["w1", "w3", "w4"]
    assert not [button for button in at.button if button.label.startswith("Show all")]


def test_a_short_robot_queue_shows_every_thread_without_a_button(app, store, settings):
    for thread_id in ("w1", "w2", "w3"):
        pause_robot(store, settings, thread_id)
    with mock.patch.object(lifecycle, "inbox", side_effect=AssertionError("the queue read every status")):
        at = app("app_pages/robot.py")
        at.query_params["thread"] = "w3"
        at = _open(at)
        assert not at.exception, at.exception
        assert "Other robot threads that need a human (2)" in [box.label for box in at.expander]
        assert _queued(at) == ["w1", "w2"]
        assert not [button for button in at.button if button.label.startswith("Show all")]
