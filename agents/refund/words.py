"""How a refund case is written in its trace and its question, in the run's language.

Shared by the graph (which writes the trace and asks) and the spec (which adds a trace line for an
``update_state``), so the spec describes the agent without importing its graph.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from agents.refund.rules import UPDATE_STATE_EDITOR, krw
from agents.refund.strings import STRINGS
from agents.texts import say


def decision_word(decision: str, lang: str) -> str:
    """A decision code (``approve``/``reject``) as the trace writes it in ``lang``; the state keeps the code."""
    return say(STRINGS, f"refund.say.{decision}", lang) if decision in ("approve", "reject") else decision


def amount_line(old: int | None, new: int | None, approver: str | None, lang: str, *, by_update: bool) -> str:
    """The trace line of an amount change, e.g. ``amount 500,000 → 300,000 by kim``, in ``lang``."""
    editor = approver or UPDATE_STATE_EDITOR
    if by_update and approver:
        editor = say(STRINGS, "refund.say.edited_by", lang, approver=approver)
    return say(STRINGS, "refund.say.amount", lang, old=krw(old), new=krw(new), editor=editor)


def question_params(payload: dict[str, Any]) -> dict[str, Any]:
    """The values the question names."""
    return {
        "case_id": payload["case_id"],
        "customer": payload["customer"],
        "amount": krw(payload["amount"]),
        "requested": krw(payload["requested_amount"]),
    }


def item_question_params(payload: dict[str, Any]) -> dict[str, Any]:
    """The values an item's question names."""
    return {
        "case_id": payload["case_id"],
        "item": payload["item"],
        "customer": payload["customer"],
        "amount": krw(payload.get("amount", payload["requested_amount"])),
        "requested": krw(payload["requested_amount"]),
    }


def items_waiting_params(payloads: Sequence[dict[str, Any]], together: int) -> dict[str, Any]:
    """The values the reason of a case waiting on several items names: the case, its items waiting and their
    number, and ``together``, what they ask for in all."""
    first = payloads[0]
    return {
        "case_id": first["case_id"],
        "customer": first["customer"],
        "count": len(payloads),
        "items": ", ".join(str(payload["item"]) for payload in payloads),
        "amount": krw(together),
    }
