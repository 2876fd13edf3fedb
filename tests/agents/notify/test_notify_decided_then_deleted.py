"""A refund decided and then deleted between two scans is still told: its thread, status and history are gone,
but the record its deletion left (``agents.refund.deletions``) keeps its last wait and its outcome, so the next
scan mails its ``decided`` event, with the id a scan that saw it would have made; never a ``deleted`` one (it
was not deleted unfinished), and never twice.
"""

from __future__ import annotations

import json

import pytest

from agents.readmodel import checkpoint_time
from tests.agents.notify.conftest import body, subject

pytestmark = pytest.mark.usefixtures("backend")

START = ("run", "refund", "--case", "J1", "--customer", "Ann", "--amount", "900000", "--reason", "r")
REJECT = {"action": "reject", "approver": "park", "note": "fraud suspected"}
APPROVE = {"action": "approve", "approver": "kim"}


def mail_environment(monkeypatch, port: int) -> None:
    """What ``python -m agents notify`` reads from the environment: the test's SMTP server, local mode."""
    for name, value in {
        "HITL_NOTIFY_SMTP": f"smtp://127.0.0.1:{port}",
        "HITL_NOTIFY_FROM": "hitl@example.com",
        "HITL_NOTIFY_TO": "ops@example.com",
        "HITL_PUBLIC_URL": "https://dash.example.com",
    }.items():
        monkeypatch.setenv(name, value)
    monkeypatch.delenv("HITL_NOTIFY_WEBHOOK", raising=False)
    monkeypatch.delenv("HITL_ROLES_FILE", raising=False)


def last_wait(store, thread_id: str) -> str:
    """The ``waiting_since`` of the thread's last wait: the time of the last checkpoint it waited at."""
    with store.read() as cursor:
        waits = [row[1] for row in store.queries.interrupt_writes(cursor, [thread_id])]
    return checkpoint_time(max(waits)).isoformat()


def _once(run_cli) -> str:
    once = run_cli("notify", "--once")
    assert once.code == 0, once.err
    return once.out


def test_a_case_decided_and_deleted_between_two_scans_is_mailed_as_decided(run_cli, store, mailbox, monkeypatch):
    box, port = mailbox
    mail_environment(monkeypatch, port)
    assert _once(run_cli).startswith("recorded 0, sent 0")  # notifications on: the scans' place is kept from here
    assert run_cli(*START).code == 0
    assert run_cli("resume", "refund-J1", json.dumps(REJECT)).code == 0
    since = last_wait(store, "refund-J1")
    assert run_cli("delete", "refund-J1", "--yes").code == 0

    assert _once(run_cli).startswith("recorded 1, sent 1, failed 0")
    [(to, mail)] = box.wait_for(1)
    assert to == ["ops@example.com"]
    assert mail["Idempotency-Key"] == f"decided:refund-J1:{since}"
    assert subject(mail) == "[HITL] decided: Refund agent case J1 (Ann, 900,000 KRW)"
    assert body(mail).startswith("Decided (rejected): Refund agent case J1 (Ann, 900,000 KRW), after waiting ")
    assert _once(run_cli).startswith("recorded 0, sent 0")  # found again, told once
    assert len(box.mails) == 1


def test_a_wait_seen_live_then_decided_and_deleted_is_decided_under_its_own_episode(
    run_cli, store, mailbox, monkeypatch
):
    box, port = mailbox
    mail_environment(monkeypatch, port)
    _once(run_cli)
    assert run_cli(*START).code == 0
    assert _once(run_cli).startswith("recorded 1, sent 1")  # its wait, live
    assert run_cli("resume", "refund-J1", json.dumps(APPROVE)).code == 0
    since = last_wait(store, "refund-J1")
    assert run_cli("delete", "refund-J1", "--yes").code == 0

    assert _once(run_cli).startswith("recorded 1, sent 1")
    [(_to, waiting), (_to2, decided)] = box.wait_for(2)
    assert waiting["Idempotency-Key"] == f"waiting:refund-J1:{since}"
    assert decided["Idempotency-Key"] == f"decided:refund-J1:{since}"  # the same episode: its wait is over
    assert body(decided).startswith("Decided (paid): Refund agent case J1 (Ann, 900,000 KRW)")
    assert _once(run_cli).startswith("recorded 0, sent 0")


def test_a_decision_told_live_is_not_told_again_when_the_case_is_deleted(run_cli, mailbox, monkeypatch):
    box, port = mailbox
    mail_environment(monkeypatch, port)
    _once(run_cli)
    assert run_cli(*START).code == 0
    assert run_cli("resume", "refund-J1", json.dumps(REJECT)).code == 0
    assert _once(run_cli).startswith("recorded 2, sent 2")  # its wait and its decision, from the history
    assert run_cli("delete", "refund-J1", "--yes").code == 0
    assert _once(run_cli).startswith("recorded 0, sent 0")  # no "deleted": it was not deleted unfinished
    assert sorted(mail["Idempotency-Key"].split(":")[0] for _to, mail in box.wait_for(2)) == ["decided", "waiting"]
