"""A notification that cannot be made or sent fails alone: its row is tried again after its backoff and shown
by ``notify --status``, and every other row is sent. A mail's headers are one line each whatever a thread's
facts hold (a name with U+2028 written by LangGraph's own tooling, or before one-line fields refused it),
and a thread id beyond ASCII reaches the webhook with its ``Idempotency-Key`` percent-encoded.
"""

from __future__ import annotations

import datetime as dt
import urllib.parse

import pytest

from agents.notify import outbox
from agents.notify.deliverer import Deliverer
from agents.notify.outbox import Event
from agents.refund.graph import build_graph
from agents.refund.spec import make_input
from agents.validation import LINE_BREAKS
from tests.agents.notify.conftest import mailing, notifying, subject
from tests.factories import pause_robot, start_refund

pytestmark = pytest.mark.usefixtures("backend")

NAME = "Kim{}Bcc: x@evil.example"


def _started_by_langgraph_tooling(store, case_id: str, customer: str) -> None:
    """A refund whose customer no validator read: its graph run as ``langgraph dev`` runs it."""
    graph = build_graph(store.saver, store=store)
    config = {"configurable": {"thread_id": f"refund-{case_id}", "checkpoint_ns": ""}, "metadata": {"agent": "refund"}}
    graph.invoke(make_input({"case_id": case_id, "customer": customer, "amount": 300_000, "reason": "r"}), config)


def test_a_name_with_any_line_break_is_mailed_in_a_one_line_subject_and_later_threads_are_mailed_too(
    store, settings, mailbox
):
    box, port = mailbox
    settings = mailing(settings, port)
    breaks = sorted(LINE_BREAKS)
    for number, char in enumerate(breaks):
        _started_by_langgraph_tooling(store, f"C{number}", NAME.format(char))
    pause_robot(store, settings, "robot-after")

    report = Deliverer(store, settings).run_once()
    assert (report.sent, report.failed) == (len(breaks) + 1, 0)
    mails = box.wait_for(len(breaks) + 1)
    for to, mail in mails:
        assert to == ["ops@example.com"] and mail["Bcc"] is None  # no header grew out of the name
    subjects = sorted(subject(mail) for _to, mail in mails)
    for number in range(len(breaks)):
        assert f"[HITL] waiting: Refund agent case C{number} (Kim Bcc: x@evil.example, 300,000 KRW)" in subjects
    assert any("robot-after" in mail["Idempotency-Key"] for _to, mail in mails)


def test_a_message_that_cannot_be_made_fails_its_row_alone_and_is_tried_again(
    store, settings, mailbox, run_cli, monkeypatch
):
    box, port = mailbox
    settings = mailing(settings, port)
    at = dt.datetime(2026, 5, 1, 9, tzinfo=dt.UTC)
    # A fact stored damaged (its deadline not a number): the overdue message cannot be written.
    damaged = Event("overdue", "refund-D1", "refund", at.isoformat(), at.timestamp(), {"deadline_seconds": "soon"})
    later = Event("waiting", "refund-D2", "refund", at.isoformat(), at.timestamp() + 60, {"case_id": "D2"})
    outbox.record(store, [damaged, later], ["email"], at.timestamp())

    first = Deliverer(store, settings, lambda: at + dt.timedelta(minutes=2)).deliver_due()
    assert first == (1, 1, 0)
    [(_to, mail)] = box.wait_for(1)
    assert mail["Idempotency-Key"] == later.event_id
    [(event_id, channel, attempts, error, _next)] = outbox.status(store).failing
    assert (event_id, channel, attempts) == (damaged.event_id, "email", 1)
    assert error == "the email message could not be made or sent: ValueError: could not convert string to float: 'soon'"

    for name, value in (("SMTP", f"smtp://127.0.0.1:{port}"), ("FROM", "hitl@example.com"), ("TO", "ops@example.com")):
        monkeypatch.setenv(f"HITL_NOTIFY_{name}", value)
    shown = run_cli("notify", "--status")
    assert shown.code == 3 and "failing 1" in shown.out and "ValueError" in shown.out

    # Tried again after its backoff (10 s after the first failure), as a failed send is.
    retry = Deliverer(store, settings, lambda: at + dt.timedelta(minutes=2, seconds=10))
    assert retry.deliver_due() == (0, 1, 0)
    assert outbox.status(store).failing[0][2] == 2


def test_a_thread_id_beyond_ascii_reaches_the_webhook_with_a_percent_encoded_key(store, settings, receiver):
    settings = notifying(settings, HITL_NOTIFY_WEBHOOK=receiver.url)
    start_refund(store, settings, "건-1042")
    start_refund(store, settings, "C2")

    assert Deliverer(store, settings).run_once().sent == 2
    received = {item.body["thread_id"]: item for item in receiver.wait_for(2)}
    korean = received["refund-건-1042"]
    assert korean.key.startswith("waiting:refund-%EA%B1%B4-1042:") and korean.key.isascii()
    assert urllib.parse.unquote(korean.key) == korean.body["event_id"]
    assert received["refund-C2"].key == received["refund-C2"].body["event_id"]  # an ASCII id as it is
