"""Settings in one typed place.

Every setting is read, in order of precedence, from an explicit override (the
CLI's ``--db``), the process environment, and ``.streamlit/secrets.toml``. This
module is the only one that reads ``os.environ``. The raw strings are parsed
once, when the process starts, into one frozen :class:`Settings`: the core
settings here, and each agent's own typed settings from the parser its
``AgentSpec.run.settings_from`` declares. A bad value is refused at that moment,
naming the setting, and the typed object is passed down from there.

Secrets are :class:`Secret` values: shown as ``***`` and read only with
:meth:`Secret.reveal`, so no ``repr``, log line or page can print one.
"""

from __future__ import annotations

import datetime as dt
import ipaddress
import math
import os
import re
import tomllib
import unicodedata
import urllib.parse
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from agents.errors import InputError, UserError
from agents.identity import EMAIL_MAX_LENGTH, Roles
from agents.roles_file import load_roles
from agents.texts import DEFAULT_LANGUAGE, LANGUAGES

PROJECT_ROOT = Path(__file__).resolve().parent.parent
DEFAULT_DB_PATH = PROJECT_ROOT / "data" / "checkpoints.sqlite"
SECRETS_PATH = PROJECT_ROOT / ".streamlit" / "secrets.toml"
DB_SETTING = "HITL_DB"
#: The command line's language (``en`` or ``ko``): its messages, and the language of the runs it starts.
LANGUAGE_SETTING = "HITL_LANG"
#: The HTTP API's bearer token (``python -m agents serve``); a secret.
API_TOKEN_SETTING = "HITL_API_TOKEN"
#: The web origins whose pages may call the HTTP API from a browser (CORS), comma separated; none by default.
CORS_ORIGINS_SETTING = "HITL_API_CORS_ORIGINS"
LOCAL_APPROVER_SETTING = "HITL_LOCAL_APPROVER"
#: The roles file (emails to roles, API token hashes to identities); see ``agents.identity``.
ROLES_FILE_SETTING = "HITL_ROLES_FILE"
#: How long a SQLite write waits for another process's write lock before it is refused as busy.
DB_BUSY_TIMEOUT_SETTING = "HITL_DB_BUSY_TIMEOUT"
DEFAULT_DB_BUSY_TIMEOUT_SECONDS = 30.0
DEFAULT_ROLES_PATH = PROJECT_ROOT / ".streamlit" / "roles.toml"
#: Per-agent deadlines for unfinished threads, e.g. ``refund=24h,lecture=48h`` (units s, m, h, d).
SLA_SETTING = "HITL_SLA"
#: The zone the dashboard and the CLI show times in (an IANA name); exports stay UTC.
TIMEZONE_SETTING = "HITL_TIMEZONE"
#: How often an open dashboard page asks whether the database changed, in seconds; 0 turns it off.
LIVE_REFRESH_SETTING = "HITL_LIVE_REFRESH"
DEFAULT_LIVE_REFRESH_SECONDS = 2.0
MIN_LIVE_REFRESH_SECONDS = 0.5
#: Seconds per unit of an ``HITL_SLA`` deadline.
SLA_UNITS = {"s": 1, "m": 60, "h": 3600, "d": 86400}
_SLA_SPAN = re.compile(r"([0-9]{1,7})([smhd])")
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

#: Parses the raw setting values into one agent's frozen, typed settings; raises
#: :class:`~agents.errors.InputError` naming the setting for a bad value.
SettingsParser = Callable[[Mapping[str, str]], Any]


@dataclass(frozen=True)
class Secret:
    """A secret setting value (an API key): never shown, only revealed to the client that needs it."""

    _value: str = field(repr=False)

    def reveal(self) -> str:
        """The secret itself, for the one call that sends it (e.g. the Gemini client)."""
        return self._value

    def __str__(self) -> str:
        return "***"

    def __repr__(self) -> str:
        return "Secret('***')"


def read_secrets_file(path: Path = SECRETS_PATH) -> dict[str, str]:
    """Reads the flat top-level string entries of a Streamlit secrets file.

    A missing file is an empty mapping. A file that does not parse is an error
    the operator must fix, so it is raised, naming the file (never its content).
    """
    if not path.is_file():
        return {}
    try:
        with path.open("rb") as handle:
            data = tomllib.load(handle)
    except tomllib.TOMLDecodeError as error:
        raise UserError(f"{path} is not valid TOML: {error}") from None
    return {key: str(value) for key, value in data.items() if isinstance(value, str | int | float)}


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


@dataclass(frozen=True)
class Settings:
    """The resolved, validated settings of one process.

    Attributes:
        db: The database location (a file path or a ``postgresql://`` URL).
        agents: Each registered agent's typed settings by agent name (``None`` for an agent
            without settings); see ``AgentSpec.run.settings_from``.
        api_token: The HTTP API's bearer token (``HITL_API_TOKEN``), when set.
        roles: The roles file (``HITL_ROLES_FILE``, else ``.streamlit/roles.toml`` when it exists),
            checked at start; None without one.
        lang: The command line's language: ``--lang`` over ``HITL_LANG`` over English.
        db_busy_timeout: Seconds a SQLite write waits for another process's write lock
            (``HITL_DB_BUSY_TIMEOUT``, default 30) before it is refused as busy, nothing changed.
        sla: Each agent's deadline in seconds (``HITL_SLA``), for the agents that have one.
        timezone: The IANA zone times are shown in (``HITL_TIMEZONE``); empty: the machine's own.
        api_cors_origins: The web origins (``https://host[:port]``) whose pages may call the HTTP API
            from a browser (``HITL_API_CORS_ORIGINS``); ``("*",)`` for every origin, only without tokens.
        notify: Where notifications go (``HITL_NOTIFY_*``, ``HITL_PUBLIC_URL``); see :class:`NotifySettings`.
        local_approver: The approver name the HTTP API's local operator decides refunds as when an answer
            names none (``HITL_LOCAL_APPROVER``: Agent Inbox sends none); refused with a roles file.


        live_refresh: Seconds between an open page's checks for a changed database (``HITL_LIVE_REFRESH``,
            default 2); 0: pages redraw only when used.
    """

    db: str
    agents: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}), hash=False)
    api_token: Secret | None = None
    roles: Roles | None = field(default=None, hash=False, compare=False)
    lang: str = DEFAULT_LANGUAGE
    db_busy_timeout: float = DEFAULT_DB_BUSY_TIMEOUT_SECONDS
    sla: tuple[tuple[str, int], ...] = ()
    timezone: str = ""
    api_cors_origins: tuple[str, ...] = ()
    notify: NotifySettings = field(default_factory=lambda: NotifySettings())
    local_approver: str = ""

    live_refresh: float = DEFAULT_LIVE_REFRESH_SECONDS

    def deadline(self, agent: str) -> int | None:
        """How long a thread of ``agent`` may stay unfinished, in seconds (None: no deadline)."""
        return dict(self.sla).get(agent)

    @property
    def deadlines(self) -> dict[str, int]:
        """Agent name → its deadline in seconds, for the agents that have one."""
        return dict(self.sla)

    @property
    def zone(self) -> dt.tzinfo:
        """The zone times are shown in: ``HITL_TIMEZONE``, else the machine's own."""
        if self.timezone:
            return ZoneInfo(self.timezone)
        return dt.datetime.now().astimezone().tzinfo or dt.UTC

    def agent(self, name: str) -> Any:
        """The typed settings of the agent ``name``.

        Raises:
            KeyError: The settings were loaded without that agent (a programming error: load
                them through ``agents.runtime.load_settings``, which knows every agent).
        """
        if name not in self.agents:
            raise KeyError(f"settings were loaded without the {name!r} agent's")
        return self.agents[name]


def merged_sources(
    environ: Mapping[str, str] | None = None, secrets: Mapping[str, str] | None = None
) -> dict[str, str]:
    """The raw setting values: non-empty environment entries over the secrets file's."""
    environ = os.environ if environ is None else environ
    secrets = read_secrets_file() if secrets is None else secrets
    return {**secrets, **{key: value for key, value in environ.items() if value != ""}}


def resolve_settings(
    parsers: Mapping[str, SettingsParser],
    db_override: str | None = None,
    environ: Mapping[str, str] | None = None,
    secrets: Mapping[str, str] | None = None,
    lang_override: str | None = None,
) -> Settings:
    """Resolves and validates every setting: ``--db`` over ``HITL_DB`` over the default.

    Args:
        parsers: Each agent's settings parser by agent name.
        db_override: The CLI's ``--db`` value, if given.
        lang_override: The CLI's ``--lang`` value, if given (over ``HITL_LANG``).
        environ: The environment (defaults to ``os.environ``).
        secrets: The secrets file entries (defaults to reading the file).

    Raises:
        InputError: A setting has a value it cannot take (the setting is named).
    """
    merged = merged_sources(environ, secrets)
    db = db_override or merged.get(DB_SETTING) or str(DEFAULT_DB_PATH)
    if not db.strip():  # spaces name no database: refused, never a file called " " or the default
        raise InputError("--db" if db_override else DB_SETTING, "is blank; give a database file or URL")
    agents = {name: parse(merged) for name, parse in parsers.items()}
    api_token = secret_setting(merged, API_TOKEN_SETTING)
    if lang_override:
        merged[LANGUAGE_SETTING] = lang_override
    lang = choice_setting(merged, LANGUAGE_SETTING, LANGUAGES, DEFAULT_LANGUAGE)
    busy = float_setting(merged, DB_BUSY_TIMEOUT_SETTING, DEFAULT_DB_BUSY_TIMEOUT_SECONDS, minimum=0.001)
    roles = roles_setting(merged)
    origins = origins_setting(merged, CORS_ORIGINS_SETTING)
    if origins == ("*",) and (api_token is not None or (roles is not None and roles.has_tokens)):
        raise InputError(
            CORS_ORIGINS_SETTING,
            "'*' is refused while the API requires a token (HITL_API_TOKEN or roles-file tokens): it would let "
            "any web page send requests with a token its visitor's browser holds; name the origins, e.g. "
            "https://inbox.example.com",
        )
    local_approver = local_approver_setting(merged, roles)
    return Settings(
        db=db,
        agents=MappingProxyType(agents),
        api_token=api_token,
        roles=roles,
        lang=lang,
        api_cors_origins=origins,
        db_busy_timeout=busy,
        sla=sla_setting(merged, tuple(parsers)),
        timezone=timezone_setting(merged),
        notify=notify_setting(merged),
        live_refresh=live_refresh_setting(merged),
        local_approver=local_approver,
    )


def local_approver_setting(values: Mapping[str, str], roles: Roles | None) -> str:
    """``HITL_LOCAL_APPROVER``: a name a person is known by, refused beside a roles file.

    With a roles file a decision is recorded under whoever signed in (four eyes and limits weigh that
    identity); a configured name there would stand for someone no one signed in as.
    """
    name = text_setting(values, LOCAL_APPROVER_SETTING)
    if not name:
        return ""
    if roles is not None:
        raise InputError(
            LOCAL_APPROVER_SETTING,
            "names the approver of local mode (no sign-in), and a roles file is set: decisions are recorded "
            "under the signed-in identity. Remove it, and give a client that sends no approver (Agent Inbox) "
            "a roles-file token as its API key",
        )
    if len(name) > EMAIL_MAX_LENGTH or any(unicodedata.category(c) in ("Cc", "Cf", "Zl", "Zp") for c in name):
        raise InputError(LOCAL_APPROVER_SETTING, f"must be a name of at most {EMAIL_MAX_LENGTH} characters on one line")
    return name


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
            raise InputError(NOTIFY_WEBHOOK_SETTING, "must be an http:// or https:// URL with a host")
    server = _smtp_server(text_setting(values, NOTIFY_SMTP_SETTING))
    host, port = server.host, server.port
    user = text_setting(values, NOTIFY_SMTP_USER_SETTING) or server.user
    password = secret_setting(values, NOTIFY_SMTP_PASSWORD_SETTING) or server.password
    if bool(user) != (password is not None):
        missing = NOTIFY_SMTP_PASSWORD_SETTING if user else NOTIFY_SMTP_USER_SETTING
        raise InputError(missing, "a login needs both a user and a password (in the URL or in their settings)")
    for name, value in ((NOTIFY_SMTP_USER_SETTING, user), (NOTIFY_SMTP_PASSWORD_SETTING, password)):
        shown = value.reveal() if isinstance(value, Secret) else value
        if shown and not shown.isascii():  # smtplib sends a login as ASCII
            raise InputError(name, "must be ASCII characters, as SMTP logins are sent")
    if user and not host:
        raise InputError(NOTIFY_SMTP_SETTING, "is needed with a login: the server to log in to")
    if password is not None and not server.tls and not _loopback(host):
        raise InputError(
            NOTIFY_SMTP_SETTING,
            "sends a password only encrypted: use smtps://host:port or smtp://host:port?starttls=1"
            " (plain SMTP with a login only to this machine)",
        )
    ca = text_setting(values, NOTIFY_SMTP_CA_SETTING)
    if ca and not Path(ca).is_file():
        raise InputError(NOTIFY_SMTP_CA_SETTING, f"names no file: {ca!r}")
    keep = int_setting(
        values, NOTIFY_KEEP_DAYS_SETTING, DEFAULT_NOTIFY_KEEP_DAYS, minimum=MIN_NOTIFY_KEEP_DAYS, maximum=36500
    )
    sender = text_setting(values, NOTIFY_FROM_SETTING)
    if host and not sender:
        raise InputError(NOTIFY_FROM_SETTING, f"is needed with {NOTIFY_SMTP_SETTING}: the address mails are sent from")
    for name, address in [(NOTIFY_FROM_SETTING, sender)] * bool(sender) + [
        (NOTIFY_TO_SETTING, entry) for entry in _listed(text_setting(values, NOTIFY_TO_SETTING))
    ]:
        if not _MAIL.fullmatch(address):
            raise InputError(name, f"{address!r} is not an email address")
    public = text_setting(values, PUBLIC_URL_SETTING, DEFAULT_PUBLIC_URL).removesuffix("/")
    public_parts = urllib.parse.urlsplit(public)
    if public_parts.scheme not in ("http", "https") or not public_parts.netloc or public_parts.query:
        raise InputError(PUBLIC_URL_SETTING, f"must be an http:// or https:// address, e.g. {DEFAULT_PUBLIC_URL}")
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
    refusal = (
        "write smtp://host:port, smtp://host:port?starttls=1 or smtps://host:port, e.g. smtp://localhost:25; got {}"
    )
    try:
        parts = urllib.parse.urlsplit(raw)
        port = parts.port
    except ValueError:
        parts, port = None, None
    # The refusal never repeats a URL that holds a password.
    shown = "a URL with a login" if "@" in raw else repr(raw)
    if parts is None or parts.scheme not in ("smtp", "smtps") or not parts.hostname or port is None:
        raise InputError(NOTIFY_SMTP_SETTING, refusal.format(shown))
    if parts.path not in ("", "/") or parts.fragment:
        raise InputError(NOTIFY_SMTP_SETTING, refusal.format(shown))
    options = urllib.parse.parse_qs(parts.query, keep_blank_values=True)
    starttls = options.pop("starttls", [])
    if options or len(starttls) > 1 or (starttls and starttls[0] not in ("1", "true", "yes")):
        raise InputError(NOTIFY_SMTP_SETTING, "takes one option, starttls=1: " + refusal.format(shown))
    if starttls and parts.scheme == "smtps":
        raise InputError(NOTIFY_SMTP_SETTING, "smtps:// is encrypted from the start; starttls=1 is for smtp://")
    if (parts.username is None) != (parts.password is None) or parts.username == "":
        raise InputError(NOTIFY_SMTP_SETTING, "a login in the URL is user:password@host")
    tls = "tls" if parts.scheme == "smtps" else "starttls" if starttls else ""
    user = urllib.parse.unquote(parts.username) if parts.username else ""
    password = Secret(urllib.parse.unquote(parts.password)) if parts.password else None
    return SmtpServer(parts.hostname, port, tls, user, password)


def sla_setting(values: Mapping[str, str], agents: tuple[str, ...]) -> tuple[tuple[str, int], ...]:
    """``HITL_SLA`` as (agent, seconds) pairs: ``refund=24h,lecture=48h``; unset gives no deadline.

    Each entry names a known agent once, with a whole number above zero and a unit (s, m, h, d);
    anything else is refused, naming the setting and the entry.
    """
    raw = text_setting(values, SLA_SETTING)
    if not raw:
        return ()
    found: dict[str, int] = {}
    for entry in raw.split(","):
        name, equals, span = (part.strip() for part in entry.partition("="))
        if not equals or not name:
            raise InputError(SLA_SETTING, f"write agent=duration, e.g. refund=24h,lecture=48h; got {entry.strip()!r}")
        if name not in agents:
            raise InputError(SLA_SETTING, f"no agent named {name!r}; agents: {', '.join(agents)}")
        if name in found:
            raise InputError(SLA_SETTING, f"{name!r} is given twice")
        match = _SLA_SPAN.fullmatch(span)
        if match is None or int(match[1]) == 0:
            raise InputError(
                SLA_SETTING, f"{name}: a deadline is a whole number above 0 and a unit s, m, h or d; got {span!r}"
            )
        found[name] = int(match[1]) * SLA_UNITS[match[2]]
    return tuple(found.items())


def timezone_setting(values: Mapping[str, str]) -> str:
    """``HITL_TIMEZONE``: an IANA zone name (``Asia/Seoul``), checked; unset gives the machine's own zone."""
    raw = text_setting(values, TIMEZONE_SETTING)
    if not raw:
        return ""
    try:
        ZoneInfo(raw)
    except (ZoneInfoNotFoundError, ValueError, OSError):
        raise InputError(TIMEZONE_SETTING, f"not an IANA time zone name (e.g. Asia/Seoul, UTC); got {raw!r}") from None
    return raw


def live_refresh_setting(values: Mapping[str, str]) -> float:
    """``HITL_LIVE_REFRESH``: 0 (off) or at least half a second (a faster check would keep a page busy)."""
    seconds = float_setting(values, LIVE_REFRESH_SETTING, DEFAULT_LIVE_REFRESH_SECONDS)
    if 0 < seconds < MIN_LIVE_REFRESH_SECONDS:
        wanted = f"must be 0 (off) or at least {MIN_LIVE_REFRESH_SECONDS:g}, got {seconds:g}"
        raise InputError(LIVE_REFRESH_SETTING, wanted)
    return seconds


def roles_setting(values: Mapping[str, str], default: Path = DEFAULT_ROLES_PATH) -> Roles | None:
    """The roles file ``HITL_ROLES_FILE`` names (it must exist), else ``default`` when it exists.

    Raises:
        RolesFileError: The file is missing (when named), unreadable or wrong; the line is named.
    """
    named = text_setting(values, ROLES_FILE_SETTING)
    if named:
        return load_roles(Path(named).expanduser())
    return load_roles(default) if default.is_file() else None


def origins_setting(values: Mapping[str, str], name: str) -> tuple[str, ...]:
    """Web origins, comma separated, each ``http(s)://host[:port]`` as a browser sends it in ``Origin``.

    Lowercased, a default port (80, 443) and one trailing ``/`` dropped; ``*`` stands alone for every
    origin. Unset or blank gives none.

    Raises:
        InputError: An entry that is not an origin (a path, a query, a user name, another scheme), named.
    """
    entries = [entry.strip() for entry in text_setting(values, name).split(",") if entry.strip()]
    if "*" in entries:
        if len(entries) > 1:
            raise InputError(name, f"'*' (every origin) stands alone; got {', '.join(entries)!r}")
        return ("*",)
    return tuple(dict.fromkeys(_origin(name, entry) for entry in entries))


def _origin(name: str, entry: str) -> str:
    refusal = f"{entry!r} is not an origin: one is http(s)://host[:port], with no path, e.g. http://localhost:3000"
    try:
        parts = urllib.parse.urlsplit(entry.lower().removesuffix("/"))
        port = parts.port
    except ValueError:
        raise InputError(name, refusal) from None
    host = parts.hostname or ""
    if not host.isascii():
        raise InputError(name, f"{refusal} (a name in another script in its punycode form, xn--...)")
    if (
        parts.scheme not in ("http", "https")
        or not (_HOST_NAME.fullmatch(host) or (":" in host and _IPV6.fullmatch(host)))
        or parts.username is not None
        or parts.path
        or "?" in entry
        or "#" in entry
    ):
        raise InputError(name, refusal)
    shown = f"[{host}]" if ":" in host else host
    default = {"http": 80, "https": 443}[parts.scheme]
    return f"{parts.scheme}://{shown}" + (f":{port}" if port is not None and port != default else "")


_HOST_NAME = re.compile(r"[a-z0-9-]+(\.[a-z0-9-]+)*")
_IPV6 = re.compile(r"[0-9a-f:.]+")


def text_setting(values: Mapping[str, str], name: str, default: str = "") -> str:
    """A setting as stripped text; unset or blank gives ``default``."""
    return str(values.get(name) or "").strip() or default


def secret_setting(values: Mapping[str, str], *names: str) -> Secret | None:
    """The first of ``names`` that is set, as a :class:`Secret` (None when none is)."""
    for name in names:
        value = text_setting(values, name)
        if value:
            return Secret(value)
    return None


def int_setting(values: Mapping[str, str], name: str, default: int, *, minimum: int, maximum: int) -> int:
    """A whole-number setting within bounds; anything else is refused, naming the setting."""
    raw = text_setting(values, name)
    if not raw:
        return default
    try:
        number = int(raw)
    except ValueError:
        raise InputError(name, f"must be a whole number from {minimum} to {maximum}; got {raw!r}") from None
    if not minimum <= number <= maximum:
        raise InputError(name, f"must be from {minimum} to {maximum}; got {number}")
    return number


def float_setting(values: Mapping[str, str], name: str, default: float, *, minimum: float = 0.0) -> float:
    """A finite number setting of at least ``minimum``; anything else is refused, naming the setting."""
    raw = text_setting(values, name)
    if not raw:
        return default
    try:
        number = float(raw)
    except ValueError:
        raise InputError(name, f"must be a number, got {raw!r}") from None
    if number < minimum or not math.isfinite(number):
        raise InputError(name, f"must be a finite number of at least {minimum:g}, got {raw!r}")
    return number


def choice_setting(values: Mapping[str, str], name: str, choices: tuple[str, ...], default: str) -> str:
    """One of ``choices`` (case-insensitive); anything else is refused, naming the setting."""
    raw = text_setting(values, name, default).lower()
    if raw not in choices:
        raise InputError(name, f"must be one of {', '.join(choices)}; got {raw!r}")
    return raw


def bool_setting(values: Mapping[str, str], name: str, default: bool = False) -> bool:
    """An on/off setting: 1/true/yes/on or 0/false/no/off (any case); anything else is refused by name."""
    raw = text_setting(values, name).lower()
    if not raw:
        return default
    if raw in ("1", "true", "yes", "on"):
        return True
    if raw in ("0", "false", "no", "off"):
        return False
    raise InputError(name, f"must be on or off (1/0, true/false, yes/no); got {raw!r}")
