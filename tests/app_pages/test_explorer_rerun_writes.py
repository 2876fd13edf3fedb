"""AppTest of the explorer's "Writes that produced it" after "Re-run from here": the new head is a copy (source
``fork``), written by no node, and the page says so, not that an update_state kept no writes of its own."""

from __future__ import annotations

from unittest.mock import patch

import pytest

from agents import diff, readmodel, runs
from dashboard import diff_view
from tests.factories import answer_robot

PAGE = "app_pages/explorer.py"
THREAD = "fork1"
UPDATE_WORDS = "an update_state on a checkpoint whose node had already written"


def _captions(at) -> str:
    return "\n".join(c.value for c in at.caption)


def _rerun_from_step_1(app, store, lang: str = "en"):
    at = app(PAGE)
    at.query_params.update({"thread": THREAD, "lang": lang})
    at.run()
    assert not at.exception, at.exception
    step_1 = next(c for c in readmodel.checkpoint_chain(store, THREAD) if c.step == 1 and c.source == "loop")
    # AppTest formats a selectbox's options in its own thread, which has no session language.
    with patch("dashboard.i18n.current_language", return_value=lang):
        at.selectbox(key=f"explorer-checkpoint-{THREAD}").select(step_1.checkpoint_id).run()
        at.button(key=f"explorer-rerun-{THREAD}").click().run()
    assert not at.exception, at.exception
    head = readmodel.checkpoint_chain(store, THREAD)[-1]
    assert head.source == "fork" and head.is_head  # the re-run stopped at the question again: the copy is the head
    assert at.selectbox(key=f"explorer-checkpoint-{THREAD}").value == head.checkpoint_id  # and it is selected
    return at


def test_a_rerun_copy_says_it_was_written_by_no_node_not_that_an_update_kept_none(app, store, settings):
    answer_robot(store, settings, THREAD)
    at = _rerun_from_step_1(app, store)
    said = _captions(at)
    assert "this checkpoint is a copy" in said and "No node wrote it" in said
    assert UPDATE_WORDS not in said


def test_the_copy_is_explained_in_korean_too(app, store, settings):
    answer_robot(store, settings, THREAD, lang="ko")
    at = _rerun_from_step_1(app, store, lang="ko")
    said = _captions(at)
    assert "이 체크포인트는 복사본입니다" in said
    assert "update_state는 자기 쓰기를 남기지 않습니다" not in said


def _no_writes(source: str) -> diff.CheckpointDiff:
    before, after = diff.Side("a", 1, "loop"), diff.Side("b", 2, source)
    return diff.CheckpointDiff("t", before, after, "parent", "a", (), ())


@pytest.mark.parametrize(
    ("source", "words"),
    [
        ("fork", "this checkpoint is a copy"),
        ("update", UPDATE_WORDS),  # an update's explanation stays for updates
        ("loop", "No writes are stored for this change."),
    ],
)
def test_why_no_write_is_listed_follows_the_checkpoints_source(source, words):
    assert words in diff_view.no_writes_words(_no_writes(source))


def test_an_update_state_that_kept_no_writes_still_says_why(app, store, settings):
    """An update_state on an older checkpoint whose node had already written there keeps none of its own."""
    answer_robot(store, settings, THREAD)
    step_1 = next(c for c in readmodel.checkpoint_chain(store, THREAD) if c.step == 1 and c.source == "loop")
    runs.update_thread(store, settings, THREAD, {"decision": "no"}, checkpoint_id=step_1.checkpoint_id)
    found = diff.checkpoint_diff(store, THREAD, None, None)
    assert found.after.source == "update" and not found.writes  # LangGraph keeps the node's first write only
    at = app(PAGE)
    at.query_params["thread"] = THREAD
    at.run()
    assert UPDATE_WORDS in _captions(at)
