"""Validators shared by the forms and the CLI. Each raises InputError naming the field."""

from __future__ import annotations

import ipaddress
import json
import math
import re
import unicodedata
from typing import Any

from agents.errors import InputError
from agents.strings import STRINGS
from agents.texts import DEFAULT_LANGUAGE, LANGUAGES, Text, text


def _text(key: str, /, **params: Any) -> Text:
    return text(STRINGS, key, **params)


THREAD_ID_MAX = 128


def validate_language(lang: Any, field: str = "lang") -> str:
    """A run language (:data:`agents.texts.LANGUAGES`); None means English."""
    if lang is None:
        return DEFAULT_LANGUAGE
    if lang not in LANGUAGES:
        raise InputError(field, _text("error.choice", allowed=", ".join(LANGUAGES), value=repr(lang)))
    return str(lang)


#: Punctuation a thread id may hold besides letters and digits.
THREAD_ID_PUNCTUATION = "_.:-"


def validate_thread_id(value: Any, field: str = "thread_id", *, empty: Text | None = None) -> str:
    """Returns a safe thread id, NFC-normalised: letters and digits of any script, and ``_ . : -``.

    ``건-1042``, ``案件_7`` and ``café.1`` are accepted (with the combining marks
    some scripts need after a letter); whitespace, control and
    format characters, quotes, slashes and other symbols are refused, and so is
    an id over 128 characters. It starts with a letter or a digit.

    Other ids written in the same letters (a refund's case id, an item id) are checked here too;
    ``empty`` is what refuses an empty one, naming which id to give (a thread id's message when None).
    """
    if isinstance(value, str):
        check_encodable(value, field)
    text = unicodedata.normalize("NFC", str(value if value is not None else "").strip())
    if not text:
        raise InputError(field, empty if empty is not None else _text("error.empty_thread_id"))
    if len(text) > THREAD_ID_MAX:
        raise InputError(field, _text("error.too_long", length=len(text), limit=THREAD_ID_MAX))
    for position, char in enumerate(text):
        kind = unicodedata.category(char)[0]
        allowed = kind in "LN" or (position > 0 and (kind == "M" or char in THREAD_ID_PUNCTUATION))
        if not allowed:  # marks (M) combine with the letter before them, as in many scripts
            raise InputError(field, _text("error.thread_id_chars", char=repr(char), code=f"{ord(char):04X}"))
    return text


#: The ASCII thread ids `validate_thread_id` returns unchanged, told without a loop over the characters.
_PLAIN_THREAD_ID = re.compile(rf"[A-Za-z0-9][A-Za-z0-9{re.escape(THREAD_ID_PUNCTUATION)}]{{0,{THREAD_ID_MAX - 1}}}")


def is_dashboard_thread_id(thread_id: str) -> bool:
    """Whether ``thread_id`` is an id as `validate_thread_id` returns it, the only ids the dashboard acts on.

    Other tooling can save a thread under any id: one with a space or a slash, or ``cafe\u0301`` whose
    NFC form ``café`` names another thread.
    """
    if _PLAIN_THREAD_ID.fullmatch(thread_id):
        return True
    try:
        return validate_thread_id(thread_id) == thread_id
    except InputError:
        return False


def confirms_thread_id(typed: str, thread_id: str) -> bool:
    """Whether ``typed`` confirms a delete of ``thread_id``: the same id, surrounding spaces and Unicode
    composition aside (a keyboard types ``café`` composed; the thread deleted is ``thread_id`` as named)."""
    return unicodedata.normalize("NFC", typed.strip()) == unicodedata.normalize("NFC", thread_id.strip())


def check_encodable(text: str, field: str) -> str:
    """Refuses text that cannot be stored as UTF-8: a lone surrogate, e.g. from non-UTF-8 command-line bytes."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as error:
        bad = text[error.start]
        raise InputError(field, _text("error.not_utf8", code=f"{ord(bad):04X}")) from None
    return text


#: The bidirectional embeddings, overrides and isolates: they reorder what a reader sees (a name
#: ``k\u202exn`` reads ``knx``), so no typed text may hold them.
BIDI_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


#: Every character :meth:`str.splitlines` ends a line at: ``\n`` and ``\r``, and besides them the vertical tab,
#: form feed, the file, group and record separators, NEL and the Unicode line and paragraph separators. Python's
#: ``email`` reads a header at these too, so a one-line value holding any of them (a customer's name in a
#: mail's ``Subject``) would become a line of its own.
LINE_BREAKS = frozenset("\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029")


def validate_text(value: Any, field: str, *, max_length: int, multiline: bool = False, trim: bool = True) -> str:
    """Returns trimmed text; refuses empty, oversized, control characters and bidirectional controls.

    One-line text (``multiline=False``: a name, a case's note, a title) holds no :data:`LINE_BREAKS`;
    multi-line text may hold ``\n`` and tabs besides. Text of nothing a reader can see
    (only spaces and invisible format characters such as U+200B) counts as empty. Other format
    characters stay: joiners are part of some scripts and emoji. With ``trim=False`` the text is
    returned as given, spaces around it included (an answer that is compared exactly: ``"yes "`` is
    not ``"yes"``).
    """
    if not isinstance(value, str):
        raise InputError(field, _text("error.not_text", kind=type(value).__name__))
    text = check_encodable(value, field)
    text = text.strip() if trim else text
    if all(char.isspace() or unicodedata.category(char) == "Cf" for char in text):
        raise InputError(field, _text("error.empty"))
    if len(text) > max_length:
        raise InputError(field, _text("error.too_long", length=len(text), limit=max_length))
    allowed = "\n\t" if multiline else ""
    for char in text:
        if not multiline and char in LINE_BREAKS:
            raise InputError(field, _text("error.line_break", code=f"{ord(char):04X}"))
        if (unicodedata.category(char) == "Cc" and char not in allowed) or char in BIDI_CONTROLS:
            raise InputError(field, _text("error.control_char", code=f"{ord(char):04X}"))
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
        raise InputError(field, _text("error.number_too_long", length=len(stripped)))
    if _WHOLE_NUMBER.fullmatch(stripped) and (allow_negative or not stripped.startswith("-")):
        return int(stripped.replace(",", ""))
    raise InputError(field, _text("error.number_grammar", value=repr(text)))


def whole_number(value: Any, field: str, *, text: bool = True, allow_negative: bool = False) -> int:
    """The one rule of a whole number, on every path: an ``int``, never a boolean nor a number with decimals.

    ``150000.0`` is refused too (a JSON client writes a whole number without them, as the command line
    does), and so is a JSON string (``"500,000"``): an amount in JSON is a JSON number. With ``text``, text
    typed by a person (a command-line option, a text box) is read first by :func:`parse_whole_number`.
    """
    if isinstance(value, bool):
        raise InputError(field, _text("error.number_not_bool"))
    if isinstance(value, str) and text:
        value = parse_whole_number(value, field, allow_negative=allow_negative)
    if isinstance(value, float):
        raise InputError(field, _text("error.number_decimals", value=repr(value)))
    if isinstance(value, str):
        raise InputError(field, _text("error.number_text", value=repr(value)))
    if not isinstance(value, int):
        raise InputError(field, _text("error.number", value=type(value).__name__))
    return value


def validate_int(value: Any, field: str, *, minimum: int, maximum: int, text: bool = True) -> int:
    """Returns a whole number (:func:`whole_number`) within bounds."""
    value = whole_number(value, field, text=text, allow_negative=minimum < 0)
    if value < minimum or value > maximum:
        raise InputError(field, _text("error.number_range", minimum=minimum, maximum=maximum, value=value))
    return value


#: How deeply JSON given by a person may nest, and how large a whole value may be once encoded.
JSON_MAX_DEPTH = 32
JSON_MAX_BYTES = 512 * 1024
#: Integers inside JSON values must fit a signed 64-bit integer (the checkpoint serializer's limit).
INT64_MIN, INT64_MAX = -(2**63), 2**63 - 1


def parse_json(text: str, field: str, *, max_bytes: int = JSON_MAX_BYTES) -> Any:
    """Parses JSON typed by a person; refuses, naming the field, what no state could hold.

    Refused: invalid JSON (with the position), text over ``max_bytes``, nesting
    deeper than :data:`JSON_MAX_DEPTH` (Python's parser would otherwise die of a
    ``RecursionError``), integers outside 64 bits, and strings that are not
    valid UTF-8 (lone surrogates such as ``"\ud800"``).
    """
    check_encodable(text, field)
    size = len(text.encode("utf-8"))
    if size > max_bytes:
        raise InputError(field, _text("error.json_size", size=size, limit=max_bytes))
    if _nesting_depth(text) > JSON_MAX_DEPTH:
        raise InputError(field, _text("error.json_depth", depth=JSON_MAX_DEPTH))
    return check_json_value(_loads(text, field), field, max_bytes=max_bytes)


class _NotFinite(ValueError):
    """``NaN``, ``Infinity`` or a number beyond a float (``1e999``): Python reads them, JSON has no such numbers."""


def _refuse_constant(name: str) -> Any:
    raise _NotFinite(name)


def _finite_float(literal: str) -> float:
    value = float(literal)
    if not math.isfinite(value):
        raise _NotFinite(literal[:40])
    return value


#: Python's ``json`` module's reasons, by the catalogue key that says each in the reader's language.
_JSON_REASONS = {
    "Expecting value": "json.expecting_value",
    "Expecting property name enclosed in double quotes": "json.expecting_name",
    "Expecting ':' delimiter": "json.expecting_colon",
    "Expecting ',' delimiter": "json.expecting_comma",
    "Unterminated string starting at": "json.unterminated_string",
    "Invalid control character at": "json.control_character",
    "Invalid \\escape": "json.invalid_escape",
    "Invalid \\uXXXX escape": "json.invalid_unicode_escape",
    "Extra data": "json.extra_data",
}


def _json_reason(reason: str) -> Text | str:
    """Why ``json.loads`` refused a text, in the reader's language where it is one of the module's own reasons."""
    key = _JSON_REASONS.get(reason)
    return reason if key is None else _text(key)


def _loads(text: str, field: str) -> Any:
    """``json.loads`` as RFC 8259 has JSON; anything it cannot parse is an ``InputError`` naming ``field``.

    Refused besides syntax errors: ``NaN``, ``Infinity`` and numbers beyond a float (``1e999``, read
    by Python as infinity; no other client reads them back), an integer longer than Python converts
    (4,300 digits, far beyond 64 bits), and nesting deep enough to exhaust Python's stack.
    """
    try:
        return json.loads(text, parse_constant=_refuse_constant, parse_float=_finite_float)
    except json.JSONDecodeError as error:
        raise JsonSyntaxError(
            field, _text("error.json_syntax", reason=_json_reason(error.msg), position=error.pos)
        ) from None
    except RecursionError:
        raise InputError(field, _text("error.json_depth", depth=JSON_MAX_DEPTH)) from None
    except _NotFinite as error:
        raise InputError(field, _text("error.json_constant", name=str(error))) from None
    except ValueError:  # int()'s limit of 4,300 digits
        raise InputError(field, _text("error.json_int64")) from None


def check_json_body(data: bytes, field: str = "body") -> Any:
    """Parses a request body as JSON; refuses, naming ``field``, bytes that are not UTF-8 or not JSON.

    Only what no parser can turn into a value is refused here (the limits on each field, such as
    :data:`JSON_MAX_DEPTH`, are the field's own checks): bytes that are not UTF-8 (RFC 8259 has JSON
    in UTF-8; a leading byte order mark is allowed), and what :func:`_loads` refuses.
    """
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise InputError(field, _text("error.body_not_utf8", offset=error.start, byte=data[error.start])) from None
    return _loads(text.removeprefix("\ufeff"), field)


def _nesting_depth(text: str) -> int:
    """The deepest bracket nesting outside strings (a scan, so no recursion)."""
    depth = deepest = 0
    in_string = escaped = False
    for char in text:
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif char in "]}":
            depth -= 1
    return deepest


def check_json_value(value: Any, field: str, *, max_bytes: int = JSON_MAX_BYTES) -> Any:
    """Checks a JSON-like value (from a form or parsed text) as :func:`parse_json` does; returns it."""
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:  # iterative, so a deep value cannot exhaust the stack
        item, depth = stack.pop()
        if depth > JSON_MAX_DEPTH:
            raise InputError(field, _text("error.json_depth", depth=JSON_MAX_DEPTH))
        if isinstance(item, bool) or item is None or isinstance(item, float):
            continue
        if isinstance(item, int):
            if not INT64_MIN <= item <= INT64_MAX:
                raise InputError(field, _text("error.json_int64"))
        elif isinstance(item, str):
            check_encodable(item, field)
        elif isinstance(item, dict):
            for key, nested in item.items():
                if not isinstance(key, str):
                    raise InputError(field, _text("error.json_key", key=repr(key)))
                check_encodable(key, field)
                stack.append((nested, depth + 1))
        elif isinstance(item, list | tuple):
            stack.extend((nested, depth + 1) for nested in item)
        else:
            raise InputError(field, _text("error.json_kind", kind=type(item).__name__))
    size = len(json.dumps(value, ensure_ascii=False).encode("utf-8"))
    if size > max_bytes:
        raise InputError(field, _text("error.json_encoded_size", size=size, limit=max_bytes))
    return value


class JsonSyntaxError(InputError):
    """The text is not JSON at all (as opposed to JSON that breaks a limit)."""


def parse_answer(text: str, field: str = "value") -> Any:
    """A resume answer typed as text: a JSON object when the text is one, otherwise the text itself.

    JSON that breaks a limit of :func:`parse_json` is refused rather than taken as text.
    """
    try:
        value = parse_json(text, field)
    except JsonSyntaxError:
        return text
    return value if isinstance(value, dict) else text


def parse_json_object(text: str, field: str) -> dict[str, Any]:
    """Parses a JSON object, with a message that names the field and the position."""
    value = parse_json(text, field)
    if not isinstance(value, dict):
        raise InputError(field, _text("error.json_object", kind=type(value).__name__))
    return value


def is_loopback(host: str) -> bool:
    """Whether ``host`` names this machine only (``127.0.0.0/8``, ``::1``, ``localhost``; brackets allowed)."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False
