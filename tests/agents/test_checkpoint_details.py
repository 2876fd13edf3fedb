"""Reading every checkpoint of a thread at once gives what reading each one alone gives."""

from __future__ import annotations

import pytest

from agents import readmodel, runs
from agents.lecture.inputs import DEFAULT_LECTURE_INPUT
from tests.factories import answer_robot, start_refund

pytestmark = pytest.mark.usefixtures("backend")


def _one_by_one(store, thread_id):
    """The per-checkpoint path the save-file view and ``inspect`` used to take."""
    found = []
    for entry in readmodel.checkpoint_chain(store, thread_id):
        detail = readmodel.checkpoint_detail(store, thread_id, entry.checkpoint_id)
        assert detail is not None
        found.append((entry, detail))
    return found


def _robot_with_update_and_fork(store, settings):
    """Answered yes, then update_state at the pause (a branch) and a re-run from step 0 (a fork)."""
    answer_robot(store, settings)
    main = readmodel.checkpoint_chain(store, "hitl_demo")
    paused = next(c for c in main if c.next == ("approval",))
    runs.update_thread(
        store, settings, "hitl_demo", {"decision": "no"}, as_node="approval", checkpoint_id=paused.checkpoint_id
    )
    runs.continue_thread(store, settings, "hitl_demo")
    step0 = next(c for c in main if c.step == 0)
    runs.continue_thread(store, settings, "hitl_demo", checkpoint_id=step0.checkpoint_id)
    return "hitl_demo"


def _refund(store, settings):
    result = start_refund(store, settings)
    runs.resume_thread(store, settings, result.thread_id, {"action": "approve", "approver": "kim"})
    return result.thread_id


def _paused_lecture(store, settings):
    return runs.start_run(store, settings, "lecture", dict(DEFAULT_LECTURE_INPUT)).thread_id


@pytest.mark.parametrize("make_thread", [_robot_with_update_and_fork, _refund, _paused_lecture])
def test_every_detail_equals_the_single_checkpoint_read(store, settings, make_thread):
    thread_id = make_thread(store, settings)
    together = list(readmodel.iter_checkpoint_details(store, thread_id))
    alone = _one_by_one(store, thread_id)
    assert len(together) == len(alone) >= 3
    for (entry, detail), (entry_alone, detail_alone) in zip(together, alone, strict=True):
        assert entry == entry_alone
        for field in ("checkpoint_id", "parent_checkpoint_id", "metadata", "values", "next", "writes", "created_at"):
            assert getattr(detail, field) == getattr(detail_alone, field), (entry.checkpoint_id, field)
        assert detail == detail_alone


def test_the_fork_thread_has_leaves_and_fork_points(store, settings):
    """The robot thread has both childless cases: branch tips (next from values) and fork points."""
    thread_id = _robot_with_update_and_fork(store, settings)
    details = list(readmodel.iter_checkpoint_details(store, thread_id))
    sources = [entry.source for entry, _ in details]
    assert "update" in sources and "fork" in sources
    parents = {entry.parent_checkpoint_id for entry, _ in details}
    childless = [detail for entry, detail in details if entry.checkpoint_id not in parents]
    assert len(childless) >= 2  # the branch tips, each a leaf


def test_writes_are_read_in_batches_across_their_boundaries(store, settings, monkeypatch):
    thread_id = _robot_with_update_and_fork(store, settings)
    monkeypatch.setattr(readmodel, "DETAIL_BATCH", 2)
    assert list(readmodel.iter_checkpoint_details(store, thread_id)) == _one_by_one(store, thread_id)


def test_a_missing_thread_has_no_details(store):
    assert list(readmodel.iter_checkpoint_details(store, "missing")) == []
