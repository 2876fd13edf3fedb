"""Reading the lecture planner's own settings: whole numbers within bounds, and on/off switches.

A bad value is refused with :class:`~agents.errors.InputError` naming the
setting, so a typo in the environment or ``secrets.toml`` is a clear message,
not a traceback.
"""

from __future__ import annotations

from agents.errors import InputError
from agents.settings import Settings


def parse_int_setting(settings: Settings, name: str, default: int, minimum: int, maximum: int) -> int:
    """A whole-number setting within bounds; a bad value is refused, naming the setting."""
    raw = settings.get(name)
    if raw is None:
        return default
    try:
        value = int(str(raw).strip())
    except ValueError:
        raise InputError(name, f"must be a whole number, got {raw!r}") from None
    if not minimum <= value <= maximum:
        raise InputError(name, f"must be between {minimum} and {maximum}, got {value}")
    return value


def parse_bool_setting(settings: Settings, name: str, default: bool = False) -> bool:
    """An on/off setting: 1/true/yes/on or 0/false/no/off (any case)."""
    raw = settings.get(name)
    if raw is None:
        return default
    text = str(raw).strip().lower()
    if text in ("1", "true", "yes", "on"):
        return True
    if text in ("0", "false", "no", "off"):
        return False
    raise InputError(name, f"must be on or off (1/0, true/false, yes/no), got {raw!r}")
