"""A mail about a refund case with items says how many of them wait whenever the thread's status does
(``agents.threadstatus.says_count``, the rule of the pages and the CLI): when one item of several is left
waiting too ("1 of 3 items"), not only when several wait; as a real SMTP server (aiosmtpd) receives it, in
English and Korean."""

from __future__ import annotations

import datetime as dt

import pytest

from agents import lifecycle, runs, threadindex
from agents.notify.deliverer import Deliverer
from tests.agents.notify.conftest import body, mailing, subject
from tests.agents.notify.test_notify_mail_content import ITEMS, kinds

pytestmark = pytest.mark.usefixtures("backend")

HOUR = dt.timedelta(hours=1)


@pytest.mark.parametrize(
    ("lang", "two", "one"),
    [
        ("en", "(kim, 500,000 KRW in 2 of 3 items waiting)", "(kim, 200,000 KRW in 1 of 3 items waiting)"),
        ("ko", "(kim, 항목 3개 중 2개 대기, 500,000원)", "(kim, 항목 3개 중 1개 대기, 200,000원)"),
    ],
)
def test_a_mail_about_the_last_item_of_several_waiting_says_one_of_them_waits(store, settings, mailbox, lang, two, one):
    box, port = mailbox
    settings = mailing(settings, port, lang=lang, sla=(("refund", 3600),))
    values = {"case_id": "L1", "customer": "kim", "reason": "r", "items": ITEMS}
    thread = runs.start_run(store, settings, "refund", values).thread_id  # wait; A-2 is paid
    Deliverer(store, settings).run_once()
    asked = {pending.payload["item"]: pending.interrupt_id for pending in threadindex.thread_of(store, thread).pending}
    runs.resume_thread(store, settings, thread, {"action": "approve", "approver": "kim"}, interrupt_id=asked["A-1"])
    status = lifecycle.thread_status(store, thread)
    assert status is not None and status.state_words() == "waiting (1 of 3 items)"  # as the CLI and pages say it
    assert status.waiting_since is not None
    # The same wait goes on (the case waits since it started): past its deadline, A-3 alone is left.
    Deliverer(store, settings, lambda: status.waiting_since + 2 * HOUR).run_once()

    mails = box.wait_for(2)
    assert kinds(mails) == ["waiting", "overdue"]
    (_to, several), (_to, last) = mails
    assert two in subject(several) and two in body(several)
    assert one in subject(last) and one in body(last)


@pytest.mark.parametrize(
    ("lang", "one"),
    [("en", "(kim, 300,000 KRW in 1 of 3 items waiting)"), ("ko", "(kim, 항목 3개 중 1개 대기, 300,000원)")],
)
def test_a_mail_about_a_case_with_one_of_its_items_waiting_says_so(store, settings, mailbox, lang, one):
    box, port = mailbox
    settings = mailing(settings, port, lang=lang)
    items = [{"item": "B-1", "amount": 300_000}, {"item": "B-2", "amount": 80_000}, {"item": "B-3", "amount": 50_000}]
    values = {"case_id": "L2", "customer": "kim", "reason": "r", "items": items}
    assert runs.start_run(store, settings, "refund", values).status == "waiting"  # B-1 waits; B-2 and B-3 are paid
    Deliverer(store, settings).run_once()
    [(_to, mail)] = box.wait_for(1)
    assert one in subject(mail) and one in body(mail)
