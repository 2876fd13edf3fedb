"""The HTTP API's settings: its bearer token and the web origins allowed to call it from a browser."""

from __future__ import annotations

import re
import unicodedata
import urllib.parse
from collections.abc import Mapping

from agents.errors import InputError
from agents.identity import EMAIL_MAX_LENGTH, Roles
from agents.names import is_reserved_name
from agents.settings_values import text_setting
from agents.strings import STRINGS
from agents.texts import text

#: The HTTP API's bearer token (``python -m agents serve``); a secret.
API_TOKEN_SETTING = "HITL_API_TOKEN"
#: The web origins whose pages may call the HTTP API from a browser (CORS), comma separated; none by default.
CORS_ORIGINS_SETTING = "HITL_API_CORS_ORIGINS"
#: The approver a decision naming none is recorded under in local mode (no roles file): Agent Inbox sends none.
LOCAL_APPROVER_SETTING = "HITL_LOCAL_APPROVER"


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
            raise InputError(name, text(STRINGS, "error.setting.origin_alone", entries=repr(", ".join(entries))))
        return ("*",)
    return tuple(dict.fromkeys(_origin(name, entry) for entry in entries))


def _origin(name: str, entry: str) -> str:
    refusal = text(STRINGS, "error.setting.not_origin", entry=repr(entry))
    try:
        parts = urllib.parse.urlsplit(entry.lower().removesuffix("/"))
        port = parts.port
    except ValueError:
        raise InputError(name, refusal) from None
    host = parts.hostname or ""
    if not host.isascii():
        raise InputError(name, text(STRINGS, "error.setting.not_origin_script", entry=repr(entry)))
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


def local_approver_setting(values: Mapping[str, str], roles: Roles | None) -> str:
    """``HITL_LOCAL_APPROVER``: a name a person is known by, refused beside a roles file.

    With a roles file a decision is recorded under whoever signed in (four eyes and limits weigh that
    identity); a configured name there would stand for someone no one signed in as. A name that reads
    as one the agents write themselves (``automatic``, ``update_state``, or anything that looks like
    them) is refused here, at start, by the check a typed approver meets
    (:func:`agents.names.is_reserved_name`): every decision it filled in would be refused.
    """
    name = text_setting(values, LOCAL_APPROVER_SETTING)
    if not name:
        return ""
    if roles is not None:
        raise InputError(LOCAL_APPROVER_SETTING, text(STRINGS, "error.setting.local_approver_roles"))
    if len(name) > EMAIL_MAX_LENGTH or any(unicodedata.category(c) in ("Cc", "Cf", "Zl", "Zp") for c in name):
        raise InputError(
            LOCAL_APPROVER_SETTING, text(STRINGS, "error.setting.local_approver_name", maximum=EMAIL_MAX_LENGTH)
        )
    if is_reserved_name(name):
        raise InputError(
            LOCAL_APPROVER_SETTING, text(STRINGS, "error.setting.local_approver_reserved", name=repr(name))
        )
    return name
