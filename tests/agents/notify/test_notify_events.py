"""Each event kind reaches a real webhook receiver and a real SMTP server, with what waits, for how long,
the amount and the link, once; the clock is a parameter (no test waits for a deadline to pass).
"""

from __future__ import annotations

import dataclasses
import datetime as dt

import pytest

from agents import runs
from agents.notify.deliverer import Deliverer
from agents.roles_file import parse_roles
from tests.agents.notify.conftest import PUBLIC_URL, notifying, since
from tests.factories import start_refund

pytestmark = pytest.mark.usefixtures("backend")

HOUR = dt.timedelta(hours=1)
ROLES = parse_roles(
    """
[users]
"kim@example.com" = { role = "approver", limit_krw = 1_000_000, name = "Kim" }
"lee@example.com" = { role = "approver", limit_krw = 1_000_000, name = "Lee" }
"low@example.com" = { role = "approver", limit_krw = 100_000, name = "Low" }
"park@example.com" = { role = "senior_approver", name = "Park" }
"viewer@example.com" = { role = "viewer" }
"""
)
LEE = ROLES.identity_for("lee@example.com", "Lee")


def clock_at(moment: dt.datetime):
    return lambda: moment


def test_every_event_kind_reaches_the_webhook_once_with_amount_age_and_link(store, settings, receiver):
    settings = dataclasses.replace(notifying(settings, HITL_NOTIFY_WEBHOOK=receiver.url), sla=(("refund", 86400),))
    start_refund(store, settings, "C1", 500_000)
    start = since(store, "refund-C1")

    Deliverer(store, settings, clock_at(start + HOUR + dt.timedelta(minutes=20))).run_once()
    [waiting] = receiver.wait_for(1)
    assert waiting.body["event"] == "waiting" and waiting.key == waiting.body["event_id"]
    assert waiting.key == f"waiting:refund-C1:{start.isoformat()}"
    text = waiting.body["text"]
    assert "Refund agent case C1 (홍길동, 500,000 KRW)" in text and "waiting 1 h 20 min" in text
    assert f"{PUBLIC_URL}/refund?thread=refund-C1" in text and waiting.body["link"] in text
    assert waiting.body["amount"] == 500_000 and waiting.body["waited_seconds"] == 4800
    assert waiting.headers["Content-Type"].startswith("application/json")

    Deliverer(store, settings, clock_at(start + 25 * HOUR)).run_once()  # past the 24 h deadline
    received = receiver.wait_for(2)
    by_kind = {item.body["event"]: item for item in received}
    # No roles file: no senior approvers, so nothing escalates (test_an_overdue_case_escalates_only_...).
    assert set(by_kind) == {"waiting", "overdue"} and len(received) == 2
    assert "has waited 1 d 1 h, past its 1 d 0 h deadline" in by_kind["overdue"].body["text"]

    runs.resume_thread(store, settings, "refund-C1", {"action": "approve", "approver": "kim"})
    start_refund(store, settings, "D1", 300_000)
    runs.delete_thread(store, "refund-D1", reason="entered twice")
    Deliverer(store, settings, clock_at(start + 26 * HOUR)).run_once()
    received = receiver.wait_for(4)
    by_kind = {item.body["event"]: item for item in received}
    assert "Decided (paid): Refund agent case C1 (홍길동, 500,000 KRW)" in by_kind["decided"].body["text"]
    deleted = by_kind["deleted"].body
    assert (
        "Deleted while waiting: Refund agent case D1 (홍길동, 300,000 KRW), by the local operator;"
        " reason: entered twice" in (deleted["text"])
    )
    assert deleted["link"] == f"{PUBLIC_URL}/explorer?deleted=refund-D1" and deleted["reason"] == "entered twice"

    Deliverer(store, settings, clock_at(start + 27 * HOUR)).run_once()  # nothing new: each event once
    assert len(receiver.received) == 4 and len(receiver.keys()) == 4
    assert all("T0SECRET" not in str(item.body) for item in receiver.received)


def test_messages_are_in_korean_when_the_language_is_korean(store, settings, receiver):
    settings = dataclasses.replace(notifying(settings, HITL_NOTIFY_WEBHOOK=receiver.url), lang="ko")
    start_refund(store, settings, "K1", 500_000)
    Deliverer(store, settings, clock_at(since(store, "refund-K1") + 3 * HOUR)).run_once()
    [waiting] = receiver.wait_for(1)
    assert waiting.body["text"].startswith("결정 대기: 환불 에이전트 건 K1 (홍길동, 500,000원), 3시간 0분째 대기.")
    assert "환불 K1 (홍길동): 500,000원을 지급할까요?" in waiting.body["text"]  # the question in Korean too
    assert "열기: https://dash.example.com/refund?thread=refund-K1" in waiting.body["text"]


def test_mail_goes_to_the_approvers_who_may_decide_and_escalation_to_the_senior_ones(store, settings, mailbox):
    box, port = mailbox
    settings = notifying(settings, HITL_NOTIFY_SMTP=f"smtp://127.0.0.1:{port}", HITL_NOTIFY_FROM="hitl@example.com")
    settings = dataclasses.replace(settings, roles=ROLES, sla=(("refund", 3600),))
    runs.start_run(
        store, settings, "refund", {"case_id": "M1", "customer": "Ann", "amount": 500_000, "reason": "r"}, actor=LEE
    )
    start = since(store, "refund-M1")
    Deliverer(store, settings, clock_at(start + 2 * HOUR)).run_once()
    mails = box.wait_for(3)
    by_kind = {mail["Subject"].split(":")[0].removeprefix("[HITL] "): (to, mail) for to, mail in mails}
    to, waiting = by_kind["waiting"]
    # Lee requested it (four eyes), Low's limit is below it, a viewer decides nothing.
    assert sorted(to) == ["kim@example.com", "park@example.com"]
    assert waiting["Subject"] == "[HITL] waiting: Refund agent case M1 (Ann, 500,000 KRW)"
    assert waiting["From"] == "hitl@example.com" and waiting["Idempotency-Key"].startswith("waiting:refund-M1:")
    body = waiting.get_payload(decode=True).decode()
    assert "waiting 2 h 0 min" in body and f"{PUBLIC_URL}/refund?thread=refund-M1" in body
    assert by_kind["escalated"][0] == ["park@example.com"]
    assert sorted(by_kind["overdue"][0]) == ["kim@example.com", "park@example.com"]
    assert len(mails) == 3


def test_local_mode_mails_go_to_hitl_notify_to(store, settings, mailbox):
    box, port = mailbox
    settings = notifying(
        settings,
        HITL_NOTIFY_SMTP=f"smtp://127.0.0.1:{port}",
        HITL_NOTIFY_FROM="hitl@example.com",
        HITL_NOTIFY_TO="ops@example.com, desk@example.com",
    )
    start_refund(store, settings, "L1", 500_000)
    Deliverer(store, settings, clock_at(since(store, "refund-L1") + HOUR)).run_once()
    [(to, mail)] = box.wait_for(1)
    assert to == ["ops@example.com", "desk@example.com"] and "500,000 KRW" in mail.get_payload(decode=True).decode()
