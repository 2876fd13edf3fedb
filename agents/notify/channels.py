"""Sending one notification: to the webhook (a JSON POST) or by mail (SMTP), and whom a mail goes to.

Both use the standard library (``urllib``, ``smtplib``) with a timeout. A failure is raised as
:class:`SendError` whose message names the host, never the webhook's URL (its path often is the token).
"""

from __future__ import annotations

import datetime as dt
import json
import smtplib
import urllib.error
import urllib.request

from agents.identity import ANSWER, APPROVE_REFUND, SENIOR_APPROVER, Identity, Roles, denial
from agents.notify import messages
from agents.notify.outbox import Event
from agents.settings import NotifySettings

#: Seconds a webhook or SMTP server may take to answer one notification.
SEND_TIMEOUT_SECONDS = 10.0


class SendError(Exception):
    """A notification was not accepted; the message holds no secret."""


def _members(roles: Roles) -> list[Identity]:
    return [roles.identity_for(email) for email in roles.users]


def may_decide(roles: Roles, event: Event) -> list[str]:
    """The emails of the people who may decide the event's case, as the roles file says.

    A case with an amount: everyone the approval rule (:func:`agents.identity.denial`) lets approve it, so
    never the requester nor an approver whose limit is below the amount; an escalation: the senior
    approvers among them. Any other thread: everyone who may answer it. The one place recipients are chosen.
    """
    facts = event.facts
    found: list[str] = []
    for person in _members(roles):
        if "amount" in facts:
            refused = denial(
                person,
                APPROVE_REFUND,
                amount=facts.get("amount"),
                requested_by=facts.get("requested_by"),
                requested_by_name=facts.get("requested_by_name"),
                requested_by_names=facts.get("requested_by_names") or (),
            )
        else:
            refused = denial(person, ANSWER)
        if not refused and (event.kind != "escalated" or person.role == SENIOR_APPROVER):
            found.append(person.email)
    return sorted(found)


def recipients(settings: NotifySettings, roles: Roles | None, event: Event) -> list[str]:
    """Whom a mail about ``event`` goes to: who may decide it (with a roles file), else ``HITL_NOTIFY_TO``."""
    chosen = may_decide(roles, event) if roles is not None else []
    return chosen or list(settings.mail_to)


def post_webhook(settings: NotifySettings, event: Event, now: dt.datetime, lang: str) -> None:
    """POSTs the event's JSON with its ``Idempotency-Key``; any answer but 2xx is a :class:`SendError`."""
    assert settings.webhook is not None
    body = json.dumps(messages.webhook_body(event, settings.public_url, now, lang), ensure_ascii=False).encode()
    request = urllib.request.Request(
        settings.webhook.reveal(),
        data=body,
        method="POST",
        headers={"Content-Type": "application/json; charset=utf-8", "Idempotency-Key": event.event_id},
    )
    host = settings.webhook_host
    try:
        with urllib.request.urlopen(request, timeout=SEND_TIMEOUT_SECONDS) as answer:
            answer.read()
    except urllib.error.HTTPError as error:
        raise SendError(f"webhook at {host} answered {error.code}") from None
    except (urllib.error.URLError, OSError) as error:
        reason = getattr(error, "reason", error)
        raise SendError(f"webhook at {host} could not be reached: {type(reason).__name__}: {reason}") from None


def send_mail(settings: NotifySettings, to: list[str], event: Event, now: dt.datetime, lang: str) -> None:
    """Mails the event to ``to`` through the SMTP server; a refusal or a lost connection is a :class:`SendError`."""
    mail = messages.mail(event, settings.public_url, now, lang, settings.mail_from, to)
    server = f"{settings.smtp_host}:{settings.smtp_port}"
    try:
        with smtplib.SMTP(settings.smtp_host, settings.smtp_port, timeout=SEND_TIMEOUT_SECONDS) as smtp:
            smtp.send_message(mail)
    except smtplib.SMTPException as error:
        raise SendError(f"SMTP server {server} refused the mail: {type(error).__name__}") from None
    except OSError as error:
        raise SendError(f"SMTP server {server} could not be reached: {type(error).__name__}: {error}") from None
