"""An agent's queue read as one page of the kept index of statuses, the thread its page shows left out: the
same threads, in the same order, with the same counts, as a recompute from LangGraph's state."""

from __future__ import annotations

from collections import Counter

import pytest

from agents import runs, statuspages
from agents.errors import InputError
from tests.agents.test_statusindex import mixed_threads
from tests.agents.test_statuspages import _order, recomputed
from tests.factories import pause_robot

pytestmark = pytest.mark.usefixtures("backend")


def queues_agree(store, limit):
    """Every agent's queue page, with every thread (and none, and an unknown one) shown, against a recompute."""
    every = recomputed(store)
    for agent in ("robot", "refund", "lecture"):
        queue = sorted((s for s in every if s.agent == agent and s.status != "done"), key=_order)
        for shown in (None, "no-such-thread", *(s.thread_id for s in every)):
            rest = [s for s in queue if s.thread_id != shown]
            page = statuspages.queue_page(store, agent, shown, limit=limit)
            assert [s.to_json() for s in page.items] == [s.to_json() for s in rest[:limit]], (agent, shown)
            assert page.more == (len(rest) > limit), (agent, shown)
            assert page.counts == Counter(s.status for s in rest), (agent, shown)
            left_out = next((s for s in queue if s.thread_id == shown), None)
            assert (page.left_out and page.left_out.to_json()) == (left_out and left_out.to_json()), (agent, shown)


@pytest.mark.parametrize("limit", [1, 2, 50])
def test_a_queue_page_agrees_with_a_recompute_whichever_thread_is_shown(store, settings, limit):
    mixed_threads(store, settings)
    queues_agree(store, limit)
    runs.resume_thread(store, settings, "w1", "no")  # a write moves the rows
    pause_robot(store, settings, "w6")
    queues_agree(store, limit)


@pytest.mark.parametrize("limit", [0, -1, True, 1.5])
def test_a_bad_queue_limit_is_refused_naming_it(store, limit):
    with pytest.raises(InputError, match="limit"):
        statuspages.queue_page(store, "robot", None, limit=limit)
