"""What a case records cannot be rewritten to pay it, on the path that checks no keys.

``update_state`` through LangGraph's own tooling (``agents/langgraph_app.py``, LangGraph Studio) goes
past the dashboard's, the CLI's and the API's checks (``agents.refund.spec.check_update``). The rules
that keep a payout honest are therefore also in the graph: the request and what ``assess`` recorded
keep the value first written (``agents.common.WriteOnce``), the route and ``settle`` compare with the lower of the
recorded threshold and this process's, and a decision is never recorded under the agent's own name.
"""

from __future__ import annotations

import pytest
from langgraph.types import Command, Overwrite

from agents import lifecycle
from agents.refund import ledger
from agents.refund.graph import DEFAULT_THRESHOLD, build_graph, make_settle
from tests.factories import start_refund

CONFIG = {"configurable": {"thread_id": "refund-C1", "checkpoint_ns": ""}, "metadata": {"agent": "refund"}}


@pytest.fixture
def waiting_case(store, settings):
    """A strict 500,000 KRW case waiting at ``review``, and its graph as LangGraph's tooling builds it."""
    start_refund(store, settings, amount=500_000)  # above the threshold: waits at review
    return build_graph(store.saver, store=store)


RECORDED = {"case_id": "C1", "requested_amount": 500_000, "policy": "strict", "threshold": DEFAULT_THRESHOLD}


def _still_waits_unpaid(store, graph):
    graph.invoke(None, CONFIG)
    state = graph.get_state(CONFIG)
    assert state.next == ("review",)
    assert state.interrupts, "the case waits for a human again"
    assert {key: state.values[key] for key in RECORDED} == RECORDED
    assert ledger.ledger_rows(store) == []


@pytest.mark.parametrize(
    "values",
    [
        {"policy": "reroute", "amount": 100_000},  # reroute would settle an edit to 100,000 by itself
        {"requested_amount": 100_000, "amount": 100_000},  # strict routes on the requested amount
        {"requested_amount": Overwrite(100_000), "amount": 100_000},  # LangGraph's way past a reducer
        {"requested_amount": {"__overwrite__": 100_000}, "amount": 100_000},  # the same, as JSON sends it
        {"threshold": 10**9},
        {"case_id": "C2"},  # the ledger's key: a second payout under another id
    ],
    ids=["policy", "requested", "overwrite", "overwrite-json", "threshold", "case-id"],
)
def test_an_update_cannot_rewrite_what_the_case_recorded(store, waiting_case, values):
    waiting_case.update_state(CONFIG, values, as_node="assess")  # LangGraph's tooling checks no keys
    _still_waits_unpaid(store, waiting_case)


def test_a_resume_cannot_raise_the_requested_amount_to_pay_more(store, waiting_case):
    answer = {"action": "approve", "approver": "kim"}
    with pytest.raises(ValueError, match="refusing to pay 900000 KRW"):
        waiting_case.invoke(Command(resume=answer, update={"requested_amount": 900_000, "amount": 900_000}), CONFIG)
    assert ledger.ledger_rows(store) == []
    values = waiting_case.get_state(CONFIG).values  # the thread stays readable
    assert values["requested_amount"] == 500_000
    status = lifecycle.thread_status(store, "refund-C1")
    assert status is not None and status.reason_code == "error", "the case is shown as needing attention"


def test_an_edit_on_the_tooling_path_still_waits_for_a_human(store, waiting_case):
    values = {"policy": "strict", "requested_amount": 500_000, "amount": 100_000}
    waiting_case.update_state(CONFIG, values, as_node="assess")
    _still_waits_unpaid(store, waiting_case)
    assert waiting_case.get_state(CONFIG).values["amount"] == 100_000


@pytest.mark.parametrize(
    ("as_node", "decision"),
    [("assess", "approve"), ("review", "approve"), ("assess", "reject"), ("review", "reject")],
)
@pytest.mark.parametrize("approver", ["automatic", "update_state", "Automatic\u200b"])
def test_a_decision_under_the_agents_own_name_is_not_recorded(store, waiting_case, as_node, decision, approver):
    waiting_case.update_state(CONFIG, {"decision": decision, "approver": approver}, as_node=as_node)
    with pytest.raises(ValueError, match="named approver|agent's own name|automatic approval"):
        waiting_case.invoke(None, CONFIG)
    assert ledger.ledger_rows(store) == []
    assert "outcome" not in waiting_case.get_state(CONFIG).values
    status = lifecycle.thread_status(store, "refund-C1")
    assert status is not None and status.reason_code == "error", "the case is shown as needing attention"


def _unreviewed_case(case_id, threshold, **decided):
    """A strict case of 500,000 KRW, as ``settle`` would get it, with this ``threshold``."""
    amounts = {"requested_amount": 500_000, "amount": 500_000, "recorded_amount": 500_000}
    return {"case_id": case_id, "customer": "박", **amounts, "threshold": threshold, "policy": "strict", **decided}


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


def test_settle_run_again_on_an_automatic_payout_reports_it_paid_once(store):
    settle, config = make_settle(store, threshold=10**9), {"configurable": {"thread_id": "refund-X7"}}
    first = settle(_unreviewed_case("X7", 10**9), config)
    assert (first["outcome"], first["approver"]) == ("paid", "automatic")
    again = settle(_unreviewed_case("X7", 10**9, decision="approve", approver="automatic"), config)
    assert again["outcome"] == "already paid"
    assert len(ledger.ledger_rows(store)) == 1


def _before_assess(graph):
    """The config of the case's checkpoint from before ``assess`` ran (its next task is ``assess``)."""
    return next(snapshot.config for snapshot in graph.get_state_history(CONFIG) if snapshot.next == ("assess",))


def test_a_policy_written_on_a_checkpoint_from_before_assess_does_not_route_the_case(store, waiting_case):
    """There ``policy`` was not written yet, so the update is its first write; the route reads the record."""
    forked = waiting_case.update_state(
        _before_assess(waiting_case), {"policy": "reroute", "amount": 50_000}, as_node="assess"
    )
    waiting_case.invoke(None, forked)
    state = waiting_case.get_state(CONFIG)
    assert state.next == ("review",) and state.interrupts, "the 500,000 KRW case waits for a human"
    assert ledger.ledger_rows(store) == []
    assert ledger.assessed_policy(store, "refund-C1") == "strict"


def test_a_case_no_assess_run_recorded_is_routed_by_this_processs_policy(store, waiting_case):
    with store.transaction() as cursor:  # as a case of the previous release: no record
        cursor.execute("DELETE FROM refund_assessments")
    forked = waiting_case.update_state(
        _before_assess(waiting_case), {"policy": "reroute", "amount": 50_000}, as_node="assess"
    )
    waiting_case.invoke(None, forked)
    assert waiting_case.get_state(CONFIG).next == ("review",)
    assert ledger.ledger_rows(store) == []


def test_settle_pays_automatically_by_the_recorded_policy_not_the_states(store):
    settle, config = make_settle(store, policy="strict"), {"configurable": {"thread_id": "refund-X6"}}
    edited = {**_unreviewed_case("X6", DEFAULT_THRESHOLD), "amount": 50_000, "policy": "reroute"}
    with pytest.raises(ValueError, match="settle reached without an approval"):
        settle(edited, config)  # no record: this process's strict policy
    ledger.record_assessment(store, "refund-X6", "reroute")  # assessed under reroute: the edit settles
    assert settle(edited, config)["outcome"] == "paid"
    assert ledger.payout_for(store, "X6")["approver"] == "automatic"
