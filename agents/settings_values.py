"""The typed readers of raw setting values, shared by the core, notification, API and agent settings.

Each reads one setting from the merged raw values (see ``agents.settings.merged_sources``) and
refuses a bad value with :class:`~agents.errors.InputError`, naming the setting. Secrets are
:class:`Secret` values: shown as ``***`` and read only with :meth:`Secret.reveal`, so no ``repr``,
log line or page can print one.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field

from agents.errors import InputError
from agents.strings import STRINGS
from agents.texts import text


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
        wanted = text(STRINGS, "error.setting.whole_number", minimum=minimum, maximum=maximum, value=repr(raw))
        raise InputError(name, wanted) from None
    if not minimum <= number <= maximum:
        raise InputError(name, text(STRINGS, "error.setting.range", minimum=minimum, maximum=maximum, value=number))
    return number


def float_setting(values: Mapping[str, str], name: str, default: float, *, minimum: float = 0.0) -> float:
    """A finite number setting of at least ``minimum``; anything else is refused, naming the setting."""
    raw = text_setting(values, name)
    if not raw:
        return default
    try:
        number = float(raw)
    except ValueError:
        raise InputError(name, text(STRINGS, "error.setting.number", value=repr(raw))) from None
    if number < minimum or not math.isfinite(number):
        raise InputError(name, text(STRINGS, "error.setting.finite", minimum=f"{minimum:g}", value=repr(raw)))
    return number


def choice_setting(values: Mapping[str, str], name: str, choices: tuple[str, ...], default: str) -> str:
    """One of ``choices`` (case-insensitive); anything else is refused, naming the setting."""
    raw = text_setting(values, name, default).lower()
    if raw not in choices:
        raise InputError(name, text(STRINGS, "error.choice", allowed=", ".join(choices), value=repr(raw)))
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
    raise InputError(name, text(STRINGS, "error.setting.on_off", value=repr(raw)))
