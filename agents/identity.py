"""Who acts, and what they may do: identities, the roles file and the one permission check.

An :class:`Identity` is the person (or API token) behind an operation. With
sign-in configured, the dashboard builds it from the signed-in user through
:meth:`Roles.identity_for`; the API from a bearer token through
:meth:`Roles.identity_for_token`. Without sign-in the dashboard runs in local
mode as :data:`LOCAL_OPERATOR`, one operator with every right whose typed
approver names are recorded as typed.

The roles (a strict order, each with the rights of those before it):

* ``viewer``: sees everything, acts on nothing (an unknown signed-in user);
* ``approver``: starts runs, answers the robot and the lecture gate, continues
  a stopped thread; an agent may give an approver a limit (``limit_krw``: the
  refund agent's largest payout an approver may approve);
* ``senior_approver``: an approver without a limit;
* ``admin``: also changes state (``update_state``), forks, re-runs, restores a
  checkpoint and deletes threads.

An agent adds its own actions with :func:`register_action`: the lowest role, and a rule on the case
(the refund agent's approval: an approver's limit, four eyes; ``agents.refund.permissions``). An identity
carries every name the roles file gives it (:attr:`Identity.aliases`: its display name, its tokens'
labels and names), so an agent can tell the same person however they are written.
:func:`check_allowed` is the one place these rules are decided; ``agents.runs``,
the agents' decisions and the API call it, and pages ask :func:`refusal`
to hide what a role cannot do and say why. A refusal is a :class:`~agents.texts.Text` (the role's,
``agents.identity_strings``; a case rule's, its agent's strings), so every path says it in the reader's
language.

With a roles file, the local operator carries it (:func:`held_to_roles`, which ``agents.runs`` applies
to every actor): a name the local operator types that names a person of the file
(:meth:`Roles.people_named`) is that person's decision, held to their role and limit by the agent's case
rule (the refund agent's approval and rejection).

:class:`Roles` is the roles file as loaded: emails to roles and API token SHA-256 hashes to
identities. Tokens themselves are never stored: a request's token is hashed and compared with
the hashes. Reading and checking the file is :mod:`agents.roles_file`.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import Any

from agents.errors import PermissionDenied
from agents.identity_strings import STRINGS
from agents.names import same_name
from agents.texts import Text, text

VIEWER, APPROVER, SENIOR_APPROVER, ADMIN = "viewer", "approver", "senior_approver", "admin"
#: The longest email address (RFC 5321's 256-character path, less its angle brackets). A signed-in
#: approver is recorded by email, so every limit on a recorded approver's name is at least this.
EMAIL_MAX_LENGTH = 254
#: The roles, each with every right of the ones before it.
ROLES = (VIEWER, APPROVER, SENIOR_APPROVER, ADMIN)

START_RUN = "start_run"
ANSWER = "answer"
CONTINUE = "continue"
UPDATE_STATE = "update_state"
FORK = "fork"
RERUN = "rerun"
RESTORE = "restore"
DELETE_THREAD = "delete_thread"
SEE_SETTINGS = "see_settings"

_ACTIONS: dict[str, tuple[str, str | Text]] = {
    action: (needed, text(STRINGS, f"denied.action.{action}"))
    for action, needed in (
        (START_RUN, APPROVER),
        (ANSWER, APPROVER),
        (CONTINUE, APPROVER),
        (UPDATE_STATE, ADMIN),
        (FORK, ADMIN),
        (RERUN, ADMIN),
        (RESTORE, ADMIN),
        (DELETE_THREAD, ADMIN),
        (SEE_SETTINGS, ADMIN),
    )
}
#: Each action, the lowest role that may take it, and the action in words (for the reason of a refusal: a
#: :class:`~agents.texts.Text`, or an agent's plain words); with the actions agents added (:func:`register_action`).
ACTIONS: Mapping[str, tuple[str, str | Text]] = MappingProxyType(_ACTIONS)


@dataclass(frozen=True)
class Identity:
    """Who acts.

    Attributes:
        email: The signed-in email (or the email a token acts for); empty for the local operator.
        name: The display name.
        role: One of :data:`ROLES`.
        limit_krw: An approver's limit in KRW from the roles file (None: none); what it limits is an
            agent's rule (the refund agent's largest payout an approver may approve).
        local: The local operator of local mode (no sign-in): every right, typed approver names.
        aliases: Every other name the roles file knows this identity by: its display name there,
            the labels and names of its API tokens. Not part of equality: it says how the identity
            may be written, not who it is.
        local_approver: The local operator's configured approver name (``HITL_LOCAL_APPROVER``), which
            an answer that names no approver is recorded under, as if it had been typed ('' for none).
        roles: The roles file the local operator's typed names are held to (:func:`held_to_roles`): a name
            that names a person of the file is held to that person's role and limit. None: no roles file,
            or not the local operator. Not part of equality.
    """

    email: str
    name: str
    role: str
    limit_krw: int | None = None
    local: bool = False
    aliases: tuple[str, ...] = field(default=(), compare=False)
    local_approver: str = ""
    roles: Roles | None = field(default=None, compare=False, repr=False)

    def __post_init__(self) -> None:
        if self.role not in ROLES:
            raise ValueError(f"unknown role {self.role!r}; roles: {', '.join(ROLES)}")

    @property
    def label(self) -> str:
        """The identity in words: ``Kim <kim@example.com>``, or the name alone."""
        if self.email and self.name and self.name != self.email:
            return f"{self.name} <{self.email}>"
        return self.email or self.name

    @property
    def names(self) -> tuple[str, ...]:
        """Every way this identity is written: its email, its display name and its aliases (no repeats)."""
        return tuple(dict.fromkeys(name for name in (self.email, self.name, *self.aliases) if name))


#: Local mode: one operator with every right (no sign-in; the dashboard listens on localhost only).
LOCAL_OPERATOR = Identity(email="", name="local operator", role=ADMIN, limit_krw=None, local=True)


def local_operator(approver: str = "") -> Identity:
    """The local operator; with ``approver`` (``HITL_LOCAL_APPROVER``), an answer that names no approver is
    that person's, exactly as if the name had been typed (so every rule weighs it as a typed name)."""
    return replace(LOCAL_OPERATOR, local_approver=approver) if approver else LOCAL_OPERATOR


def held_to_roles(actor: Identity, roles: Roles | None) -> Identity:
    """``actor`` as the roles file in force holds it: the local operator carries the file (its typed names
    are held to the rights of the people they name, :meth:`Roles.people_named`); anyone else, and everyone
    without a roles file, as given."""
    if not actor.local or roles is None or actor.roles is roles:
        return actor
    return replace(actor, roles=roles)


def typed_people(actor: Identity, name: object) -> tuple[Identity, ...]:
    """The people of the roles file the local operator's typed ``name`` names (:meth:`Roles.people_named`):
    whose rights a decision under that name is held to. Nobody for a signed-in actor (who acts as
    themselves) or without a roles file."""
    if not actor.local or actor.roles is None or not isinstance(name, str) or not name:
        return ()
    return actor.roles.people_named(name)


#: The run config's ``configurable`` key that carries the acting :class:`Identity` to the nodes.
ACTOR_CONFIG_KEY = "hitl_actor"


#: The run config's ``configurable`` key that tells the nodes the run's answers were checked before it
#: started (``agents.runs`` checks every answer it resumes with, once); its value is :data:`ANSWERS_CHECKED`.
CHECKED_CONFIG_KEY = "hitl_answers_checked"


class _AnswersChecked:
    """The mark of a run whose answers ``agents.runs`` checked: an object, so no JSON config can carry it."""

    def __repr__(self) -> str:
        return "ANSWERS_CHECKED"


ANSWERS_CHECKED = _AnswersChecked()


def answers_checked(config: Mapping[str, Any] | None) -> bool:
    """Whether a node's run resumes with answers ``agents.runs`` checked (LangGraph's own tooling checks none)."""
    return ((config or {}).get("configurable") or {}).get(CHECKED_CONFIG_KEY) is ANSWERS_CHECKED


#: The run metadata key of the batch a decision was made in (``agents.batch``): recorded with every
#: checkpoint the run writes, and by the nodes with the decision.
BATCH_METADATA_KEY = "batch_id"


def batch_of(config: Mapping[str, Any] | None) -> str:
    """The id of the batch a node's run decides in ('' for a decision on its own)."""
    found = ((config or {}).get("metadata") or {}).get(BATCH_METADATA_KEY)
    return found if isinstance(found, str) else ""


def actor_of(config: Mapping[str, Any] | None) -> Identity:
    """The identity a node runs for (set by ``agents.runs``); the local operator when none is set."""
    found = ((config or {}).get("configurable") or {}).get(ACTOR_CONFIG_KEY)
    return found if isinstance(found, Identity) else LOCAL_OPERATOR


@dataclass(frozen=True)
class Refusal:
    """Why an identity may not take an action.

    Attributes:
        kind: ``role`` (the role is too low), or the kind an agent's case rule gives (the refund
            agent's ``four_eyes`` and ``limit``).
        text: The reason as a catalogue text, rendered in the reader's language, e.g. "kim@example.com is
            a viewer; starting a run needs an approver or above".
        params: What the reason names (``role`` and ``needed``; ``limit`` and ``amount``...).
    """

    kind: str
    text: Text
    params: Mapping[str, Any] = field(default_factory=dict)

    @property
    def reason(self) -> str:
        """The reason in English."""
        return str(self.text)


#: An agent's rule on the case of its own action, after the role check: ``(identity, case facts)`` → a
#: refusal, or None when the identity may act. Asked for the local operator too (who has every role).
CaseRule = Callable[[Identity, Mapping[str, Any]], Refusal | None]
_CASE_RULES: dict[str, CaseRule] = {}


def register_action(action: str, needed: str, words: str | Text, case_rule: CaseRule | None = None) -> None:
    """Adds an agent's action: the lowest role that may take it, the action in words (a catalogue text, so a
    refusal names it in the reader's language), and its case rule.

    Registering the same action again replaces it (a module imported twice).
    """
    if needed not in ROLES:
        raise ValueError(f"unknown role {needed!r}; roles: {', '.join(ROLES)}")
    _ACTIONS[action] = (needed, words)
    if case_rule is None:
        _CASE_RULES.pop(action, None)
    else:
        _CASE_RULES[action] = case_rule


def refusal(identity: Identity, action: str, **case: Any) -> Refusal | None:
    """Why ``identity`` may not take ``action`` (None when it may).

    The role first (the local operator has every role), then the action's case rule, if an agent gave
    one, on the case facts given (``case``: what that rule weighs, e.g. a refund's amount and requester).

    Raises:
        ValueError: An unknown action (a programming error).
    """
    if action not in ACTIONS:
        raise ValueError(f"unknown action {action!r}; actions: {', '.join(ACTIONS)}")
    needed, words = ACTIONS[action]
    if not identity.local and ROLES.index(identity.role) < ROLES.index(needed):
        reason = text(
            STRINGS,
            "denied.role",
            who=identity.email or identity.name,
            role=text(STRINGS, f"denied.role.{identity.role}"),
            action=words,
            needed=text(STRINGS, f"denied.role.{needed}"),
        )
        return Refusal("role", reason, {"role": identity.role, "needed": needed})
    rule = _CASE_RULES.get(action)
    return rule(identity, case) if rule is not None else None


def denial(identity: Identity, action: str, **case: Any) -> str:
    """Why ``identity`` may not take ``action`` ('' when it may); see :func:`refusal`."""
    found = refusal(identity, action, **case)
    return found.reason if found is not None else ""


def check_allowed(identity: Identity, action: str, **case: Any) -> None:
    """Refuses (raises) an action the identity may not take; see :func:`refusal` for the arguments.

    Raises:
        PermissionDenied: With the reason as a catalogue text, e.g. "kim@example.com is a viewer; starting
            a run needs an approver or above".
    """
    found = refusal(identity, action, **case)
    if found is not None:
        raise PermissionDenied(action, found.text)


def token_hash(token: str) -> str:
    """The SHA-256 of a token, in lowercase hex: what the roles file stores instead of the token."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


@dataclass(frozen=True)
class Member:
    """One person of the roles file: their role, an approver's limit, and an optional display name."""

    role: str
    limit_krw: int | None
    name: str


@dataclass(frozen=True)
class Roles:
    """The roles file, loaded and checked: emails to roles, token hashes to the emails they act for.

    Attributes:
        users: Casefolded email → role, limit and display name.
        tokens: Token SHA-256 (hex) → (the email it acts for, its display name or '', its label).
        source: The file it was read from.
        stamp: The file's modification time, size and inode as read (None for text not read from a file):
            :func:`agents.roles_file.current_roles` reads it again once they change.
    """

    users: Mapping[str, Member] = field(default_factory=lambda: MappingProxyType({}))
    tokens: Mapping[str, tuple[str, str, str]] = field(default_factory=lambda: MappingProxyType({}))
    source: str = ""
    stamp: tuple[int, int, int] | None = field(default=None, compare=False)

    def identity_for(self, email: str, name: str = "") -> Identity:
        """The identity of a signed-in user; one the file does not list is a viewer.

        Its :attr:`Identity.aliases` are the other names the file gives the email (see :meth:`names_of`).
        """
        email = email.strip()
        user = self.users.get(email.casefold())
        aliases = self.names_of(email)
        if user is None:
            return Identity(email=email, name=name or email, role=VIEWER, aliases=aliases)
        shown = name or user.name or email
        return Identity(email=email, name=shown, role=user.role, limit_krw=user.limit_krw, aliases=aliases)

    def names_of(self, email: str) -> tuple[str, ...]:
        """Every name the file gives ``email`` besides itself: its display name, and the label and
        name of each of its tokens. Whoever is written so is the same person (four eyes)."""
        key = email.strip().casefold()
        user = self.users.get(key)
        names = [user.name] if user is not None and user.name else []
        for token_email, token_name, label in self.tokens.values():
            if token_email.casefold() == key:
                names += [label, token_name]
        return tuple(dict.fromkeys(name for name in names if name))

    def people_named(self, name: str) -> tuple[Identity, ...]:
        """Everyone of the file ``name`` names, as four eyes compares names (``agents.names.same_name``):
        their email, their display name, their tokens' labels and names, however written (case, width,
        spacing, look-alike letters). A token's email the file gives no role is a viewer's."""
        emails = dict.fromkeys([*self.users, *(email.casefold() for email, _name, _label in self.tokens.values())])
        return tuple(
            self.identity_for(email)
            for email in emails
            if any(same_name(name, known) for known in (email, *self.names_of(email)))
        )

    def identity_for_token(self, token: str) -> Identity | None:
        """The identity a bearer token acts as, or None for a token the file does not know.

        Only hashes are compared (each in constant time); the token itself is never kept.
        """
        if not token:
            return None
        digest = token_hash(token)
        found: tuple[str, str, str] | None = None
        for known, entry in self.tokens.items():
            if hmac.compare_digest(known, digest):
                found = entry
        if found is None:
            return None
        email, name, _label = found
        # The person's display name, not the token's label (which is one of its aliases): a request
        # made with the token is recorded under the name the person is known by.
        return self.identity_for(email, name)

    @property
    def has_tokens(self) -> bool:
        """Whether the file gives any API token."""
        return bool(self.tokens)
