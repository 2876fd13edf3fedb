"""Who may decide a waiting refund, and to whom an overdue one escalates.

Nothing here decides a right: each person of the roles file is asked of the one rule,
:func:`agents.identity.denial` with :data:`~agents.refund.permissions.APPROVE_REFUND` and the facts of each
decision the case waits on (the amount to pay, who requested it), the same call that refuses a decision on
every path. So the limit and four eyes hold here exactly as they hold for the click: the requester is never
listed, an approver only while the amount is within their ``limit_krw``.

A case with one amount waits on one decision, about that amount. A case with several items waits on one
decision per waiting item (:func:`waiting_decisions`), each about that item's amount, as the click on it is
checked (:func:`agents.refund.rules.item_values`): never the whole request, nor what its waiting items ask
for together, and nothing of an item already decided.

* :func:`case_deciders`: the one answer every reader shows (the refund page, home and the queues, ``inbox``
  and ``inbox --json``, "My queue", the HTTP API, the notification recipients): everyone who may decide at
  least one waiting decision, senior ranks first, then by limit; why some waiting decision has no one who
  may decide it (``no approver's limit covers 5,000,000 KRW``, that decision's amount), at once, not when the
  deadline passes: such a case waits for a change to the roles file, not for a person; and whom it goes to
  once overdue.
* :func:`escalation`: a case past its deadline (``HITL_SLA``) goes up a rank, to the senior approvers
  who may decide it (the admins when the file lists no senior approver), with the reason.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from agents import ages
from agents.decision_rights import DecisionRights
from agents.identity import ADMIN, APPROVER, ROLES, SENIOR_APPROVER, Identity, Roles, denial
from agents.refund.permissions import APPROVE_REFUND, CaseFacts
from agents.refund.rules import item_values
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


def waiting_decisions(values: Mapping[str, Any], questions: Sequence[Any] = ()) -> list[CaseFacts]:
    """The facts of each decision the case in ``values`` waits on.

    ``questions`` are the questions its thread waits on now, as the run asked them (or what a notification
    kept of each: its ``item`` and ``amount``). Each waiting item's question is one decision, about that
    item's amount, with the case's requester (:func:`agents.refund.rules.item_values`, what an answer to it is
    checked against); an item already decided asks nothing, so it weighs nothing. A case without items waits
    on one decision, about the case's amount.
    """
    items = [question for question in questions if isinstance(question, Mapping) and "item" in question]
    if not items:
        return [case_facts(values)]
    return [case_facts(item_values(dict(values), question)) for question in items]


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


@dataclass(frozen=True)
class CaseDeciders:
    """Who may decide a waiting case, weighed on each decision it waits on (:func:`case_deciders`).

    Attributes:
        deciders: Everyone who may decide at least one of its waiting decisions, senior ranks first, then by
            limit (never the requester).
        no_decider: Why some waiting decision has no one who may decide it, naming that decision's amount
            (``no approver's limit covers 5,000,000 KRW``); None when each has someone.
        escalates_to: Whom it goes to once past its deadline: the senior approvers who may decide its waiting
            decisions (for a decision that has none, its admins).
    """

    deciders: tuple[Identity, ...]
    no_decider: Text | None
    escalates_to: tuple[Identity, ...]


def _ranked(roles: Roles, chosen: Iterable[Identity]) -> tuple[Identity, ...]:
    """The people of ``chosen``, each once, in the roles file's order ranked as :func:`deciders` ranks them."""
    emails = {person.email for person in chosen}
    return tuple(sorted((person for person in people(roles) if person.email in emails), key=_rank))


def case_deciders(roles: Roles, values: Mapping[str, Any], questions: Sequence[Any] = ()) -> CaseDeciders:
    """Who may decide the case in ``values`` waiting on ``questions``: the one answer every reader shows.

    A person may decide the case when they may decide at least one of its waiting decisions
    (:func:`waiting_decisions`): their limit covers that decision's amount (a waiting item's, for a case with
    items) and they did not request the case. No one may decide it (the flag, at once) when some waiting
    decision has no one who may decide it; the reason names that decision's amount (the largest such).
    """
    chosen: list[Identity] = []
    above: list[Identity] = []
    uncovered: list[CaseFacts] = []
    for case in waiting_decisions(values, questions):
        found = deciders(roles, case)
        chosen.extend(found)
        above.extend(escalates_to(found))
        if not found:
            uncovered.append(case)
    reason = None
    if uncovered:
        largest = max(uncovered, key=lambda case: case.get("amount") or 0)
        reason = no_decider(roles, largest, ())
    return CaseDeciders(_ranked(roles, chosen), reason, _ranked(roles, above))


def escalation(
    targets: tuple[Identity, ...], since: dt.datetime | None, deadline: int | None, now: dt.datetime
) -> tuple[tuple[Identity, ...], Text | None]:
    """To whom a case waiting since ``since`` escalates at ``now``, and why; ``((), None)`` before its deadline.

    Past its deadline it goes to ``targets`` (:attr:`CaseDeciders.escalates_to`: the senior approvers among
    its deciders, so never the requester, or the admins among them when there is no senior approver); the
    reason names the age and the deadline.
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
    return targets, reason


def escalates_to(found: tuple[Identity, ...]) -> tuple[Identity, ...]:
    """Whom a decision with deciders ``found`` escalates to past its deadline: its senior approvers, else its admins."""
    for rank in (SENIOR_APPROVER, ADMIN):
        seniors = tuple(person for person in found if person.role == rank)
        if seniors:
            return seniors
    return ()


def decision_rights(
    roles: Roles,
    values: Mapping[str, Any],
    since: dt.datetime | None,
    deadline: int | None,
    now: dt.datetime,
    questions: Sequence[Any] = (),
) -> DecisionRights:
    """Who may decide the case in ``values`` waiting on ``questions``, whether no one may, and whether it
    escalated (:func:`case_deciders`).

    The refund agent's ``AgentSpec.ask.decision_rights``.
    """
    found = case_deciders(roles, values, questions)
    escalated_to, reason = escalation(found.escalates_to, since, deadline, now)
    return DecisionRights(found.deciders, found.no_decider, escalated_to, reason, found.escalates_to)
