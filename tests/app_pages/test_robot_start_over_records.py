"""The robot page's *Start over* on a thread whose question waits: a deletion the person confirmed (*Delete and
start over*), so it is recorded as the sidebar's delete records one (``deletions``, the explorer's *Deleted
threads*); on a finished thread it starts over with no record, as a new start there does everywhere."""

from __future__ import annotations

import pytest

from agents import deletion_record, readmodel, runs
from tests.factories import answer_robot, pause_robot


def _start_over_confirmed(at) -> None:
    next(b for b in at.button if b.key == "robot-start-over").click().run()
    next(b for b in at.button if b.key == "robot-start-over-delete").click().run()
    assert not at.exception, at.exception


@pytest.mark.parametrize(("lang", "reason"), [("en", "started over"), ("ko", "처음부터 다시 시작함")])
def test_start_over_of_a_waiting_robot_on_its_page_is_a_recorded_deletion(app, store, settings, lang, reason):
    head = pause_robot(store, settings).head_checkpoint_id
    at = app("app_pages/robot.py")
    at.selectbox(key="lang").select(lang).run()
    _start_over_confirmed(at)
    assert readmodel.head_checkpoint_id(store, "hitl_demo") != head
    assert runs.current_result(store, settings, "hitl_demo").status == "waiting"
    [record] = deletion_record.deleted_unfinished(store, "robot")
    assert (record["thread_id"], record["head_checkpoint_id"], record["status"]) == ("hitl_demo", head, "waiting")
    assert record["reason"] == reason


def test_start_over_of_a_finished_robot_on_its_page_keeps_no_record(app, store, settings):
    head = answer_robot(store, settings, answer="no").head_checkpoint_id
    at = app("app_pages/robot.py")
    _start_over_confirmed(at)
    assert readmodel.head_checkpoint_id(store, "hitl_demo") != head
    assert runs.current_result(store, settings, "hitl_demo").status == "waiting"
    assert deletion_record.deleted_unfinished(store, "robot") == []
