"""The notification settings (``HITL_NOTIFY_*``, ``HITL_PUBLIC_URL``): webhook, SMTP server, login, addresses."""

from __future__ import annotations

import ipaddress
import re
import urllib.parse
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from agents.errors import InputError
from agents.settings_values import Secret, int_setting, secret_setting, text_setting
from agents.strings import STRINGS
from agents.texts import text

#: Where notifications are posted: a Slack-, Mattermost- or Teams-style incoming webhook URL; a secret.
NOTIFY_WEBHOOK_SETTING = "HITL_NOTIFY_WEBHOOK"
#: The SMTP server notifications are mailed through: ``smtp://host:port`` (plain, or
#: ``?starttls=1``), ``smtps://host:port`` (TLS from the first byte); a login may be in the URL.
NOTIFY_SMTP_SETTING = "HITL_NOTIFY_SMTP"
#: The SMTP login's user and password (a secret), when not in the URL.
NOTIFY_SMTP_USER_SETTING = "HITL_NOTIFY_SMTP_USER"
NOTIFY_SMTP_PASSWORD_SETTING = "HITL_NOTIFY_SMTP_PASSWORD"
#: A PEM file of the certificate authorities the SMTP server's certificate is checked against, for a
#: server whose certificate the system's authorities do not vouch for (a company's own CA).
NOTIFY_SMTP_CA_SETTING = "HITL_NOTIFY_SMTP_CA"
#: Days a delivered notification is kept in the outbox before the deliverer removes it.
NOTIFY_KEEP_DAYS_SETTING = "HITL_NOTIFY_KEEP_DAYS"
DEFAULT_NOTIFY_KEEP_DAYS = 30
#: The fewest days allowed: a deletion is news for 7 days, and an event must outlive the time it can be
#: found again, or a scan would record and send it a second time.
MIN_NOTIFY_KEEP_DAYS = 7
#: The sender address of notification mails.
NOTIFY_FROM_SETTING = "HITL_NOTIFY_FROM"
#: Who is mailed when no roles file names the approvers (local mode), comma separated.
NOTIFY_TO_SETTING = "HITL_NOTIFY_TO"
#: The dashboard's address as its readers reach it, for the link to a case in a notification.
PUBLIC_URL_SETTING = "HITL_PUBLIC_URL"
DEFAULT_PUBLIC_URL = "http://localhost:8501"


@dataclass(frozen=True)
class NotifySettings:
    """Where notifications of waiting, overdue, escalated, decided and deleted threads go.

    Attributes:
        webhook: The incoming-webhook URL (``HITL_NOTIFY_WEBHOOK``), a secret: it often holds a token.
        smtp_host: The SMTP server's host (``HITL_NOTIFY_SMTP``); empty: no mail.
        smtp_port: Its port.
        smtp_tls: ``""`` (plain SMTP), ``"starttls"`` (``?starttls=1``: upgraded before anything is sent,
            refused when the server cannot) or ``"tls"`` (``smtps://``: TLS from the first byte).
        smtp_user: The login's user (``HITL_NOTIFY_SMTP_USER`` or the URL's); empty: no login.
        smtp_password: The login's password (``HITL_NOTIFY_SMTP_PASSWORD`` or the URL's), a secret.
        smtp_ca: A PEM file of the authorities the server's certificate is checked against
            (``HITL_NOTIFY_SMTP_CA``); empty: the system's.
        keep_days: Days a delivered event stays in the outbox (``HITL_NOTIFY_KEEP_DAYS``).
        mail_from: The sender of the mails (``HITL_NOTIFY_FROM``).
        mail_to: Who is mailed when no roles file names the approvers (``HITL_NOTIFY_TO``).
        public_url: The dashboard's address for the link to a case (``HITL_PUBLIC_URL``), no trailing ``/``.
    """

    webhook: Secret | None = None
    smtp_host: str = ""
    smtp_port: int = 0
    smtp_tls: str = ""
    smtp_user: str = ""
    smtp_password: Secret | None = None
    smtp_ca: str = ""
    keep_days: int = DEFAULT_NOTIFY_KEEP_DAYS
    mail_from: str = ""
    mail_to: tuple[str, ...] = ()
    public_url: str = DEFAULT_PUBLIC_URL

    @property
    def enabled(self) -> bool:
        """Whether any channel is configured (then a deliverer runs in ``serve`` and the dashboard)."""
        return self.webhook is not None or bool(self.smtp_host)

    @property
    def channels(self) -> tuple[str, ...]:
        """The configured channels: ``webhook``, ``email``."""
        return (("webhook",) if self.webhook is not None else ()) + (("email",) if self.smtp_host else ())

    @property
    def smtp_address(self) -> str:
        """The SMTP server as it may be shown: scheme, user, host and port, never the password."""
        if not self.smtp_host:
            return ""
        scheme = "smtps" if self.smtp_tls == "tls" else "smtp"
        user = f"{urllib.parse.quote(self.smtp_user, safe='')}@" if self.smtp_user else ""
        host = f"[{self.smtp_host}]" if ":" in self.smtp_host else self.smtp_host
        options = "?starttls=1" if self.smtp_tls == "starttls" else ""
        return f"{scheme}://{user}{host}:{self.smtp_port}{options}"

    @property
    def webhook_host(self) -> str:
        """The webhook's host alone, the one part of its URL that may be shown."""
        if self.webhook is None:
            return ""
        return urllib.parse.urlsplit(self.webhook.reveal()).hostname or ""


def notify_setting(values: Mapping[str, str]) -> NotifySettings:
    """The notification channels; each is optional, and a bad value is refused naming its setting."""
    webhook = text_setting(values, NOTIFY_WEBHOOK_SETTING)
    if webhook:
        try:
            parts = urllib.parse.urlsplit(webhook)
            parts.port  # noqa: B018  # raises for a port that is not a number
        except ValueError:
            parts = None
        if parts is None or parts.scheme not in ("http", "https") or not parts.hostname:
            raise InputError(NOTIFY_WEBHOOK_SETTING, text(STRINGS, "error.setting.webhook_url"))
    server = _smtp_server(text_setting(values, NOTIFY_SMTP_SETTING))
    host, port = server.host, server.port
    user = text_setting(values, NOTIFY_SMTP_USER_SETTING) or server.user
    password = secret_setting(values, NOTIFY_SMTP_PASSWORD_SETTING) or server.password
    if bool(user) != (password is not None):
        missing = NOTIFY_SMTP_PASSWORD_SETTING if user else NOTIFY_SMTP_USER_SETTING
        raise InputError(missing, text(STRINGS, "error.setting.login_pair"))
    for name, value in ((NOTIFY_SMTP_USER_SETTING, user), (NOTIFY_SMTP_PASSWORD_SETTING, password)):
        shown = value.reveal() if isinstance(value, Secret) else value
        if shown and not shown.isascii():  # smtplib sends a login as ASCII
            raise InputError(name, text(STRINGS, "error.setting.login_ascii"))
    if user and not host:
        raise InputError(NOTIFY_SMTP_SETTING, text(STRINGS, "error.setting.smtp_for_login"))
    if password is not None and not server.tls and not _loopback(host):
        raise InputError(NOTIFY_SMTP_SETTING, text(STRINGS, "error.setting.smtp_plain_password"))
    ca = text_setting(values, NOTIFY_SMTP_CA_SETTING)
    if ca and not Path(ca).is_file():
        raise InputError(NOTIFY_SMTP_CA_SETTING, text(STRINGS, "error.setting.no_file", path=repr(ca)))
    keep = int_setting(
        values, NOTIFY_KEEP_DAYS_SETTING, DEFAULT_NOTIFY_KEEP_DAYS, minimum=MIN_NOTIFY_KEEP_DAYS, maximum=36500
    )
    sender = text_setting(values, NOTIFY_FROM_SETTING)
    if host and not sender:
        raise InputError(NOTIFY_FROM_SETTING, text(STRINGS, "error.setting.from_needed", setting=NOTIFY_SMTP_SETTING))
    for name, address in [(NOTIFY_FROM_SETTING, sender)] * bool(sender) + [
        (NOTIFY_TO_SETTING, entry) for entry in _listed(text_setting(values, NOTIFY_TO_SETTING))
    ]:
        if not _MAIL.fullmatch(address):
            raise InputError(name, text(STRINGS, "error.setting.not_email", address=repr(address)))
    public = text_setting(values, PUBLIC_URL_SETTING, DEFAULT_PUBLIC_URL).removesuffix("/")
    public_parts = urllib.parse.urlsplit(public)
    if public_parts.scheme not in ("http", "https") or not public_parts.netloc or public_parts.query:
        raise InputError(PUBLIC_URL_SETTING, text(STRINGS, "error.setting.public_url", example=DEFAULT_PUBLIC_URL))
    return NotifySettings(
        webhook=Secret(webhook) if webhook else None,
        smtp_host=host,
        smtp_port=port,
        smtp_tls=server.tls,
        smtp_user=user,
        smtp_password=password,
        smtp_ca=ca,
        keep_days=keep,
        mail_from=sender,
        mail_to=tuple(_listed(text_setting(values, NOTIFY_TO_SETTING))),
        public_url=public,
    )


_MAIL = re.compile(r"[^@\s,<>]+@[^@\s,<>]+")


def _listed(raw: str) -> list[str]:
    return [entry.strip() for entry in raw.split(",") if entry.strip()]


@dataclass(frozen=True)
class SmtpServer:
    """``HITL_NOTIFY_SMTP`` parsed: host, port, TLS mode (see :class:`NotifySettings`) and the URL's login."""

    host: str = ""
    port: int = 0
    tls: str = ""
    user: str = ""
    password: Secret | None = None


def _loopback(host: str) -> bool:
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return host == "localhost"


def _smtp_server(raw: str) -> SmtpServer:
    """``smtp://[user:password@]host:port[?starttls=1]`` or ``smtps://...``; unset gives no server."""
    if not raw:
        return SmtpServer()
    try:
        parts = urllib.parse.urlsplit(raw)
        port = parts.port
    except ValueError:
        parts, port = None, None
    # The refusal never repeats a URL that holds a password.
    shown: object = text(STRINGS, "error.setting.smtp_url_login") if "@" in raw else repr(raw)
    refusal = text(STRINGS, "error.setting.smtp_url", value=shown)
    if parts is None or parts.scheme not in ("smtp", "smtps") or not parts.hostname or port is None:
        raise InputError(NOTIFY_SMTP_SETTING, refusal)
    if parts.path not in ("", "/") or parts.fragment:
        raise InputError(NOTIFY_SMTP_SETTING, refusal)
    options = urllib.parse.parse_qs(parts.query, keep_blank_values=True)
    starttls = options.pop("starttls", [])
    if options or len(starttls) > 1 or (starttls and starttls[0] not in ("1", "true", "yes")):
        raise InputError(NOTIFY_SMTP_SETTING, text(STRINGS, "error.setting.smtp_option", value=shown))
    if starttls and parts.scheme == "smtps":
        raise InputError(NOTIFY_SMTP_SETTING, text(STRINGS, "error.setting.smtps_starttls"))
    if (parts.username is None) != (parts.password is None) or parts.username == "":
        raise InputError(NOTIFY_SMTP_SETTING, text(STRINGS, "error.setting.smtp_url_user"))
    tls = "tls" if parts.scheme == "smtps" else "starttls" if starttls else ""
    user = urllib.parse.unquote(parts.username) if parts.username else ""
    password = Secret(urllib.parse.unquote(parts.password)) if parts.password else None
    return SmtpServer(parts.hostname, port, tls, user, password)
