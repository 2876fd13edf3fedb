"""Sending one notification: to the webhook (a JSON POST) or by mail (SMTP), and whom a mail goes to.

Both use the standard library (``urllib``, ``smtplib``) with a timeout. A failure is raised as
:class:`SendError` whose message, in the deliverer's language, names the host, never the webhook's URL (its
path often is the token), and says what the server answered (its code and words, the password in any form
left out) or that it did not answer in time.
"""

from __future__ import annotations

import base64
import datetime as dt
import json
import smtplib
import ssl
import urllib.error
import urllib.request
from typing import Any

from agents import ages
from agents.identity import ANSWER, CONTINUE, DELETE_THREAD, RERUN, Roles, denial
from agents.notify import messages
from agents.notify.outbox import Event, is_stuck
from agents.registry import AGENTS
from agents.settings_notify import NotifySettings
from agents.texts import say

#: Seconds a webhook or SMTP server may take to answer one notification.
SEND_TIMEOUT_SECONDS = 10.0
#: The most of a server's own words an error keeps (a reply may run to several lines).
SERVER_WORDS_LENGTH = 200

STRINGS: dict[str, tuple[str, str]] = {
    "notify.error.webhook.answered": ("webhook at {host} answered {code}", "{host}의 웹훅이 {code} 응답을 보냈습니다"),
    "notify.error.webhook.unreachable": (
        "webhook at {host} could not be reached: {detail}",
        "{host}의 웹훅에 연결할 수 없습니다: {detail}",
    ),
    "notify.error.smtp.login": (
        "SMTP server {server} refused the login of {user}: {said}",
        "SMTP 서버 {server:이/가} {user}의 로그인을 거부했습니다: {said}",
    ),
    "notify.error.smtp.no_starttls": (
        "SMTP server {server} offers no STARTTLS (or no login); nothing was sent",
        "SMTP 서버 {server:이/가} STARTTLS(또는 로그인)를 제공하지 않습니다. 아무것도 보내지 않았습니다",
    ),
    "notify.error.smtp.recipient": (
        "SMTP server {server} refused the recipient {address}: {said}",
        "SMTP 서버 {server:이/가} 받는 사람 {address:을/를} 거부했습니다: {said}",
    ),
    "notify.error.smtp.recipients": (
        "SMTP server {server} refused every recipient: {refused}",
        "SMTP 서버 {server:이/가} 받는 사람을 모두 거부했습니다: {refused}",
    ),
    "notify.error.smtp.some_recipients": (
        "SMTP server {server} took the mail for {sent} but refused {refused}",
        "SMTP 서버 {server:이/가} {sent}에게 갈 메일은 받았지만 다음 받는 사람은 거부했습니다: {refused}",
    ),
    "notify.error.smtp.sender": (
        "SMTP server {server} refused the sender {address}: {said}",
        "SMTP 서버 {server:이/가} 보내는 사람 {address:을/를} 거부했습니다: {said}",
    ),
    "notify.error.smtp.mail": (
        "SMTP server {server} refused the mail: {said}",
        "SMTP 서버 {server:이/가} 메일을 거부했습니다: {said}",
    ),
    "notify.error.smtp.connection": (
        "SMTP server {server} refused the connection: {said}",
        "SMTP 서버 {server:이/가} 연결을 거부했습니다: {said}",
    ),
    "notify.error.smtp.greeting": (
        "SMTP server {server} refused the greeting (EHLO/HELO): {said}",
        "SMTP 서버 {server:이/가} 인사(EHLO/HELO)를 거부했습니다: {said}",
    ),
    "notify.error.smtp.answered": (
        "SMTP server {server} answered {said}",
        "SMTP 서버 {server:이/가} 응답했습니다: {said}",
    ),
    "notify.error.smtp.timeout": (
        "SMTP server {server} did not answer within {seconds} s (timed out)",
        "SMTP 서버 {server:이/가} {seconds}초 안에 응답하지 않았습니다 (시간 초과)",
    ),
    "notify.error.smtp.closed": (
        "SMTP server {server} closed the connection unexpectedly",
        "SMTP 서버 {server:이/가} 연결을 예기치 않게 끊었습니다",
    ),
    "notify.error.smtp.failed": ("SMTP server {server}: {detail}", "SMTP 서버 {server}: {detail}"),
    "notify.error.smtp.tls": ("SMTP server {server}: TLS failed: {reason}", "SMTP 서버 {server}: TLS 실패: {reason}"),
    "notify.error.smtp.unreachable": (
        "SMTP server {server} could not be reached: {detail}",
        "SMTP 서버 {server}에 연결할 수 없습니다: {detail}",
    ),
}


#: The permission each way out of a stuck thread needs (:func:`agents.notify.messages.resolution`): continuing
#: it is an approver's (a node that raised too: it is continued once its cause is fixed), a re-run from an
#: earlier checkpoint and a delete an admin's (``agents.identity``).
RESOLVING_PERMISSION = {"continue": CONTINUE, "error": CONTINUE, "rerun": RERUN, "delete": DELETE_THREAD}


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
    Any other thread: everyone who may answer it (:func:`agents.identity.denial`). A stuck thread
    (:func:`agents.notify.outbox.is_stuck`): everyone who may take the action that resolves it
    (:data:`RESOLVING_PERMISSION`: whoever may continue it, for a run that stopped). The one place
    recipients are chosen.
    """
    members = (roles.identity_for(email) for email in roles.users)
    if is_stuck(event):  # nothing to decide: whoever may set it going again
        needed = RESOLVING_PERMISSION[messages.resolution(event)]
        return sorted(person.email for person in members if not denial(person, needed))
    spec = AGENTS.get(event.agent)
    kept = event.facts.get("questions")
    questions = tuple(kept) if isinstance(kept, list | tuple) else ()
    now = ages.utc_now()
    rights = spec.ask.decision_rights(roles, event.facts, None, None, now, questions) if spec is not None else None
    if rights is not None:
        chosen = rights.escalates_to if event.kind == "escalated" else rights.deciders
        return sorted(person.email for person in chosen)
    return sorted(person.email for person in members if not denial(person, ANSWER))


def recipients(settings: NotifySettings, roles: Roles | None, event: Event) -> list[str]:
    """Whom a mail about ``event`` goes to: who may decide it, or resolve it when stuck (with a roles file, see
    :func:`may_decide`), else ``HITL_NOTIFY_TO``."""
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
        raise SendError(say(STRINGS, "notify.error.webhook.answered", lang, host=host, code=error.code)) from None
    except (urllib.error.URLError, OSError) as error:
        reason = getattr(error, "reason", error)
        detail = f"{type(reason).__name__}: {reason}"
        raise SendError(say(STRINGS, "notify.error.webhook.unreachable", lang, host=host, detail=detail)) from None


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


def _password_forms(settings: NotifySettings) -> list[str]:
    """The SMTP password as a server could echo it: as it is, and base64-encoded as ``AUTH LOGIN`` sends it
    alone and ``AUTH PLAIN`` with the user (``smtplib``'s own encodings)."""
    if settings.smtp_password is None or not settings.smtp_password.reveal():
        return []
    password = settings.smtp_password.reveal()
    plain = f"\0{settings.smtp_user}\0{password}"
    encoded = [base64.b64encode(value.encode()).decode() for value in (password, plain)]
    return sorted({password, *encoded}, key=len, reverse=True)  # a longer form first: none is left half-masked


def _server_words(code: Any, words: Any, settings: NotifySettings) -> str:
    """What a server answered, ``550 5.1.1 mailbox ops@example.com unknown``: its code and words on one line,
    cut to :data:`SERVER_WORDS_LENGTH`, the password in any form it could be echoed in written ``***``."""
    said = words.decode("utf-8", "replace") if isinstance(words, bytes) else str(words)
    said = " ".join(said.split())
    for secret in _password_forms(settings):
        said = said.replace(secret, "***")
    if len(said) > SERVER_WORDS_LENGTH:
        said = said[: SERVER_WORDS_LENGTH - 1] + "…"
    return f"{code} {said}".strip()


def _timed_out(error: BaseException) -> bool:
    """Whether ``error`` is, or was raised while handling, a timeout (``smtplib`` turns a read that timed out
    into :class:`smtplib.SMTPServerDisconnected`, the timeout as its context)."""
    seen: BaseException | None = error
    while seen is not None:
        if isinstance(seen, TimeoutError):
            return True
        seen = seen.__cause__ or seen.__context__
    return False


#: The step an SMTP refusal came at (the most specific class first), as its error says it.
_REFUSED_AT: tuple[tuple[type[smtplib.SMTPResponseException], str], ...] = (
    (smtplib.SMTPDataError, "notify.error.smtp.mail"),
    (smtplib.SMTPConnectError, "notify.error.smtp.connection"),
    (smtplib.SMTPHeloError, "notify.error.smtp.greeting"),
)


def _refused_words(refused: dict[str, tuple[Any, Any]], settings: NotifySettings) -> dict[str, str]:
    """The recipients a server refused, each with what it answered (:func:`_server_words`)."""
    return {to: _server_words(code, words, settings) for to, (code, words) in refused.items()}


def _listed(refused: dict[str, str]) -> str:
    return "; ".join(f"{address} ({said})" for address, said in refused.items())


def _smtp_error(error: smtplib.SMTPException, settings: NotifySettings, lang: str) -> str:
    """An SMTP failure in words (in ``lang``): what the server answered, with its code, and whom or what it
    refused; or that it did not answer in time, or hung up. Never the password (:func:`_server_words`)."""
    server = f"{settings.smtp_host}:{settings.smtp_port}"
    if isinstance(error, smtplib.SMTPAuthenticationError):
        said = _server_words(error.smtp_code, error.smtp_error, settings)
        return say(STRINGS, "notify.error.smtp.login", lang, server=server, user=settings.smtp_user, said=said)
    if isinstance(error, smtplib.SMTPNotSupportedError):
        return say(STRINGS, "notify.error.smtp.no_starttls", lang, server=server)
    if isinstance(error, smtplib.SMTPRecipientsRefused):
        refused = _refused_words(error.recipients, settings)
        if len(refused) == 1:
            [(address, said)] = refused.items()
            return say(STRINGS, "notify.error.smtp.recipient", lang, server=server, address=address, said=said)
        return say(STRINGS, "notify.error.smtp.recipients", lang, server=server, refused=_listed(refused))
    if isinstance(error, smtplib.SMTPSenderRefused):
        said = _server_words(error.smtp_code, error.smtp_error, settings)
        return say(STRINGS, "notify.error.smtp.sender", lang, server=server, address=error.sender, said=said)
    if isinstance(error, smtplib.SMTPServerDisconnected):
        if _timed_out(error):
            seconds = f"{SEND_TIMEOUT_SECONDS:g}"
            return say(STRINGS, "notify.error.smtp.timeout", lang, server=server, seconds=seconds)
        return say(STRINGS, "notify.error.smtp.closed", lang, server=server)
    if isinstance(error, smtplib.SMTPResponseException):
        said = _server_words(error.smtp_code, error.smtp_error, settings)
        key = next((key for kind, key in _REFUSED_AT if isinstance(error, kind)), "notify.error.smtp.answered")
        return say(STRINGS, key, lang, server=server, said=said)
    detail = _server_words("", f"{type(error).__name__}: {error}", settings)
    return say(STRINGS, "notify.error.smtp.failed", lang, server=server, detail=detail)


def send_mail(settings: NotifySettings, to: list[str], event: Event, now: dt.datetime, lang: str) -> str:
    """Mails the event to ``to`` through the SMTP server; a refusal or a lost connection is a :class:`SendError`.

    The error (in ``lang``) names the server and says what went wrong: what the server answered, with its
    code and words, and whom it refused (:func:`_smtp_error`); a server that did not answer in time (one read
    waits :data:`SEND_TIMEOUT_SECONDS`) as a timeout, not a refusal. Never the password.

    Returns ``""`` when every recipient was taken. A server that takes the mail for some recipients and
    refuses others has sent it (sending it again would mail the others twice): the returned words, in
    ``lang``, name whom it went to and whom the server refused, with what it answered for each.
    """
    mail = messages.mail(event, settings.public_url, now, lang, settings.mail_from, to)
    server = f"{settings.smtp_host}:{settings.smtp_port}"
    try:
        with _connect(settings) as smtp:
            refused = _refused_words(smtp.send_message(mail), settings)
    except smtplib.SMTPException as error:
        raise SendError(_smtp_error(error, settings, lang)) from None
    except ssl.SSLError as error:
        reason = error.reason or type(error).__name__
        raise SendError(say(STRINGS, "notify.error.smtp.tls", lang, server=server, reason=reason)) from None
    except TimeoutError:  # connecting, or the TLS handshake, took longer than the timeout
        seconds = f"{SEND_TIMEOUT_SECONDS:g}"
        raise SendError(say(STRINGS, "notify.error.smtp.timeout", lang, server=server, seconds=seconds)) from None
    except OSError as error:
        detail = f"{type(error).__name__}: {error}"
        raise SendError(say(STRINGS, "notify.error.smtp.unreachable", lang, server=server, detail=detail)) from None
    if not refused:
        return ""
    sent = ", ".join(address for address in to if address not in refused)
    return say(STRINGS, "notify.error.smtp.some_recipients", lang, server=server, sent=sent, refused=_listed(refused))
