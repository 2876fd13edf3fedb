"""Home's card of an agent whose every thread was deleted says there are none now and how many were deleted,
and links to the checkpoint explorer's *Deleted threads* (``?deleted=``): not "No threads yet", which would be
untrue. An agent that never had a thread still says "No threads yet"; text is shown as text."""

from __future__ import annotations

import pytest

from agents import runs
from agents.deletion_record import deleted_threads
from agents.registry import get_agent
from tests.factories import pause_robot

SAID = {
    "en": (
        "No threads now. Deleted threads on record: 2.",
        "Deleted threads (2) in the checkpoint explorer",
    ),
    "ko": ("지금은 스레드가 없습니다. 기록된 삭제 스레드: 2개.", "체크포인트 탐색기의 삭제된 스레드 (2)"),
}
NONE_YET = {"en": "No threads yet.", "ko": "아직 스레드가 없습니다."}


def _links(at) -> list:
    return [link.proto for link in at.get("page_link")]


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_an_agent_whose_threads_were_all_deleted_says_how_many_and_links_to_them(app, store, settings, lang):
    for thread in ("robo-1", "robo-2"):
        pause_robot(store, settings, thread)
        runs.delete_thread(store, thread, reason="<b>twice</b> [x](http://example.com)")
    at = app()
    at.query_params["lang"] = lang
    at.run()
    assert not at.exception, at.exception
    captions = [caption.value for caption in at.caption]
    none_now, link_label = SAID[lang]
    assert none_now in captions  # the robot's card
    assert captions.count(NONE_YET[lang]) == 2  # the refund agent and the lecture planner never had a thread
    [deleted] = [link for link in _links(at) if link.label == link_label]
    [first, _] = deleted_threads(store, [get_agent("robot")])  # the explorer's list: newest first
    assert deleted.page == "explorer" and deleted.query_string == f"deleted={first.thread_id}"  # opens it there
    assert "twice" not in " ".join(captions)  # what a deletion's reason says is the explorer's to show
    assert not any("<b>" in caption or "](" in caption for caption in captions)


def test_an_agent_with_threads_says_nothing_of_deletions(app, store, settings):
    pause_robot(store, settings, "robo-old")
    runs.delete_thread(store, "robo-old")
    pause_robot(store, settings, "robo-new")
    at = app()
    assert not at.exception, at.exception
    captions = [caption.value for caption in at.caption]
    assert not any(caption.startswith("No threads now") for caption in captions)
    assert captions.count("No threads yet.") == 2  # the two agents that never had one
    assert not [link for link in _links(at) if link.label.startswith("Deleted threads")]
