"""The audit of a case with items as it stands: each item's decision and payout is in the case's trace (and its
batches) from the moment it happens, while other items still wait, on every path that reads the audit, as
LangGraph's own state of the thread has it; a paid case with items whose thread was deleted stays in the audit
and the ledger, on both backends."""

from __future__ import annotations

import json

import pytest

from agents import lifecycle, runs
from agents.refund import ledger
from agents.roles_file import parse_roles
from agents.runtime import open_store

pytestmark = pytest.mark.usefixtures("backend")

#: A-2 (80,000) is under the threshold and pays itself at the start; A-1 and A-3 wait for an approver.
ITEMS = [{"item": "A-1", "amount": 300_000}, {"item": "A-2", "amount": 80_000}, {"item": "A-3", "amount": 200_000}]
ASSESS = "assess: 3 items, requested 580,000 KRW in total, threshold 100,000 → each item above it needs a human"
A1 = "item A-1: paid 300,000 KRW (requested 300,000), approved by lee"
A2 = "item A-2: paid 80,000 KRW (requested 80,000), settled automatically: at or under the threshold 100,000"


def _name(row):
    """A payout as ``python -m agents ledger`` names it: its case, an item's ``CASE:ITEM`` (README)."""
    return f"{row['case_id']}:{row['item']}" if "item" in row else row["case_id"]


def start_items(store, settings, case="M1", items=ITEMS):
    values = {"case_id": case, "customer": "kim", "reason": "r", "items": items}
    return runs.start_run(store, settings, "refund", values)


def waiting_ids(store, settings, thread_id="refund-M1"):
    """Item → interrupt id of each question waiting."""
    return {i.value["item"]: str(i.id) for i in runs.thread_snapshot(store, settings, thread_id)[1].interrupts}


def audited(run_cli, case="M1"):
    """The case's row of ``ledger --audit --json``."""
    result = run_cli("ledger", "--audit", "--json")
    assert result.code == 0, result.err
    return next(row for row in json.loads(result.out) if row["case_id"] == case)


def audit_of(store, case="M1"):
    """The case's row of the audit as the refund page reads it (``ledger.audit_and_ledger``)."""
    statuses = {s.thread_id: s for s in lifecycle.thread_statuses(store, agent="refund")}
    heads = {t: s.head_checkpoint_id for t, s in statuses.items()}
    rows, _payouts = ledger.audit_and_ledger(store, {t: s.status for t, s in statuses.items()}, heads)
    return next(row for row in rows if row.case_id == case)


def test_a_partly_paid_cases_trace_has_each_item_payout_when_it_happens(store, settings, run_cli, db_location):
    start_items(store, settings)
    assert audited(run_cli)["trace"] == [ASSESS, A2]  # A-2 paid itself at the start; wait
    ids = waiting_ids(store, settings)
    runs.resume_thread(store, settings, "refund-M1", {"action": "approve", "approver": "lee"}, interrupt_id=ids["A-1"])
    row = audited(run_cli)
    assert (row["status"], row["executed_amount"], row["waiting_amount"]) == ("waiting", 380_000, 200_000)
    assert row["trace"] == [ASSESS, A1, A2]  # in the items' order, as LangGraph applies the step's writes
    # What the case panel reads (LangGraph's state of the thread), the page's audit and a new process agree.
    assert runs.current_result(store, settings, "refund-M1").values["trace"] == row["trace"]
    assert list(audit_of(store).trace) == row["trace"]
    other = open_store(db_location)
    try:
        assert list(audit_of(other).trace) == row["trace"]
    finally:
        other.close()
    runs.resume_thread(store, settings, "refund-M1", {"action": "reject", "approver": "kim"}, interrupt_id=ids["A-3"])
    done = audited(run_cli)
    assert done["status"] == "done" and done["outcome"] == "partly paid"
    assert done["trace"][:3] == row["trace"]  # what the audit said while it waited stays, in its place
    assert done["trace"][3:] == ["item A-3: rejected by kim; no payout", "items: 2 paid (380,000 KRW), 1 rejected"]
    said = run_cli("--lang", "ko", "ledger", "--audit")  # its outcome in the reader's words, as every other's
    assert said.code == 0 and "일부 지급됨" in said.out and "partly paid" not in said.out, said.out


def test_a_batch_an_item_was_decided_in_is_in_the_audit_while_the_others_wait(store, settings, run_cli):
    start_items(store, settings)
    ids = waiting_ids(store, settings)
    decided = run_cli("decide", f"refund-M1:{ids['A-3']}", "--action", "approve", "--approver", "lee", "--json")
    assert decided.code == 0, decided.out
    row = audited(run_cli)
    assert row["status"] == "waiting" and row["batch_id"]  # one item of the case, decided in a batch
    paid = [line for line in row["trace"] if line.startswith("item A-3: paid 200,000 KRW")]
    assert len(paid) == 1 and row["batch_id"] in paid[0]


def test_a_paid_case_with_items_whose_thread_was_deleted_stays_in_the_audit_and_the_ledger(store, settings, run_cli):
    start_items(store, settings, "D1", [{"item": "A-1", "amount": 30_000}, {"item": "A-2", "amount": 80_000}])
    runs.delete_thread(store, "refund-D1")  # finished: deleted without a reason, its payouts stay
    row = audited(run_cli, "D1")
    # Its paid items' rows are all the ledger holds: what was paid, by whom; not the request, nor the outcome
    # (an item rejected would have left no row), so neither is made up from the paid items.
    assert (row["status"], row["outcome"], row["decision"], row["approver"]) == (ledger.DELETED, "", "", "automatic")
    assert (row["requested_amount"], row["amount"], row["executed_amount"]) == (None, None, 110_000)
    listed = json.loads(run_cli("ledger", "--json").out)
    assert sorted(_name(p) for p in listed) == ["D1:A-1", "D1:A-2"]
    _rows, payouts = ledger.audit_and_ledger(store, {}, {})
    assert sorted(_name(p) for p in payouts) == ["D1:A-1", "D1:A-2"]  # the page's ledger too


def test_an_unfinished_case_with_items_deleted_with_a_reason_shows_what_its_items_were_paid(store, settings, run_cli):
    start_items(store, settings)  # A-2 paid, A-1 and A-3 wait
    runs.delete_thread(store, "refund-M1", reason="entered twice")
    row = audited(run_cli)
    assert (row["status"], row["outcome"], row["executed_amount"]) == (ledger.DELETED, "deleted", 80_000)


# --- who decided a case with items, and when -------------------------------------------------------------


def _item_results(store, settings, thread_id="refund-M1"):
    return {r["item"]: r for r in runs.current_result(store, settings, thread_id).values["item_results"]}


def test_a_case_with_items_says_who_decided_its_items_and_when_in_the_audit(store, settings, run_cli):
    start_items(store, settings)  # A-2 settles itself; wait
    ids = waiting_ids(store, settings)
    decided = run_cli("decide", f"refund-M1:{ids['A-1']}", "--action", "approve", "--approver", "lee")
    assert decided.code == 0, decided.out
    row = audited(run_cli)  # what was decided so far: its status says it still waits
    first = _item_results(store, settings)["A-1"]["decided_at"]
    assert (row["status"], row["decision"], row["approver"], row["decided_at"]) == ("waiting", "approve", "lee", first)
    runs.resume_thread(store, settings, "refund-M1", {"action": "reject", "approver": "kim"}, interrupt_id=ids["A-3"])
    done = audited(run_cli)
    last = max(result["decided_at"] for result in _item_results(store, settings).values())
    # the people who decided, in the items' order (A-2 settled automatically: no person), when the last was
    assert (done["decision"], done["approver"], done["decided_at"]) == ("mixed", "lee, kim", last)
    assert done["paid_at"] and last >= first
    page = audit_of(store)  # the page's audit reads the same
    assert (page.decision, page.approver, page.decided_at) == ("mixed", "lee, kim", last)
    text = run_cli("ledger", "--audit").out.splitlines()
    assert "\tmixed\tlee, kim\tpartly paid" in next(line for line in text if line.startswith("M1\t"))
    korean = run_cli("--lang", "ko", "ledger", "--audit").out.splitlines()
    assert "\t승인·거절\tlee, kim\t" in next(line for line in korean if line.startswith("M1\t"))


def test_a_case_with_items_decided_in_one_batch_by_one_approver_says_approve_by_them(store, settings, run_cli):
    start_items(store, settings)
    ids = waiting_ids(store, settings)
    items = [f"refund-M1:{ids['A-3']}", f"refund-M1:{ids['A-1']}"]
    decided = run_cli("decide", *items, "--action", "approve", "--approver", "lee")
    assert decided.code == 0, decided.out
    row = audited(run_cli)
    results = _item_results(store, settings)
    assert (row["status"], row["decision"], row["approver"]) == ("done", "approve", "lee")
    assert row["decided_at"] == max(r["decided_at"] for r in results.values())
    rejected = start_items(store, settings, "R1", [{"item": "B-1", "amount": 300_000}])
    runs.resume_thread(store, settings, "refund-R1", {"action": "reject", "approver": "kim"})
    row = audited(run_cli, "R1")
    assert (rejected.status, row["decision"], row["approver"], row["outcome"]) == (
        "waiting",
        "reject",
        "kim",
        "rejected",
    )
    assert row["decided_at"] == _item_results(store, settings, "refund-R1")["B-1"]["decided_at"]


def test_a_case_with_items_all_settled_automatically_is_approved_by_the_agent(store, settings, run_cli):
    start_items(store, settings, "S1", [{"item": "A-1", "amount": 30_000}, {"item": "A-2", "amount": 80_000}])
    row = audited(run_cli, "S1")
    assert (row["status"], row["decision"], row["approver"]) == ("done", "approve", "automatic")
    assert row["decided_at"] == max(r["decided_at"] for r in _item_results(store, settings, "refund-S1").values())
    runs.delete_thread(store, "refund-S1")  # its payouts stay in the audit, with who paid them
    gone = audited(run_cli, "S1")
    assert (gone["status"], gone["approver"]) == (ledger.DELETED, "automatic")  # its items' decisions went with it
    assert gone["decision"] == ""


#: Two approvers signed in, of two roles.
SIGNED_IN = """
[users]
"kim@example.com" = { role = "approver", limit_krw = 1_000_000, name = "Kim" }
"park@example.com" = { role = "senior_approver", name = "Park" }
"""


def decide_signed_in(store, settings):
    """M1 with A-1 approved by kim and A-3 rejected by park, each signed in (A-2 settled itself)."""
    roles = parse_roles(SIGNED_IN)
    start_items(store, settings)
    ids = waiting_ids(store, settings)
    for item, email, action in (("A-1", "kim@example.com", "approve"), ("A-3", "park@example.com", "reject")):
        answer = {"action": action, "approver": "typed"}
        runs.resume_thread(
            store, settings, "refund-M1", answer, interrupt_id=ids[item], actor=roles.identity_for(email)
        )


def test_signed_in_approvers_of_a_case_with_items_are_in_its_audit_row_with_their_names_and_roles(store, settings):
    decide_signed_in(store, settings)
    row = audit_of(store)
    assert (row.decision, row.approver) == ("mixed", "kim@example.com, park@example.com")
    assert (row.approver_name, row.approver_role) == ("Kim, Park", "approver, senior_approver")
