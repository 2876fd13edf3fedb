"""A run's ``input``: the agent's start fields (as the CLI and the forms take them) or the graph's own input.

LangGraph's clients send a graph's own input: ``{"messages": [...]}`` for the robot (its state is a
conversation), ``{"request": {...}}`` for the lecture planner, the refund state's request keys
(``case_id``, ``customer``, ``requested_amount``, ``reason``) for the refund. Each becomes the agent's
start fields here, which the one start path (:func:`agents.runs.start_run`) then checks and turns
into the graph's input as for every other caller, so no rule is bypassed: a value the start field
refuses is refused, naming the field the client sent. A number in JSON is a JSON number: the text a
person types on the command line or in a form (``500,000``) is refused here
(:func:`agents.validation.whole_number`).

The robot's flow does not read the conversation (its first message is its own, in the run
language): the messages are checked (a list of human messages with text) and not stored.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from agents.errors import InputError
from agents.spec import AgentSpec
from agents.strings import STRINGS
from agents.texts import text
from agents.validation import whole_number

#: The longest human message the robot's ``messages`` input takes.
MESSAGE_MAX_LENGTH = 10_000
HUMAN_ROLES = ("human", "user")


def _robot(values: dict[str, Any]) -> dict[str, Any]:
    messages = values.get("messages")
    if not isinstance(messages, list) or not messages:
        raise InputError("messages", "must be a non-empty list of messages")
    for index, message in enumerate(messages):
        name = f"messages[{index}]"
        if not isinstance(message, dict):
            raise InputError(name, "must be a message object with role (or type) and content")
        role = message.get("role", message.get("type"))
        if role not in HUMAN_ROLES:
            raise InputError(f"{name}.role", f"must be one of {', '.join(HUMAN_ROLES)}; got {role!r}")
        if len(_text(message.get("content"), f"{name}.content")) > MESSAGE_MAX_LENGTH:
            raise InputError(f"{name}.content", f"must be text of at most {MESSAGE_MAX_LENGTH} characters")
    return {}


def _text(content: Any, name: str) -> str:
    """A message's text: a string, or a list of ``{"type": "text", "text": ...}`` blocks (as chat UIs send)."""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        parts = []
        for index, block in enumerate(content):
            if not (isinstance(block, dict) and block.get("type") == "text" and isinstance(block.get("text"), str)):
                raise InputError(f"{name}[{index}]", 'must be a text block {"type": "text", "text": ...}')
            parts.append(block["text"])
        return "".join(parts)
    raise InputError(name, "must be text or a list of text blocks")


def _lecture(values: dict[str, Any]) -> dict[str, Any]:
    request = values.get("request")
    if not isinstance(request, dict):
        raise InputError("request", "must be a JSON object of the lecture request's fields")
    return dict(request)


#: The refund state's request keys → the start fields (``requested_at`` is the server's own stamp).
REFUND_KEYS = {"case_id": "case_id", "customer": "customer", "requested_amount": "amount", "reason": "reason"}


def _refund(values: dict[str, Any]) -> dict[str, Any]:
    """A refund's start fields; with ``items``, their total is the requested amount (the state's own key)."""
    fields = {REFUND_KEYS[key]: value for key, value in values.items() if key in REFUND_KEYS}
    if values.get("requested_amount") is not None:  # the state's key holds a JSON number, never text
        whole_number(values["requested_amount"], "requested_amount", text=False)
    if "items" in values:
        items, stated = values["items"], fields.pop("amount", None)  # the start checks total the items
        whole = isinstance(items, list) and all(isinstance(e, dict) and type(e.get("amount")) is int for e in items)
        if stated is not None and whole and stated != (total := sum(e["amount"] for e in items)):
            raise InputError("requested_amount", text(STRINGS, "error.items_total", total=total, stated=stated))
        fields["items"] = items
    return fields


#: Per agent: the keys of its graph's input, and how they become start fields.
GRAPH_INPUTS: dict[str, tuple[frozenset[str], Callable[[dict[str, Any]], dict[str, Any]]]] = {
    "robot": (frozenset({"messages"}), _robot),
    "lecture": (frozenset({"request"}), _lecture),
    "refund": (frozenset({*REFUND_KEYS, "items"}), _refund),
}


def start_fields(spec: AgentSpec, values: Any) -> dict[str, Any]:
    """The start fields of a run's ``input`` (either form); unknown keys are refused, naming the first."""
    if not isinstance(values, dict):
        raise InputError("input", f"must be a JSON object of the {spec.name} agent's start fields or graph input")
    names = {field.name for field in spec.run.start_fields}
    if set(values) <= names:
        for field in spec.run.start_fields:  # JSON: a number is a JSON number, not the text the CLI reads
            if field.kind == "int" and values.get(field.name) is not None:
                whole_number(values[field.name], field.name, text=False)
        return dict(values)
    graph_keys, convert = GRAPH_INPUTS.get(spec.name, (frozenset(), None))
    if convert is not None and set(values) <= graph_keys:
        return convert(values)
    unknown = sorted(set(values) - names - graph_keys or set(values))[0]
    known = sorted(names) or ["none"]
    raise InputError(
        unknown,
        f"is not a start field of the {spec.name} agent (start fields: {', '.join(known)}; "
        f"graph input: {', '.join(sorted(graph_keys)) or 'none'})",
    )
