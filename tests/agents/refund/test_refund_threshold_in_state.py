"""A threshold written into a case's state cannot let it pay without a human.

``update_state`` through LangGraph's own tooling (``agents/langgraph_app.py``) checks no keys, so it can
write ``threshold``. The route and ``settle`` compare with the lower of the case's recorded threshold
and this process's, so a raised value changes nothing.
"""

from __future__ import annotations

import pytest

from agents.refund import ledger
from agents.refund.graph import DEFAULT_THRESHOLD, build_graph, make_settle
from tests.factories import start_refund

CONFIG = {"configurable": {"thread_id": "refund-C1", "checkpoint_ns": ""}, "metadata": {"agent": "refund"}}


def test_a_threshold_raised_by_update_state_on_the_tooling_path_still_asks_a_human(store, settings):
    start_refund(store, settings, amount=500_000)  # above the threshold: waits at review
    graph = build_graph(store.saver, store=store)
    graph.update_state(CONFIG, {"threshold": 10**9}, as_node="assess")  # the route runs again
    graph.invoke(None, CONFIG)
    state = graph.get_state(CONFIG)
    assert state.next == ("review",)
    assert state.interrupts, "the case waits for a human again"
    assert ledger.ledger_rows(store) == []


def _unreviewed_case(case_id, threshold):
    """A strict case of 500,000 KRW with no decision, as ``settle`` would get it, with this ``threshold``."""
    amounts = {"requested_amount": 500_000, "amount": 500_000, "recorded_amount": 500_000}
    return {"case_id": case_id, "customer": "박", **amounts, "threshold": threshold, "policy": "strict"}


def test_settle_refuses_to_pay_automatically_above_this_processs_threshold(store):
    settle = make_settle(store)
    state = _unreviewed_case("X9", 10**9)  # a threshold written into the state, not by assess
    with pytest.raises(ValueError, match=f"above the threshold {DEFAULT_THRESHOLD:,}"):
        settle(state, {"configurable": {"thread_id": "refund-X9"}})
    assert ledger.ledger_rows(store) == []


def test_a_case_keeps_the_lower_threshold_it_was_assessed_under(store):
    settle = make_settle(store, threshold=10**9)  # a graph built with a higher threshold than the case's
    with pytest.raises(ValueError, match="settle reached without an approval"):
        settle(_unreviewed_case("X8", DEFAULT_THRESHOLD), {"configurable": {"thread_id": "refund-X8"}})
    assert ledger.ledger_rows(store) == []
