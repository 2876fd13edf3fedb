"""One decision on a refund case or item: read into a typed :class:`Decision` once, checked once.

Every way to decide a refund (the page's buttons, a batch, the sidebar's resume form typed and raw, the
CLI's ``resume`` and ``decide``, the HTTP API) answers through ``agents.runs.resume_interrupts``, which
records the decision by resuming the graph under the thread's lease and refuses a stale form there. It
asks this module, through the refund spec's hooks, exactly once per answer:

* :func:`parse_decision` (the spec's ``check_resume``, before the thread is locked): the answer's shape,
  in any accepted form (a JSON object, the typed form's fields): the action, an amount only with
  ``edit``, the approver's name (text, never the agent's own names) → a :class:`Decision`;
* :func:`check_decision` (the spec's ``authorize_answer``, against the question the answer answers):
  the actor's role, an approver's limit on the amount paid, four eyes. The amount of an edit against
  the requested amount is the spec's ``check_answer``, which a ``run --answer`` also asks before the
  run starts.

``runs`` asks them again only when the thread changed between its check before the lease and its check
under it. The graph's nodes keep a final guard (:func:`guard`) for a run that did not come through
``agents.runs`` (LangGraph's own tooling, which checks nothing): ``runs`` marks the config of a run
that resumes with answers it checked (:func:`agents.identity.answers_checked`: an object no JSON
config can carry).

The nodes ask through :func:`agents.refund.asking.ask`, which hands ``interrupt()`` :func:`take` (the
guard and the edit's amount check) as the question's validator. It is a module of its own so that reading
a refund (a command that lists threads, a page) imports no LangGraph.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from agents.identity import Identity, answers_checked
from agents.refund.rules import check_answer, check_edit_amount
from agents.refund.rules import check_decision as check_permission


@dataclass(frozen=True)
class Decision:
    """An approver's answer to one question, checked for its shape.

    Attributes:
        action: ``approve``, ``reject`` or ``edit`` (pay ``amount`` instead, and approve).
        approver: Who decides, as typed (a signed-in actor is recorded by identity instead).
        amount: The amount to pay, for ``edit`` only.
        note: The approver's optional note.
    """

    action: str
    approver: str
    amount: int | None = None
    note: str = ""

    @property
    def decision(self) -> str:
        """What the case records: ``approve`` (an edit approves) or ``reject``."""
        return "reject" if self.action == "reject" else "approve"

    def to_answer(self) -> dict[str, Any]:
        """The resume value the graph receives (the fields given, nothing more)."""
        answer: dict[str, Any] = {"action": self.action, "approver": self.approver}
        if self.amount is not None:
            answer["amount"] = self.amount
        if self.note:
            answer["note"] = self.note
        return answer

    @classmethod
    def of(cls, answer: Mapping[str, Any]) -> Decision:
        """The decision an answer :func:`parse_decision` returned holds (no check)."""
        return cls(answer["action"], answer["approver"], answer.get("amount"), answer.get("note") or "")


def parse_decision(raw: Any) -> Decision:
    """Reads an answer (its fields already of their types) into a :class:`Decision`, checking its shape.

    Raises:
        InputError: Naming the field: not an object, an unknown action, an amount without ``edit`` or
            with another action, no approver, or an approver's name the agent itself writes.
    """
    return Decision.of(check_answer(raw))


def check_decision(decision: Decision, case: Mapping[str, Any], actor: Identity) -> None:
    """Whether ``actor`` may give ``decision`` on ``case`` (a case's values, or an item's).

    Raises:
        PermissionDenied: A viewer; an approver above their limit (the amount paid); the requester (four eyes).
    """
    check_permission(dict(case), decision.to_answer(), actor)


def check_update_decision(update: Mapping[str, Any], target: Mapping[str, Any], actor: Identity) -> None:
    """A decision set by ``update_state`` is a decision: :func:`check_decision` holds for it as for an answer.

    So does an amount set by it (``update`` without a decision): an answer that edits the amount approves
    it, and under the ``reroute`` policy an amount edited below the threshold is paid with no one else asked.
    """
    approver = str(update.get("approver") or "")
    if update.get("decision") == "reject":
        check_decision(Decision("reject", approver), target, actor)
    elif update.get("decision") == "approve" or "amount" in update:
        amount = update.get("amount", target.get("amount"))
        check_decision(Decision("approve", approver), {**target, "amount": amount}, actor)


def guard(raw: Any, case: Mapping[str, Any], actor: Identity, config: Mapping[str, Any] | None) -> Decision:
    """A node's final guard on the answer ``interrupt()`` returned: checked here only when no one checked it.

    The amount of an edit is checked by the node itself, on every path (it needs the requested amount).
    """
    if answers_checked(config) and isinstance(raw, dict):
        return Decision.of(raw)
    decision = parse_decision(raw)
    check_decision(decision, case, actor)
    return decision


def take(raw: Any, case: Mapping[str, Any], actor: Identity, config: Mapping[str, Any] | None) -> Decision:
    """The decision an answer ``interrupt()`` returned stands for, once :func:`guard` passed it; an edit's
    amount checked against the ``requested_amount`` of ``case`` (on every path: no one else compares it with
    the item or case the answer reached).

    Raises:
        UserError: The answer is refused (see :func:`guard` and :func:`agents.refund.rules.check_edit_amount`).
    """
    decision = guard(raw, case, actor, config)
    if decision.action == "edit":
        decision = replace(decision, amount=check_edit_amount(decision.amount, case.get("requested_amount")))
    return decision
