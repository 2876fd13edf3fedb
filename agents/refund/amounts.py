"""What a case's amounts read as beside its request: what it pays, or, while some of its items wait, what they
ask for and what the ledger paid so far. The case panel, the queue and the audit table all show :func:`case_amounts`;
what waits is :func:`waiting_amount`, for a case with one amount as for a case with several items."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from agents.refund.rules import amount_to_pay


def asked_amount(questions: Iterable[Any]) -> int:
    """What the waiting questions ask for together (an items case's waiting items); 0 for none."""
    asked = (question.get("requested_amount") for question in questions if isinstance(question, dict))
    return sum(value for value in asked if isinstance(value, int) and not isinstance(value, bool))


def waiting_amount(values: Mapping[str, Any], asked: int) -> int:
    """What a case whose thread waits for a decision has waiting: its items' questions (``asked``, see
    :func:`asked_amount`) for an items case, its amount to pay for a case with one amount (0 when that
    is not a whole number). Only for a waiting thread: a decided case has nothing waiting."""
    if values.get("items"):
        return asked
    amount = amount_to_pay(values.get("amount"), values.get("decision"))
    return amount if isinstance(amount, int) and not isinstance(amount, bool) else 0


@dataclass(frozen=True)
class CaseAmounts:
    """A case's two figures after its request.

    Attributes:
        waiting: The case waits for a decision: ``amount`` is what waits (its items' questions, or its
            one amount), ``paid`` what the ledger paid so far. False: ``amount`` is what the case pays.
        amount: What waits, or what the case pays (None once rejected: it pays nothing).
        paid: What the ledger paid (None when nothing; 0 while the case waits and none was paid).
    """

    waiting: bool
    amount: Any
    paid: int | None


def case_amounts(amount: Any, decision: Any, paid: int | None, *, waiting: int = 0) -> CaseAmounts:
    """The figures of a case whose amount to pay is ``amount`` and whose ledger paid ``paid``; ``waiting`` is
    what waits for a decision in it (:func:`waiting_amount`), 0 when nothing does. An items case's amount
    to pay is its whole request until every item is decided, so while some wait, what they ask for is
    shown instead; every case still waiting reads as waiting, whether it has one amount or several items."""
    if waiting:
        return CaseAmounts(waiting=True, amount=waiting, paid=paid or 0)
    return CaseAmounts(waiting=False, amount=amount_to_pay(amount, decision), paid=paid)
