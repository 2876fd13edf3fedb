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
  a stopped thread, and decides refunds: rejects any, approves or edits one
  whose payout is within their ``limit_krw``;
* ``senior_approver``: approves refunds of any amount;
* ``admin``: also changes state (``update_state``), forks, re-runs, restores a
  checkpoint and deletes threads.

Four eyes: the identity that requested a refund cannot approve it, however its name is written.
Names are compared by ``agents.names.name_keys``: as a reader sees them (compatibility forms, invisible
characters, case), on their Unicode TR39 confusable skeleton (``disarm``: a Cyrillic ``а``, a
mathematical ``𝐚``, a non-breaking hyphen read as the letters and marks they look like), with
separators folded (``Kim Minji``, ``kim.minji``, ``Kim‑Minji`` are one name). An identity carries
every name the roles file gives it (:attr:`Identity.aliases`: its display name, its tokens' labels
and names), and a request records them all, so a local operator typing any of them is the requester.
:func:`check_allowed` is the one place these rules are decided; ``agents.runs``,
the refund agent's decision and the API call it, and pages ask :func:`denial`
to hide what a role cannot do and say why.

:class:`Roles` is the roles file as loaded: emails to roles and API token SHA-256 hashes to
identities. Tokens themselves are never stored: a request's token is hashed and compared with
the hashes. Reading and checking the file is :mod:`agents.roles_file`.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, TypedDict, Unpack

from agents.errors import PermissionDenied
from agents.names import same_name

VIEWER, APPROVER, SENIOR_APPROVER, ADMIN = "viewer", "approver", "senior_approver", "admin"
#: The longest email address (RFC 5321's 256-character path, less its angle brackets). A signed-in
#: approver is recorded by email, so every limit on a recorded approver's name is at least this.
EMAIL_MAX_LENGTH = 254
#: The roles, each with every right of the ones before it.
ROLES = (VIEWER, APPROVER, SENIOR_APPROVER, ADMIN)

START_RUN = "start_run"
ANSWER = "answer"
APPROVE_REFUND = "approve_refund"
REJECT_REFUND = "reject_refund"
CONTINUE = "continue"
UPDATE_STATE = "update_state"
FORK = "fork"
RERUN = "rerun"
RESTORE = "restore"
DELETE_THREAD = "delete_thread"
SEE_SETTINGS = "see_settings"

#: Each action, the lowest role that may take it, and the action in words (for the reason of a refusal).
ACTIONS: Mapping[str, tuple[str, str]] = MappingProxyType(
    {
        START_RUN: (APPROVER, "starting a run"),
        ANSWER: (APPROVER, "answering a question"),
        APPROVE_REFUND: (APPROVER, "approving a refund"),
        REJECT_REFUND: (APPROVER, "rejecting a refund"),
        CONTINUE: (APPROVER, "continuing a thread"),
        UPDATE_STATE: (ADMIN, "changing a thread's state"),
        FORK: (ADMIN, "forking a thread"),
        RERUN: (ADMIN, "re-running from a checkpoint"),
        RESTORE: (ADMIN, "restoring a checkpoint"),
        DELETE_THREAD: (ADMIN, "deleting a thread"),
        SEE_SETTINGS: (ADMIN, "seeing the settings"),
    }
)

_ROLE_WORDS = {VIEWER: "a viewer", APPROVER: "an approver", SENIOR_APPROVER: "a senior approver", ADMIN: "an admin"}


@dataclass(frozen=True)
class Identity:
    """Who acts.

    Attributes:
        email: The signed-in email (or the email a token acts for); empty for the local operator.
        name: The display name.
        role: One of :data:`ROLES`.
        limit_krw: An approver's largest payout in KRW; None means no limit.
        local: The local operator of local mode (no sign-in): every right, typed approver names.
        aliases: Every other name the roles file knows this identity by: its display name there,
            the labels and names of its API tokens. Not part of equality: it says how the identity
            may be written, not who it is.
    """

    email: str
    name: str
    role: str
    limit_krw: int | None = None
    local: bool = False
    aliases: tuple[str, ...] = field(default=(), compare=False)

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
#: The run config's ``configurable`` key that carries the acting :class:`Identity` to the nodes.
ACTOR_CONFIG_KEY = "hitl_actor"


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


def _krw(amount: int) -> str:
    return f"{amount:,} KRW"


#: Why the requester of a refund may not approve it.
FOUR_EYES = "you requested this refund; another person must approve it (four eyes)"


def is_requester(
    approver: object, requested_by: object, requested_by_name: object = None, requested_by_names: object = ()
) -> bool:
    """Whether ``approver`` names the one who requested the case: their email, their display name,
    or any name the roles file gave them when they requested it (``requested_by_names``)."""
    others = requested_by_names if isinstance(requested_by_names, list | tuple) else ()
    return any(same_name(approver, name) for name in (requested_by, requested_by_name, *others))


class CaseFacts(TypedDict, total=False):
    """What :func:`denial` and :func:`check_allowed` weigh for :data:`APPROVE_REFUND` (see :func:`denial`)."""

    amount: int | None
    requested_by: str | None
    requested_by_name: str | None
    requested_by_names: list[str] | tuple[str, ...] | None
    approver: str | None


def denial(identity: Identity, action: str, **case: Unpack[CaseFacts]) -> str:
    """Why ``identity`` may not take ``action`` ('' when it may).

    Args:
        identity: Who acts.
        action: One of :data:`ACTIONS`.
        amount: For :data:`APPROVE_REFUND`, the amount that would be paid.
        requested_by: For :data:`APPROVE_REFUND`, the email that requested the refund (four eyes).
        requested_by_name: For :data:`APPROVE_REFUND`, the requester's display name.
        requested_by_names: For :data:`APPROVE_REFUND`, every name the requester was known by
            (:attr:`Identity.names` at the request).
        approver: For :data:`APPROVE_REFUND` by the local operator, the approver's name as typed: it is
            what the decision records, so four eyes holds for it too (a case requested signed in).

    Raises:
        ValueError: An unknown action (a programming error).
    """
    if action not in ACTIONS:
        raise ValueError(f"unknown action {action!r}; actions: {', '.join(ACTIONS)}")
    amount, requested_by = case.get("amount"), case.get("requested_by")
    requester = (requested_by, case.get("requested_by_name"), case.get("requested_by_names") or ())
    if identity.local:
        if action == APPROVE_REFUND and is_requester(case.get("approver"), *requester):
            return FOUR_EYES
        return ""
    needed, words = ACTIONS[action]
    if ROLES.index(identity.role) < ROLES.index(needed):
        who = identity.email or identity.name
        return f"{who} is {_ROLE_WORDS[identity.role]}; {words} needs {_ROLE_WORDS[needed]} or above"
    if action == APPROVE_REFUND:
        if is_requester(identity.email, *requester):
            return FOUR_EYES
        limit = identity.limit_krw if identity.role == APPROVER else None
        if limit is not None and amount is not None and amount > limit:
            return (
                f"your limit is {_krw(limit)}; this case pays {_krw(amount)} and needs a senior approver "
                "(you may reject it, or edit it to an amount within your limit)"
            )
    return ""


def check_allowed(identity: Identity, action: str, **case: Unpack[CaseFacts]) -> None:
    """Refuses (raises) an action the identity may not take; see :func:`denial` for the arguments.

    Raises:
        PermissionDenied: With the reason, e.g. "your limit is 1,000,000 KRW; this case ... needs a
            senior approver".
    """
    reason = denial(identity, action, **case)
    if reason:
        raise PermissionDenied(action, reason)


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
    """

    users: Mapping[str, Member] = field(default_factory=lambda: MappingProxyType({}))
    tokens: Mapping[str, tuple[str, str, str]] = field(default_factory=lambda: MappingProxyType({}))
    source: str = ""

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
