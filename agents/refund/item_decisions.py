"""Who decided a refund case with several items, and when, as its audit row says it.

Each item of such a case is decided on its own (``agents.refund.items``), so the case's state holds no one
decision: each entry of its ``item_results`` names its item's decision, approver and time. The audit's row of
the case reads them together (:func:`case_decision`), so an auditor sees on the case what its items say:

* ``decision``: ``approve`` when every decided item was approved (edited or settled automatically included),
  ``reject`` when every one was rejected, ``mixed`` when some were approved and some rejected;
* ``approver``: the people who decided its items, each once, in the items' order, joined by ", "; the
  agent's automatic settlement (``automatic``) only when no person decided any of them;
* ``approver_name`` and ``approver_role``: the signed-in approvers' display names and roles, each once;
* ``decided_at``: when its last item was decided.

While some items still wait, the row says what was decided so far (its status says it waits).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from agents.refund.rules import AUTOMATIC_APPROVER

#: A case's decision when some of its items were approved and others rejected.
MIXED = "mixed"
#: How the audit joins several approvers (names, roles, batches) in one cell.
JOIN = ", "


@dataclass(frozen=True)
class CaseDecision:
    """What the audit row of a case with items says of its decisions (empty while none was made)."""

    decision: str = ""
    approver: str = ""
    approver_name: str = ""
    approver_role: str = ""
    decided_at: str = ""


def joined_approvers(approvers: Iterable[Any]) -> str:
    """The people who decided, each once, in order, joined; ``automatic`` only when no person did."""
    named = [str(who) for who in approvers if isinstance(who, str) and who]
    people = [who for who in dict.fromkeys(named) if who != AUTOMATIC_APPROVER]
    if people:
        return JOIN.join(people)
    return AUTOMATIC_APPROVER if AUTOMATIC_APPROVER in named else ""


def _joined(values: Iterable[Any]) -> str:
    return JOIN.join(dict.fromkeys(str(value) for value in values if isinstance(value, str) and value))


def case_decision(values: Mapping[str, Any]) -> CaseDecision:
    """The decision, approvers and last decision time of a case with items, from its ``item_results``."""
    results = values.get("item_results")
    decided = [r for r in results if isinstance(r, dict)] if isinstance(results, list) else []
    decided = [r for r in decided if r.get("decision") in ("approve", "reject")]
    if not decided:
        return CaseDecision()
    kinds = {r["decision"] for r in decided}
    people = [r for r in decided if r.get("approver") != AUTOMATIC_APPROVER]
    times = [str(r["decided_at"]) for r in decided if isinstance(r.get("decided_at"), str) and r["decided_at"]]
    return CaseDecision(
        decision=kinds.pop() if len(kinds) == 1 else MIXED,
        approver=joined_approvers(r.get("approver") for r in decided),
        approver_name=_joined(r.get("approver_name") for r in people),
        approver_role=_joined(r.get("approver_role") for r in people),
        decided_at=max(times, default=""),
    )
