"""The roles file: reading and checking it, each problem named with its line.

The roles file (TOML, ``.streamlit/roles.toml`` unless ``HITL_ROLES_FILE`` names another;
docs/ARCHITECTURE.md describes it) maps emails to roles and API token SHA-256 hashes to
identities. This module turns its text into :class:`agents.identity.Roles` or refuses it with a
:class:`RolesFileError` that names the file and the line to fix; what a role may do is
:mod:`agents.identity`.
"""

from __future__ import annotations

import os
import re
import tomllib
from dataclasses import replace
from pathlib import Path
from types import MappingProxyType
from typing import Any

from agents.errors import UserError
from agents.identity import APPROVER, EMAIL_MAX_LENGTH, ROLES, Member, Roles
from agents.strings import STRINGS
from agents.texts import Text, text


class RolesFileError(UserError):
    """The roles file cannot be used; the message names the file and the line.

    Attributes:
        path: The file.
        line: The line to fix (1-based), or None when the problem is the file as a whole.
    """

    def __init__(self, path: str, line: int | None, message: Text) -> None:
        if line:
            self.text = text(STRINGS, "error.roles.file_line", path=path, line=line, message=message)
        else:
            self.text = text(STRINGS, "error.roles.file", path=path, message=message)
        super().__init__(str(self.text))
        self.path = path
        self.line = line


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

    def fail(self, message: Text, section: str, key: str | None = None, item: str | None = None) -> RolesFileError:
        where = section + (f'."{key}"' if key is not None else "") + (f".{item}" if item is not None else "")
        entry = text(STRINGS, "error.roles.entry", entry=where, message=message)
        return RolesFileError(self.path, self.line_of(section, key, item), entry)


def _email_problem(email: str) -> Text | None:
    """What keeps ``email`` from being a roles file's email address (None when nothing does)."""
    if not _EMAIL.match(email):
        return text(STRINGS, "error.roles.email")
    if len(email) > EMAIL_MAX_LENGTH:
        return text(STRINGS, "error.roles.email_length", length=len(email), maximum=EMAIL_MAX_LENGTH)
    return None


def _user(reader: _Reader, email: str, entry: Any) -> Member:
    if problem := _email_problem(email):
        raise reader.fail(problem, "users", email)
    if not isinstance(entry, dict):
        raise reader.fail(text(STRINGS, "error.roles.user_table"), "users", email)
    unknown = sorted(set(entry) - {"role", "limit_krw", "name"})
    if unknown:
        raise reader.fail(
            text(STRINGS, "error.roles.unknown_key", known="role, limit_krw, name"), "users", email, unknown[0]
        )
    role = entry.get("role")
    if role not in ROLES:
        raise reader.fail(
            text(STRINGS, "error.roles.role", roles=", ".join(ROLES), value=repr(role)), "users", email, "role"
        )
    limit = entry.get("limit_krw")
    if role == APPROVER:
        if isinstance(limit, bool) or not isinstance(limit, int) or limit < 1:
            raise reader.fail(
                text(STRINGS, "error.roles.limit", value=repr(limit))
                if "limit_krw" in entry
                else text(STRINGS, "error.roles.limit_missing"),
                "users",
                email,
                "limit_krw" if "limit_krw" in entry else "role",
            )
    elif limit is not None:
        raise reader.fail(text(STRINGS, "error.roles.limit_not_approver", role=role), "users", email, "limit_krw")
    name = entry.get("name", "")
    if not isinstance(name, str):
        raise reader.fail(text(STRINGS, "error.roles.text", value=repr(name)), "users", email, "name")
    return Member(role=role, limit_krw=limit if role == APPROVER else None, name=name.strip())


def _token(reader: _Reader, label: str, entry: Any) -> tuple[str, str, str]:
    if not isinstance(entry, dict):
        raise reader.fail(text(STRINGS, "error.roles.token_table"), "tokens", label)
    unknown = sorted(set(entry) - {"sha256", "email", "name"})
    if unknown:
        raise reader.fail(
            text(STRINGS, "error.roles.unknown_key", known="sha256, email, name"), "tokens", label, unknown[0]
        )
    digest = entry.get("sha256")
    if not isinstance(digest, str) or not _SHA256.match(digest):
        raise reader.fail(text(STRINGS, "error.roles.sha256"), "tokens", label, "sha256")
    email = entry.get("email")
    if not isinstance(email, str) or _email_problem(email.strip()):
        raise reader.fail(text(STRINGS, "error.roles.token_email", value=repr(email)), "tokens", label, "email")
    name = entry.get("name", "")
    if not isinstance(name, str):
        raise reader.fail(text(STRINGS, "error.roles.text", value=repr(name)), "tokens", label, "name")
    return digest.lower(), email.strip(), name.strip()


def parse_roles(source: str, path: str = "roles.toml") -> Roles:
    """Checks a roles file's text and returns its :class:`Roles`.

    Raises:
        RolesFileError: The text is not TOML, or an entry is wrong (the line is named).
    """
    try:
        data = tomllib.loads(source)
    except tomllib.TOMLDecodeError as error:
        found = _TOML_LINE.search(str(error))
        line = int(found.group(1)) if found else None
        raise RolesFileError(path, line, text(STRINGS, "error.roles.not_toml", error=error)) from None
    reader = _Reader(path, source)
    unknown = sorted(set(data) - {"users", "tokens"})
    if unknown:
        raise reader.fail(text(STRINGS, "error.roles.section"), unknown[0])
    for section in ("users", "tokens"):
        if not isinstance(data.get(section, {}), dict):
            raise reader.fail(text(STRINGS, "error.roles.section_table"), section)
    users: dict[str, Member] = {}
    for email, entry in data.get("users", {}).items():
        if email.casefold() in users:
            raise reader.fail(text(STRINGS, "error.roles.email_twice"), "users", email)
        users[email.casefold()] = _user(reader, email, entry)
    tokens: dict[str, tuple[str, str, str]] = {}
    for label, entry in data.get("tokens", {}).items():
        digest, email, name = _token(reader, label, entry)
        if digest in tokens:
            raise reader.fail(text(STRINGS, "error.roles.same_hash"), "tokens", label, "sha256")
        tokens[digest] = (email, name, label)
    return Roles(users=MappingProxyType(users), tokens=MappingProxyType(tokens), source=path)


def load_roles(path: Path | str) -> Roles:
    """Reads and checks a roles file.

    Raises:
        RolesFileError: The file cannot be read, is not TOML, or an entry is wrong (the line is named).
    """
    stamp = _stamp(str(path))  # before the read: a write after it is seen by the next current_roles
    try:
        source = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise RolesFileError(str(path), None, text(STRINGS, "error.roles.unreadable", error=error)) from None
    return replace(parse_roles(source, str(path)), stamp=stamp)


def _stamp(path: str) -> tuple[int, int, int] | None:
    """The file's modification time (ns), size and inode; None when it cannot be seen."""
    try:
        found = os.stat(path)
    except OSError:
        return None
    return (found.st_mtime_ns, found.st_size, found.st_ino)


#: The latest :class:`Roles` read again by :func:`current_roles`, by file.
_LATEST: dict[str, Roles] = {}


def current_roles(roles: Roles | None) -> Roles | None:
    """``roles`` as its file says now, so a process that runs for days (the dashboard, ``serve``, a deliverer)
    follows an edit without a restart: the same object while the file is unchanged (one ``stat``), else the
    file read again, kept for the next call. Roles not read from a file (None, or parsed text) stay as they are.

    Raises:
        RolesFileError: The file changed and cannot be used now (removed, unreadable, or wrong, the line named):
            refused as at start, so an edit gone wrong never leaves the rights it meant to change in force.
    """
    if roles is None or roles.stamp is None:
        return roles
    now = _stamp(roles.source)
    if now is not None:
        if now == roles.stamp:
            return roles
        latest = _LATEST.get(roles.source)
        if latest is not None and latest.stamp == now:
            return latest
    fresh = load_roles(roles.source)
    _LATEST[roles.source] = fresh
    return fresh
