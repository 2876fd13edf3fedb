"""How the dashboard writes amounts, times, empty cells and stored codes, in the session's language.

One helper per kind of value, used by every table, caption, metric and message that shows one:

* an amount: ``500,000 KRW`` in English, ``500,000원`` in Korean (:func:`amount`);
* a time: in one zone, ``HITL_TIMEZONE`` (else the machine's own; :func:`display_zone`), to the second,
  with the zone named (``2026-12-01 18:30:00 KST``), from a ``datetime``, an ISO 8601 text or epoch
  seconds (:func:`timestamp`); exports (CSV, JSON) keep UTC;
* a table cell: nothing missing shows as ``None`` or ``nan`` (:func:`cell`, :func:`clean_frame`);
* a code kept in English in the save file (a status, an outcome, a decision, a node-log status):
  its word in the session's language (:func:`code_word`); the stored value never changes.
"""

from __future__ import annotations

import datetime as dt
import math
import re
from typing import Any

import pandas as pd

from agents.tasknames import OUTSIDE_NODE
from dashboard import resources
from dashboard.i18n import catalogue, t

#: What a missing amount or value shows as.
DASH = "—"


def amount(value: Any, *, signed: bool = False, lang: str | None = None) -> str:
    """An amount of KRW with thousands separators and the unit of the language (``—`` when missing).

    ``signed`` writes the sign of a difference (``+50,000원``, ``-450,000원``). A value that is not a
    whole number (a damaged state) is shown as it is, as text. ``lang`` defaults to the session's.
    """
    if value is None or value == "":
        return DASH
    if isinstance(value, bool) or not isinstance(value, int):
        return str(value)
    return t("format.krw", lang, amount=f"{value:+,}" if signed else f"{value:,}")


#: An amount and the currency after it, across the space between them ("800,000 KRW").
_AMOUNT_AND_UNIT = re.compile(r"(?<=\d) +(?=(?:KRW|won|원)\b)")
#: A space a line never breaks at.
NO_BREAK_SPACE = "\u00a0"


def unbroken_amounts(text: str) -> str:
    """``text`` with a no-break space between each amount and its unit ("800,000 KRW"), so a line that wraps
    never leaves the unit at the start of the next one."""
    return _AMOUNT_AND_UNIT.sub(NO_BREAK_SPACE, text)


#: An interrupt id's characters shown where one must be named (the whole id is 32 hex digits).
SHORT_QUESTION_ID = 8


def short_question_id(interrupt_id: str) -> str:
    """An interrupt id cut for people (``f3519877…``): enough to tell a case's questions apart; the whole id,
    which ``resume --interrupt`` takes, goes in the caption's tooltip."""
    return interrupt_id if len(interrupt_id) <= SHORT_QUESTION_ID else f"{interrupt_id[:SHORT_QUESTION_ID]}…"


def question_label(interrupt_id: str, value: Any) -> str:
    """A waiting question as a picker names it: what it is about and for how much (``A-1 · 300,000 KRW``),
    its short id after it (two items may share a name); the id alone for a question about no item."""
    about = value.get("item") if isinstance(value, dict) else None
    if about is None:
        return short_question_id(interrupt_id)
    asked = value.get("requested_amount")
    parts = [str(about), *([amount(asked)] if asked is not None else []), short_question_id(interrupt_id)]
    return " · ".join(parts)


def to_datetime(value: Any) -> dt.datetime | None:
    """A ``datetime``, an ISO 8601 text or epoch seconds as an aware ``datetime`` (None when missing or unreadable).

    A time without a zone is taken as UTC (how the save file and the node log write them).
    """
    if value is None or value == "":
        return None
    if isinstance(value, dt.datetime):
        moment = value
    elif isinstance(value, int | float) and not isinstance(value, bool):
        if not math.isfinite(value):
            return None
        moment = dt.datetime.fromtimestamp(value, dt.UTC)
    else:
        try:
            moment = dt.datetime.fromisoformat(str(value).strip())
        except ValueError:
            return None
    return moment.replace(tzinfo=dt.UTC) if moment.tzinfo is None else moment


def display_zone() -> dt.tzinfo:
    """The zone times are shown in: ``HITL_TIMEZONE``, else the machine's own (``Settings.zone``)."""
    return resources.settings().zone


def timestamp(value: Any, zone: dt.tzinfo | None = None) -> str:
    """A time in ``zone`` (default :func:`display_zone`), to the second, with the zone named; empty when
    there is none. A table passes the zone it read once, rather than reading the settings per cell.

    A text that is not a time is shown as it is.
    """
    moment = to_datetime(value)
    if moment is None:
        return "" if cell(value) == "" else str(value)
    local = moment.astimezone(zone or display_zone())
    return f"{local:%Y-%m-%d %H:%M:%S} {local.tzname() or local.strftime('%z')}"


def cell(value: Any) -> Any:
    """A table cell: ``None`` and NaN become an empty cell; every other value is kept."""
    if value is None:
        return ""
    if isinstance(value, float) and math.isnan(value):
        return ""
    return value


def clean_frame(frame: pd.DataFrame) -> pd.DataFrame:
    """A table whose missing cells are empty (never ``None`` or ``nan``).

    A column with a gap becomes a column of text (a number as it was rounded, ``3`` for a whole one),
    so the table has one type per column, as Arrow needs; a column without gaps keeps its type.
    """
    gaps = frame.isna()
    if frame.empty or not gaps.to_numpy().any():
        return frame
    cleaned = frame.copy()
    for column in frame.columns[gaps.any().to_numpy()]:
        cleaned[column] = [
            "" if missing else _text(value) for value, missing in zip(frame[column], gaps[column], strict=True)
        ]
    return cleaned


def _text(value: Any) -> str:
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def node_name(name: str) -> str:
    """A write's node as the tables show it: a node's own name as it is (code), a write outside any node in words."""
    return t("node.outside") if name == OUTSIDE_NODE else name


def checkpoint_source(source: str) -> str:
    """A checkpoint's source (input, loop, update, fork) in the session's language; an unknown one as stored."""
    return code_word("explorer.fig.source", source)


def code_word(kind: str, code: Any, lang: str | None = None) -> str:
    """A stored code in words: the catalogue's ``<kind>.<code>``, else the code itself (``""`` for none).

    ``kind`` is e.g. ``status`` (waiting, attention, running, done), ``outcome`` (paid, executed...),
    ``decision`` (approve, reject, edit...) or ``nodelog`` (running, ok, error, interrupted).
    """
    if code is None or code == "":
        return ""
    key = f"{kind}.{code}"
    return t(key, lang) if key in catalogue() else str(code)
