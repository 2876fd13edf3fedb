"""Any sequence of decisions by any people on one case: only an allowed one takes effect, a refused
one changes nothing, and what was paid was approved by someone with the right to approve it.

A property test (hypothesis): a case requested by one person, then up to five attempts (approve,
reject or edit) by people of every role, checked against a small model of the rules. Each example
runs on its own fresh database.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from agents import readmodel, runs
from agents.errors import InputError, NotWaitingError, PermissionDenied
from agents.identity import APPROVER, VIEWER, Identity
from agents.refund import ledger
from agents.roles_file import parse_roles
from agents.runtime import load_settings, open_store

ROLES = parse_roles(
    """
[users]
"kim@example.com" = { role = "approver", limit_krw = 1_000_000 }
"lee@example.com" = { role = "approver", limit_krw = 300_000 }
"park@example.com" = { role = "senior_approver" }
"admin@example.com" = { role = "admin" }
"""
)
PEOPLE = [ROLES.identity_for(email) for email in ("v@example.com", "kim@example.com", "lee@example.com")]
PEOPLE += [ROLES.identity_for("park@example.com"), ROLES.identity_for("admin@example.com")]
REQUESTERS = [person for person in PEOPLE if person.role != VIEWER]
pytestmark = pytest.mark.slow  # a graph run per attempt, on a fresh database per example
AMOUNTS = [150_000, 300_000, 1_000_000, 1_000_001, 3_000_000]


def may(person: Identity, action: str, pays: int, requester: Identity) -> bool:
    """The rules, restated plainly."""
    if person.role == VIEWER:
        return False
    if action == "reject":
        return True
    if person.email == requester.email:
        return False
    return person.role != APPROVER or pays <= (person.limit_krw or 0)


attempt = st.tuples(st.sampled_from(PEOPLE), st.sampled_from(["approve", "reject", "edit"]), st.sampled_from(AMOUNTS))


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    requester=st.sampled_from(REQUESTERS), requested=st.sampled_from(AMOUNTS), attempts=st.lists(attempt, max_size=5)
)
def test_only_allowed_decisions_take_effect(requester: Identity, requested: int, attempts: list) -> None:
    with tempfile.TemporaryDirectory() as folder:
        location = str(Path(folder) / "checkpoints.sqlite")
        store, config = open_store(location), load_settings(db_override=location, secrets={})
        try:
            values = {"case_id": "P1", "customer": "c", "amount": requested, "reason": "r"}
            runs.start_run(store, config, "refund", values, actor=requester)
            decided_by: Identity | None = None
            decision = ""
            for person, action, amount in attempts:
                pays = amount if action == "edit" else requested
                fields = {"action": action, "approver": "typed", **({"amount": amount} if action == "edit" else {})}
                head = readmodel.head_checkpoint_id(store, "refund-P1")
                try:
                    runs.resume_from_fields(store, config, "refund-P1", fields, agent="refund", actor=person)
                except NotWaitingError:
                    assert decided_by is not None
                    continue
                except InputError as error:
                    assert decided_by is None and action == "edit" and amount > requested, error
                    continue
                except PermissionDenied:
                    assert decided_by is None and not may(person, action, pays, requester)
                    assert readmodel.head_checkpoint_id(store, "refund-P1") == head
                    continue
                assert decided_by is None and may(person, action, pays, requester)
                decided_by, decision = person, action
            paid = ledger.payout_for(store, "P1")
            if decision in ("approve", "edit"):
                assert paid is not None and paid["approver"] == decided_by.email
                assert paid["approver"] != requester.email
            else:
                assert paid is None
            status = runs.current_result(store, config, "refund-P1").status
            assert status == ("waiting" if decided_by is None else "done")
        finally:
            store.close()
