"""``token-hash`` and ``roles``: make an API token's roles-file entry, and check a roles file.

The roles file stores a token's SHA-256, never the token. ``token-hash`` reads the token from
standard input (so it stays out of the shell history and the process list), or makes a new one
with ``--new``, and prints the line to paste under ``[tokens]``.
"""

from __future__ import annotations

import argparse
import json
import secrets
import sys
from pathlib import Path
from typing import Any

from agents.cli.base import Context
from agents.errors import InputError
from agents.identity import EMAIL_MAX_LENGTH, token_hash
from agents.roles_file import RolesFileError, load_roles, parse_roles
from agents.settings import DEFAULT_ROLES_PATH
from agents.validation import validate_text

#: Random bytes of a token made by ``token-hash --new`` (printed as URL-safe base64).
NEW_TOKEN_BYTES = 32


def cmd_token_hash(args: argparse.Namespace, context: Context) -> int:
    if args.new:
        token = secrets.token_urlsafe(NEW_TOKEN_BYTES)
    else:
        token = sys.stdin.readline().strip()
        if not token:
            raise InputError("token", 'give the token on standard input, e.g. printf %s "$TOKEN" | ... token-hash')
    entry = token_entry(args.label, args.email or "someone@example.com", token_hash(token))  # checked first
    if args.new:
        print(f"token (give it to its owner; it is not stored anywhere): {token}", file=sys.stderr)
    print(entry)
    return 0


#: The longest label ``token-hash`` writes (a name for a person's script, not a document).
LABEL_MAX_LENGTH = 100


def _toml_string(value: str) -> str:
    """A TOML basic string of checked text (no control characters): JSON's escapes of ``"`` and ``\\``
    are TOML's."""
    return json.dumps(value, ensure_ascii=False)


def token_entry(label: str, email: str, digest: str) -> str:
    """The ``[tokens]`` line of a token, checked as the roles file checks it.

    The label and email are text without control characters (a newline would start a line of its own,
    e.g. a ``[users]`` admin), written as TOML strings, and the line is read back by the roles file's own
    parser, which must find exactly this one token.

    Raises:
        InputError: Naming ``label`` or ``email``.
    """
    label = validate_text(label, "label", max_length=LABEL_MAX_LENGTH)
    email = validate_text(email, "email", max_length=EMAIL_MAX_LENGTH)
    line = f'{_toml_string(label)} = {{ sha256 = "{digest}", email = {_toml_string(email)} }}'
    try:
        roles = parse_roles(f"[tokens]\n{line}\n", "token-hash")
    except RolesFileError:  # the label is a quoted key: only the email can be refused
        raise InputError("email", f"must be an email address, e.g. kim@example.com; got {email!r}") from None
    if dict(roles.tokens) != {digest: (email, "", label)} or roles.users:
        raise InputError("label", f"cannot be written as one roles-file entry: {label!r}")
    return line


def cmd_roles_check(args: argparse.Namespace, context: Context) -> int:
    path = Path(args.file) if args.file else None
    roles = load_roles(path) if path is not None else context.settings.roles
    if roles is None:
        print(f"no roles file (looked for {DEFAULT_ROLES_PATH}; HITL_ROLES_FILE names another)")
        return 0
    print(f"{roles.source}: {len(roles.users)} people, {len(roles.tokens)} API tokens")
    for email, user in sorted(roles.users.items()):
        limit = f", limit {user.limit_krw:,} KRW" if user.limit_krw is not None else ""
        print(f"  {email}: {user.role}{limit}")
    return 0


def add_commands(subparsers: Any) -> None:
    """Adds the ``token-hash`` and ``roles`` commands."""
    p = subparsers.add_parser("token-hash", help="print the roles-file entry of an API token (read from stdin)")
    p.add_argument("--new", action="store_true", help="make a new random token (printed on stderr)")
    p.add_argument("--label", default="token", help="the entry's name under [tokens]")
    p.add_argument("--email", help="the email the token acts for (its role comes from [users])")
    p.set_defaults(handler=cmd_token_hash)
    p = subparsers.add_parser("roles", help="check the roles file and list who has which role")
    p.add_argument("file", nargs="?", help="the roles file (default: HITL_ROLES_FILE or .streamlit/roles.toml)")
    p.set_defaults(handler=cmd_roles_check)
