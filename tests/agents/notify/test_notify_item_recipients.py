"""Whom a mail about a refund with several items goes to, as a real SMTP server (aiosmtpd) receives it: the
people who may decide at least one waiting item (each item's amount within their limit, never the requester),
the same people the inbox names, never chosen by what the items ask for together. The clock is a parameter.
"""

from __future__ import annotations

import dataclasses
import datetime as dt

import pytest

from agents import lifecycle, queue_rights, runs
from agents.identity import Identity
from agents.notify.deliverer import Deliverer
from agents.roles_file import parse_roles
from tests.agents.notify.conftest import notifying

pytestmark = pytest.mark.usefixtures("backend")

HOUR = dt.timedelta(hours=1)
ROLES = parse_roles(
    """
[users]
"viewer@example.com" = { role = "viewer" }
"kim@example.com" = { role = "approver", limit_krw = 1_000_000, name = "Kim" }
"lee@example.com" = { role = "approver", limit_krw = 500_000, name = "Lee" }
"park@example.com" = { role = "senior_approver", name = "Park" }
"admin@example.com" = { role = "admin", name = "Admin" }
"""
)
PARK = ROLES.identity_for("park@example.com", "Park")
RITA = Identity(email="rita@example.com", name="Rita", role="approver", limit_krw=5_000_000)


def _mailing(settings, port: int):
    mailed = notifying(settings, HITL_NOTIFY_SMTP=f"smtp://127.0.0.1:{port}", HITL_NOTIFY_FROM="hitl@example.com")
    return dataclasses.replace(mailed, roles=ROLES, sla=(("refund", 3600),))


def _start(store, settings, case: str, amounts: list[int], actor: Identity) -> str:
    items = [{"item": f"{case}-{index}", "amount": amount} for index, amount in enumerate(amounts, 1)]
    values = {"case_id": case, "customer": "c", "reason": "r", "items": items}
    return runs.start_run(store, settings, "refund", values, actor=actor).thread_id


def _by_event(mails) -> dict[str, list[str]]:
    """``KIND:THREAD`` → the recipients of its mail."""
    return {":".join(mail["Idempotency-Key"].split(":")[:2]): sorted(to) for to, mail in mails}


def test_mails_go_to_whoever_may_decide_a_waiting_item_as_the_inbox_names_them(store, settings, mailbox):
    box, port = mailbox
    settings = _mailing(settings, port)
    # 1,200,000 in all, 600,000 each: Kim may decide each; Park requested it.
    big = _start(store, settings, "C08", [600_000, 600_000], PARK)
    # 600,000 in all, 300,000 each: Lee may decide each.
    small = _start(store, settings, "C10", [300_000, 300_000], RITA)
    statuses = {status.thread_id: status for status in lifecycle.inbox(store)}
    late = max(status.waiting_since for status in statuses.values()) + 2 * HOUR
    Deliverer(store, settings, lambda: late).run_once()
    first = box.wait_for(6)
    assert len(first) == 6
    sent = _by_event(first)
    assert sent[f"waiting:{big}"] == ["admin@example.com", "kim@example.com"]
    assert sent[f"overdue:{big}"] == ["admin@example.com", "kim@example.com"]
    assert sent[f"escalated:{big}"] == ["admin@example.com"]  # no senior approver but the requester
    everyone = ["admin@example.com", "kim@example.com", "lee@example.com", "park@example.com"]
    assert sent[f"waiting:{small}"] == everyone
    assert sent[f"escalated:{small}"] == ["park@example.com"]
    # The same people as the inbox names for each case.
    rights = queue_rights.rights_of(store, ROLES, list(statuses.values()), settings.deadlines, late)
    assert sorted(p.email for p in rights[big].deciders) == sent[f"waiting:{big}"]
    assert sorted(p.email for p in rights[small].deciders) == sent[f"waiting:{small}"]

    # Decided: told to the same people the wait was told to (each item's, not what the case paid in all).
    runs.resume_thread(store, settings, small, {"action": "approve", "approver": "park"}, every=True, actor=PARK)
    Deliverer(store, settings, lambda: late + HOUR).run_once()
    mails = box.wait_for(7)
    assert len(mails) == 7
    decided = _by_event(mails)
    assert decided[f"decided:{small}"] == everyone
