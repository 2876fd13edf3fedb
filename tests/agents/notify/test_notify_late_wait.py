"""A wait's message sent after the wait ended (a retry once the receiver is back) says how long the wait
lasted, up to its end, and that it was decided (or ended) since, never a wait longer than there was; a wait
still going on is counted to the time of sending. The clock is a parameter (no test waits for a backoff).
"""

from __future__ import annotations

import dataclasses
import datetime as dt
from typing import Any

import pytest

from agents import lifecycle, runs
from agents.ages import span_text
from agents.notify import outbox
from agents.notify.deliverer import Deliverer
from agents.notify.outbox import Event
from tests.agents.notify.conftest import body, mailing, notifying, since
from tests.factories import start_refund

pytestmark = pytest.mark.usefixtures("backend")

#: Past the first failure's 10 s backoff, as in the tester's steps ("waiting 15 s").
LATER = dt.timedelta(seconds=15)
EDIT = {"action": "edit", "amount": 650_000, "approver": "kim"}


@pytest.mark.parametrize(
    ("lang", "over", "still", "decided_words"),
    [
        ("en", "Waited for a decision: Refund agent case N1", "waiting 15 s", "Decided (paid)"),
        ("ko", "결정 대기: 환불 에이전트 건 N1", "15초째 대기", "결정됨 (지급됨)"),
    ],
)
def test_a_waiting_mail_sent_after_the_decision_says_the_wait_up_to_it(
    store, settings, mailbox, closed_port, lang, over, still, decided_words
):
    box, port = mailbox
    start_refund(store, settings, "N1", 700_000)
    start = since(store, "refund-N1")
    down = Deliverer(store, mailing(settings, closed_port, lang=lang), lambda: start).run_once()
    assert (down.recorded, down.sent, down.failed) == (1, 0, 1)
    runs.resume_thread(store, settings, "refund-N1", EDIT)

    up = Deliverer(store, mailing(settings, port, lang=lang), lambda: start + LATER).run_once()
    assert (up.sent, up.failed) == (2, 0)
    [(_to, waiting), (_to2, decided)] = box.wait_for(2)
    assert waiting["Idempotency-Key"].startswith("waiting:") and decided["Idempotency-Key"].startswith("decided:")
    decided_at = lifecycle.thread_status(store, "refund-N1").updated_at  # what the decided event counts to
    span = span_text((decided_at - start).total_seconds()).render(lang)
    assert still not in body(waiting)  # not the 15 s to the sending: the wait was over long before
    assert body(waiting).startswith(over)
    if lang == "en":
        assert f"{span} until it was decided." in body(waiting)
        assert f"after waiting {span}." in body(decided)
    else:
        assert f"{span} 대기 후 결정됨." in body(waiting)
        assert f"{span} 대기 후." in body(decided)
    assert body(decided).startswith(decided_words)


def unsent_wait(store, settings, receiver, case: str) -> tuple[Any, dt.datetime]:
    """Refund ``case`` waiting for a decision, its waiting event's first send to the webhook failed; the
    settings that notify the webhook, and when the case began waiting."""
    settings = notifying(settings, HITL_NOTIFY_WEBHOOK=receiver.url)
    start_refund(store, settings, case, 700_000)
    start = since(store, f"refund-{case}")
    receiver.fail_next = 1
    assert Deliverer(store, settings, lambda: start).run_once().failed == 1
    return settings, start


def test_a_webhook_waiting_event_sent_after_the_decision_counts_its_wait_to_the_decision(store, settings, receiver):
    settings, start = unsent_wait(store, settings, receiver, "N1")
    runs.resume_thread(store, settings, "refund-N1", EDIT)

    assert Deliverer(store, settings, lambda: start + LATER).run_once().sent == 2
    by_kind = {item.body["event"]: item.body for item in receiver.wait_for(2)}
    waiting, decided = by_kind["waiting"], by_kind["decided"]
    assert waiting["waited_seconds"] == decided["waited_seconds"] < LATER.total_seconds()
    assert "until it was decided" in waiting["text"] and "waiting 15 s" not in waiting["text"]
    assert waiting["waiting_since"] == start.isoformat() and waiting["amount"] == 700_000


def test_a_waiting_event_sent_after_the_thread_was_deleted_says_its_wait_ended(store, settings, receiver):
    settings, start = unsent_wait(store, settings, receiver, "N2")
    runs.delete_thread(store, "refund-N2", reason="entered twice")

    assert Deliverer(store, settings, lambda: start + LATER).run_once().sent == 2
    by_kind = {item.body["event"]: item.body for item in receiver.wait_for(2)}
    waiting, deleted = by_kind["waiting"], by_kind["deleted"]
    deleted_at = dt.datetime.fromisoformat(deleted["happened_at"])  # kept to the second
    assert waiting["waited_seconds"] == max(0, round((deleted_at - start).total_seconds())) <= 1
    assert "until the wait ended" in waiting["text"] and "waiting 15 s" not in waiting["text"]


def test_a_wait_still_going_on_is_counted_to_the_sending(store, settings, receiver):
    settings, start = unsent_wait(store, settings, receiver, "N3")

    assert Deliverer(store, settings, lambda: start + LATER).run_once().sent == 1
    [waiting] = receiver.wait_for(1)
    assert waiting.body["waited_seconds"] == 15 and "waiting 15 s." in waiting.body["text"]


#: What an overdue or escalated message sent two days after its wait ended says (it waited 26 h).
CASE_EN = "Refund agent case N4 (홍길동, 700,000 KRW) waited 1 d 2 h, past its 1 d 0 h deadline"
CASE_KO = "환불 에이전트 건 N4 (홍길동, 700,000원), 1일 2시간 대기 (기한 1일 0시간) 후"


@pytest.mark.parametrize(
    ("kind", "lang", "words"),
    [
        ("overdue", "en", f"Overdue: {CASE_EN}, until it was decided. Open: "),
        ("overdue", "ko", f"기한 지남: {CASE_KO} 결정됨. 열기: "),
        ("escalated", "en", f"Escalated to the senior approvers: {CASE_EN}, until it was decided. Open: "),
        ("escalated", "ko", f"상급 승인자에게 올림: {CASE_KO} 결정됨. 열기: "),
        ("overdue", "en", f"Overdue: {CASE_EN}, until the wait ended. Open: "),
        ("waiting", "ko", "결정 대기: 환불 에이전트 건 N4 (홍길동, 700,000원), 1일 2시간 대기 후 대기가 끝남. 열기: "),
    ],
)
def test_a_late_overdue_or_escalated_message_says_the_wait_up_to_its_end(store, settings, receiver, kind, lang, words):
    settings = dataclasses.replace(notifying(settings, HITL_NOTIFY_WEBHOOK=receiver.url), lang=lang)
    start = dt.datetime(2026, 3, 2, 9, 0, tzinfo=dt.UTC)
    facts = {"case_id": "N4", "customer": "홍길동", "amount": 700_000, "deadline_seconds": 86400}
    told = Event(kind, "refund-N4", "refund", start.isoformat(), start.timestamp() + 86400, facts)
    # Its end as the outbox records it, 26 h in: its decision, or (ended) the start of the thread's next wait.
    end = start + dt.timedelta(hours=26)
    if "ended" in words or "끝남" in words:
        over = Event("waiting", "refund-N4", "refund", end.isoformat(), end.timestamp())
    else:
        over = Event("decided", "refund-N4", "refund", start.isoformat(), end.timestamp(), {"outcome": "paid"})
    outbox.record(store, [told], ["webhook"], start.timestamp())
    outbox.record(store, [over], [outbox.NO_CHANNEL], start.timestamp())  # recorded, nothing to send

    later = start + dt.timedelta(days=3)  # sent two days after the wait ended: those days are not counted
    assert Deliverer(store, settings, lambda: later).deliver_due() == (1, 0, 0)
    [sent] = receiver.wait_for(1)
    assert sent.body["text"].startswith(words) and sent.body["waited_seconds"] == 26 * 3600
