"""What a case's amounts read as beside its request: what it pays, or, while some of its items wait, what they
ask for and what the ledger paid so far. The case panel and the audit table both show :func:`case_amounts`."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from agents.refund.rules import amount_to_pay


def asked_amount(questions: Iterable[Any]) -> int:
    """What the waiting questions ask for together (an items case's waiting items); 0 for none."""
    asked = (question.get("requested_amount") for question in questions if isinstance(question, dict))
    return sum(value for value in asked if isinstance(value, int) and not isinstance(value, bool))


@dataclass(frozen=True)
class CaseAmounts:
    """A case's two figures after its request.

    Attributes:
        waiting: Items still wait for a decision: ``amount`` is what they ask for, ``paid`` what the
            ledger paid for the others so far. False: ``amount`` is what the case pays.
        amount: What waits, or what the case pays (None once rejected: it pays nothing).
        paid: What the ledger paid (None when nothing; 0 while items wait and none was paid).
    """

    waiting: bool
    amount: Any
    paid: int | None


def case_amounts(amount: Any, decision: Any, paid: int | None, *, waiting: int = 0) -> CaseAmounts:
    """The figures of a case whose amount to pay is ``amount`` and whose ledger paid ``paid``; ``waiting`` is
    what its waiting items ask for (:func:`asked_amount`). An items case's amount to pay is its whole
    request until every item is decided, so while some wait, what they ask for is shown instead."""
    if waiting:
        return CaseAmounts(waiting=True, amount=waiting, paid=paid or 0)
    return CaseAmounts(waiting=False, amount=amount_to_pay(amount, decision), paid=paid)
