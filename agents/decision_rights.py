"""Who may decide a waiting item, and to whom it escalated: the facts an agent states about one item.

An agent that has such facts (the refund agent: who may approve a payout) returns a
:class:`DecisionRights` from ``AgentSpec.ask.decision_rights``; the inbox, the queues, the CLI and the
HTTP API show it without knowing the agent. The deciders are :class:`~agents.identity.Identity`
values from the roles file, chosen by the one rule :func:`agents.identity.denial`.

Identities are shown only where a person signed in (the dashboard with sign-in) and by the CLI,
which reads the roles file itself; local mode and the HTTP API show the same facts as roles and
limits (``identities=False``).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any

from agents.identity import APPROVER, Identity
from agents.strings import STRINGS
from agents.texts import Text, render, text

#: How many deciders a one-line summary names before it says how many more there are.
SUMMARY_NAMES = 3


def _krw(amount: int) -> str:
    return f"{amount:,}"


def _role_text(person: Identity) -> Text:
    """A decider's role in words, with an approver's limit: ``approver up to 1,000,000 KRW``."""
    if person.role == APPROVER and person.limit_krw is not None:
        return text(STRINGS, "rights.role.approver_limit", limit=_krw(person.limit_krw))
    return text(STRINGS, f"rights.role.{person.role}")


def person_json(person: Identity, *, identities: bool) -> dict[str, Any]:
    """A decider as JSON: role and limit; with ``identities``, also email and name."""
    shown = {"role": person.role, "limit_krw": person.limit_krw}
    return ({"email": person.email, "name": person.name} | shown) if identities else shown


def people_text(people: tuple[Identity, ...], lang: str, *, identities: bool) -> str:
    """Deciders in words: ``kim@example.com (approver up to 1,000,000 KRW), …`` or, without
    identities, their roles counted: ``2 × approver up to 1,000,000 KRW, senior approver``."""
    if identities:
        named = [f"{p.email or p.name} ({render(_role_text(p), lang)})" for p in people[:SUMMARY_NAMES]]
        if len(people) > SUMMARY_NAMES:
            named.append(render(text(STRINGS, "rights.more", count=len(people) - SUMMARY_NAMES), lang))
        return ", ".join(named)
    counts = Counter(render(_role_text(p), lang) for p in people)
    return ", ".join(words if count == 1 else f"{count} × {words}" for words, count in counts.items())


@dataclass(frozen=True)
class DecisionRights:
    """Who may decide one waiting item, as the roles file reads now.

    Attributes:
        deciders: Everyone in the roles file who may decide it (never the requester), by rank then limit.
        no_decider: Why no one may decide it (``no approver's limit covers 5,000,000 KRW``), or one of its parts
            (a waiting item of a refund with several, while others have deciders); None when each has someone.
        escalated_to: The senior deciders it escalated to, being past its deadline (empty when it has not).
        escalation: Why it escalated (``overdue: waiting 1 d 2 h, past its 1 d 0 h deadline``); None when it has not.
        escalates_to: Whom it goes to once past its deadline, whether or not it is yet (a notification of
            the escalation is mailed to them).
    """

    deciders: tuple[Identity, ...]
    no_decider: Text | None = None
    escalated_to: tuple[Identity, ...] = ()
    escalation: Text | None = None
    escalates_to: tuple[Identity, ...] = ()

    def includes(self, person: Identity) -> bool:
        """Whether ``person`` is one of the deciders (their "my queue"); never for the local operator."""
        key = person.email.casefold()
        return bool(key) and not person.local and any(d.email.casefold() == key for d in self.deciders)

    def summary(self, lang: str, *, identities: bool) -> str:
        """The facts in one line: who may decide (when anyone may), the flag when no one may decide it or a
        part of it; then the escalation."""
        parts = []
        if self.deciders or self.no_decider is None:
            who = people_text(self.deciders, lang, identities=identities)
            parts.append(render(text(STRINGS, "rights.who", people=who), lang))
        if self.no_decider is not None:
            parts.append(render(text(STRINGS, "rights.flag", reason=self.no_decider), lang))
        line = " · ".join(parts)
        if self.escalation is not None and self.escalated_to:
            people = people_text(self.escalated_to, lang, identities=identities)
            line += " · " + render(text(STRINGS, "rights.escalated", people=people, reason=self.escalation), lang)
        elif self.escalation is not None:
            line += " · " + render(text(STRINGS, "rights.escalated_nobody", reason=self.escalation), lang)
        return line

    def to_json(self, lang: str, *, identities: bool) -> dict[str, Any]:
        """``deciders``, ``no_decider`` (the reason or null), ``escalated_to`` and ``escalation_reason``."""
        return {
            "deciders": [person_json(p, identities=identities) for p in self.deciders],
            "no_decider": render(self.no_decider, lang) if self.no_decider is not None else None,
            "escalated_to": [person_json(p, identities=identities) for p in self.escalated_to],
            "escalation_reason": render(self.escalation, lang) if self.escalation is not None else None,
        }
