"""The parts of a LangGraph checkpoint id, read back from real ids and from made-up ones."""

from __future__ import annotations

import datetime as dt

from agents import readmodel
from agents.errors import short_id
from dashboard.checkpoint_ids import id_parts, latest
from tests.factories import answer_robot


def test_the_parts_of_real_ids_give_their_step_and_time(store, settings):
    answer_robot(store, settings)
    chain = readmodel.checkpoint_chain(store, "hitl_demo")
    assert [entry.step for entry in chain] == [-1, 0, 1, 2, 3]
    for entry in chain:
        parts = id_parts(entry.checkpoint_id)
        assert parts is not None
        assert parts.step == entry.step
        assert parts.taken_at == readmodel.checkpoint_time(entry.checkpoint_id)
        assert parts.short == short_id(entry.checkpoint_id) == parts.tail[:8]
        assert "-".join((parts.time_groups, parts.step_group, parts.tail)) == entry.checkpoint_id
    assert [id_parts(e.checkpoint_id).step_group for e in chain] == ["bfff", "8000", "8001", "8002", "8003"]


def test_the_latest_is_the_first_newest_first_and_is_the_head(store, settings):
    answer_robot(store, settings)
    ids = [entry.checkpoint_id for entry in readmodel.checkpoint_chain(store, "hitl_demo")]
    times = [id_parts(i).taken_at for i in ids]
    assert times == sorted(times)  # ids sort as their times do
    assert latest(list(reversed(ids))) == readmodel.head_checkpoint_id(store, "hitl_demo") == ids[-1]
    assert latest([]) is None


def test_made_up_ids():
    parts = id_parts("1f0a0000-0000-6000-bffe-0123456789ab")
    assert parts is not None and parts.step == -2  # LangGraph's empty checkpoint uses clock_seq -2
    assert parts.taken_at.tzinfo == dt.UTC
    assert id_parts("1f0a0000-0000-1000-8000-0123456789ab") is None  # a uuid1, not uuid6
    assert id_parts("my-own-id") is None
