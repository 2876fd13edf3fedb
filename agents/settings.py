"""Settings in one typed place.

Every setting is read, in order of precedence, from an explicit override (the
CLI's ``--db``), the process environment, and ``.streamlit/secrets.toml``. This
module is the only one that reads ``os.environ``. The raw strings are parsed
once, when the process starts, into one frozen :class:`Settings`: the core
settings here, and each agent's own typed settings from the parser its
``AgentSpec.run.settings_from`` declares. A bad value is refused at that moment,
naming the setting, and the typed object is passed down from there.

The settings of one concern each have their module: the value readers and
:class:`~agents.settings_values.Secret` in ``agents.settings_values``, the
notification settings in ``agents.settings_notify``, the HTTP API's in
``agents.settings_api``.
"""

from __future__ import annotations

import datetime as dt
import os
import re
import tomllib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from types import MappingProxyType
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from agents.errors import InputError, UserError
from agents.identity import Roles
from agents.roles_file import current_roles, load_roles
from agents.settings_api import API_TOKEN_SETTING, CORS_ORIGINS_SETTING, local_approver_setting, origins_setting
from agents.settings_notify import NotifySettings, notify_setting
from agents.settings_values import Secret, choice_setting, float_setting, secret_setting, text_setting
from agents.strings import STRINGS
from agents.texts import DEFAULT_LANGUAGE, LANGUAGES, text

PROJECT_ROOT = Path(__file__).resolve().parent.parent
DEFAULT_DB_PATH = PROJECT_ROOT / "data" / "checkpoints.sqlite"
SECRETS_PATH = PROJECT_ROOT / ".streamlit" / "secrets.toml"
DB_SETTING = "HITL_DB"
#: The command line's language (``en`` or ``ko``): its messages, and the language of the runs it starts.
LANGUAGE_SETTING = "HITL_LANG"
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
_SLA_SPAN = re.compile(r"([0-9]+)([smhd])")
#: The most units a deadline may have (9,999,999 days is past any wait; more digits would be no deadline).
SLA_MOST = 9_999_999
#: Parses the raw setting values into one agent's frozen, typed settings; raises
#: :class:`~agents.errors.InputError` naming the setting for a bad value.
SettingsParser = Callable[[Mapping[str, str]], Any]


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
        message = text(STRINGS, "error.setting.secrets_toml", path=path, error=error)
        refusal = UserError(str(message))
        refusal.text = message  # said in the reader's language
        raise refusal from None
    return {key: str(value) for key, value in data.items() if isinstance(value, str | int | float)}


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


def requested_language(
    lang_override: str | None = None,
    environ: Mapping[str, str] | None = None,
    secrets: Mapping[str, str] | None = None,
) -> str:
    """The command line's language before the settings are checked: ``--lang`` over ``HITL_LANG`` over English.

    For what is said before the settings are resolved, or instead of them: the parser's help and usage
    errors, and the refusal of a bad setting. A value that names no language gives English (resolving
    the settings refuses it, naming it), as does an unreadable secrets file (refused the same way).
    """
    try:
        merged = merged_sources(environ, secrets)
    except UserError:
        merged = merged_sources(environ, {})
    if lang_override:
        merged[LANGUAGE_SETTING] = lang_override
    raw = text_setting(merged, LANGUAGE_SETTING, DEFAULT_LANGUAGE).lower()
    return raw if raw in LANGUAGES else DEFAULT_LANGUAGE


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
        raise InputError("--db" if db_override else DB_SETTING, text(STRINGS, "error.setting.blank_db"))
    agents = {name: parse(merged) for name, parse in parsers.items()}
    api_token = secret_setting(merged, API_TOKEN_SETTING)
    if lang_override:
        merged[LANGUAGE_SETTING] = lang_override
    lang = choice_setting(merged, LANGUAGE_SETTING, LANGUAGES, DEFAULT_LANGUAGE)
    busy = float_setting(merged, DB_BUSY_TIMEOUT_SETTING, DEFAULT_DB_BUSY_TIMEOUT_SECONDS, minimum=0.001)
    roles = roles_setting(merged)
    origins = origins_setting(merged, CORS_ORIGINS_SETTING)
    if origins == ("*",) and (api_token is not None or (roles is not None and roles.has_tokens)):
        raise InputError(CORS_ORIGINS_SETTING, text(STRINGS, "error.setting.cors_star"))
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
        local_approver=local_approver_setting(merged, roles),
    )


def sla_setting(values: Mapping[str, str], agents: tuple[str, ...]) -> tuple[tuple[str, int], ...]:
    """``HITL_SLA`` as (agent, seconds) pairs: ``refund=24h,lecture=48h``; unset gives no deadline.

    Each entry names a known agent once, with a whole number from 1 to :data:`SLA_MOST` and a unit (s, m,
    h, d); anything else is refused, naming the setting and the entry.
    """
    raw = text_setting(values, SLA_SETTING)
    if not raw:
        return ()
    found: dict[str, int] = {}
    for entry in raw.split(","):
        name, equals, span = (part.strip() for part in entry.partition("="))
        if not equals or not name:
            raise InputError(SLA_SETTING, text(STRINGS, "error.setting.sla_entry", entry=repr(entry.strip())))
        if name not in agents:
            raise InputError(
                SLA_SETTING, text(STRINGS, "error.setting.sla_agent", name=repr(name), agents=", ".join(agents))
            )
        if name in found:
            raise InputError(SLA_SETTING, text(STRINGS, "error.setting.sla_twice", name=repr(name)))
        match = _SLA_SPAN.fullmatch(span)
        if match is None or int(match[1]) == 0:
            raise InputError(SLA_SETTING, text(STRINGS, "error.setting.sla_span", name=name, span=repr(span)))
        if int(match[1]) > SLA_MOST:
            raise InputError(
                SLA_SETTING, text(STRINGS, "error.setting.sla_long", name=name, span=repr(span), most=f"{SLA_MOST:,}")
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
        raise InputError(TIMEZONE_SETTING, text(STRINGS, "error.setting.timezone", value=repr(raw))) from None
    return raw


def live_refresh_setting(values: Mapping[str, str]) -> float:
    """``HITL_LIVE_REFRESH``: 0 (off) or at least half a second (a faster check would keep a page busy)."""
    seconds = float_setting(values, LIVE_REFRESH_SETTING, DEFAULT_LIVE_REFRESH_SECONDS)
    if 0 < seconds < MIN_LIVE_REFRESH_SECONDS:
        wanted = text(
            STRINGS, "error.setting.live_refresh", minimum=f"{MIN_LIVE_REFRESH_SECONDS:g}", value=f"{seconds:g}"
        )
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


def current_settings(settings: Settings) -> Settings:
    """``settings`` with its roles as the roles file says now (:func:`agents.roles_file.current_roles`): what a
    process that keeps its settings (the dashboard, ``serve``, a deliverer) acts on, so an approver taken off
    the file, or a token revoked, acts on nothing from then on, without a restart.

    Raises:
        RolesFileError: The file changed and cannot be used now (see :func:`~agents.roles_file.current_roles`).
    """
    roles = current_roles(settings.roles)
    return settings if roles is settings.roles else replace(settings, roles=roles)
