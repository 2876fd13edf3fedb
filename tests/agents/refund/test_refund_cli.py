"""The refund agent on the command line: run, resume, update, inspect, ledger, bad input."""

from __future__ import annotations

import json

import pytest

START = ("run", "refund", "--case", "C1", "--customer", "홍길동", "--amount", "500000", "--reason", "파손")


def test_run_waits_for_review_on_a_thread_named_after_the_case(run_cli):
    result = run_cli(*START, "--json")
    assert result.code == 0, result.err
    data = json.loads(result.out)
    assert data["thread_id"] == "refund-C1" and data["status"] == "waiting" and data["next"] == ["review"]
    assert data["values"]["requested_amount"] == 500_000


def test_threshold_amount_settles_at_once(run_cli):
    data = json.loads(
        run_cli(
            "run", "refund", "--case", "C2", "--customer", "kim", "--amount", "100,000", "--reason", "r", "--json"
        ).out
    )
    assert data["status"] == "done" and data["values"]["outcome"] == "paid"


def test_resume_update_inspect_and_ledger(run_cli):
    run_cli(*START)
    asked = json.loads(run_cli("update", "refund-C1", "--values", '{"amount": 50000}', "--json").out)
    # The update brings the case straight back to the approver: it waits again.
    assert asked["status"] == "waiting" and asked["interrupts"][0]["amount"] == 50_000
    refused = run_cli("continue", "refund-C1")
    assert refused.code == 2 and "is waiting for an answer" in refused.err
    done = json.loads(run_cli("resume", "refund-C1", '{"action": "approve", "approver": "kim"}', "--json").out)
    assert done["values"]["outcome"] == "paid"
    assert "amount 500,000 → 50,000 by update_state" in done["values"]["trace"]
    inspect = json.loads(run_cli("inspect", "refund-C1", "--json").out)
    assert inspect["checkpoints"][-1]["values"]["paid_amount"] == 50_000


def test_resume_pays_and_a_second_resume_is_refused(run_cli, db_path):
    run_cli(*START)
    result = run_cli("resume", "refund-C1", '{"action": "edit", "amount": 50000, "approver": "kim"}', "--json")
    assert result.code == 0, result.err
    assert json.loads(result.out)["values"]["outcome"] == "paid"
    before = db_path.read_bytes()
    again = run_cli("resume", "refund-C1", '{"action": "approve", "approver": "lee"}')
    assert again.code == 2 and "not waiting" in again.err
    assert db_path.read_bytes() == before
    payouts = json.loads(run_cli("ledger", "--json").out)
    assert [(p["case_id"], p["requested_amount"], p["paid_amount"], p["approver"]) for p in payouts] == [
        ("C1", 500_000, 50_000, "kim")
    ]
    text = run_cli("ledger").out
    assert "requested 500,000\tpaid 50,000\tby kim" in text


def test_ledger_audit_lists_waiting_cases(run_cli):
    assert run_cli("ledger").out.strip() == "no payouts"
    run_cli(*START)
    audit = json.loads(run_cli("ledger", "--audit", "--json").out)
    assert [(a["case_id"], a["status"], a["executed_amount"]) for a in audit] == [("C1", "waiting", None)]
    assert audit[0]["waiting_amount"] == audit[0]["amount"] > 0  # its one amount waits for a decision, as the page says


@pytest.mark.parametrize(
    ("args", "field"),
    [
        (("run", "refund", "--case", "C9", "--customer", "kim", "--amount", "-5", "--reason", "r"), "amount"),
        (("run", "refund", "--case", "C9", "--customer", "kim", "--amount", "0", "--reason", "r"), "amount"),
        (("run", "refund", "--case", "C9", "--customer", "kim", "--amount", "1.5", "--reason", "r"), "amount"),
        (("run", "refund", "--case", "C9", "--customer", "kim", "--amount", "lots", "--reason", "r"), "amount"),
        (("run", "refund", "--case", "C9", "--customer", "kim", "--amount", "10000001", "--reason", "r"), "amount"),
        (("run", "refund", "--case", "C9", "--customer", "", "--amount", "5", "--reason", "r"), "customer"),
        (("run", "refund", "--case", "C9", "--amount", "5", "--reason", "r"), "customer"),
        (("run", "refund", "--case", "no spaces", "--customer", "k", "--amount", "5", "--reason", "r"), "case_id"),
        (START, "already exists"),
        (
            ("run", "refund", "--case", "C9", "--customer", "k", "--amount", "5", "--reason", "r")
            + ("--thread", "refund-C8"),
            "thread_id",
        ),
        (("resume", "refund-C1", '{"action": "refund everything", "approver": "kim"}'), "action"),
        (("resume", "refund-C1", '{"action": "edit", "approver": "kim"}'), "amount"),
        (("resume", "refund-C1", '{"action": "edit", "amount": -1, "approver": "kim"}'), "amount"),
        (("resume", "refund-C1", "approve"), "action"),
        (("update", "refund-C1", "--values", '{"amount": "abc"}'), "amount"),
        (("update", "refund-C1", "--values", '{"amount": 0}'), "amount"),
        (("update", "refund-C1", "--values", '{"decision": "maybe"}'), "decision"),
        (("update", "refund-C1", "--values", '{"requested_amount": 1}'), "requested_amount"),
    ],
)
def test_bad_input_exits_2_names_the_field_and_changes_nothing(run_cli, db_path, args, field):
    run_cli(*START)
    before = db_path.read_bytes()
    result = run_cli(*args)
    assert result.code == 2
    assert field in result.err
    assert db_path.read_bytes() == before


def test_an_edit_on_a_settled_case_is_refused(run_cli, db_path):
    run_cli(*START, "--answer", '{"action": "approve", "approver": "kim"}')
    before = db_path.read_bytes()
    result = run_cli("resume", "refund-C1", '{"action": "edit", "amount": 1000, "approver": "kim"}')
    assert result.code == 2 and "thread_id" in result.err and "not waiting" in result.err
    assert db_path.read_bytes() == before


def test_update_of_a_settled_case_is_refused_and_changes_nothing(run_cli, db_path):
    assert (
        run_cli("run", "refund", "--case", "S1", "--customer", "kim", "--amount", "50000", "--reason", "broken").code
        == 0
    )
    before = db_path.read_bytes()
    result = run_cli("update", "refund-S1", "--values", '{"amount": 10}')
    assert result.code == 2
    assert "amount" in result.err and "already paid" in result.err
    assert db_path.read_bytes() == before


def test_run_refuses_the_case_id_of_a_paid_case_whose_thread_was_deleted(run_cli, db_path):
    assert (
        run_cli("run", "refund", "--case", "P1", "--customer", "kim", "--amount", "50000", "--reason", "broken").code
        == 0
    )
    assert run_cli("delete", "refund-P1", "--yes").code == 0
    before = db_path.read_bytes()
    result = run_cli("run", "refund", "--case", "P1", "--customer", "kim", "--amount", "70000", "--reason", "again")
    assert result.code == 2 and "case_id" in result.err and "already paid" in result.err
    assert db_path.read_bytes() == before
