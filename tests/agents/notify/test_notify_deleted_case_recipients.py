"""Whom the mail about a refund deleted unfinished goes to, and what it says, as a real SMTP server (aiosmtpd)
receives it: the people its waiting mails went to (who may decide at least one question it asked, never the
requester), whatever the case asked for together; and what still waited, in how many of its items, and what
it had paid by then, in English and Korean.
"""

from __future__ import annotations

import dataclasses
import json

import pytest

from agents import runs, threadindex
from agents.identity import Identity
from agents.notify.deliverer import Deliverer
from agents.roles_file import parse_roles
from tests.agents.notify.conftest import body, notifying, subject

pytestmark = pytest.mark.usefixtures("backend")

ROLES = parse_roles(
    """
[users]
"kim@example.com" = { role = "approver", limit_krw = 1_000_000, name = "Kim" }
"lee@example.com" = { role = "approver", limit_krw = 500_000, name = "Lee" }
"park@example.com" = { role = "senior_approver", name = "Park" }
"admin@example.com" = { role = "admin", name = "Admin" }
"""
)
LEE = ROLES.identity_for("lee@example.com", "Lee")
KIM = ROLES.identity_for("kim@example.com", "Kim")
ADMIN = ROLES.identity_for("admin@example.com", "Admin")
#: Who requests the case with items: no one of the roles file.
RITA = Identity(email="rita@example.com", name="Rita", role="approver", limit_krw=5_000_000)
EVERYONE = ["admin@example.com", "kim@example.com", "lee@example.com", "park@example.com"]
#: 1,030,000 KRW in all, above Kim's limit; each item above the threshold within Lee's.
ITEMS = [
    {"item": "A-1", "amount": 300_000},
    {"item": "A-2", "amount": 80_000},  # at or under the threshold: paid at once
    {"item": "A-3", "amount": 250_000},
    {"item": "A-4", "amount": 400_000},
]


def _mailing(settings, port: int, lang: str = "en"):
    mailed = notifying(settings, HITL_NOTIFY_SMTP=f"smtp://127.0.0.1:{port}", HITL_NOTIFY_FROM="hitl@example.com")
    return dataclasses.replace(mailed, roles=ROLES, lang=lang)


def _by_event(mails) -> dict[str, tuple[list[str], object]]:
    """``KIND:THREAD`` → (the recipients of its mail, the mail)."""
    return {":".join(mail["Idempotency-Key"].split(":")[:2]): (sorted(to), mail) for to, mail in mails}


def _start_items(store, settings) -> str:
    values = {"case_id": "C7", "customer": "홍길동", "reason": "파손", "items": ITEMS}
    return runs.start_run(store, settings, "refund", values, actor=RITA).thread_id


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("en", "(홍길동, 250,000 KRW in 1 of 4 items waiting, 430,000 KRW already paid)"),
        ("ko", "(홍길동, 항목 4개 중 1개 대기, 250,000원, 이미 430,000원 지급)"),
    ],
)
def test_a_deleted_case_with_items_is_told_to_whoever_its_waiting_mails_went_to(store, settings, mailbox, lang, said):
    box, port = mailbox
    settings = _mailing(settings, port, lang)
    thread = _start_items(store, settings)
    Deliverer(store, settings).run_once()
    (waiting_to, _waiting) = _by_event(box.wait_for(1))[f"waiting:{thread}"]
    assert waiting_to == EVERYONE  # Kim and Lee may each decide every item; Park and the admin any

    asked = {pending.payload["item"]: pending.interrupt_id for pending in threadindex.thread_of(store, thread).pending}
    edit = {"action": "edit", "amount": 350_000, "approver": "lee"}
    runs.resume_thread(store, settings, thread, edit, interrupt_id=asked["A-4"], actor=LEE)
    reject = {"action": "reject", "approver": "lee"}
    runs.resume_thread(store, settings, thread, reject, interrupt_id=asked["A-1"], actor=LEE)
    runs.delete_thread(store, thread, reason="고객 철회", actor=ADMIN)
    Deliverer(store, settings).run_once()

    deleted_to, deleted = _by_event(box.wait_for(2))[f"deleted:{thread}"]
    assert deleted_to == waiting_to  # not only those whose limit covers the whole request
    assert said in subject(deleted) and said in body(deleted)
    assert "1,030,000" not in body(deleted)


def test_a_deleted_single_amount_case_is_told_to_whoever_its_waiting_mail_went_to(store, settings, mailbox):
    box, port = mailbox
    settings = _mailing(settings, port)
    # 600,000 KRW, requested by Kim: Lee's limit does not cover it, and Kim may not approve their own request.
    values = {"case_id": "S6", "customer": "홍길동", "amount": 600_000, "reason": "r"}
    thread = runs.start_run(store, settings, "refund", values, actor=KIM).thread_id
    Deliverer(store, settings).run_once()
    (waiting_to, _waiting) = _by_event(box.wait_for(1))[f"waiting:{thread}"]
    assert waiting_to == ["admin@example.com", "park@example.com"]
    runs.delete_thread(store, thread, reason="entered twice", actor=ADMIN)
    Deliverer(store, settings).run_once()
    deleted_to, deleted = _by_event(box.wait_for(2))[f"deleted:{thread}"]
    assert deleted_to == waiting_to  # never the requester
    assert "Refund agent case S6 (홍길동, 600,000 KRW), by Admin; reason: entered twice" in body(deleted)


def test_the_deleted_event_keeps_what_waited_and_what_was_paid_in_its_webhook_fields(store, settings, receiver):
    settings = dataclasses.replace(notifying(settings, HITL_NOTIFY_WEBHOOK=receiver.url), roles=ROLES)
    thread = _start_items(store, settings)
    asked = {pending.payload["item"]: pending.interrupt_id for pending in threadindex.thread_of(store, thread).pending}
    runs.resume_thread(
        store, settings, thread, {"action": "approve", "approver": "lee"}, interrupt_id=asked["A-3"], actor=LEE
    )
    runs.delete_thread(store, thread, reason="dup", actor=ADMIN)
    Deliverer(store, settings).run_once()
    [deleted] = [item.body for item in receiver.wait_for(1) if item.body["event"] == "deleted"]
    figures = {
        key: deleted[key] for key in ("amount", "paid_amount", "requested_amount", "waiting_count", "item_count")
    }
    assert figures == {
        "amount": 700_000,  # still waited
        "paid_amount": 330_000,  # A-2 at once, A-3 by Lee
        "requested_amount": 1_030_000,
        "waiting_count": 2,
        "item_count": 4,
    }
    assert "questions" not in deleted and "requested_by" not in json.dumps(deleted)  # for choosing recipients only
