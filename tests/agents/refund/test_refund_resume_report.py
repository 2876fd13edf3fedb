"""What a single decision reports is what its own run did, read under the thread's lease.

(The lecture API's ``/resume``, which reports a status too, is tried here beside the refund paths.)

Another process may take a thread the moment a decision lets go of its lease (a batch deciding the case's
other items, a program updating it): the CLI's ``resume`` (one question, ``--interrupt``, ``--all``), the
API's resume and the refund page's message after its own decision still report the thread as the
decision's run left it (``done``, or ``waiting`` with the questions it left), never that process's
``running`` nor what it changed afterwards. Every such path answers through ``runs.resume_interrupts``,
which reads its result before the lease is let go.
"""

from __future__ import annotations

import dataclasses
import json
import time
from typing import Any

import pytest
from fastapi.testclient import TestClient

from agents import leases, runs, runtime
from agents.api.app import create_app
from agents.lecture.inputs import DEFAULT_LECTURE_INPUT
from agents.refund import item_ledger, ledger
from agents.roles_file import parse_roles
from tests.api.test_api_refund_items import ROLES_TEXT, as_
from tests.factories import button_by_key, start_refund

pytestmark = pytest.mark.usefixtures("backend")

APPROVE_LEE = {"action": "approve", "approver": "lee"}
ITEMS = [{"item": "A-1", "amount": 300_000}, {"item": "A-2", "amount": 200_000}, {"item": "A-3", "amount": 150_000}]
#: What the other process writes to a thread it takes.
TAKEN = "changed by another process"


def start_cases(store: Any, settings: Any) -> dict[str, str]:
    """A case of one amount (refund-S1) and one of three items (refund-M1); M1's interrupt id by item."""
    runs.start_run(store, settings, "refund", {"case_id": "S1", "customer": "k", "amount": 500_000, "reason": "r"})
    runs.start_run(store, settings, "refund", {"case_id": "M1", "customer": "k", "reason": "r", "items": ITEMS})
    return {i.value["item"]: str(i.id) for i in runs.thread_snapshot(store, settings, "refund-M1")[1].interrupts}


def another_process_takes_each_thread_let_go(monkeypatch: pytest.MonkeyPatch, *, change: bool = True) -> None:
    """From now on, the moment this process lets go of a thread's lease, another live process holds its
    lease, having changed a refund thread (``change``: an ``update_state``, as a program may)."""
    release = leases._release

    def release_then_another_process_takes_it(held: Any, thread_id: str, owner: str) -> None:
        release(held, thread_id, owner)
        if change:
            config = {"configurable": {"thread_id": thread_id}}
            runtime.graph(held, "refund").update_state(config, {"trace": [TAKEN]})
        with held.transaction() as cursor:  # PID 1 is alive and started before this lease: a live process
            cursor.execute(
                "INSERT INTO thread_leases (thread_id, owner, host, pid, acquired_at) VALUES (?, 'other', ?, 1, ?)",
                (thread_id, leases.HOST, time.time()),
            )

    monkeypatch.setattr(leases, "_release", release_then_another_process_takes_it)


def taken_by_the_other_process(store: Any) -> set[str]:
    """The threads the other process holds, each changed by it."""
    changed = {
        thread_id
        for thread_id in leases.live_leases(store)
        if TAKEN in runtime.graph(store, "refund").get_state({"configurable": {"thread_id": thread_id}}).values["trace"]
    }
    assert changed == leases.live_leases(store)
    return changed


def test_the_cli_resume_of_a_case_reports_it_done_as_its_run_left_it(run_cli, store, settings, monkeypatch):
    start_cases(store, settings)
    another_process_takes_each_thread_let_go(monkeypatch)
    found = run_cli("resume", "refund-S1", json.dumps(APPROVE_LEE), "--json")
    assert found.code == 0, found.err
    result = json.loads(found.out)
    assert (result["status"], result["outcome"], result["interrupts"]) == ("done", "paid", []), result
    assert TAKEN not in result["values"]["trace"]
    assert taken_by_the_other_process(store) == {"refund-S1"}  # the other process holds it now, and changed it
    assert ledger.payout_for(store, "S1") is not None


def test_the_cli_resume_of_one_item_reports_the_items_its_run_left_waiting(run_cli, store, settings, monkeypatch):
    ids = start_cases(store, settings)
    another_process_takes_each_thread_let_go(monkeypatch)
    found = run_cli("resume", "refund-M1", json.dumps(APPROVE_LEE), "--interrupt", ids["A-1"], "--json")
    assert found.code == 0, found.err
    result = json.loads(found.out)
    assert result["status"] == "waiting", result
    assert [q["item"] for q in result["interrupts"]] == ["A-2", "A-3"]
    assert result["interrupt_ids"] == [ids["A-2"], ids["A-3"]]
    assert TAKEN not in result["values"]["trace"]
    assert taken_by_the_other_process(store) == {"refund-M1"}
    assert [r["item"] for r in item_ledger.item_payouts(store, "M1")] == ["A-1"]


def test_the_cli_resume_of_every_item_reports_the_case_done(run_cli, store, settings, monkeypatch):
    start_cases(store, settings)
    another_process_takes_each_thread_let_go(monkeypatch)
    found = run_cli("resume", "refund-M1", json.dumps(APPROVE_LEE), "--all", "--json")
    assert found.code == 0, found.err
    result = json.loads(found.out)
    assert (result["status"], result["outcome"], result["interrupts"]) == ("done", "paid", []), result
    assert TAKEN not in result["values"]["trace"]
    assert taken_by_the_other_process(store) == {"refund-M1"}
    assert sorted(r["item"] for r in item_ledger.item_payouts(store, "M1")) == ["A-1", "A-2", "A-3"]


def test_the_api_resume_answers_the_thread_as_its_run_left_it(store, settings, monkeypatch):
    """``runs.wait`` with ``command.resume``: the case's values and the questions the run left waiting (one
    item answered by id), then a case paid; not what the other process changed once it took the thread."""
    ids = start_cases(store, settings)
    with_roles = dataclasses.replace(settings, roles=parse_roles(ROLES_TEXT, "roles.toml"))
    with TestClient(create_app(store, with_roles)) as api:
        another_process_takes_each_thread_let_go(monkeypatch)
        one_item = {"assistant_id": "refund", "command": {"resume": {ids["A-1"]: APPROVE_LEE}}}
        found = api.post("/threads/refund-M1/runs/wait", json=one_item, headers=as_("lee"))
        assert found.status_code == 200, found.text
        values = found.json()
        assert [q["id"] for q in values["__interrupt__"]] == [ids["A-2"], ids["A-3"]]
        assert all(q["response_schema"] for q in values["__interrupt__"])
        assert TAKEN not in values["trace"]
        case = {"assistant_id": "refund", "command": {"resume": APPROVE_LEE}}
        found = api.post("/threads/refund-S1/runs/wait", json=case, headers=as_("lee"))
        assert found.status_code == 200, found.text
        values = found.json()
        assert "__interrupt__" not in values and TAKEN not in values["trace"], values
        assert (values["decision"], values["outcome"]) == ("approve", "paid")
    assert taken_by_the_other_process(store) == {"refund-M1", "refund-S1"}
    assert ledger.payout_for(store, "S1") is not None
    assert [r["item"] for r in item_ledger.item_payouts(store, "M1")] == ["A-1"]


def test_the_page_reports_its_decision_as_its_run_left_the_case(app, store, settings, monkeypatch):
    """The refund page's case panel: the message after its own decision says paid, not running."""
    thread = start_refund(store, settings).thread_id
    at = app("app_pages/refund.py")
    at.text_input(key="refund-approver").input("kim")
    another_process_takes_each_thread_let_go(monkeypatch)
    button_by_key(at, "refund-approve").click().run()
    assert not at.exception, at.exception
    assert [shown.value for shown in at.success] == ["Case C1: approve by kim → done · paid."]
    assert taken_by_the_other_process(store) == {thread}  # the panel drawn after it shows the case running now
    assert ledger.payout_for(store, "C1") is not None


def test_the_lecture_api_resume_reports_the_plan_saved_not_running(store, settings, monkeypatch):
    """The lecture planner's ``POST /resume`` answers the status its decision left (``completed``)."""
    with TestClient(create_app(store, settings), base_url="http://127.0.0.1") as api:
        waiting = api.post("/generate", json=dict(DEFAULT_LECTURE_INPUT)).json()
        assert waiting.get("status") == "waiting_for_human", waiting
        another_process_takes_each_thread_let_go(monkeypatch, change=False)
        found = api.post("/resume", json={"thread_id": waiting["thread_id"], "decision": "save"})
    assert found.status_code == 200, found.text
    assert found.json()["status"] == "completed", found.json()
    assert leases.live_leases(store) == {waiting["thread_id"]}
