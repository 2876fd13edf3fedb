"""Refund questions carry LangChain's human-in-the-loop request, and its decisions answer them on every
path (CLI, API, the graph itself), through the same rules as the refund's own answers."""

from __future__ import annotations

import json

import pytest

from agents import runs
from agents.errors import InputError
from agents.refund import item_ledger, ledger
from agents.refund.spec import check_resume

pytestmark = pytest.mark.usefixtures("backend")

EDIT = {"type": "edit", "edited_action": {"name": "pay_refund", "args": {"amount": 300_000}}}


def start(store, settings, case: str = "H1", amount: int = 500_000) -> str:
    runs.start_run(store, settings, "refund", {"case_id": case, "customer": "홍길동", "amount": amount, "reason": "r"})
    return f"refund-{case}"


def waiting(store, settings, thread: str):
    return runs.thread_snapshot(store, settings, thread)[1].interrupts


def test_the_question_carries_one_action_request_beside_its_own_words(store, settings):
    (question,) = waiting(store, settings, start(store, settings))
    value = question.value
    assert value["question"] == "Refund H1 for 홍길동: pay 500,000 KRW (requested 500,000)? approve / reject / edit"
    assert value["actions"] == ["approve", "reject", "edit"] and value["amount"] == 500_000
    assert value["action_requests"] == [
        {
            "name": "pay_refund",
            "args": {"amount": 500_000},
            "arguments": {"amount": 500_000},
            "description": value["question"],
        }
    ]
    assert value["review_configs"] == [
        {"action_name": "pay_refund", "allowed_decisions": ["approve", "edit", "reject"]}
    ]
    edit_amount = question.response_schema["anyOf"][0]["properties"]["amount"]
    assert edit_amount == {"type": "integer", "minimum": 1, "maximum": 500_000}


@pytest.mark.parametrize(
    ("answer", "expected"),
    [
        ({"decisions": [{"type": "approve"}], "approver": "kim"}, {"action": "approve", "approver": "kim"}),
        ({"decisions": [EDIT], "approver": "kim"}, {"action": "edit", "amount": 300_000, "approver": "kim"}),
        (
            {"decisions": [{"type": "reject", "message": "no receipt"}], "approver": "kim"},
            {"action": "reject", "note": "no receipt", "approver": "kim"},
        ),
        (
            [{"type": "accept", "args": {"action": "pay_refund", "args": {"amount": 1}}, "approver": "kim"}],
            {"action": "approve", "approver": "kim"},
        ),
        (
            [{"type": "edit", "args": {"action": "pay_refund", "args": {"amount": 7}}, "approver": "kim"}],
            {"action": "edit", "amount": 7, "approver": "kim"},
        ),
        (
            [{"type": "response", "args": "wrong item", "approver": "kim"}],
            {"action": "reject", "note": "wrong item", "approver": "kim"},
        ),
    ],
)
def test_each_decision_shape_reads_as_the_refunds_own_answer(answer, expected):
    assert check_resume(answer) == expected


@pytest.mark.parametrize(
    ("answer", "field", "says"),
    [
        ([{"type": "ignore", "args": None}], "decisions", "without a decision"),
        ({"decisions": [{"type": "respond", "message": "ok"}], "approver": "kim"}, "decisions", "without a decision"),
        ({"decisions": [{"type": "approve"}, {"type": "approve"}], "approver": "kim"}, "decisions", "exactly one"),
        ({"decisions": [], "approver": "kim"}, "decisions", "exactly one"),
        ({"decisions": [{"type": "approve"}]}, "approver", "HITL_LOCAL_APPROVER"),
        ({"decisions": [{"type": "approve"}], "approver": "automatic"}, "approver", "automatic"),
        (
            {
                "decisions": [{**EDIT, "edited_action": {"name": "pay_refund", "args": {"amount": 5.0}}}],
                "approver": "k",
            },
            "amount",
            "without decimals",
        ),
        (
            {"decisions": [{**EDIT, "edited_action": {"name": "refund_all", "args": {"amount": 5}}}], "approver": "k"},
            "decisions",
            "pay_refund",
        ),
        (
            {
                "decisions": [{**EDIT, "edited_action": {"name": "pay_refund", "args": {"amount": 5, "case_id": "X"}}}],
                "approver": "k",
            },
            "case_id",
            "amount",
        ),
        ({"decisions": [{"type": "approve"}], "approver": "k", "thread": "x"}, "thread", "decisions"),
    ],
)
def test_a_decision_that_breaks_a_rule_is_refused_naming_why(answer, field, says):
    with pytest.raises(InputError) as caught:
        check_resume(answer)
    assert caught.value.field == field
    assert says in str(caught.value)


def test_an_edit_above_the_requested_amount_or_an_ignore_changes_nothing(store, settings):
    thread = start(store, settings)
    over = {"decisions": [{**EDIT, "edited_action": {"name": "pay_refund", "args": {"amount": 500_001}}}]}
    with pytest.raises(InputError) as caught:
        runs.resume_thread(store, settings, thread, {**over, "approver": "kim"})
    assert caught.value.field == "amount"
    with pytest.raises(InputError, match="without a decision"):
        runs.resume_thread(store, settings, thread, [{"type": "ignore", "args": None}])
    assert len(waiting(store, settings, thread)) == 1 and ledger.ledger_rows(store) == []


def test_an_edit_decision_pays_the_edited_amount_once(store, settings, run_cli):
    thread = start(store, settings)
    answer = json.dumps({"decisions": [EDIT], "approver": "kim"})
    done = run_cli("resume", thread, answer, "--json")
    assert done.code == 0, done.err
    values = json.loads(done.out)["values"]
    assert (values["outcome"], values["paid_amount"], values["approver"]) == ("paid", 300_000, "kim")
    again = run_cli("resume", thread, answer)
    assert again.code == 2
    assert [(r["paid_amount"], r["repeat_attempts"]) for r in ledger.ledger_rows(store)] == [(300_000, 0)]


def test_each_item_is_its_own_question_with_one_action_request(store, settings):
    items = [{"item": "A-1", "amount": 300_000}, {"item": "A-2", "amount": 200_000}]
    runs.start_run(store, settings, "refund", {"case_id": "M1", "customer": "k", "reason": "r", "items": items})
    questions = waiting(store, settings, "refund-M1")
    assert sorted(q.value["action_requests"][0]["args"]["amount"] for q in questions) == [200_000, 300_000]
    assert all(len(q.value["action_requests"]) == 1 for q in questions)
    first = next(q for q in questions if q.value["item"] == "A-1")
    runs.resume_interrupts(
        store, settings, "refund-M1", {str(first.id): {"decisions": [{"type": "reject"}], "approver": "kim"}}
    )
    second = waiting(store, settings, "refund-M1")[0]
    with pytest.raises(InputError, match="200,000"):  # an item's edit is within that item's amount
        runs.resume_interrupts(store, settings, "refund-M1", {str(second.id): {"decisions": [EDIT], "approver": "kim"}})
    smaller = {"type": "edit", "edited_action": {"name": "pay_refund", "args": {"amount": 150_000}}}
    runs.resume_interrupts(store, settings, "refund-M1", {str(second.id): {"decisions": [smaller], "approver": "kim"}})
    assert [(r["item"], r["paid_amount"]) for r in item_ledger.item_payouts(store)] == [("A-2", 150_000)]
