"""Home shows one page of the inbox and of each agent's threads, read from the kept index of statuses,
with the counts of every item, and every row once "Show all" is pressed."""

from __future__ import annotations

from unittest import mock

from agents import lifecycle, statuspages
from dashboard import views
from tests.factories import answer_robot, pause_robot


def _tables(home):
    return [frame.value for frame in home.dataframe if "thread" in frame.value.columns]


def test_home_shows_the_oldest_page_of_the_inbox_with_every_items_counts(store, settings, app):
    for thread_id in ("w1", "w2", "w3"):
        pause_robot(store, settings, thread_id)
    answer_robot(store, settings, "done-1")
    with mock.patch.object(views, "HOME_ROWS", 2):
        home = app()
        assert not home.exception
        inbox, robot_threads = _tables(home)[:2]
        assert list(inbox["thread"]) == ["w1", "w2"]  # the oldest first, the page only
        assert list(robot_threads["thread"]) == ["done-1", "w3"]  # the newest threads
        captions = [caption.value for caption in home.caption]
        assert "3 waiting" in captions  # every item counted, not the page's two
        assert "The oldest 2 of 3 are shown." in captions
        assert "The newest 2 threads are shown." in captions
        [every] = [button for button in home.button if button.label == "Show all 3"]
        home = every.click().run()
        assert not home.exception
        assert list(_tables(home)[0]["thread"]) == ["w1", "w2", "w3"]
        [threads] = [button for button in home.button if button.label == "Show every thread"]
        home = threads.click().run()
        assert list(_tables(home)[1]["thread"]) == ["done-1", "w3", "w2", "w1"]


def test_home_reads_pages_not_every_status(store, settings, app):
    for thread_id in ("w1", "w2"):
        pause_robot(store, settings, thread_id)
    every = AssertionError("home read every status")
    with (
        mock.patch.object(lifecycle, "inbox", side_effect=every),
        mock.patch.object(lifecycle, "thread_statuses", side_effect=every),
        mock.patch.object(statuspages, "inbox_page", wraps=statuspages.inbox_page) as pages,
    ):
        home = app()
    assert not home.exception
    assert pages.called
    assert list(_tables(home)[0]["thread"]) == ["w1", "w2"]
    assert not [button for button in home.button if button.label.startswith("Show all")]
