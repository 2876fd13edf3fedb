"""The refund's rules on names and amounts, checked by the graph's nodes and by every path before them.

A decision names a person (never the agent's own name, and for an approval never the requester), an
edited amount is a whole number from 1 to the requested amount, a requested amount from 1 to
:data:`MAX_AMOUNT`. ``agents.refund.graph`` applies them in its nodes; ``agents.refund.spec`` before a
decision is sent.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from agents.errors import InputError
from agents.identity import EMAIL_MAX_LENGTH, Identity
from agents.names import AUTOMATIC, RESERVED_NAMES, UPDATE_STATE, id_key, is_reserved_name
from agents.refund.hitl import NOTE_MAX_LENGTH, plain_answer, response_schema
from agents.refund.permissions import APPROVE_REFUND, FOUR_EYES, REJECT_REFUND, check_refund, is_requester
from agents.refund.strings import STRINGS
from agents.strings import STRINGS as CORE_STRINGS
from agents.texts import Text, text
from agents.validation import validate_text, validate_thread_id

if TYPE_CHECKING:  # the state's channels are LangGraph's; the rules only read its values
    from agents.refund.state import RefundState

MAX_AMOUNT = 10_000_000
#: Above this requested amount a case waits for an approver; at or below it, it settles automatically.
DEFAULT_THRESHOLD = 100_000
#: Routing after a human edit: ``strict`` keeps the requested amount's route, ``reroute`` re-routes.
POLICIES = ("strict", "reroute")
DEFAULT_POLICY = "strict"
#: The names the agent records itself under (:data:`agents.names.RESERVED_NAMES`): no person's.
AUTOMATIC_APPROVER = AUTOMATIC
UPDATE_STATE_EDITOR = UPDATE_STATE
ACTIONS = ("approve", "reject", "edit")
RESERVED_APPROVERS = RESERVED_NAMES
#: How an empty case id is refused (:func:`agents.validation.validate_thread_id` words it for a thread id): on
#: the start form's field and in the graph's own check of a start.
EMPTY_CASE_ID = text(STRINGS, "refund.error.case_id_empty")
#: The longest approver name, typed or recorded: a signed-in approver is recorded by email, and any
#: email address must fit.
APPROVER_MAX_LENGTH = EMAIL_MAX_LENGTH


def _error(key: str, /, **params: Any) -> Text:
    return text(STRINGS, key, **params)


def amount_to_pay(amount: Any, decision: Any) -> Any:
    """What a case pays: its amount, or None once it is rejected (a rejected case pays nothing).

    The state keeps the last amount after a rejection (the trace and the audit need it); every view of
    "to pay" goes through here, so a rejected case never reads as money still owed.
    """
    return None if decision == "reject" else amount


def krw(amount: int | None) -> str:
    """An amount with thousands separators, e.g. ``500,000``."""
    return "—" if amount is None else f"{amount:,}"


def check_answer(answer: Any) -> dict[str, Any]:
    """Checks the rules between a resume answer's fields (their types are checked by the spec).

    ``edit`` needs an ``amount``; ``approve`` and ``reject`` take none (use ``edit`` to change it).
    LangChain's ``{"decisions": [...]}`` and Agent Inbox's responses are read as these answers first
    (:func:`agents.refund.hitl.plain_answer`).
    """
    answer = plain_answer(answer)
    if not isinstance(answer, dict):
        raise InputError("action", _error("refund.error.object"))
    action = answer.get("action")
    if action not in ACTIONS:
        raise InputError("action", text(CORE_STRINGS, "error.choice", allowed=", ".join(ACTIONS), value=repr(action)))
    if action == "edit" and answer.get("amount") is None:
        raise InputError("amount", _error("refund.error.edit_needs_amount"))
    if action != "edit" and answer.get("amount") is not None:
        raise InputError("amount", _error("refund.error.amount_only_edit", action=action))
    if not answer.get("approver"):
        raise InputError("approver", _error("refund.error.approver_required"))
    approver = validate_text(answer["approver"], "approver", max_length=APPROVER_MAX_LENGTH)
    check_approver_name(approver)
    return {**answer, "approver": approver}


def answer_schema(payload: dict[str, Any]) -> dict[str, Any]:
    """The JSON Schema of what a question about ``payload`` accepts (the interrupt's ``response_schema``).

    The rules of :func:`check_answer` and :func:`check_edit_amount` as a schema: an action, an approver
    name, an amount with ``edit`` only and from 1 to the requested amount, an optional note; or the
    same as LangChain's ``{"decisions": [...]}``. Limits and four eyes depend on who answers: checked
    when they do.
    """
    return response_schema(payload, APPROVER_MAX_LENGTH, NOTE_MAX_LENGTH)


def check_decision(values: dict[str, Any], answer: dict[str, Any], actor: Identity) -> None:
    """Whether ``actor`` may give this checked answer on this case; raises ``PermissionDenied`` if not.

    Any approver may reject. Approving (or editing and approving) pays: the amount paid must be
    within an approver's limit, and the one who requested the case may not approve it (four eyes).
    """
    if answer["action"] == "reject":
        check_refund(actor, REJECT_REFUND, approver=answer.get("approver"))
        return
    amount = answer["amount"] if answer["action"] == "edit" else values.get("amount")
    check_refund(
        actor,
        APPROVE_REFUND,
        amount=amount,
        requested_by=values.get("requested_by"),
        requested_by_name=values.get("requested_by_name"),
        requested_by_names=values.get("requested_by_names"),
        approver=answer.get("approver"),
    )


def signed_decision(actor: Identity) -> dict[str, Any]:
    """The signed-in identity's display name and role, recorded with their decision (nothing locally)."""
    return {} if actor.local else {"approver_name": actor.name, "approver_role": actor.role}


def check_approver_name(approver: str) -> None:
    """A human decision is never recorded under the names the agent itself writes.

    Compared as one name is compared with another (``agents.names.name_keys``): compatibility
    forms folded (NFKC), invisible format characters (a zero-width space, a word joiner) dropped,
    the Unicode TR39 confusable skeleton (a Cyrillic ``а``, a small-capital ``ᴀ``, a non-breaking
    hyphen), case ignored and separators folded, so that ``"automatic\\u200b"``,
    ``"ａｕｔｏｍａｔｉｃ"``, ``"аutomatic"``, ``"update\\u2011state"`` or ``"update state"`` cannot pass
    for the agent's own name in the audit.
    """
    if is_reserved_approver(approver):
        raise InputError("approver", _error("refund.error.reserved", approver=repr(approver)))


def is_reserved_approver(approver: str) -> bool:
    """Whether a name reads as one the agent itself writes (see :func:`check_approver_name`); the same
    check refuses such a name as ``HITL_LOCAL_APPROVER`` (:func:`agents.names.is_reserved_name`)."""
    return is_reserved_name(approver)


def recorded_approver_problem(state: RefundState | dict[str, Any], decision: str) -> str:
    """What is wrong with the approver a decision in the state names ('' when nothing is).

    For a decision the nodes find already in the state rather than get from ``interrupt()``: every
    path checks it first, but LangGraph's own ``update_state`` checks no names. A decision names a
    person (visible text, no control characters, within the forms' length), never the agent's own
    name, and an approval is never by the one who requested the case (four eyes).
    """
    approver = state.get("approver")
    if not approver:
        return f"a {decision} decision without an approver"
    try:
        validate_text(approver, "approver", max_length=APPROVER_MAX_LENGTH)
    except InputError as error:
        return f"a {decision} decision by {approver!r}, which is no approver's name ({error})"
    if is_reserved_approver(approver):
        return f"a {decision} decision under the agent's own name {approver!r}"
    requester = (state.get("requested_by"), state.get("requested_by_name"), state.get("requested_by_names") or ())
    if decision == "approve" and is_requester(approver, *requester):
        return f"an approval by {approver!r}, who requested the case: {FOUR_EYES}"
    return ""


def check_edit_amount(amount: Any, requested: Any) -> int:
    """An edited amount is a whole number from 1 up to the requested amount (never more)."""
    if isinstance(amount, bool) or not isinstance(amount, int):
        raise InputError("amount", _error("refund.error.amount_type", value=repr(amount)))
    if not isinstance(requested, int):
        raise InputError("amount", _error("refund.error.no_requested"))
    if not 1 <= amount <= requested:
        raise InputError("amount", _error("refund.error.amount_range", requested=krw(requested), value=krw(amount)))
    return amount


def case_id_problem(case_id: Any) -> str:
    """What is wrong with a case id ('' when nothing is): one the forms accept, as they normalise it.

    The ledger's key: a start on LangGraph's own tooling, which checks nothing, must not pay again
    under the same id written another way (its letters decomposed, NFD against NFC, or spaces around it).
    """
    try:
        accepted = validate_thread_id(case_id, "case_id", empty=EMPTY_CASE_ID) if isinstance(case_id, str) else None
    except InputError as error:
        return f"the case id {case_id!r} is refused ({error})"
    if accepted != case_id:
        return f"the case id {case_id!r} is refused (a case id is text, NFC-normalised, with no spaces around it)"
    return ""


def requested_amount_problem(requested: Any) -> str:
    """What is wrong with a requested amount ('' when nothing is): a whole number from 1 to :data:`MAX_AMOUNT`."""
    if isinstance(requested, bool) or not isinstance(requested, int) or not 1 <= requested <= MAX_AMOUNT:
        return f"a requested amount of {requested!r} KRW is refused (a whole number from 1 to {krw(MAX_AMOUNT)})"
    return ""


#: The most items one refund request may carry.
MAX_ITEMS = 50
#: The longest item id (the ledger's key with the case id).
ITEM_ID_MAX = 40


def check_items(value: Any) -> list[dict[str, Any]]:
    """A request's items: a JSON array of ``{"item": id, "amount": KRW}``, 1 to :data:`MAX_ITEMS` of them.

    Each item id is an id as a case id is (NFC-normalised, so the ledger's key has one spelling) and
    appears once, compared as a case id is (``agents.names.id_key``: ``A``, ``a``, ``Ａ`` and a Greek
    ``Α`` are one item); each amount is a whole number from 1 to :data:`MAX_AMOUNT`, and so is their total
    (the case's requested amount).

    Returns:
        The items as given, their ids normalised.
    """
    if isinstance(value, str):
        try:
            value = json.loads(value)
        except ValueError:
            raise InputError("items", _error("refund.error.items_shape")) from None
    if not isinstance(value, list) or not 1 <= len(value) <= MAX_ITEMS:
        raise InputError("items", _error("refund.error.items_shape"))
    items: list[dict[str, Any]] = []
    for entry in value:
        if not isinstance(entry, dict) or set(entry) != {"item", "amount"}:
            raise InputError("items", _error("refund.error.items_shape"))
        empty = _error("refund.error.item_id_empty")
        item = validate_thread_id(entry["item"], "items", empty=empty) if isinstance(entry["item"], str) else None
        if item is None or len(item) > ITEM_ID_MAX:
            raise InputError("items", _error("refund.error.item_id", item=repr(entry["item"]), limit=ITEM_ID_MAX))
        if any(known["item"] == item for known in items):
            raise InputError("items", _error("refund.error.item_twice", item=repr(item)))
        # Ids that read alike (``A``, ``a``, a Greek ``Α``) are one item, each paid once in the item ledger.
        if twin := next((known["item"] for known in items if id_key(known["item"]) == id_key(item)), None):
            raise InputError("items", _error("refund.error.item_lookalike", item=repr(twin), other=repr(item)))
        amount = entry["amount"]
        if requested_amount_problem(amount):
            raise InputError("items", _error("refund.error.item_amount", item=repr(item), limit=krw(MAX_AMOUNT)))
        items.append({"item": item, "amount": amount})
    if sum(entry["amount"] for entry in items) > MAX_AMOUNT:
        raise InputError("items", _error("refund.error.items_total", limit=krw(MAX_AMOUNT)))
    return items


def item_values(values: dict[str, Any], payload: Any) -> dict[str, Any]:
    """The case values an answer to ``payload`` (a waiting question) is checked against.

    An item's question is about that item alone: its amount is the one approved or edited, from 1 up
    to the item's requested amount, within the approver's limit. A case's own question is about the case.
    """
    if isinstance(payload, dict) and "item" in payload:
        return {**values, "amount": payload.get("amount"), "requested_amount": payload.get("requested_amount")}
    return values
