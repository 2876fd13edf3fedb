"""What a notification says: its text (English or Korean), the webhook's JSON body and the mail.

A message says what waits, for how long, the amount, and links to the case (``HITL_PUBLIC_URL``). It is
built from the event's facts alone: no setting's value but the public URL is ever in it, so no secret is.
"""

from __future__ import annotations

import datetime as dt
import urllib.parse
from email.message import EmailMessage
from typing import Any

from agents.ages import span_text
from agents.notify.outbox import Event
from agents.registry import AGENTS
from agents.texts import fill, pick

STRINGS: dict[str, tuple[str, str]] = {
    "notify.waiting": (
        "Waiting for a decision: {subject}, waiting {span}. {question}Open: {link}",
        "결정 대기: {subject}, {span}째 대기. {question}열기: {link}",
    ),
    "notify.overdue": (
        "Overdue: {subject} has waited {span}, past its {deadline} deadline. Open: {link}",
        "기한 지남: {subject}, {span}째 대기 (기한 {deadline}). 열기: {link}",
    ),
    "notify.escalated": (
        "Escalated to the senior approvers: {subject} has waited {span}, past its {deadline} deadline. Open: {link}",
        "상급 승인자에게 올림: {subject}, {span}째 대기 (기한 {deadline}). 열기: {link}",
    ),
    "notify.decided": (
        "Decided ({outcome}): {subject}, after waiting {span}. Open: {link}",
        "결정됨 ({outcome}): {subject}, {span} 대기 후. 열기: {link}",
    ),
    "notify.deleted": (
        "Deleted while {status}: {subject}, by {who}; reason: {reason}. The audit: {link}",
        "완료 전 삭제됨 ({status}): {subject}, 삭제한 사람 {who}; 이유: {reason}. 감사 기록: {link}",
    ),
    "notify.case": ("{agent} case {case} ({customer}, {amount})", "{agent} 건 {case} ({customer}, {amount})"),
    "notify.thread": ("{agent} thread {thread}", "{agent} 스레드 {thread}"),
    "notify.subject": ("[HITL] {kind}: {subject}", "[HITL] {kind}: {subject}"),
    "notify.kind.waiting": ("waiting", "대기"),
    "notify.kind.overdue": ("overdue", "기한 지남"),
    "notify.kind.escalated": ("escalated", "상급 승인자에게 올림"),
    "notify.kind.decided": ("decided", "결정됨"),
    "notify.kind.deleted": ("deleted", "삭제됨"),
}

#: The facts a webhook body carries besides the text (who requested a case is for choosing recipients).
PUBLIC_FACTS = ("case_id", "customer", "amount", "requested_amount", "outcome", "status", "deleted_by", "reason")


def _say(key: str, lang: str, **params: Any) -> str:
    return fill(pick(STRINGS[key], lang), params)


def link(event: Event, public_url: str) -> str:
    """The case's page (the audit's, for a deleted thread): ``{HITL_PUBLIC_URL}/{page}?thread={id}``."""
    spec = AGENTS.get(event.agent)
    page = f"{public_url}/{spec.show.page.url_path}" if spec is not None else public_url
    return page if event.kind == "deleted" else f"{page}?{urllib.parse.urlencode({'thread': event.thread_id})}"


def waited_seconds(event: Event, now: dt.datetime) -> float:
    """How long the thread waited: until it was decided, else until ``now``."""
    if "waited_seconds" in event.facts:
        return float(event.facts["waited_seconds"])
    start = dt.datetime.fromisoformat(event.episode).timestamp() if event.kind != "deleted" else event.happened_at
    return max(0.0, now.timestamp() - start)


def _amount(value: Any) -> str:
    return f"{value:,} KRW" if isinstance(value, int) and not isinstance(value, bool) else "?"


def subject(event: Event, lang: str) -> str:
    """What the event is about: a case with its customer and amount, else the thread."""
    facts = event.facts
    if facts.get("case_id") is not None:
        amount = facts.get("amount") if facts.get("amount") is not None else facts.get("requested_amount")
        return _say(
            "notify.case", lang, agent=event.agent, case=facts["case_id"], customer=facts.get("customer") or "?",
            amount=_amount(amount),
        )  # fmt: skip
    return _say("notify.thread", lang, agent=event.agent, thread=event.thread_id)


def message_text(event: Event, public_url: str, now: dt.datetime, lang: str) -> str:
    """The message in ``lang``: what waits, for how long, the amount, and the link."""
    facts = event.facts
    span = span_text(waited_seconds(event, now)).render(lang)
    question = facts.get("question")
    return _say(
        f"notify.{event.kind}",
        lang,
        subject=subject(event, lang),
        span=span,
        question=f"{question} " if question else "",
        deadline=span_text(float(facts.get("deadline_seconds") or 0)).render(lang),
        outcome=facts.get("outcome") or "",
        status=facts.get("status") or "",
        who=facts.get("deleted_by") or "?",
        reason=facts.get("reason") or "",
        link=link(event, public_url),
    )


def webhook_body(event: Event, public_url: str, now: dt.datetime, lang: str) -> dict[str, Any]:
    """The JSON a webhook receives: ``text`` (what chat webhooks show) and the event's fields."""
    return {
        "text": message_text(event, public_url, now, lang),
        "event_id": event.event_id,
        "event": event.kind,
        "agent": event.agent,
        "thread_id": event.thread_id,
        "waiting_since": event.episode if event.kind != "deleted" else None,
        "waited_seconds": round(waited_seconds(event, now)),
        "happened_at": dt.datetime.fromtimestamp(event.happened_at, dt.UTC).isoformat(),
        "link": link(event, public_url),
        **{key: event.facts[key] for key in PUBLIC_FACTS if event.facts.get(key) is not None},
    }


def mail(event: Event, public_url: str, now: dt.datetime, lang: str, sender: str, to: list[str]) -> EmailMessage:
    """The notification as a plain-text mail; its ``Message-ID`` is made from the event id."""
    message = EmailMessage()
    kind = _say(f"notify.kind.{event.kind}", lang)
    message["Subject"] = _say("notify.subject", lang, kind=kind, subject=subject(event, lang))
    message["From"] = sender
    message["To"] = ", ".join(to)
    domain = sender.rpartition("@")[2] or "localhost"
    message["Message-ID"] = f"<{urllib.parse.quote(event.event_id, safe='')}@{domain}>"
    message["Idempotency-Key"] = event.event_id
    message.set_content(message_text(event, public_url, now, lang) + "\n")
    return message
