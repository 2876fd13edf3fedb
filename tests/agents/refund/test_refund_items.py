"""A refund with several items: one task per item, several questions waiting at once, each decided by
its interrupt id on its own, each item paid exactly once (the item ledger's key), on both backends."""

from __future__ import annotations

import json

import pytest
from fastapi.testclient import TestClient

from agents import readmodel, runs
from agents.api.app import create_app
from agents.errors import InputError, PermissionDenied, StaleFormError
from agents.refund import item_ledger, ledger
from agents.refund.rules import check_items
from agents.roles_file import parse_roles

pytestmark = pytest.mark.usefixtures("backend")

ITEMS = [{"item": "A-1", "amount": 300_000}, {"item": "A-2", "amount": 80_000}, {"item": "A-3", "amount": 200_000}]
START = ("run", "refund", "--case", "M1", "--customer", "kim", "--reason", "broken", "--items", json.dumps(ITEMS))
APPROVE = '{"action": "approve", "approver": "lee"}'
ROLES = parse_roles(
    """
[users]
"kim@example.com" = { role = "approver", limit_krw = 250_000, name = "Kim" }
"lee@example.com" = { role = "approver", limit_krw = 1_000_000, name = "Lee" }
"""
)
KIM = ROLES.identity_for("kim@example.com", "Kim")
LEE = ROLES.identity_for("lee@example.com", "Lee")


def waiting_ids(store, settings, thread_id: str = "refund-M1") -> dict[str, str]:
    """Item → interrupt id of each question waiting."""
    snapshot = runs.thread_snapshot(store, settings, thread_id)[1]
    return {i.value["item"]: str(i.id) for i in snapshot.interrupts}


def start(store, settings, actor=KIM) -> runs.RunResult:
    values = {"case_id": "M1", "customer": "kim", "reason": "r", "items": ITEMS}
    return runs.start_run(store, settings, "refund", values, actor=actor)


def test_items_above_the_threshold_wait_each_with_its_id_and_the_rest_settle(run_cli, store):
    result = run_cli(*START, "--json")
    assert result.code == 0, result.err
    data = json.loads(result.out)
    assert data["status"] == "waiting" and data["next"] == ["item", "item"]
    assert sorted(p["item"] for p in data["interrupts"]) == ["A-1", "A-3"]
    assert len(set(data["interrupt_ids"])) == 2
    assert data["values"]["requested_amount"] == 580_000
    rows = item_ledger.item_payouts(store, "M1")
    assert [(r["item"], r["paid_amount"], r["approver"]) for r in rows] == [("A-2", 80_000, "automatic")]
    text = run_cli(*START[:2], "--case", "M9", *START[4:]).out
    assert text.splitlines()[0] == "thread refund-M9 (refund): waiting (2 of 3 items)"


def test_a_plain_resume_with_several_waiting_is_refused_listing_the_ids(run_cli, store, settings):
    run_cli(*START)
    ids = waiting_ids(store, settings)
    head = readmodel.head_checkpoint_id(store, "refund-M1")
    refused = run_cli("resume", "refund-M1", APPROVE)
    assert refused.code == 2 and "2 questions are waiting" in refused.err
    assert all(interrupt in refused.err for interrupt in ids.values())
    unknown = run_cli("resume", "refund-M1", "--interrupt", "nope", APPROVE)
    assert unknown.code == 2 and "no question 'nope' is waiting" in unknown.err
    both = run_cli("resume", "refund-M1", "--interrupt", ids["A-1"], "--all", APPROVE)
    assert both.code == 2
    assert readmodel.head_checkpoint_id(store, "refund-M1") == head


def test_items_are_decided_one_by_one_in_any_order_then_done_with_an_outcome_each(run_cli, store, settings):
    run_cli(*START)
    ids = waiting_ids(store, settings)
    edit = '{"action": "edit", "amount": 150000, "approver": "lee", "note": "half"}'
    first = json.loads(run_cli("resume", "refund-M1", "--interrupt", ids["A-3"], edit, "--json").out)
    assert first["status"] == "waiting" and [p["item"] for p in first["interrupts"]] == ["A-1"]
    assert first["interrupt_ids"] == [ids["A-1"]]  # the one left keeps its id
    plain = json.loads(run_cli("resume", "refund-M1", '{"action": "reject", "approver": "lee"}', "--json").out)
    assert plain["status"] == "done" and plain["outcome"] == "partly paid"
    results = {r["item"]: (r["decision"], r["outcome"]) for r in plain["values"]["item_results"]}
    assert results == {"A-1": ("reject", "rejected"), "A-2": ("approve", "paid"), "A-3": ("approve", "paid")}
    rows = {r["item"]: (r["requested_amount"], r["paid_amount"]) for r in item_ledger.item_payouts(store, "M1")}
    assert rows == {"A-2": (80_000, 80_000), "A-3": (200_000, 150_000)}
    audit = json.loads(run_cli("ledger", "--audit", "--json").out)
    assert [(a["case_id"], a["status"], a["executed_amount"], a["outcome"]) for a in audit] == [
        ("M1", "done", 230_000, "partly paid")
    ]
    again = run_cli("resume", "refund-M1", "--all", APPROVE)
    assert again.code == 2 and "not waiting" in again.err


def test_all_gives_the_same_answer_to_every_waiting_item(run_cli, store):
    run_cli(*START)
    done = json.loads(run_cli("resume", "refund-M1", "--all", APPROVE, "--json").out)
    assert done["status"] == "done" and done["outcome"] == "paid"
    assert sorted(r["item"] for r in item_ledger.item_payouts(store, "M1")) == ["A-1", "A-2", "A-3"]
    assert run_cli("ledger").out.count("M1:A-") == 3


def test_each_item_is_checked_on_its_own_limit_four_eyes_range_and_stale_form(store, settings):
    waiting = start(store, settings, actor=KIM)
    ids = waiting_ids(store, settings)
    head = waiting.head_checkpoint_id
    approve = {"action": "approve", "approver": "x"}
    with pytest.raises(PermissionDenied, match="four eyes"):  # four eyes: Kim requested the case
        runs.resume_thread(store, settings, "refund-M1", approve, interrupt_id=ids["A-3"], actor=KIM)
    other = parse_roles('[users]\n"park@example.com" = { role = "approver", limit_krw = 250_000 }')
    park = other.identity_for("park@example.com", "Park")
    with pytest.raises(PermissionDenied, match="250,000"):  # A-1 is 300,000: above Park's limit
        runs.resume_thread(store, settings, "refund-M1", approve, interrupt_id=ids["A-1"], actor=park)
    with pytest.raises(PermissionDenied, match="250,000"):  # --all: every item is checked, A-1 refuses it all
        runs.resume_thread(store, settings, "refund-M1", approve, every=True, actor=park)
    too_much = {"action": "edit", "amount": 250_000, "approver": "x"}  # within the case's total, not A-3's 200,000
    with pytest.raises(InputError, match="200,000"):
        runs.resume_thread(store, settings, "refund-M1", too_much, interrupt_id=ids["A-3"], actor=LEE)
    assert readmodel.head_checkpoint_id(store, "refund-M1") == head
    assert len(item_ledger.item_payouts(store, "M1")) == 1  # only the automatic A-2
    runs.resume_thread(store, settings, "refund-M1", approve, interrupt_id=ids["A-3"], actor=park, expected_head=head)
    # The step still waits for A-1, so the head is the same checkpoint: a second tab's form for A-3 is
    # stale by its question, which no longer waits; nothing is paid twice.
    assert readmodel.head_checkpoint_id(store, "refund-M1") == head
    with pytest.raises(StaleFormError):
        runs.resume_thread(
            store, settings, "refund-M1", approve, interrupt_id=ids["A-3"], actor=LEE, expected_head=head
        )
    paid = {r["item"]: r["approver"] for r in item_ledger.item_payouts(store, "M1")}
    assert paid == {"A-2": "automatic", "A-3": "park@example.com"}
    # A-1's question did not change: a form drawn before the A-3 answer still answers it.
    runs.resume_thread(store, settings, "refund-M1", approve, interrupt_id=ids["A-1"], actor=LEE, expected_head=head)
    assert runs.current_result(store, settings, "refund-M1").outcome == "paid"


def test_an_update_on_a_case_with_items_is_refused(run_cli, store):
    run_cli(*START)
    head = readmodel.head_checkpoint_id(store, "refund-M1")
    refused = run_cli("update", "refund-M1", "--values", '{"amount": 50000}')
    assert refused.code == 2 and "item by item" in refused.err
    assert readmodel.head_checkpoint_id(store, "refund-M1") == head


def test_an_item_is_paid_once_however_often_it_is_paid(store):
    kwargs = {"case_id": "M1", "item": "A-1", "thread_id": "refund-M1", "customer": "kim", "requested_amount": 5}
    first = item_ledger.pay_item(store, amount=5, approver="lee", **kwargs)
    second = item_ledger.pay_item(store, amount=4, approver="kim", **kwargs)
    assert first.created and not second.created and second.paid_amount == 5 and second.repeat_attempts == 1
    assert len(item_ledger.item_payouts(store)) == 1 and ledger.ledger_rows(store) == []


def test_a_case_id_with_paid_items_is_not_used_again(run_cli):
    run_cli(*START)
    run_cli("delete", "refund-M1", "--yes", "--reason", "duplicate")
    again = run_cli(*START)
    assert again.code == 2 and "case_id" in again.err


@pytest.mark.parametrize(
    ("items", "found"),
    [
        ("[]", "1 to 50"),
        ('{"item": "A"}', "JSON array"),
        ('[{"item": "A", "amount": 0}]', "whole number"),
        ('[{"item": "A", "amount": 5}, {"item": "A", "amount": 6}]', "twice"),
        ('[{"item": "a b", "amount": 5}]', "letters, digits"),
        ('[{"item": "A", "amount": 5, "x": 1}]', "1 to 50"),
        ('[{"item": "A", "amount": 6000000}, {"item": "B", "amount": 6000000}]', "total"),
    ],
)
def test_bad_items_are_refused_naming_the_field_and_nothing_is_written(run_cli, store, items, found):
    result = run_cli("run", "refund", "--case", "B1", "--customer", "k", "--reason", "r", "--items", items)
    assert result.code == 2 and "items" in result.err and found in result.err, result.err
    assert readmodel.head_checkpoint_id(store, "refund-B1") is None


def test_amount_and_items_together_or_neither_are_refused(run_cli):
    both = run_cli(*START, "--amount", "5")
    neither = run_cli("run", "refund", "--case", "B2", "--customer", "k", "--reason", "r")
    assert both.code == 2 and "not both" in both.err
    assert neither.code == 2 and "amount" in neither.err


def test_item_ids_are_normalised_once():
    assert check_items([{"item": "cafe\u0301", "amount": 5}]) == [{"item": "caf\u00e9", "amount": 5}]


def test_threads_and_inbox_say_how_many_items_still_wait(run_cli, store, settings):
    run_cli(*START)
    assert "refund-M1\trefund\twaiting (2 of 3 items)\t" in run_cli("threads").out
    assert "refund-M1\trefund\twaiting (2 of 3 items)\tanswer" in run_cli("inbox").out
    run_cli("resume", "refund-M1", "--interrupt", waiting_ids(store, settings)["A-1"], APPROVE)
    listed = json.loads(run_cli("threads", "--json").out)
    assert [(t["status"], t["waiting_count"]) for t in listed] == [("waiting", 1)]  # one item of three left
    assert "refund-M1\trefund\twaiting (1 of 3 items)\t" in run_cli("threads").out  # the count stays
    assert "refund-M1\trefund\twaiting (1 of 3 items)\tanswer" in run_cli("inbox").out


def test_a_case_of_one_item_says_no_count(run_cli):
    """One item in all is one question: ``waiting``, as a case without items, never ``waiting (1 of 1 items)``."""
    one = json.dumps([{"item": "A-1", "amount": 300_000}])
    run_cli("run", "refund", "--case", "S1", "--customer", "kim", "--reason", "broken", "--items", one)
    assert "refund-S1\trefund\twaiting\t" in run_cli("threads").out
    assert "refund-S1\trefund\twaiting\tanswer" in run_cli("inbox").out
    assert [t["waiting_count"] for t in json.loads(run_cli("threads", "--json").out)] == [0]


#: The inbox's reason while A-1 and A-3 wait: the case and its waiting items together, not A-1's question.
SEVERAL = (
    "Refund M1 for kim: 2 items wait for a decision (A-1, A-3), 500,000 KRW together; approve / reject / edit each"
)


def test_the_reason_of_several_items_waiting_names_them_all_on_every_path(run_cli, store, settings):
    run_cli(*START)  # A-2 pays itself; wait
    line = next(line for line in run_cli("inbox").out.splitlines() if line.startswith("refund-M1\t"))
    assert "\twaiting (2 of 3 items)\t" in line and line.endswith("\t" + SEVERAL), line
    korean = run_cli("--lang", "ko", "inbox").out
    assert "\t환불 M1 (kim): 항목 2개(A-1, A-3), 합계 500,000원이 결정을 기다립니다." in korean, korean
    (listed,) = json.loads(run_cli("inbox", "--json").out)
    (thread,) = json.loads(run_cli("threads", "--json").out)
    assert (listed["reason"], listed["waiting_count"]) == (SEVERAL, 2) == (thread["reason"], thread["waiting_count"])
    with TestClient(create_app(store, settings), base_url="http://127.0.0.1") as api:
        lifecycle = api.get("/threads/refund-M1").json()["lifecycle"]
    assert (lifecycle["status"], lifecycle["reason"]) == ("waiting", SEVERAL)
    # One left: its own question, and the count beside it stays
    resumed = run_cli("resume", "refund-M1", "--interrupt", waiting_ids(store, settings)["A-1"], APPROVE)
    assert resumed.out.splitlines()[0] == "thread refund-M1 (refund): waiting (1 of 3 items)", resumed.out
    (listed,) = json.loads(run_cli("inbox", "--json").out)
    assert listed["reason"].startswith("Refund M1 item A-3 for kim: pay 200,000 KRW") and listed["waiting_count"] == 1


def test_an_item_edit_outside_its_own_amount_is_refused_on_the_cli(run_cli, store, settings):
    run_cli(*START)
    ids = waiting_ids(store, settings)
    head = readmodel.head_checkpoint_id(store, "refund-M1")
    edit = '{"action": "edit", "amount": 250000, "approver": "lee"}'  # A-3 asks for 200,000
    refused = run_cli("resume", "refund-M1", "--interrupt", ids["A-3"], edit)
    assert refused.code == 2 and "200,000" in refused.err
    everyone = run_cli("resume", "refund-M1", "--all", edit)  # within A-1's 300,000, not A-3's
    assert everyone.code == 2 and "200,000" in everyone.err
    assert readmodel.head_checkpoint_id(store, "refund-M1") == head
    assert [r["item"] for r in item_ledger.item_payouts(store, "M1")] == ["A-2"]


class _Killed(BaseException):
    """The process dies (a ``BaseException``: nothing after it is saved, as after a kill)."""


def test_an_item_paid_by_a_run_that_died_is_recorded_from_the_ledger_never_paid_again(store, settings):
    from unittest import mock

    from agents.refund import items

    start(store, settings, actor=LEE)
    ids = waiting_ids(store, settings)
    original = items.pay_item

    def pay_then_die(*args, **kwargs):
        original(*args, **kwargs)
        raise _Killed

    approve = {"action": "approve", "approver": "kim"}
    with mock.patch.object(items, "pay_item", pay_then_die), pytest.raises(_Killed):
        runs.resume_thread(store, settings, "refund-M1", approve, interrupt_id=ids["A-1"])
    assert waiting_ids(store, settings) == ids  # the task's result was never saved: it still asks
    reject = {"action": "reject", "approver": "park"}
    # The head holds the answer the dead run took: it is copied and asked afresh (new interrupt ids); the
    # answers given by the old ids go to the same questions, and A-1 is settled from the ledger.
    runs.resume_thread(store, settings, "refund-M1", reject, interrupt_id=ids["A-3"])
    result = runs.current_result(store, settings, "refund-M1")
    outcomes = {r["item"]: (r["outcome"], r["approver"]) for r in result.values["item_results"]}
    # A-2's automatic payout is found in the ledger too: the copy re-ran its task, which paid nothing again.
    assert outcomes == {
        "A-1": ("already paid", "kim"),
        "A-2": ("already paid", "automatic"),
        "A-3": ("rejected", "park"),
    }
    assert (result.status, result.outcome) == ("done", "partly paid")
    rows = {r["item"]: r["repeat_attempts"] for r in item_ledger.item_payouts(store, "M1")}
    assert rows == {"A-1": 0, "A-2": 0}  # not even attempted again
