"""The explorer's and the timeline's thread pickers offer each agent's newest threads, read as one page of the kept
index of statuses (with the thread a link or an earlier pick selected, even further on), and every thread of the
agent once "Show every thread" is pressed."""

from __future__ import annotations

from unittest import mock

import pytest

from agents import lifecycle
from dashboard import views
from tests.factories import pause_robot

PAGES = [
    ("app_pages/explorer.py", "explorer-thread"),
    ("app_pages/timeline.py", "timeline-thread"),
]


def _offered(at, key):
    """The thread ids a picker offers (its options' labels begin with them)."""
    return [label.split(" · ")[0] for label in at.selectbox(key=key).options]


@pytest.mark.parametrize(("page", "key"), PAGES)
def test_a_picker_offers_the_newest_page_then_every_thread(app, store, settings, page, key):
    for thread_id in ("w1", "w2", "w3"):
        pause_robot(store, settings, thread_id)
    every = AssertionError("the picker read every status")
    with mock.patch.object(views, "HOME_ROWS", 2), mock.patch.object(lifecycle, "thread_statuses", side_effect=every):
        at = app(page)
        assert not at.exception, at.exception
        assert _offered(at, key) == ["w3", "w2"] and at.selectbox(key=key).value == "w3"
        [show_every] = [button for button in at.button if button.label == "Show every thread"]
    at = show_every.click().run()
    assert not at.exception, at.exception
    assert _offered(at, key) == ["w3", "w2", "w1"]
    assert not [button for button in at.button if button.label == "Show every thread"]


@pytest.mark.parametrize(("page", "key"), PAGES)
def test_a_linked_thread_beyond_the_page_is_offered_and_selected(app, store, settings, page, key):
    for thread_id in ("w1", "w2", "w3"):
        pause_robot(store, settings, thread_id)
    every = mock.patch.object(lifecycle, "thread_statuses", side_effect=AssertionError("every status read"))
    with mock.patch.object(views, "HOME_ROWS", 2), every:
        at = app(page)
        at.query_params["thread"] = "w1"
        at.run()
        assert not at.exception, at.exception
        assert at.selectbox(key=key).value == "w1" and _offered(at, key) == ["w3", "w2", "w1"]


def test_a_short_list_offers_every_thread_without_a_button(app, store, settings):
    for thread_id in ("w1", "w2"):
        pause_robot(store, settings, thread_id)
    with mock.patch.object(lifecycle, "thread_statuses", side_effect=AssertionError("every status read")):
        at = app("app_pages/explorer.py")
        assert not at.exception, at.exception
        assert _offered(at, "explorer-thread") == ["w2", "w1"]
        assert not [button for button in at.button if button.label == "Show every thread"]
