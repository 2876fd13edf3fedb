"""What deciding a refund needs: the refund agent's actions and its rule on the case.

* :data:`REJECT_REFUND`: any approver (or above) may reject.
* :data:`APPROVE_REFUND` (an edit approves too): an approver (or above); an approver only while the
  amount paid is within their ``limit_krw`` (a senior approver and an admin have no limit); and never
  the one who requested the case (four eyes), however their name is written.

Four eyes compares names by ``agents.names.name_keys``: as a reader sees them (compatibility forms,
invisible characters, case), on their Unicode TR39 confusable skeleton (``disarm``: a Cyrillic ``а``, a
mathematical ``𝐚``, a non-breaking hyphen read as the letters and marks they look like), with separators
folded (``Kim Minji``, ``kim.minji``, ``Kim‑Minji`` are one name). A request records every name the
requester is known by (:attr:`~agents.identity.Identity.names`), so a local operator typing any of them
is the requester. In local mode the rule weighs the approver's name as typed (``approver``): it is what
the decision records. With a roles file, a typed name that names a person of the file (as four eyes
compares names: :meth:`agents.identity.Roles.people_named`, or the local part of exactly one listed email:
``lee`` for ``lee@example.com``) is held to that person's role and limit, for rejecting as for approving,
and refused in the very words that person is refused signed in; a local part that several listed emails
share is refused as ambiguous (the whole email names one). Without a roles file the local operator decides
everything.

Every refusal is a catalogue text (``agents.refund.strings``), said in the reader's language on every path.

The actions are registered with ``agents.identity`` (:func:`~agents.identity.register_action`) when this
module is imported, so :func:`agents.identity.check_allowed` and :func:`~agents.identity.refusal` decide
them for every caller, the pages included.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypedDict, Unpack

from agents.identity import (
    APPROVER,
    Identity,
    Refusal,
    Roles,
    check_allowed,
    refusal,
    register_action,
    typed_people,
)
from agents.names import same_name
from agents.refund.strings import STRINGS
from agents.texts import text

APPROVE_REFUND = "approve_refund"
REJECT_REFUND = "reject_refund"
#: Why the requester of a refund may not approve it (its English).
FOUR_EYES = STRINGS["refund.denied.four_eyes"][0]


class CaseFacts(TypedDict, total=False):
    """What the rule of :data:`APPROVE_REFUND` weighs.

    Attributes:
        amount: The amount that would be paid.
        requested_by: The email that requested the refund (four eyes).
        requested_by_name: The requester's display name.
        requested_by_names: Every name the requester was known by (:attr:`Identity.names` at the request).
        approver: The approver's name as typed, for the local operator: it is what the decision records,
            so four eyes holds for it too (a case requested signed in), and with a roles file the rights of
            the person it names.
    """

    amount: int | None
    requested_by: str | None
    requested_by_name: str | None
    requested_by_names: list[str] | tuple[str, ...] | None
    approver: str | None


def is_requester(
    approver: object, requested_by: object, requested_by_name: object = None, requested_by_names: object = ()
) -> bool:
    """Whether ``approver`` names the one who requested the case: their email, their display name,
    or any name the roles file gave them when they requested it (``requested_by_names``)."""
    others = requested_by_names if isinstance(requested_by_names, list | tuple) else ()
    return any(same_name(approver, name) for name in (requested_by, requested_by_name, *others))


def local_part_owners(roles: Roles, name: object) -> tuple[str, ...]:
    """The emails of the roles file (its people's and its tokens') whose local part ``name`` is, as four eyes
    compares names: ``lee`` (or ``LEE``, ``ｌｅｅ``) for ``lee@example.com``."""
    if not isinstance(name, str) or not name:
        return ()
    emails = dict.fromkeys([*roles.users, *(email.casefold() for email, _name, _label in roles.tokens.values())])
    return tuple(email for email in emails if "@" in email and same_name(name, email.rpartition("@")[0]))


def _people_typed(identity: Identity, typed: object) -> tuple[Identity, ...] | Refusal:
    """The people of the roles file the local operator's typed name names: as four eyes reads a name
    (:func:`agents.identity.typed_people`), and the one person whose email's local part it is. A local part
    that two or more people's emails share names none of them for sure: refused as ambiguous."""
    people = typed_people(identity, typed)
    if not identity.local or identity.roles is None:
        return people
    owners = local_part_owners(identity.roles, typed)
    if len(owners) > 1:
        words = text(STRINGS, "refund.denied.ambiguous_name", name=repr(typed), people=", ".join(owners))
        return Refusal("ambiguous_name", words, {"name": typed, "people": owners})
    named = {person.email.casefold() for person in people}
    return people + tuple(identity.roles.identity_for(email) for email in owners if email not in named)


def _as_typed(identity: Identity, action: str, case: Mapping[str, Any]) -> Refusal | None:
    """The local operator's decision under a typed name that names people of the roles file: refused as
    the first of them who may not take ``action`` on this case would be refused, signed in (and a name
    that could be any of several people's, :func:`_people_typed`, refused as such)."""
    facts = {key: value for key, value in case.items() if key != "approver"}
    people = _people_typed(identity, case.get("approver"))
    if isinstance(people, Refusal):
        return people
    for person in people:
        found = refusal(person, action, **facts)
        if found is not None:
            return found
    return None


def _approval(identity: Identity, case: Mapping[str, Any]) -> Refusal | None:
    """The case rule of :data:`APPROVE_REFUND`: the typed name's person, four eyes, an approver's limit on
    the amount paid."""
    held = _as_typed(identity, APPROVE_REFUND, case)
    if held is not None:
        return held
    requester = (case.get("requested_by"), case.get("requested_by_name"), case.get("requested_by_names") or ())
    if is_requester(case.get("approver") if identity.local else identity.email, *requester):
        return Refusal("four_eyes", text(STRINGS, "refund.denied.four_eyes"))
    limit = identity.limit_krw if identity.role == APPROVER and not identity.local else None
    amount = case.get("amount")
    if limit is not None and isinstance(amount, int) and amount > limit:
        reason = text(STRINGS, "refund.denied.limit", limit=f"{limit:,}", amount=f"{amount:,}")
        return Refusal("limit", reason, {"limit": limit, "amount": amount})
    return None


def _rejection(identity: Identity, case: Mapping[str, Any]) -> Refusal | None:
    """The case rule of :data:`REJECT_REFUND`: the typed name's person (any approver may reject)."""
    return _as_typed(identity, REJECT_REFUND, case)


register_action(APPROVE_REFUND, APPROVER, text(STRINGS, "refund.denied.approve"), _approval)
register_action(REJECT_REFUND, APPROVER, text(STRINGS, "refund.denied.reject"), _rejection)


def check_refund(identity: Identity, action: str, **case: Unpack[CaseFacts]) -> None:
    """Refuses (raises ``PermissionDenied``) a refund action ``identity`` may not take on this case."""
    check_allowed(identity, action, **case)
