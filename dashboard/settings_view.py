"""What an admin sees of the settings: each one the dashboard runs with, never a secret's value.

The database location is shown without a password; a key or token shows only whether it is set; the
roles file shows its path and how many people and tokens it lists; each agent's typed settings are
shown field by field.
"""

from __future__ import annotations

import dataclasses
from urllib.parse import urlsplit, urlunsplit

import pandas as pd
import streamlit as st

from agents import ages
from agents.identity import SEE_SETTINGS
from agents.registry import AGENTS
from agents.settings import Settings
from agents.settings_values import Secret
from dashboard import auth
from dashboard.i18n import current_language, t, t_or
from dashboard.views import show_table


def without_password(location: str) -> str:
    """A database location with any password in its URL replaced by ``***`` (a file path as it is)."""
    parts = urlsplit(location)
    if not parts.scheme or parts.password is None:
        return location
    user = parts.username or ""
    host = parts.hostname or ""
    netloc = f"{user}:***@{host}" + (f":{parts.port}" if parts.port else "")
    return urlunsplit(parts._replace(netloc=netloc))


def _words(value: object) -> str:
    """A setting's value in words: a secret only as set, a list joined, a switch as on or off."""
    if isinstance(value, Secret):
        return t("settings.set")
    if value is None or value == "":
        return t("settings.not_set")
    if isinstance(value, bool):
        return t("settings.on") if value else t("settings.off")
    if isinstance(value, tuple):
        return " → ".join(str(item) for item in value)
    return str(value)


def _agent_rows(prefix: str, label: str, values: object) -> list[tuple[str, str]]:
    """An agent's typed settings, field by field (nested settings, e.g. the lecture's services, flattened)."""
    rows: list[tuple[str, str]] = []
    for item in dataclasses.fields(values):  # type: ignore[arg-type]
        value, path = getattr(values, item.name), f"{prefix}.{item.name}"
        if dataclasses.is_dataclass(value) and not isinstance(value, (type, Secret)):  # a Secret is one value
            rows += _agent_rows(path, label, value)
        else:
            rows.append((f"{label}: {t_or(f'settings.{path}', path)}", _words(value)))
    return rows


def _deadlines(settings: Settings) -> str:
    """``HITL_SLA`` in words: ``refund=1 d 0 h, lecture=2 d 0 h`` (empty when no agent has a deadline)."""
    lang = current_language()
    return ", ".join(f"{agent}={ages.span_text(seconds).render(lang)}" for agent, seconds in settings.sla)


def _notify_rows(settings: Settings) -> list[tuple[str, str]]:
    """Where notifications go: the webhook by its host alone (its URL is a secret), the mail server with its user
    (never its password) and addresses, and how long delivered ones are kept."""
    notify = settings.notify
    webhook = t("settings.notify_webhook_host", host=notify.webhook_host) if notify.webhook else t("settings.not_set")
    smtp = notify.smtp_address or t("settings.not_set")
    return [
        (t("settings.notify_webhook"), webhook),
        (t("settings.notify_smtp"), smtp),
        (t("settings.notify_smtp_ca"), notify.smtp_ca or t("settings.notify_system_ca")),
        (t("settings.notify_keep_days"), str(notify.keep_days)),
        (t("settings.notify_from"), _words(notify.mail_from)),
        (t("settings.notify_to"), ", ".join(notify.mail_to) or t("settings.not_set")),
        (t("settings.public_url"), notify.public_url),
    ]


def settings_rows(settings: Settings) -> list[tuple[str, str]]:
    """(setting, value) pairs, in words; no secret's value is among them."""
    roles = settings.roles
    roles_words = (
        t("settings.roles_file", path=roles.source, users=len(roles.users), tokens=len(roles.tokens))
        if roles is not None
        else t("settings.no_roles_file")
    )
    rows = [
        (t("settings.database"), without_password(settings.db)),
        (t("settings.sign_in"), t("settings.sign_in.on") if auth.sign_in_configured() else t("settings.sign_in.off")),
        (t("settings.roles"), roles_words),
        (t("settings.api_token"), _words(settings.api_token)),
        (t("settings.cli_language"), t(f"settings.language.{settings.lang}")),
        (t("settings.sla"), _deadlines(settings) or t("settings.no_sla")),
        (t("settings.timezone"), settings.timezone or t("settings.machine_zone", zone=str(settings.zone))),
        *_notify_rows(settings),
    ]
    for spec in AGENTS.values():
        values = settings.agents.get(spec.name)
        if dataclasses.is_dataclass(values) and not isinstance(values, type):
            rows += _agent_rows(spec.name, t(f"agent.{spec.name}.title"), values)
    return rows


def show_settings(settings: Settings) -> None:
    """The settings, for an admin (the local operator included); for anyone else, why they are not shown."""
    reason = auth.why_not(SEE_SETTINGS)
    if reason:
        st.caption(t("settings.hidden", reason=reason))
        return
    with st.expander(t("settings.title")):
        rows = settings_rows(settings)
        frame = pd.DataFrame(rows, columns=[t("settings.col.setting"), t("settings.col.value")])
        show_table(frame, t("settings.none"))
