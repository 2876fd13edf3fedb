"""A decision reads its thread's state (LangGraph's ``get_state``) once before it runs: the check before
the thread's lease reads it, and the check under the lease keeps that read while the thread's change
mark says nothing changed in between. Counted on the page's button, the CLI's ``resume`` and the API's
resume; a thread changed between the two checks is read again. After a run that ended the thread, its
result and the lifecycle's status of the head both take the state from the run's last ``values`` event
(the head's state as the run saved it): one read per decision. A run that leaves questions waiting
reads the state once more, for its result (what runs next and which questions wait, by id, are
LangGraph's view of the head after the run), and its status reads none (a waiting head's questions
are in the read model). A batch (``decide``) reads each case's state once for the items of the case
it answers in one run, when that run ends the case."""

from __future__ import annotations

import dataclasses
import sys
from collections.abc import Callable
from typing import Any

import pytest
from fastapi.testclient import TestClient
from langgraph.pregel import Pregel

from agents import leases, runs, runtime
from agents.api.app import create_app
from agents.errors import NotWaitingError
from agents.refund import ledger
from agents.roles_file import parse_roles
from tests.api.test_api_refund_items import ROLES_TEXT, as_
from tests.factories import button_by_key, start_refund

APPROVE = {"action": "approve", "approver": "kim"}
DECISION_PATH = "agents/runs/resume.py"


@pytest.fixture
def reads(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The threads whose state a decision read (``get_state`` called from the one path every answer takes)."""
    found: list[str] = []
    original: Callable[..., Any] = Pregel.get_state

    def get_state(self: Any, config: Any, *args: Any, **kwargs: Any) -> Any:
        frame = sys._getframe(1)
        while frame is not None:  # counted when the decision path asked, not the page drawing the result
            if frame.f_code.co_filename.endswith(DECISION_PATH):
                found.append(config["configurable"]["thread_id"])
                break
            frame = frame.f_back
        return original(self, config, *args, **kwargs)

    monkeypatch.setattr(Pregel, "get_state", get_state)
    return found


def test_the_page_button_reads_the_state_once_before_the_run(app, store, settings, reads):
    thread = start_refund(store, settings).thread_id
    at = app("app_pages/refund.py")
    at.text_input(key="refund-approver").input("kim")
    reads.clear()
    button_by_key(at, "refund-approve").click().run()
    assert not at.exception, at.exception
    assert ledger.payout_for(store, "C1") is not None
    assert reads == [thread]  # the checks (before the lease, kept under it); nothing after the run


def test_the_cli_resume_reads_the_state_once_before_the_run(run_cli, store, settings, reads):
    thread = start_refund(store, settings).thread_id
    reads.clear()
    assert run_cli("resume", thread, '{"action": "approve", "approver": "kim"}').code == 0
    assert reads == [thread]
    assert ledger.payout_for(store, "C1") is not None


def test_the_api_resume_reads_the_state_once_before_the_run(store, settings, reads):
    thread = start_refund(store, settings).thread_id
    with_roles = dataclasses.replace(settings, roles=parse_roles(ROLES_TEXT, "roles.toml"))
    with TestClient(create_app(store, with_roles)) as api:
        reads.clear()
        body = {"assistant_id": "refund", "command": {"resume": APPROVE}}
        assert api.post(f"/threads/{thread}/runs/wait", json=body, headers=as_("lee")).status_code == 200
    assert reads == [thread]
    assert ledger.payout_for(store, "C1") is not None


def test_a_thread_changed_before_the_lease_is_read_again_under_it(store, settings, reads, monkeypatch):
    """The read kept from before the lease would still show the question; the thread no longer asks it."""
    thread = start_refund(store, settings).thread_id
    taken = leases.thread_lease

    def lease_after_a_change(*args: Any, **kwargs: Any) -> Any:
        # Another program updates the case between the check before the lease and the lease: ``assess``
        # wrote last, so ``review`` runs next and asks afresh; nothing waits for an answer now.
        runtime.graph(store, "refund").update_state({"configurable": {"thread_id": thread}}, {"trace": ["seen"]})
        return taken(*args, **kwargs)

    monkeypatch.setattr(leases, "thread_lease", lease_after_a_change)
    reads.clear()
    with pytest.raises(NotWaitingError):
        runs.resume_thread(store, settings, thread, dict(APPROVE))
    assert reads == [thread, thread]  # before the lease, and again under it: the thread had changed
    assert ledger.payout_for(store, "C1") is None


ITEMS = [{"item": "A-1", "amount": 300_000}, {"item": "A-2", "amount": 200_000}]


@pytest.mark.usefixtures("backend")
@pytest.mark.parametrize("action", ["approve", "reject"])
def test_a_decision_reads_the_state_once_and_its_result_is_what_a_fresh_read_gives(store, settings, reads, action):
    """Ending the thread (one amount, then every item at once): one read each; leaving an item waiting: two."""
    answer = {**APPROVE, "action": action}
    thread = start_refund(store, settings).thread_id
    multi = runs.start_run(store, settings, "refund", {"case_id": "M1", "customer": "k", "reason": "r", "items": ITEMS})
    partly = runs.start_run(
        store, settings, "refund", {"case_id": "M2", "customer": "k", "reason": "r", "items": ITEMS}
    )
    first = next(
        str(i.id)
        for i in runs.thread_snapshot(store, settings, partly.thread_id)[1].interrupts
        if i.value["item"] == "A-1"
    )
    for name, decide in (
        (thread, lambda: runs.resume_thread(store, settings, thread, dict(answer))),
        (multi.thread_id, lambda: runs.resume_thread(store, settings, multi.thread_id, dict(answer), every=True)),
        (partly.thread_id, lambda: runs.resume_thread(store, settings, partly.thread_id, answer, interrupt_id=first)),
    ):
        reads.clear()
        result = decide()
        assert reads == [name] * (2 if name == partly.thread_id else 1)
        assert result == runs.current_result(store, settings, name)
        assert (result.status, len(result.interrupts)) == (("waiting", 1) if name == partly.thread_id else ("done", 0))


@pytest.mark.usefixtures("backend")
def test_a_batch_that_ends_its_cases_reads_each_cases_state_once(run_cli, store, settings, reads):
    """``decide``: each case's status, read under its lease once its run ended it, takes the run's state."""
    one = start_refund(store, settings).thread_id
    multi = runs.start_run(store, settings, "refund", {"case_id": "M1", "customer": "k", "reason": "r", "items": ITEMS})
    items = [f"{multi.thread_id}:{interrupt}" for interrupt in multi.interrupt_ids]
    reads.clear()
    found = run_cli("decide", one, *items, "--action", "approve", "--approver", "kim", "--json")
    assert found.code == 0, found.out
    assert sorted(reads) == sorted([one, multi.thread_id])  # each case's check; nothing after its run
    assert ledger.payout_for(store, "C1") is not None
