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

from agents.cli.base import Context, say, say_count, word
from agents.cli.strings import STRINGS
from agents.errors import InputError
from agents.identity import EMAIL_MAX_LENGTH, token_hash
from agents.roles_file import RolesFileError, load_roles, parse_roles
from agents.settings import DEFAULT_ROLES_PATH
from agents.texts import text
from agents.validation import validate_text

#: Random bytes of a token made by ``token-hash --new`` (printed as URL-safe base64).
NEW_TOKEN_BYTES = 32


def cmd_token_hash(args: argparse.Namespace, context: Context) -> int:
    if args.new:
        token = secrets.token_urlsafe(NEW_TOKEN_BYTES)
    else:
        token = sys.stdin.readline().strip()
        if not token:
            raise InputError("token", text(STRINGS, "cli.token.stdin"))
    entry = token_entry(args.label, args.email or "someone@example.com", token_hash(token))  # checked first
    if args.new:
        print(say("cli.token.new", context.lang, token=token), file=sys.stderr)
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
        raise InputError("email", text(STRINGS, "cli.token.bad_email", value=repr(email))) from None
    if dict(roles.tokens) != {digest: (email, "", label)} or roles.users:
        raise InputError("label", text(STRINGS, "cli.token.bad_label", value=repr(label)))
    return line


def cmd_roles_check(args: argparse.Namespace, context: Context) -> int:
    path = Path(args.file) if args.file else None
    roles = load_roles(path) if path is not None else context.settings.roles
    lang = context.lang
    if roles is None:
        print(say("cli.roles.none", lang, path=DEFAULT_ROLES_PATH))
        return 0
    people = say_count("cli.roles.people", len(roles.users), lang)
    tokens = say_count("cli.roles.tokens", len(roles.tokens), lang)
    print(say("cli.roles.summary", lang, source=roles.source, people=people, tokens=tokens))
    for email, user in sorted(roles.users.items()):
        role = word("role", user.role, lang)
        if user.limit_krw is None:
            print(say("cli.roles.user", lang, email=email, role=role))
        else:
            print(say("cli.roles.limit", lang, email=email, role=role, limit=f"{user.limit_krw:,}"))
    return 0


def add_commands(subparsers: Any, lang: str) -> None:
    """Adds the ``token-hash`` and ``roles`` commands, their help in ``lang``."""
    p = subparsers.add_parser("token-hash", help=say("cli.help.token_hash", lang))
    p.add_argument("--new", action="store_true", help=say("cli.help.token_hash.new", lang))
    p.add_argument("--label", default="token", help=say("cli.help.token_hash.label", lang))
    p.add_argument("--email", help=say("cli.help.token_hash.email", lang))
    p.set_defaults(handler=cmd_token_hash)
    p = subparsers.add_parser("roles", help=say("cli.help.roles", lang))
    p.add_argument("file", nargs="?", metavar="FILE", help=say("cli.help.roles.file", lang))
    p.set_defaults(handler=cmd_roles_check)
