"""Roles are checked where the change happens: ``runs`` and the refund decision refuse what the
signed-in identity may not do, with the reason, and record the identity, not typed text.

Each operation is called as it would be by a page, the CLI or the API, with ``actor=``; a refusal
changes nothing (the head checkpoint, the ledger and the node log stay as they were).
"""

from __future__ import annotations

import dataclasses

import pytest
from pydantic import TypeAdapter

from agents import readmodel, runs, runtime
from agents.errors import PermissionDenied
from agents.identity import EMAIL_MAX_LENGTH, LOCAL_OPERATOR, Identity
from agents.nodelog import node_runs
from agents.refund import asking, graph, ledger
from agents.roles_file import parse_roles
from tests.factories import pause_robot

ROLES = parse_roles(
    """
[users]
"viewer@example.com" = { role = "viewer" }
"kim@example.com" = { role = "approver", limit_krw = 1_000_000, name = "Kim" }
"lee@example.com" = { role = "approver", limit_krw = 1_000_000, name = "Lee" }
"park@example.com" = { role = "senior_approver", name = "Park" }
"admin@example.com" = { role = "admin", name = "Admin" }
"""
)
VIEWER = ROLES.identity_for("viewer@example.com", "Vi")
KIM = ROLES.identity_for("kim@example.com", "Kim")
LEE = ROLES.identity_for("lee@example.com", "Lee")
PARK = ROLES.identity_for("park@example.com", "Park")
ADMIN = ROLES.identity_for("admin@example.com", "Admin")
STRANGER = ROLES.identity_for("someone@elsewhere.org", "Someone")


def request(store, settings, case: str, amount: int, actor: Identity = LEE) -> runs.RunResult:
    values = {"case_id": case, "customer": "홍길동", "amount": amount, "reason": "r"}
    return runs.start_run(store, settings, "refund", values, actor=actor)


def decide(store, settings, case: str, actor: Identity, action: str = "approve", **extra) -> runs.RunResult:
    fields = {"action": action, "approver": extra.pop("approver", "typed name"), **extra}
    return runs.resume_from_fields(store, settings, f"refund-{case}", fields, agent="refund", actor=actor)


def unchanged(store, thread_id: str):
    """What a refusal must leave as it was: the head, the ledger, the node log."""
    return (readmodel.head_checkpoint_id(store, thread_id), ledger.ledger_rows(store), len(node_runs(store)))


def test_unknown_signed_in_people_are_viewers():
    assert STRANGER.role == "viewer" and STRANGER.email == "someone@elsewhere.org"
    assert ROLES.identity_for("KIM@Example.com").role == "approver"  # emails compare without case


def test_a_viewer_is_refused_every_change_and_nothing_changes(store, settings):
    waiting = request(store, settings, "V1", 500_000)
    pause_robot(store, settings, "robot-v")
    before = unchanged(store, "refund-V1"), unchanged(store, "robot-v")
    head = waiting.head_checkpoint_id
    first = runs.thread_history(store, settings, "refund-V1", limit=100)[-1].config["configurable"]["checkpoint_id"]
    attempts = {
        "start": lambda: request(store, settings, "V2", 500_000, actor=VIEWER),
        "decide": lambda: decide(store, settings, "V1", VIEWER),
        "reject": lambda: decide(store, settings, "V1", VIEWER, action="reject"),
        "robot": lambda: runs.resume_thread(store, settings, "robot-v", "yes", actor=VIEWER),
        "update": lambda: runs.update_thread(store, settings, "refund-V1", {"amount": 1}, actor=VIEWER),
        "fork": lambda: runs.update_thread(
            store, settings, "refund-V1", {"amount": 1}, checkpoint_id=head, actor=VIEWER
        ),
        "continue": lambda: runs.continue_thread(store, settings, "refund-V1", actor=VIEWER),
        "rerun": lambda: runs.continue_thread(store, settings, "refund-V1", checkpoint_id=first, actor=VIEWER),
        "restore": lambda: runs.restore_checkpoint(store, settings, "refund-V1", first, actor=VIEWER),
        "delete": lambda: runs.delete_thread(store, "refund-V1", actor=VIEWER),
    }
    for name, attempt in attempts.items():
        with pytest.raises(PermissionDenied, match="viewer@example.com is a viewer") as refused:
            attempt()
        assert "needs an approver or above" in refused.value.reason or "needs an admin" in refused.value.reason, name
    assert (unchanged(store, "refund-V1"), unchanged(store, "robot-v")) == before
    assert readmodel.head_checkpoint_id(store, "refund-V2") is None


def test_an_approver_approves_within_the_limit_and_the_record_is_their_identity(store, settings):
    request(store, settings, "A1", 500_000, actor=LEE)
    result = decide(store, settings, "A1", KIM, approver="somebody else", note="ok")
    assert result.status == "done" and result.outcome == "paid"
    (paid,) = ledger.ledger_rows(store)
    assert paid["approver"] == "kim@example.com" and paid["paid_amount"] == 500_000
    (audit,) = ledger.audit_rows(store)
    assert (audit.requested_by, audit.approver, audit.approver_name, audit.approver_role) == (
        "lee@example.com",
        "kim@example.com",
        "Kim",
        "approver",
    )
    assert audit.decided_at and audit.requested_at
    assert "review: approve by kim@example.com (note: ok)" in result.values["trace"]
    assert "somebody else" not in str(result.values)


@pytest.mark.parametrize("action", ["approve", "edit", "reject"])
def test_an_approver_with_the_longest_email_a_roles_file_takes_decides(store, settings, action):
    """A signed-in decision is recorded by email, so no limit on an approver's name may be shorter."""
    longest = "f" * (EMAIL_MAX_LENGTH - len("@example.com")) + "@example.com"
    finance = parse_roles(f'[users]\n"{longest}" = {{ role = "approver", limit_krw = 1_000_000 }}\n').identity_for(
        longest
    )
    request(store, settings, "E1", 500_000, actor=LEE)
    extra = {"amount": 400_000} if action == "edit" else {}
    result = decide(store, settings, "E1", finance, action=action, **extra)
    assert result.status == "done" and result.outcome == ("rejected" if action == "reject" else "paid")
    (audit,) = ledger.audit_rows(store)
    assert audit.approver == longest
    assert [row["paid_amount"] for row in ledger.ledger_rows(store)] == {
        "approve": [500_000],
        "edit": [400_000],
        "reject": [],
    }[action]


def test_above_the_limit_the_approver_is_refused_with_the_reason_and_a_senior_approver_pays(store, settings):
    request(store, settings, "B1", 2_000_000, actor=LEE)
    before = unchanged(store, "refund-B1")
    with pytest.raises(PermissionDenied) as refused:
        decide(store, settings, "B1", KIM)
    assert "your limit is 1,000,000 KRW" in refused.value.reason
    assert "needs a senior approver" in refused.value.reason
    assert unchanged(store, "refund-B1") == before
    assert runs.current_result(store, settings, "refund-B1").status == "waiting"
    result = decide(store, settings, "B1", PARK)
    assert result.outcome == "paid"
    assert ledger.payout_for(store, "B1")["approver"] == "park@example.com"
    assert ledger.audit_rows(store)[0].approver_role == "senior_approver"


def test_above_the_limit_an_approver_may_reject_or_edit_down_to_the_limit(store, settings):
    request(store, settings, "B2", 2_000_000)
    with pytest.raises(PermissionDenied, match="your limit is 1,000,000 KRW"):
        decide(store, settings, "B2", KIM, action="edit", amount=1_000_001)
    assert decide(store, settings, "B2", KIM, action="edit", amount=1_000_000).outcome == "paid"
    request(store, settings, "B3", 2_000_000)
    rejected = decide(store, settings, "B3", KIM, action="reject")
    assert rejected.outcome == "rejected" and rejected.values["approver"] == "kim@example.com"


def test_the_requester_cannot_approve_their_own_case(store, settings):
    request(store, settings, "F1", 500_000, actor=KIM)
    before = unchanged(store, "refund-F1")
    with pytest.raises(PermissionDenied, match="four eyes"):
        decide(store, settings, "F1", KIM)
    with pytest.raises(PermissionDenied, match="four eyes"):
        decide(store, settings, "F1", KIM, action="edit", amount=1)
    assert unchanged(store, "refund-F1") == before
    assert decide(store, settings, "F1", LEE).outcome == "paid"
    assert ledger.payout_for(store, "F1")["approver"] == "lee@example.com"


def test_the_requester_stays_recorded_when_the_tooling_path_rewrites_it(store, settings):
    request(store, settings, "F4", 500_000, actor=KIM)
    config = {"configurable": {"thread_id": "refund-F4", "checkpoint_ns": ""}}
    tooling = graph.build_graph(store.saver, store=store)  # LangGraph's own update_state checks no keys
    tooling.update_state(config, {"requested_by": "someone@elsewhere.org", "requested_by_name": "S"}, as_node="assess")
    tooling.invoke(None, config)  # the case waits at review again
    assert tooling.get_state(config).values["requested_by"] == "kim@example.com"
    with pytest.raises(PermissionDenied, match="four eyes"):
        decide(store, settings, "F4", KIM)
    assert ledger.ledger_rows(store) == []


def test_four_eyes_holds_for_an_admin_and_for_a_decision_set_by_update_state(store, settings):
    request(store, settings, "F2", 500_000, actor=ADMIN)
    with pytest.raises(PermissionDenied, match="four eyes"):
        decide(store, settings, "F2", ADMIN)
    with pytest.raises(PermissionDenied, match="four eyes"):
        runs.update_thread(store, settings, "refund-F2", {"decision": "approve"}, actor=ADMIN)
    assert ledger.ledger_rows(store) == []
    request(store, settings, "F3", 500_000, actor=LEE)
    result = runs.update_thread(store, settings, "refund-F3", {"decision": "approve", "approver": "x"}, actor=ADMIN)
    assert result.outcome == "paid" and ledger.payout_for(store, "F3")["approver"] == "admin@example.com"
    assert ledger.audit_rows(store)[0].approver_role == "admin"


@pytest.mark.parametrize("policy", ["strict", "reroute"])
def test_the_requester_cannot_edit_their_own_amount_by_update_state(store, policy):
    """An edited amount is approved by the edit (and, under ``reroute``, paid below the threshold)."""
    settings = runtime.load_settings(db_override=store.path, environ={"HITL_REFUND_POLICY": policy}, secrets={})
    request(store, settings, "F4", 500_000, actor=ADMIN)
    head = readmodel.head_checkpoint_id(store, "refund-F4")
    before = unchanged(store, "refund-F4")
    for checkpoint in (None, head):  # at the head and as a fork of it
        with pytest.raises(PermissionDenied, match="four eyes"):
            runs.update_thread(store, settings, "refund-F4", {"amount": 50_000}, checkpoint_id=checkpoint, actor=ADMIN)
    assert unchanged(store, "refund-F4") == before
    other_admin = dataclasses.replace(ADMIN, email="root@example.com", name="Root")
    edited = runs.update_thread(store, settings, "refund-F4", {"amount": 50_000}, actor=other_admin)
    if policy == "reroute":  # the pitfall the policy shows: the edit is routed again and paid, by another admin
        done = runs.continue_thread(store, settings, "refund-F4", actor=other_admin)
        assert (done.outcome, ledger.payout_for(store, "F4")["paid_amount"]) == ("paid", 50_000)
    else:  # routed on the requested amount: it still asks a human
        assert edited.status == "waiting" and ledger.ledger_rows(store) == []


def test_an_admin_deletes_a_thread_and_an_approver_cannot(store, settings):
    request(store, settings, "D1", 500_000)
    with pytest.raises(PermissionDenied, match="deleting a thread needs an admin"):
        runs.delete_thread(store, "refund-D1", actor=PARK)
    assert readmodel.head_checkpoint_id(store, "refund-D1") is not None
    runs.delete_thread(store, "refund-D1", actor=ADMIN, reason="withdrawn")
    assert readmodel.head_checkpoint_id(store, "refund-D1") is None


def test_changing_state_forking_and_re_running_are_for_admins(store, settings):
    waiting = request(store, settings, "U1", 500_000)
    with pytest.raises(PermissionDenied, match="changing a thread's state needs an admin"):
        runs.update_thread(store, settings, "refund-U1", {"amount": 10}, actor=PARK)
    with pytest.raises(PermissionDenied, match="re-running from a checkpoint needs an admin"):
        runs.continue_thread(store, settings, "refund-U1", checkpoint_id=waiting.head_checkpoint_id, actor=PARK)
    edited = runs.update_thread(store, settings, "refund-U1", {"amount": 10}, actor=ADMIN)
    assert edited.status == "waiting" and edited.values["amount"] == 10


def test_approvers_answer_the_robot_and_start_runs(store, settings):
    pause_robot(store, settings, "robot-a")
    done = runs.resume_thread(store, settings, "robot-a", "yes", actor=KIM)
    assert done.status == "done"


def test_local_mode_records_the_typed_name_and_keeps_no_requester(store, settings):
    request(store, settings, "L1", 2_000_000, actor=LOCAL_OPERATOR)
    result = decide(store, settings, "L1", LOCAL_OPERATOR, approver="kim")
    assert ledger.payout_for(store, "L1")["approver"] == "kim"
    assert not {"requested_by", "approver_name", "approver_role"} & set(result.values)


class AskedAgain(Exception):
    """What a node's next ``interrupt()`` raises when no answer is left for it: it pauses with ``question``."""

    def __init__(self, question: dict) -> None:
        super().__init__(question.get("error"))
        self.question = question


def answered_once(answer: dict):
    """``interrupt`` as LangGraph runs it on a resume with ``answer``: the answer passes the question's
    ``response_schema`` validator first, and a question asked after it finds no answer (it pauses)."""
    left = [answer]

    def interrupt(question: dict, *, response_schema) -> object:
        if not left:
            raise AskedAgain(question)
        return TypeAdapter(response_schema).validate_python(left.pop())

    return interrupt


def test_the_decision_node_itself_refuses_a_state_that_slipped_past_runs(monkeypatch):
    """``review`` checks the answer against the identity in its config, whatever called it: a refused
    answer is not taken, and the question is asked again with the reason."""
    state = {"case_id": "N1", "customer": "c", "reason": "r", "requested_amount": 2_000_000, "amount": 2_000_000}
    state.update(threshold=100_000, requested_by="lee@example.com")
    answer = {"action": "approve", "approver": "kim@example.com"}
    monkeypatch.setattr(asking, "interrupt", answered_once(answer))
    with pytest.raises(AskedAgain, match="your limit is 1,000,000 KRW"):
        graph.review(state, {"configurable": {"hitl_actor": KIM}})
    as_requester = dataclasses.replace(PARK, email="lee@example.com")
    monkeypatch.setattr(asking, "interrupt", answered_once(answer))
    with pytest.raises(AskedAgain, match="four eyes"):
        graph.review(state, {"configurable": {"hitl_actor": as_requester}})
    monkeypatch.setattr(asking, "interrupt", answered_once(answer))
    assert graph.review(state, {"configurable": {"hitl_actor": PARK}})["approver"] == "park@example.com"
