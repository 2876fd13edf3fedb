"""A decision names a person, never the agent and never, for an approval, the one who requested the case.

Tried on every path that can record a decision: ``runs`` as the CLI and the dashboard's local mode call
it (the approver's name typed), ``update_state`` through ``runs``, and LangGraph's own tooling
(``update_state`` and ``Command(resume=...)`` on the compiled graph, as ``agents/langgraph_app.py``
builds it), which checks no names. On the tooling path the nodes refuse: an answer is asked again with
the refusal in the question's ``error``, a decision written into the state leaves the case needing
attention, and nothing is paid. The requested amount is checked by ``assess`` and ``settle`` too, since a start on that
path checks nothing.
"""

from __future__ import annotations

import pytest
from langgraph.types import Command

from agents import lifecycle, runs
from agents.errors import PermissionDenied
from agents.identity import LOCAL_OPERATOR
from agents.refund import ledger
from agents.refund.graph import build_graph
from agents.refund.permissions import is_requester
from agents.refund.rules import APPROVER_MAX_LENGTH, MAX_AMOUNT, is_reserved_approver
from tests.agents.refund.test_refund_roles import KIM, LEE, decide, request, unchanged

CONFIG = {"configurable": {"thread_id": "refund-K1", "checkpoint_ns": ""}, "metadata": {"agent": "refund"}}


@pytest.fixture
def kims_case(store, settings):
    """A 500,000 KRW case requested by Kim, signed in, waiting for an approver."""
    request(store, settings, "K1", 500_000, actor=KIM)
    return build_graph(store.saver, store=store)


def _needs_attention_unpaid(store, thread_id: str = "refund-K1") -> None:
    assert ledger.ledger_rows(store) == []
    status = lifecycle.thread_status(store, thread_id)
    assert status is not None and status.status == "attention" and status.reason_code == "error"


@pytest.mark.parametrize(
    "typed", ["kim@example.com", "KIM@Example.com ", "Kim", "ｋｉｍ@example.com", "kim\u200b@example.com"]
)
def test_the_local_operator_cannot_approve_under_the_requesters_name(store, settings, kims_case, typed):
    before = unchanged(store, "refund-K1")
    with pytest.raises(PermissionDenied, match="four eyes"):
        decide(store, settings, "K1", LOCAL_OPERATOR, approver=typed)  # the CLI's and local mode's path
    with pytest.raises(PermissionDenied, match="four eyes"):
        decide(store, settings, "K1", LOCAL_OPERATOR, action="edit", amount=1, approver=typed)
    with pytest.raises(PermissionDenied, match="four eyes"):
        runs.update_thread(store, settings, "refund-K1", {"decision": "approve", "approver": typed})
    assert unchanged(store, "refund-K1") == before
    assert decide(store, settings, "K1", LOCAL_OPERATOR, approver="lee").outcome == "paid"  # another person may


def test_the_requester_may_still_reject_their_own_case(store, settings, kims_case):
    result = decide(store, settings, "K1", LOCAL_OPERATOR, action="reject", approver="kim@example.com")
    assert result.outcome == "rejected"
    assert ledger.ledger_rows(store) == []


def test_the_tooling_path_cannot_approve_under_the_requesters_name(store, kims_case):
    asked = kims_case.invoke(Command(resume={"action": "approve", "approver": "KIM@example.com"}), CONFIG)
    assert "four eyes" in asked["__interrupt__"][0].value["error"]  # refused: the question is asked again
    kims_case.update_state(CONFIG, {"decision": "approve", "approver": "kim@example.com"}, as_node="assess")
    with pytest.raises(ValueError, match="who requested the case"):
        kims_case.invoke(None, CONFIG)
    _needs_attention_unpaid(store)


@pytest.mark.parametrize(
    "approver",
    ["   ", "\u200b", "\x00", "kim\x07", 123, "x" * (APPROVER_MAX_LENGTH + 1), "automatic\x00", "update_state\x1f"],
    ids=["spaces", "invisible", "nul", "bell", "number", "too-long", "automatic-nul", "update-state-us"],
)
@pytest.mark.parametrize(("as_node", "decision"), [("assess", "approve"), ("review", "reject")])
def test_a_decision_set_on_the_tooling_path_must_name_a_person(store, kims_case, approver, as_node, decision):
    kims_case.update_state(CONFIG, {"decision": decision, "approver": approver}, as_node=as_node)
    with pytest.raises(ValueError, match="no approver's name|agent's own name"):
        kims_case.invoke(None, CONFIG)
    _needs_attention_unpaid(store)
    assert "outcome" not in kims_case.get_state(CONFIG).values


@pytest.mark.parametrize("approver", ["   ", "\u200b", "\x00", 123, "automatic\x00"])
def test_an_answer_on_the_tooling_path_must_name_a_person(store, kims_case, approver):
    asked = kims_case.invoke(Command(resume={"action": "approve", "approver": approver}), CONFIG)
    assert asked["__interrupt__"][0].value["error"].startswith("approver: ")
    assert ledger.ledger_rows(store) == []
    status = lifecycle.thread_status(store, "refund-K1")
    assert status is not None and status.status == "waiting", "the case still waits for an answer that names a person"


def test_an_answer_on_the_tooling_path_is_recorded_trimmed(store, kims_case):
    kims_case.invoke(Command(resume={"action": "approve", "approver": "  lee  "}), CONFIG)
    assert ledger.payout_for(store, "K1")["approver"] == "lee"


def test_a_rejection_written_as_finished_is_inconsistent_not_done(store, kims_case):
    """``as_node="reject"`` with an outcome: no node recorded who rejected, so the case is not done."""
    kims_case.update_state(CONFIG, {"decision": "reject", "outcome": "rejected"}, as_node="reject")
    status = lifecycle.thread_status(store, "refund-K1")
    assert status is not None and status.status == "attention"
    assert "no rejection by a named approver" in status.reason_in("en")
    kims_case.update_state(CONFIG, {"approver": "automatic"}, as_node="reject")  # the agent's own name: no better
    status = lifecycle.thread_status(store, "refund-K1")
    assert status is not None and status.status == "attention"


@pytest.mark.parametrize("requested", [MAX_AMOUNT + 1, 10**12, 0, -5, 1.5, "500000", True])
def test_a_start_on_the_tooling_path_with_an_amount_out_of_range_pays_nothing(store, requested):
    graph = build_graph(store.saver, store=store)
    config = {"configurable": {"thread_id": "refund-H1", "checkpoint_ns": ""}, "metadata": {"agent": "refund"}}
    case = {"case_id": "H1", "customer": "c", "reason": "r", "requested_amount": requested}
    with pytest.raises(ValueError, match="requested amount"):
        graph.invoke(case, config)
    with pytest.raises(Exception, match="requested amount"):  # answering it anyway: refused again, nothing paid
        graph.invoke(Command(resume={"action": "approve", "approver": "lee"}), config)
    _needs_attention_unpaid(store, "refund-H1")


def test_the_largest_amount_a_form_accepts_is_still_paid_after_approval(store, settings):
    request(store, settings, "M1", MAX_AMOUNT, actor=LEE)
    assert decide(store, settings, "M1", LOCAL_OPERATOR, approver="park").outcome == "paid"
    assert ledger.payout_for(store, "M1")["paid_amount"] == MAX_AMOUNT


def test_names_are_compared_as_a_reader_sees_them():
    assert is_reserved_approver("automatic\x00") and is_reserved_approver(" Automatic\u200b ")
    assert is_requester("KIM@example.com\u200b", "kim@example.com")
    assert is_requester("Kim", "kim@example.com", "Kim")
    assert not is_requester("kim", "kim@example.com", "Kim Minji")
    assert not is_requester("", "", "") and not is_requester("\u200b", "\u200b")
    assert not is_requester(None, "kim@example.com")


@pytest.mark.parametrize(
    "written",
    ["\u1100\u1165\u11ab-1042", " 건-1042", "건-1042\n", "건 1042", ""],
    ids=["nfd", "space", "newline", "inner", "empty"],
)
def test_a_start_on_the_tooling_path_cannot_pay_a_paid_case_again_under_its_id_written_another_way(
    store, settings, written
):
    request(store, settings, "건-1042", 50_000, actor=LEE)  # below the threshold: paid at once
    assert len(ledger.ledger_rows(store)) == 1
    graph = build_graph(store.saver, store=store)
    config = {"configurable": {"thread_id": "refund-again", "checkpoint_ns": ""}, "metadata": {"agent": "refund"}}
    with pytest.raises(ValueError, match="case id"):
        graph.invoke({"case_id": written, "customer": "c", "reason": "r", "requested_amount": 50_000}, config)
    assert [row["case_id"] for row in ledger.ledger_rows(store)] == ["건-1042"]
    status = lifecycle.thread_status(store, "refund-again")
    assert status is not None and status.status == "attention", "the refused start is shown, not lost"
