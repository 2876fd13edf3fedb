"""Validators shared by the forms and the CLI. Each raises InputError naming the field."""

from __future__ import annotations

import json
import re
import unicodedata
from typing import Any

from agents.errors import InputError

THREAD_ID_PATTERN = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.:-]*")
THREAD_ID_MAX = 128


def validate_thread_id(value: Any, field: str = "thread_id") -> str:
    """Returns a safe thread id: letters, digits, ``_ . : -``, at most 128 characters."""
    text = str(value if value is not None else "").strip()
    if not text:
        raise InputError(field, "is empty; give a thread id")
    if len(text) > THREAD_ID_MAX:
        raise InputError(field, f"is {len(text)} characters long; the limit is {THREAD_ID_MAX}")
    if not THREAD_ID_PATTERN.fullmatch(text):
        raise InputError(
            field,
            "may contain only letters, digits and _ . : - (no spaces, quotes, slashes or SQL)",
        )
    return text


def validate_text(value: Any, field: str, *, max_length: int, multiline: bool = False) -> str:
    """Returns trimmed text; refuses empty, oversized, and control characters."""
    if not isinstance(value, str):
        raise InputError(field, f"must be text, got {type(value).__name__}")
    text = value.strip()
    if not text:
        raise InputError(field, "is empty")
    if len(text) > max_length:
        raise InputError(field, f"is {len(text)} characters long; the limit is {max_length}")
    allowed = "\n\t" if multiline else ""
    for char in text:
        if unicodedata.category(char) == "Cc" and char not in allowed:
            raise InputError(field, f"contains a control character (U+{ord(char):04X})")
    return text


#: Plain ASCII digits, or digits grouped by commas in threes (``500000``, ``500,000``).
_WHOLE_NUMBER = re.compile(r"-?(?:[0-9]+|[0-9]{1,3}(?:,[0-9]{3})+)")


def parse_whole_number(text: str, field: str, *, allow_negative: bool = False) -> int:
    """Reads a whole number typed by a person: the one grammar of amounts for the CLI and the forms.

    Accepted: plain ASCII digits (``500000``) or digits grouped by commas in
    threes (``500,000``), with spaces around them. Refused, naming the field:
    misplaced commas (``500,00``, ``1,0,0``), underscores (``1_0``), non-ASCII
    digits (``１０００``), a sign (a minus only where negatives are allowed),
    decimals and spaces inside. Python's own ``int()`` accepts several of these,
    which is why it is not used on the raw text.
    """
    stripped = text.strip()
    if len(stripped) > 40:  # far beyond any amount; also keeps int() off its digit limit
        raise InputError(field, f"is {len(stripped)} characters long; no whole number here needs more than 40")
    if _WHOLE_NUMBER.fullmatch(stripped) and (allow_negative or not stripped.startswith("-")):
        return int(stripped.replace(",", ""))
    raise InputError(
        field,
        f"must be a whole number written with the digits 0-9, plainly (500000) or grouped by commas "
        f"in threes (500,000), without a sign, decimals or spaces inside; got {text!r}",
    )


def validate_int(value: Any, field: str, *, minimum: int, maximum: int) -> int:
    """Returns an integer within bounds; refuses fractions, text and booleans."""
    if isinstance(value, bool):
        raise InputError(field, "must be a whole number, not true/false")
    if isinstance(value, float):
        if not value.is_integer():
            raise InputError(field, f"must be a whole number, got {value}")
        value = int(value)
    if isinstance(value, str):
        value = parse_whole_number(value, field, allow_negative=minimum < 0)
    if not isinstance(value, int):
        raise InputError(field, f"must be a whole number, got {type(value).__name__}")
    if value < minimum or value > maximum:
        raise InputError(field, f"must be between {minimum:,} and {maximum:,}, got {value:,}")
    return value


def parse_json_object(text: str, field: str) -> dict[str, Any]:
    """Parses a JSON object, with a message that names the field and the position."""
    try:
        value = json.loads(text)
    except json.JSONDecodeError as error:
        raise InputError(field, f"is not valid JSON ({error.msg} at position {error.pos})") from None
    if not isinstance(value, dict):
        raise InputError(field, f"must be a JSON object, got {type(value).__name__}")
    return value
