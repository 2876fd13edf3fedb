"""A refund question in LangChain's human-in-the-loop shape, and its decisions as the refund's own answers.

Each refund question (the case's, or one item's: several items ask one interrupt each) carries one
action request, ``pay_refund`` with the amount it would pay, whose allowed decisions are
``approve``, ``edit`` (its ``args`` carry the new ``amount``) and ``reject`` (its ``message`` is
the note). :func:`plain_answer` turns such a decision into ``{"action", "amount"?, "approver"?,
"note"?}``, which then meets every rule a typed answer meets (:func:`agents.refund.rules.check_answer`
calls it first). ``ignore`` or ``respond`` would end the question without a decision: refused.

The request's only argument is ``amount``, which an edit changes: nothing in it is shown for reading
only. A question asked again after a refused answer (its ``error``) says the refusal first in its
description (:func:`agents.hitl_shape.description`).
"""

from __future__ import annotations

from typing import Any

from agents import hitl_shape
from agents.errors import InputError
from agents.refund.strings import STRINGS
from agents.texts import DEFAULT_LANGUAGE, text
from agents.validation import parse_whole_number

#: The action a refund question asks to be approved.
ACTION_NAME = "pay_refund"
#: The decisions a refund question allows.
ALLOWED = ("approve", "edit", "reject")
#: What an edit's arguments may carry: the amount to pay, and who decides with an optional note.
EDIT_ARGS = ("amount", "approver", "note")
#: The longest note a decision may carry: the ``note`` field's limit, and so a reject's message's (it becomes
#: the note).
NOTE_MAX_LENGTH = 300


def request(payload: dict[str, Any], description: str) -> dict[str, Any]:
    """The ``HITLRequest`` keys of a question about ``payload``'s amount (added beside its own keys)."""
    return hitl_shape.request(ACTION_NAME, {"amount": payload["amount"]}, description, ALLOWED)


def asked(payload: dict[str, Any], lang: str = DEFAULT_LANGUAGE) -> dict[str, Any]:
    """A question's payload with its ``HITLRequest`` keys beside its own: the question is the description, after
    the refusal of the last answer (``error``, in the run's language ``lang``) when it is asked again."""
    return {**payload, **request(payload, hitl_shape.description(payload, lang))}


def plain_answer(value: Any) -> Any:
    """A decision in LangChain's or Agent Inbox's shape as the refund's own answer; any other value as it is.

    Raises:
        InputError: Naming ``decisions`` (see :func:`agents.hitl_shape.read_decision`), or an edit's
            argument that is not one of :data:`EDIT_ARGS`, or an edit of another action.
    """
    if not hitl_shape.is_decision_shaped(value):
        return value
    decision = hitl_shape.read_decision(value, NOTE_MAX_LENGTH)
    answer: dict[str, Any] = {"action": decision.type}
    if decision.type == "edit":
        if decision.name != ACTION_NAME:
            edited = text(STRINGS, "refund.error.edit_name", action=repr(ACTION_NAME), name=repr(decision.name))
            raise InputError("decisions", edited)
        unknown = sorted(set(decision.args) - set(EDIT_ARGS))
        if unknown:
            raise InputError(unknown[0], text(STRINGS, "refund.error.edit_arg", args=", ".join(EDIT_ARGS)))
        answer.update(decision.args)
        if isinstance(answer.get("amount"), str) and decision.typed:  # Agent Inbox's edit: typed as text
            answer["amount"] = parse_whole_number(answer["amount"], "amount")
    if decision.message:
        answer["note"] = decision.message
    if decision.approver is not None and "approver" not in answer:
        answer["approver"] = decision.approver
    return answer


def response_schema(payload: dict[str, Any], approver_max_length: int, note_max_length: int) -> dict[str, Any]:
    """What a question about ``payload`` accepts, as JSON Schema: an edit pays 1 to the requested amount."""
    amount = {"type": "integer", "minimum": 1, "maximum": payload["requested_amount"]}
    approver = {"type": "string", "minLength": 1, "maxLength": approver_max_length}
    note = {"type": "string", "maxLength": note_max_length}
    own = {
        "type": "object",
        "title": "RefundAnswer",
        "properties": {"action": {"enum": list(ALLOWED)}, "amount": amount, "approver": approver, "note": note},
        "required": ["action", "approver"],
        "additionalProperties": False,
        "if": {"properties": {"action": {"const": "edit"}}},
        "then": {"required": ["amount"]},
        "else": {"not": {"required": ["amount"]}},
    }
    edit_args = {
        "type": "object",
        "properties": {"amount": amount, "approver": approver, "note": note},
        "required": ["amount"],
        "additionalProperties": False,
    }
    return hitl_shape.response_schema(ACTION_NAME, ALLOWED, edit_args, own, note_max_length)
