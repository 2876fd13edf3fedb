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

The roles file (TOML, ``.streamlit/roles.toml`` unless ``HITL_ROLES_FILE``
names another; docs/ARCHITECTURE.md describes it) maps emails to roles and API
token SHA-256 hashes to identities. Tokens themselves are never stored: a
request's token is hashed and compared with the hashes.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any, TypedDict, Unpack

from agents.errors import PermissionDenied, UserError
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


class RolesFileError(UserError):
    """The roles file cannot be used; the message names the file and the line.

    Attributes:
        path: The file.
        line: The line to fix (1-based), or None when the problem is the file as a whole.
    """

    def __init__(self, path: str, line: int | None, message: str) -> None:
        where = f"{path}, line {line}" if line else path
        super().__init__(f"roles file {where}: {message}")
        self.path = path
        self.line = line


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


_EMAIL = re.compile(r"^[^@\s]+@[^@\s]+$")
_SHA256 = re.compile(r"^[0-9a-fA-F]{64}$")
_TOML_LINE = re.compile(r"at line (\d+)")


class _Reader:
    """Checks the parsed file, finding the line of each problem in the text."""

    def __init__(self, path: str, text: str) -> None:
        self.path = path
        self.lines = text.splitlines()

    def line_of(self, section: str, key: str | None = None, item: str | None = None) -> int | None:
        """The first line of ``item`` inside ``key`` inside ``[section]`` (as far as can be found)."""
        start = self._find(re.compile(rf"^\s*(\[+\s*)?[\"']?{re.escape(section)}[\"']?\s*[\].=]"), 0)
        if start is None:
            return None
        if key is not None:
            found = self._find(re.compile(rf"(^|[\s.\[\"']){re.escape(key)}([\"'\s.\]=]|$)"), start)
            start = found if found is not None else start
        if item is not None:
            found = self._find(re.compile(rf"(^|[\s{{,]){re.escape(item)}\s*="), start)
            start = found if found is not None else start
        return start + 1

    def _find(self, pattern: re.Pattern[str], start: int) -> int | None:
        for number in range(start, len(self.lines)):
            if pattern.search(self.lines[number].split("#", 1)[0]):
                return number
        return None

    def fail(self, message: str, section: str, key: str | None = None, item: str | None = None) -> RolesFileError:
        where = section + (f'."{key}"' if key is not None else "") + (f".{item}" if item is not None else "")
        return RolesFileError(self.path, self.line_of(section, key, item), f"{where}: {message}")


def _email_problem(email: str) -> str:
    """What keeps ``email`` from being a roles file's email address ('' when nothing does)."""
    if not _EMAIL.match(email):
        return "must be an email address, e.g. kim@example.com"
    if len(email) > EMAIL_MAX_LENGTH:
        return f"is {len(email)} characters long; an email address has at most {EMAIL_MAX_LENGTH}"
    return ""


def _user(reader: _Reader, email: str, entry: Any) -> Member:
    if problem := _email_problem(email):
        raise reader.fail(problem, "users", email)
    if not isinstance(entry, dict):
        raise reader.fail('must be a table, e.g. { role = "approver", limit_krw = 1_000_000 }', "users", email)
    unknown = sorted(set(entry) - {"role", "limit_krw", "name"})
    if unknown:
        raise reader.fail("is not a known key; known: role, limit_krw, name", "users", email, unknown[0])
    role = entry.get("role")
    if role not in ROLES:
        raise reader.fail(f"must be one of {', '.join(ROLES)}; got {role!r}", "users", email, "role")
    limit = entry.get("limit_krw")
    if role == APPROVER:
        if isinstance(limit, bool) or not isinstance(limit, int) or limit < 1:
            raise reader.fail(
                f"an approver needs a limit: a whole number of KRW of at least 1; got {limit!r}",
                "users",
                email,
                "limit_krw" if "limit_krw" in entry else "role",
            )
    elif limit is not None:
        raise reader.fail(f"only an approver has a limit; a {role} has none", "users", email, "limit_krw")
    name = entry.get("name", "")
    if not isinstance(name, str):
        raise reader.fail(f"must be text; got {name!r}", "users", email, "name")
    return Member(role=role, limit_krw=limit if role == APPROVER else None, name=name.strip())


def _token(reader: _Reader, label: str, entry: Any) -> tuple[str, str, str]:
    if not isinstance(entry, dict):
        raise reader.fail('must be a table, e.g. { sha256 = "…", email = "kim@example.com" }', "tokens", label)
    unknown = sorted(set(entry) - {"sha256", "email", "name"})
    if unknown:
        raise reader.fail("is not a known key; known: sha256, email, name", "tokens", label, unknown[0])
    digest = entry.get("sha256")
    if not isinstance(digest, str) or not _SHA256.match(digest):
        raise reader.fail(
            "must be the token's SHA-256 as 64 hex digits (never the token itself); "
            "print it with: python -m agents token-hash",
            "tokens",
            label,
            "sha256",
        )
    email = entry.get("email")
    if not isinstance(email, str) or _email_problem(email.strip()):
        raise reader.fail(f"must be the email the token acts for; got {email!r}", "tokens", label, "email")
    name = entry.get("name", "")
    if not isinstance(name, str):
        raise reader.fail(f"must be text; got {name!r}", "tokens", label, "name")
    return digest.lower(), email.strip(), name.strip()


def parse_roles(text: str, path: str = "roles.toml") -> Roles:
    """Checks a roles file's text and returns its :class:`Roles`.

    Raises:
        RolesFileError: The text is not TOML, or an entry is wrong (the line is named).
    """
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        found = _TOML_LINE.search(str(error))
        raise RolesFileError(path, int(found.group(1)) if found else None, f"not valid TOML: {error}") from None
    reader = _Reader(path, text)
    unknown = sorted(set(data) - {"users", "tokens"})
    if unknown:
        raise reader.fail("is not a known section; known: [users], [tokens]", unknown[0])
    for section in ("users", "tokens"):
        if not isinstance(data.get(section, {}), dict):
            raise reader.fail("must be a table of entries", section)
    users: dict[str, Member] = {}
    for email, entry in data.get("users", {}).items():
        if email.casefold() in users:
            raise reader.fail("is listed twice (emails are compared without case)", "users", email)
        users[email.casefold()] = _user(reader, email, entry)
    tokens: dict[str, tuple[str, str, str]] = {}
    for label, entry in data.get("tokens", {}).items():
        digest, email, name = _token(reader, label, entry)
        if digest in tokens:
            raise reader.fail("has the same hash as another token; give each token its own", "tokens", label, "sha256")
        tokens[digest] = (email, name, label)
    return Roles(users=MappingProxyType(users), tokens=MappingProxyType(tokens), source=path)


def load_roles(path: Path | str) -> Roles:
    """Reads and checks a roles file.

    Raises:
        RolesFileError: The file cannot be read, is not TOML, or an entry is wrong (the line is named).
    """
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise RolesFileError(str(path), None, f"cannot be read: {error}") from None
    return parse_roles(text, str(path))
