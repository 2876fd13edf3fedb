"""LangChain's human-in-the-loop shapes: the request an interrupt shows, the decisions it takes back.

The agents ask in their own words and take their own answers (``{"action": ...}``); beside those,
a question carries LangChain's ``HITLRequest`` (``langchain.agents.middleware.human_in_the_loop``):

* ``action_requests``: ``[{"name", "args", "description"}]``, one action per interrupt (a refund with
  several items asks one interrupt per item, each with its own action request);
* ``review_configs``: ``[{"action_name", "allowed_decisions"}]``, the decisions among ``approve``,
  ``edit`` and ``reject`` the question offers.

An answer may then be LangChain's ``HITLResponse`` (``{"decisions": [decision]}``, where a decision
is ``{"type": "approve"}``, ``{"type": "edit", "edited_action": {"name", "args"}}`` or
``{"type": "reject", "message"?}``), one such decision alone (LangChain's per-call form), or Agent
Inbox's ``[HumanResponse]`` (``{"type": "accept" | "edit" | "response" | "ignore", "args"}``, which
Agent Inbox sends after turning a ``HITLRequest`` into its own form: ``response`` stands for a
reject with a message). :func:`read_decision` reads any of them into one :class:`Decision`; each
agent turns that into its own answer, so every rule that checks today's answers checks these too.

A question has one action, so an answer carries exactly one decision. ``ignore`` and LangChain's
``respond`` would leave the question without a decision, and are refused, saying so. A reject's
message becomes the agent's own answer field (the refund's ``note``, the planner's ``notes``), so it
is held to that field's limit, which each agent passes in: the one the field itself takes.

Agent Inbox's response names no question: it answers the one Agent Inbox showed. Its accept carries
the action request it showed, so :func:`accepted_changes` tells when the question now waiting is
another one (someone answered the shown one after Agent Inbox loaded the thread).

A question the graph asks again after it refused an answer (LangGraph's own server hands answers to the
graph unchecked) carries the refusal in its payload's ``error``; :func:`description` puts it first in
what Agent Inbox shows, so the refusal is read where the question is.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from agents.errors import InputError
from agents.strings import STRINGS
from agents.texts import say, text

#: LangChain's decision types the agents take (``respond`` answers for a tool, which no agent calls).
DECISIONS = ("approve", "edit", "reject")
#: The types of Agent Inbox's ``HumanResponse`` (src/components/agent-inbox/types.ts).
INBOX_RESPONSES = ("accept", "edit", "response", "ignore")


@dataclass(frozen=True)
class Decision:
    """One decision, whichever of the shapes above it came in.

    Attributes:
        type: ``approve``, ``edit`` or ``reject``.
        name: The edited action's name (an edit), else ''.
        args: The edited action's arguments (an edit), else empty.
        message: A reject's message ('' when none).
        approver: Who decides, when the answer names them beside the decision ('' when not).
        typed: Whether ``args`` were typed into Agent Inbox's edit boxes (its edit response), which send
            each argument as text: a number or a list comes as its text, and the agent reads it from there.
    """

    type: str
    name: str = ""
    args: dict[str, Any] = field(default_factory=dict)
    message: str = ""
    approver: Any = None
    typed: bool = False


def request(name: str, args: dict[str, Any], description: str, allowed: Sequence[str]) -> dict[str, Any]:
    """A question's ``HITLRequest`` keys: one action request, and the decisions it allows.

    ``arguments`` repeats ``args``: Agent Inbox reads an action request's arguments under that key
    (src/components/agent-inbox/contexts/utils.ts, ``normalizeInterrupt``), LangChain under ``args``.
    """
    action = {"name": name, "args": args, "arguments": args, "description": description}
    return {
        "action_requests": [action],
        "review_configs": [{"action_name": name, "allowed_decisions": list(allowed)}],
    }


def description(payload: Mapping[str, Any], lang: str, *details: str) -> str:
    """What an action request says: the question's ``question`` and ``details``, one a line.

    A question asked again after its answer was refused (its payload's ``error``, already in the run's
    language ``lang``) starts with that refusal, in a paragraph of its own: a client that shows only the
    description (Agent Inbox) shows why nothing was done.
    """
    asked = "\n".join([str(payload["question"]), *details])
    error = payload.get("error")
    return f"{say(STRINGS, 'hitl.refused_answer', lang, error=error)}\n\n{asked}" if error else asked


def is_decision_shaped(value: Any) -> bool:
    """Whether an answer is in one of LangChain's or Agent Inbox's shapes (not an agent's own answer)."""
    if isinstance(value, Mapping):
        return "decisions" in value or ("type" in value and "action" not in value)
    return isinstance(value, list) and bool(value) and all(isinstance(item, Mapping) for item in value)


def is_inbox_response(value: Any) -> bool:
    """Whether ``value`` is what Agent Inbox sends as ``command.resume``: ``[{"type", "args"}]``, one response.

    Agent Inbox (hooks/use-interrupted-actions.tsx, ``handleSubmit`` and ``handleIgnore``;
    contexts/ThreadContext.tsx, ``sendHumanResponse``) sends the response to the question it shows, and no
    interrupt id.
    """
    if not (isinstance(value, list) and len(value) == 1 and isinstance(value[0], Mapping)):
        return False
    response = value[0]
    return response.get("type") in INBOX_RESPONSES and "edited_action" not in response


def accepted_changes(response: Mapping[str, Any], question: Any) -> dict[str, tuple[Any, Any]]:
    """What an Agent Inbox accept was given that ``question`` does not ask: ``{name: (accepted, asked)}``.

    Agent Inbox's accept sends back the action request it showed, ``{"type": "accept", "args": {"action",
    "args"}}`` (utils.ts, ``createDefaultHumanResponse``, puts the shown ``action_request`` in its edit
    response; hooks/use-interrupted-actions.tsx, ``handleSubmit``, sends it as the accept when nothing was
    edited): the action's name (under ``action`` here) and each argument it carries are compared with the
    action request ``question`` carries. A value typed back into its box as text is the same value
    (``"300000"`` for 300000). Empty when they agree, when the response is no accept or carries no action
    request (``args`` null), and when the question has no action request (the robot's; one saved before
    the request was added).
    """
    accepted, asked = response.get("args"), _action_request(question)
    if response.get("type") != "accept" or not isinstance(accepted, Mapping) or asked is None:
        return {}
    changes: dict[str, tuple[Any, Any]] = {}
    if "action" in accepted and accepted["action"] != asked.get("name"):
        changes["action"] = (accepted["action"], asked.get("name"))
    arguments = asked.get("arguments", asked.get("args"))
    arguments = arguments if isinstance(arguments, Mapping) else {}
    sent = accepted.get("args")
    for name, value in dict(sent if isinstance(sent, Mapping) else {}).items():
        if not _same(value, arguments.get(name)):
            changes[str(name)] = (value, arguments.get(name))
    return changes


def _action_request(question: Any) -> Mapping[str, Any] | None:
    """The action request a question's payload carries (its ``action_requests``' first), None when none."""
    requests = question.get("action_requests") if isinstance(question, Mapping) else None
    if isinstance(requests, list) and requests and isinstance(requests[0], Mapping):
        return requests[0]
    return None


def _same(sent: Any, asked: Any) -> bool:
    """Whether a value sent back is the value asked: as it was, or as the JSON text of its box."""
    if isinstance(sent, str) and not isinstance(asked, str):
        try:
            sent = json.loads(sent)
        except ValueError:
            return False
    if isinstance(sent, bool) or isinstance(asked, bool):
        return sent is asked
    if isinstance(sent, int | float) and isinstance(asked, int | float):
        return sent == asked  # JSON has one number type: 80 and 80.0 are one score
    if isinstance(sent, Mapping) and isinstance(asked, Mapping):
        return set(sent) == set(asked) and all(_same(sent[key], asked[key]) for key in sent)
    if isinstance(sent, list | tuple) and isinstance(asked, list | tuple):
        return len(sent) == len(asked) and all(_same(a, b) for a, b in zip(sent, asked, strict=True))
    return bool(sent == asked)


def read_decision(value: Any, message_max_length: int) -> Decision:
    """The one decision an answer in LangChain's or Agent Inbox's shape carries.

    Args:
        value: The answer.
        message_max_length: The longest reject message, trimmed: the limit of the agent's own answer
            field the message becomes.

    Raises:
        InputError: Naming ``decisions``: not exactly one decision, an unknown type, ``ignore`` or
            ``respond`` (no decision), an edit without ``edited_action``, a message that is not text or
            is over ``message_max_length``.
    """
    approver = None
    if isinstance(value, Mapping) and "decisions" in value:
        unknown = sorted(set(value) - {"decisions", "approver"})
        if unknown:
            raise InputError(unknown[0], "is not part of a decisions answer; use decisions (and approver)")
        approver, value = value.get("approver"), value["decisions"]
    if isinstance(value, list):
        if len(value) != 1:
            raise InputError(
                "decisions",
                f"this question has one action, so it takes exactly one decision; got {len(value)}",
            )
        value = value[0]
    if not isinstance(value, Mapping):
        raise InputError("decisions", 'a decision is an object such as {"type": "approve"}')
    if approver is None:
        approver = value.get("approver")
    kind = value.get("type")
    if kind in ("accept", "response", "ignore") or (kind == "edit" and "edited_action" not in value):
        return _inbox_decision(value, approver, message_max_length)
    return _langchain_decision(value, approver, message_max_length)


def _no_decision(kind: str) -> InputError:
    return InputError(
        "decisions",
        f"{kind} would leave this question without a decision, and is refused: answer approve, edit or reject",
    )


def _langchain_decision(value: Mapping[str, Any], approver: Any, message_max_length: int) -> Decision:
    kind = value.get("type")
    if kind == "respond":
        raise _no_decision("respond (an answer on behalf of a tool)")
    if kind not in DECISIONS:
        raise InputError("decisions", f"a decision's type is one of {', '.join(DECISIONS)}; got {kind!r}")
    if kind == "edit":
        edited = value.get("edited_action")
        if not isinstance(edited, Mapping) or not isinstance(edited.get("args"), Mapping):
            raise InputError("decisions", 'an edit carries "edited_action": {"name": ..., "args": {...}}')
        return Decision("edit", str(edited.get("name") or ""), dict(edited["args"]), approver=approver)
    message = _message(value.get("message"), message_max_length) if kind == "reject" else ""
    return Decision(kind, message=message, approver=approver)


def _inbox_decision(value: Mapping[str, Any], approver: Any, message_max_length: int) -> Decision:
    kind, args = value.get("type"), value.get("args")
    if kind == "ignore":
        raise _no_decision("ignore")
    if kind == "response":
        return Decision("reject", message=_message(args, message_max_length), approver=approver)
    if kind == "edit":
        if not isinstance(args, Mapping) or not isinstance(args.get("args"), Mapping):
            raise InputError("decisions", 'an edit response carries "args": {"action": ..., "args": {...}}')
        return Decision("edit", str(args.get("action") or ""), dict(args["args"]), approver=approver, typed=True)
    return Decision("approve", approver=approver)


def _message(message: Any, max_length: int) -> str:
    """A reject's message, trimmed ('' for none): text within the agent's limit for the field it becomes."""
    if message is None:
        return ""
    if not isinstance(message, str):
        raise InputError("decisions", text(STRINGS, "error.reject_message_text", kind=type(message).__name__))
    trimmed = message.strip()
    if len(trimmed) > max_length:
        raise InputError("decisions", text(STRINGS, "error.reject_message_long", length=len(trimmed), limit=max_length))
    return trimmed


def response_schema(
    name: str, allowed: Sequence[str], edit_args: dict[str, Any], own: dict[str, Any], message_max_length: int
) -> dict[str, Any]:
    """The JSON Schema of what a question accepts: the agent's own answer (``own``) or a ``HITLResponse``.

    The response holds one decision of the ``allowed`` types; an edit's ``edited_action`` names
    ``name`` and has arguments as ``edit_args`` describes them; a reject's message is at most
    ``message_max_length`` characters (as :func:`read_decision` is given). ``approver`` may sit beside
    ``decisions`` (a signed-in approver is recorded by identity instead).
    """
    branches = {
        "approve": {"type": "object", "properties": {"type": {"const": "approve"}}, "required": ["type"]},
        "edit": {
            "type": "object",
            "properties": {
                "type": {"const": "edit"},
                "edited_action": {
                    "type": "object",
                    "properties": {"name": {"const": name}, "args": edit_args},
                    "required": ["name", "args"],
                },
            },
            "required": ["type", "edited_action"],
        },
        "reject": {
            "type": "object",
            "properties": {"type": {"const": "reject"}, "message": {"type": "string", "maxLength": message_max_length}},
            "required": ["type"],
        },
    }
    decisions = {
        "type": "array",
        "items": {"oneOf": [branches[kind] for kind in allowed]},
        "minItems": 1,
        "maxItems": 1,
    }
    hitl = {
        "type": "object",
        "title": "HITLResponse",
        "properties": {"decisions": decisions, "approver": {"type": "string"}},
        "required": ["decisions"],
        "additionalProperties": False,
    }
    return {"anyOf": [own, hitl]}
