"""Sending one notification: to the webhook (a JSON POST) or by mail (SMTP), and whom a mail goes to.

Both use the standard library (``urllib``, ``smtplib``) with a timeout. A failure is raised as
:class:`SendError` whose message names the host, never the webhook's URL (its path often is the token).
"""

from __future__ import annotations

import datetime as dt
import json
import smtplib
import ssl
import urllib.error
import urllib.request

from agents import ages
from agents.identity import ANSWER, Roles, denial
from agents.notify import messages
from agents.notify.outbox import Event
from agents.registry import AGENTS
from agents.settings_notify import NotifySettings

#: Seconds a webhook or SMTP server may take to answer one notification.
SEND_TIMEOUT_SECONDS = 10.0


class SendError(Exception):
    """A notification was not accepted; the message holds no secret."""


def may_decide(roles: Roles, event: Event) -> list[str]:
    """The emails of the people who may decide the event's case, as the roles file says.

    An agent that states who may decide its items (``AgentSpec.ask.decision_rights``: the refund agent, from
    each waiting decision's amount and the requester in the event's facts: for a refund with several items
    waiting, each item's, kept as ``questions``; for one deleted unfinished, each question it asked a person,
    as its deletion record kept them, so its deletion reaches whoever its waiting mails went to) names them,
    and for an escalation whom it goes to; so the limit, four eyes and the escalation rank are the agent's one
    rule, as its queue and the inbox show them.
    Any other thread: everyone who may answer it (:func:`agents.identity.denial`). The one place
    recipients are chosen.
    """
    spec = AGENTS.get(event.agent)
    kept = event.facts.get("questions")
    questions = tuple(kept) if isinstance(kept, list | tuple) else ()
    now = ages.utc_now()
    rights = spec.ask.decision_rights(roles, event.facts, None, None, now, questions) if spec is not None else None
    if rights is not None:
        chosen = rights.escalates_to if event.kind == "escalated" else rights.deciders
        return sorted(person.email for person in chosen)
    members = (roles.identity_for(email) for email in roles.users)
    return sorted(person.email for person in members if not denial(person, ANSWER))


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
        headers={"Content-Type": "application/json; charset=utf-8", "Idempotency-Key": messages.idempotency_key(event)},
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


def _tls_context(settings: NotifySettings) -> ssl.SSLContext:
    """The certificate check of an encrypted SMTP connection: the system's authorities, or ``HITL_NOTIFY_SMTP_CA``'s."""
    return ssl.create_default_context(cafile=settings.smtp_ca or None)


def _connect(settings: NotifySettings) -> smtplib.SMTP:
    """A connection to the SMTP server, encrypted as ``HITL_NOTIFY_SMTP`` says and logged in when it has a login.

    ``?starttls=1`` upgrades before anything else is said; a server that does not offer STARTTLS is refused
    (nothing is sent in the clear), as is a certificate the authorities do not vouch for.
    """
    host, port = settings.smtp_host, settings.smtp_port
    if settings.smtp_tls == "tls":
        smtp: smtplib.SMTP = smtplib.SMTP_SSL(host, port, timeout=SEND_TIMEOUT_SECONDS, context=_tls_context(settings))
    else:
        smtp = smtplib.SMTP(host, port, timeout=SEND_TIMEOUT_SECONDS)
    try:
        if settings.smtp_tls == "starttls":
            smtp.starttls(context=_tls_context(settings))
        if settings.smtp_user and settings.smtp_password is not None:
            smtp.login(settings.smtp_user, settings.smtp_password.reveal())
    except BaseException:
        smtp.close()
        raise
    return smtp


def send_mail(settings: NotifySettings, to: list[str], event: Event, now: dt.datetime, lang: str) -> None:
    """Mails the event to ``to`` through the SMTP server; a refusal or a lost connection is a :class:`SendError`.

    The error names the server and the kind of failure, never the password.
    """
    mail = messages.mail(event, settings.public_url, now, lang, settings.mail_from, to)
    server = f"{settings.smtp_host}:{settings.smtp_port}"
    try:
        with _connect(settings) as smtp:
            smtp.send_message(mail)
    except smtplib.SMTPAuthenticationError as error:
        raise SendError(f"SMTP server {server} refused the login of {settings.smtp_user}: {error.smtp_code}") from None
    except smtplib.SMTPNotSupportedError:
        raise SendError(f"SMTP server {server} offers no STARTTLS (or no login); nothing was sent") from None
    except smtplib.SMTPException as error:
        raise SendError(f"SMTP server {server} refused the mail: {type(error).__name__}") from None
    except ssl.SSLError as error:
        raise SendError(f"SMTP server {server}: TLS failed: {error.reason or type(error).__name__}") from None
    except OSError as error:
        raise SendError(f"SMTP server {server} could not be reached: {type(error).__name__}: {error}") from None
