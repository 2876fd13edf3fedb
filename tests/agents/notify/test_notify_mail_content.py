"""What a notification mail says, as a real SMTP server (aiosmtpd) receives it: in the order its events
happened, escalated only when the inbox says so, with the amount the case paid or has waiting, a ``Date``,
and in Korean without English words. The clock is a parameter (no test waits for a deadline).
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import json
from email.utils import parsedate_to_datetime

import pytest

from agents import lifecycle, queue_rights, runs
from agents.notify.deliverer import Deliverer
from agents.roles_file import parse_roles
from tests.agents.notify.conftest import PUBLIC_URL, body, mailing, since, subject
from tests.factories import pause_robot, start_refund

pytestmark = pytest.mark.usefixtures("backend")

HOUR = dt.timedelta(hours=1)
#: An approver and a senior approver: an overdue refund escalates to Park.
WITH_SENIOR = parse_roles(
    """
[users]
"kim@example.com" = { role = "approver", limit_krw = 1_000_000, name = "Kim" }
"park@example.com" = { role = "senior_approver", name = "Park" }
"""
)
#: Approvers only: an overdue refund has no one above them to escalate to.
APPROVERS_ONLY = parse_roles('[users]\n"kim@example.com" = { role = "approver", limit_krw = 1_000_000 }\n')
ITEMS = [{"item": "A-1", "amount": 300_000}, {"item": "A-2", "amount": 80_000}, {"item": "A-3", "amount": 200_000}]


def kinds(mails) -> list[str]:
    return [mail["Idempotency-Key"].split(":")[0] for _to, mail in mails]


def test_mails_go_out_in_the_order_their_events_happened_not_by_their_kind(store, settings, mailbox):
    box, port = mailbox
    settings = mailing(settings, port, roles=WITH_SENIOR, sla=(("refund", 3600),))
    start_refund(store, settings, "O1")
    # The first scan comes after the deadline: it finds the wait, its overdue and its escalation at once.
    Deliverer(store, settings, lambda: since(store, "refund-O1") + 2 * HOUR).run_once()
    assert kinds(box.wait_for(3)) == ["waiting", "overdue", "escalated"]

    # A wait begun and decided between two scans: both are found by one scan, the wait is told first.
    settings = mailing(settings, port)
    start_refund(store, settings, "O2")
    runs.resume_thread(store, settings, "refund-O2", {"action": "reject", "approver": "kim"})
    Deliverer(store, settings).run_once()
    mails = box.wait_for(5)
    assert kinds(mails[3:]) == ["waiting", "decided"]
    assert all("refund-O2" in mail["Idempotency-Key"] for _to, mail in mails[3:])


def test_an_overdue_case_escalates_only_when_the_inbox_names_whom_to(store, settings, mailbox, run_cli):
    box, port = mailbox
    settings = mailing(settings, port, sla=(("refund", 3600),))
    start_refund(store, settings, "N1")
    late = since(store, "refund-N1") + 2 * HOUR

    Deliverer(store, settings, lambda: late).run_once()  # no roles file: the local operator decides everything
    mails = box.wait_for(2)
    assert kinds(mails) == ["waiting", "overdue"]
    assert not any("Escalated" in body(mail) or "escalated" in subject(mail) for _to, mail in mails)
    [item] = json.loads(run_cli("inbox", "--json").out)
    assert item["thread_id"] == "refund-N1" and item["escalated_to"] is None

    # Approvers only: the inbox says it escalated to no one, so no escalation is mailed either.
    settings = dataclasses.replace(settings, roles=APPROVERS_ONLY)
    start_refund(store, settings, "N2")
    status = lifecycle.thread_status(store, "refund-N2")
    later = since(store, "refund-N2") + 2 * HOUR
    rights = queue_rights.rights_of(store, APPROVERS_ONLY, [status], settings.deadlines, later)
    assert rights["refund-N2"].escalated_to == () and rights["refund-N2"].escalation is not None
    Deliverer(store, settings, lambda: later).run_once()
    assert kinds(box.wait_for(4)[2:]) == ["waiting", "overdue"]

    settings = dataclasses.replace(settings, roles=WITH_SENIOR)  # a senior approver: both escalate now, to them
    Deliverer(store, settings, lambda: later).run_once()
    escalated = box.wait_for(6)[4:]
    assert kinds(escalated) == ["escalated", "escalated"] and all(to == ["park@example.com"] for to, _ in escalated)
    assert "Escalated to the senior approvers: Refund agent case N1" in body(escalated[0][1])
    assert "Escalated to the senior approvers: Refund agent case N2" in body(escalated[1][1])


@pytest.mark.parametrize(
    ("lang", "paid_of", "unit"),
    [
        ("en", "paid 200,000 KRW, requested 300,000 KRW", "300,000 KRW"),
        ("ko", "200,000원 지급, 요청 300,000원", "300,000원"),
    ],
)
def test_a_decided_mail_says_what_was_paid_beside_the_request(store, settings, mailbox, lang, paid_of, unit):
    box, port = mailbox
    settings = mailing(settings, port, lang=lang)
    start_refund(store, settings, "P1", 300_000)
    Deliverer(store, settings).run_once()
    runs.resume_thread(store, settings, "refund-P1", {"action": "edit", "amount": 200_000, "approver": "kim"})
    Deliverer(store, settings).run_once()
    [_waiting, (_to, decided)] = box.wait_for(2)
    assert kinds([(_to, decided)]) == ["decided"]
    assert paid_of in subject(decided) and paid_of in body(decided)
    assert f"홍길동, {unit})" not in body(decided)  # never the amount the wait asked for as the payout


@pytest.mark.parametrize(
    ("lang", "waiting"),
    [("en", "(kim, 500,000 KRW in 2 of 3 items waiting)"), ("ko", "(kim, 항목 3개 중 2개 대기, 500,000원)")],
)
def test_a_case_with_several_items_waiting_states_their_whole_amount_and_count(store, settings, mailbox, lang, waiting):
    box, port = mailbox
    settings = mailing(settings, port, lang=lang)
    values = {"case_id": "M1", "customer": "kim", "reason": "r", "items": ITEMS}
    assert runs.start_run(store, settings, "refund", values).status == "waiting"  # wait; A-2 is paid
    Deliverer(store, settings).run_once()
    [(_to, mail)] = box.wait_for(1)
    assert waiting in subject(mail) and waiting in body(mail)
    assert "300,000" not in body(mail)  # not the first item's amount, nor its question alone


def test_a_mail_is_dated_when_it_is_sent(store, settings, mailbox):
    box, port = mailbox
    settings = mailing(settings, port)
    start_refund(store, settings, "T1")
    sent_at = since(store, "refund-T1") + HOUR + dt.timedelta(seconds=7, microseconds=500)
    Deliverer(store, settings, lambda: sent_at).run_once()
    [(_to, mail)] = box.wait_for(1)
    assert parsedate_to_datetime(mail["Date"]) == sent_at.replace(microsecond=0)


def test_a_korean_mail_has_no_english_words(store, settings, mailbox):
    box, port = mailbox
    settings = mailing(settings, port, lang="ko")
    start_refund(store, settings, "K1", 500_000)
    pause_robot(store, settings, "robot-K2")
    Deliverer(store, settings).run_once()
    runs.delete_thread(store, "refund-K1", reason="중복 입력")
    runs.delete_thread(store, "robot-K2")  # no reason given
    Deliverer(store, settings).run_once()
    mails = {":".join(mail["Idempotency-Key"].split(":")[:2]): mail for _to, mail in box.wait_for(4)}
    waiting, deleted = mails["waiting:refund-K1"], mails["deleted:refund-K1"]
    assert subject(waiting) == "[HITL] 대기: 환불 에이전트 건 K1 (홍길동, 500,000원)"
    assert body(waiting).startswith("결정 대기: 환불 에이전트 건 K1 (홍길동, 500,000원), ")
    assert body(deleted).startswith(
        "완료 전 삭제됨 (대기 중): 환불 에이전트 건 K1 (홍길동, 500,000원), 삭제한 사람 로컬 운영자; 이유: 중복 입력."
    )
    robot = body(mails["deleted:robot-K2"])
    assert robot == (
        f"완료 전 삭제됨 (대기 중): 승인 로봇 스레드 robot-K2, 삭제한 사람 로컬 운영자."
        f" 삭제된 스레드: {PUBLIC_URL}/explorer?deleted=robot-K2\n"
    )
    for mail in mails.values():
        words = subject(mail) + body(mail)
        english = ("KRW", "refund 건", "robot 스레드", "local operator", "이유: .")
        assert not any(word in words for word in english)


def test_an_english_deletion_without_a_reason_says_none(store, settings, mailbox):
    box, port = mailbox
    settings = mailing(settings, port)
    pause_robot(store, settings, "robot-E1")
    Deliverer(store, settings).run_once()
    runs.delete_thread(store, "robot-E1")
    Deliverer(store, settings).run_once()
    [_waiting, (_to, deleted)] = box.wait_for(2)
    assert body(deleted).startswith("Deleted while waiting: Approval robot thread robot-E1, by the local operator. ")
    assert "reason" not in body(deleted)
