"""The lecture page offers its newest threads, read as one page of the kept index of statuses (with a linked
thread further on), and every lecture thread once "Show every thread" is pressed."""

from __future__ import annotations

from unittest import mock

from agents import lifecycle, runs
from agents.lecture.inputs import DEFAULT_LECTURE_INPUT
from dashboard import agent_pages, views

PAGE = "app_pages/lecture.py"


def _offered(at):
    [picker] = [box for box in at.selectbox if box.label == "Thread"]
    return [label.split(" · ")[0] for label in picker.options], picker.value


def _threads(store, settings):
    for name in ("lecture-a", "lecture-b", "lecture-c"):
        runs.start_run(store, settings, "lecture", dict(DEFAULT_LECTURE_INPUT), thread_id=name)


def test_the_lecture_picker_offers_its_newest_page_then_every_thread(app, store, settings):
    _threads(store, settings)
    every = AssertionError("the page read every status")
    with (
        mock.patch.object(agent_pages, "HOME_ROWS", 2),
        mock.patch.object(views, "HOME_ROWS", 2),  # the pickers' page size, shared with the explorer's
        mock.patch.object(lifecycle, "thread_statuses", side_effect=every),
    ):
        at = app(PAGE)
        assert not at.exception, at.exception
        assert _offered(at) == (["lecture-c", "lecture-b"], "lecture-c")  # no link: the newest is shown
        at.query_params["thread"] = "lecture-a"  # a link to a thread further on
        at.run()
        assert not at.exception, at.exception
        assert _offered(at) == (["lecture-c", "lecture-b", "lecture-a"], "lecture-a")
        [show_every] = [button for button in at.button if button.label == "Show every thread"]
    at = show_every.click().run()
    assert not at.exception, at.exception
    assert _offered(at) == (["lecture-c", "lecture-b", "lecture-a"], "lecture-a")
    assert not [button for button in at.button if button.label == "Show every thread"]
