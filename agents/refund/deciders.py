"""Who may decide a waiting refund, and to whom an overdue one escalates.

Nothing here decides a right: each person of the roles file is asked of the one rule,
:func:`agents.identity.denial` with :data:`~agents.refund.permissions.APPROVE_REFUND` and the case's facts
(the amount to pay, who requested it), the same call that refuses a decision on every path. So the
limit and four eyes hold here exactly as they hold for the click: the requester is never listed,
an approver only while the amount is within their ``limit_krw``.

* :func:`deciders`: everyone who may approve the case, senior ranks first, then by limit.
* :func:`no_decider`: why no one may (``no approver's limit covers 5,000,000 KRW``), at once, not when
  the deadline passes: such a case waits for a change to the roles file, not for a person.
* :func:`escalation`: a case past its deadline (``HITL_SLA``) goes up a rank, to the senior approvers
  who may decide it (the admins when the file lists no senior approver), with the reason.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from typing import Any

from agents import ages
from agents.decision_rights import DecisionRights
from agents.identity import ADMIN, APPROVER, ROLES, SENIOR_APPROVER, Identity, Roles, denial
from agents.refund.permissions import APPROVE_REFUND, CaseFacts
from agents.strings import STRINGS
from agents.texts import Text, text


def case_facts(values: Mapping[str, Any]) -> CaseFacts:
    """What the rule weighs, from a case's state: the amount it would pay and who requested it."""
    amount = values.get("amount")
    names = values.get("requested_by_names")
    return CaseFacts(
        amount=amount if isinstance(amount, int) and not isinstance(amount, bool) else None,
        requested_by=str(values.get("requested_by") or "") or None,
        requested_by_name=str(values.get("requested_by_name") or "") or None,
        requested_by_names=list(names) if isinstance(names, list | tuple) else None,
    )


def _rank(person: Identity) -> tuple[int, int]:
    """Senior ranks first; among approvers, the larger limit first."""
    return (-ROLES.index(person.role), -(person.limit_krw or 0))


def people(roles: Roles) -> tuple[Identity, ...]:
    """Everyone the roles file lists, as the identity they sign in as."""
    return tuple(roles.identity_for(email, member.name) for email, member in roles.users.items())


def deciders(roles: Roles, case: CaseFacts) -> tuple[Identity, ...]:
    """Everyone in ``roles`` who may approve ``case`` (:func:`agents.identity.denial` says ''), senior first."""
    allowed = [person for person in people(roles) if not denial(person, APPROVE_REFUND, **case)]
    return tuple(sorted(allowed, key=_rank))


def no_decider(roles: Roles, case: CaseFacts, found: tuple[Identity, ...]) -> Text | None:
    """Why no one may approve ``case`` (None when ``found``, its deciders, is not empty).

    ``no approver's limit covers 5,000,000 KRW`` when the file has approvers and each limit is lower;
    otherwise no one in the file may approve it at all (only viewers, or only the requester).
    """
    if found:
        return None
    amount = case.get("amount")
    limits = [p.limit_krw for p in people(roles) if p.role == APPROVER and p.limit_krw is not None]
    if amount is not None and limits and all(limit < amount for limit in limits):
        return text(STRINGS, "rights.no_limit_covers", amount=f"{amount:,}")
    return text(STRINGS, "rights.nobody_listed")


def escalation(
    found: tuple[Identity, ...], since: dt.datetime | None, deadline: int | None, now: dt.datetime
) -> tuple[tuple[Identity, ...], Text | None]:
    """To whom a case waiting since ``since`` escalates at ``now``, and why; ``((), None)`` before its deadline.

    Past its deadline it goes to the senior approvers among ``found`` (its deciders, so never the
    requester), or to the admins among them when there is no senior approver; the reason names the
    age and the deadline.
    """
    if since is None or not ages.is_overdue(since, deadline, now):
        return (), None
    assert deadline is not None  # is_overdue is false without a deadline
    reason = text(
        STRINGS,
        "rights.overdue",
        age=ages.span_text(ages.age_seconds(since, now)),
        deadline=ages.span_text(deadline),
    )
    return escalates_to(found), reason


def escalates_to(found: tuple[Identity, ...]) -> tuple[Identity, ...]:
    """Whom a case with deciders ``found`` escalates to past its deadline: its senior approvers, else its admins."""
    for rank in (SENIOR_APPROVER, ADMIN):
        seniors = tuple(person for person in found if person.role == rank)
        if seniors:
            return seniors
    return ()


def decision_rights(
    roles: Roles, values: Mapping[str, Any], since: dt.datetime | None, deadline: int | None, now: dt.datetime
) -> DecisionRights:
    """Who may decide the case in ``values``, whether no one may, and whether it escalated.

    The refund agent's ``AgentSpec.ask.decision_rights``.
    """
    case = case_facts(values)
    found = deciders(roles, case)
    escalated_to, reason = escalation(found, since, deadline, now)
    return DecisionRights(found, no_decider(roles, case, found), escalated_to, reason, escalates_to(found))
