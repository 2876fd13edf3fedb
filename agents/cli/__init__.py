"""The command line: ``python -m agents [--db PATH] [--lang ko|en] COMMAND ...``.

Exit codes: 0 success; 2 bad input (the message is on stderr and nothing was
changed); 1 an internal error. ``--lang`` (default ``HITL_LANG``, else ``en``) is
the language of its messages and of the runs it starts; a thread started in
another language keeps speaking it. Each command module adds its sub-commands
with ``add_commands(subparsers)``; a command is a function ``(args, context) -> int``.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from typing import Any

from agents import runtime
from agents.cli import core, decide, explorer, migrate, notify, refund, roles, serve, timeline
from agents.cli.base import EXIT_BAD_INPUT, EXIT_BROKEN_PIPE, EXIT_INTERNAL, EXIT_OK, Context, Parser
from agents.db import DatabaseError
from agents.errors import RunFailedError, UserError
from agents.texts import DEFAULT_LANGUAGE, LANGUAGES, render


def build_parser() -> argparse.ArgumentParser:
    """The full parser, with every command module's sub-commands."""
    parser = Parser(prog="python -m agents", description=__doc__.splitlines()[0])
    parser.add_argument("--db", metavar="PATH", help="database file (default: HITL_DB or data/checkpoints.sqlite)")
    parser.add_argument(
        "--lang", choices=LANGUAGES, help="language of messages and of new runs (default: HITL_LANG or en)"
    )
    subparsers = parser.add_subparsers(dest="command", required=True, parser_class=Parser)
    for module in (core, explorer, refund, decide, timeline, migrate, serve, roles, notify):
        module.add_commands(subparsers)
    _accept_db_anywhere(subparsers)
    return parser


def _accept_db_anywhere(subparsers: Any) -> None:
    """Every command (and sub-command) also takes ``--db`` and ``--lang`` after its name, as the README says."""
    for command in subparsers.choices.values():
        command.add_argument(
            "--db", metavar="PATH", default=argparse.SUPPRESS, help="database file (also accepted before the command)"
        )
        command.add_argument(
            "--lang", choices=LANGUAGES, default=argparse.SUPPRESS, help="language (also accepted before the command)"
        )
        for action in command._actions:  # sub-commands such as ``run robot``
            if isinstance(action, argparse._SubParsersAction):
                _accept_db_anywhere(action)


def main(argv: Sequence[str] | None = None) -> int:
    """Runs one command and returns its exit code."""
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as stop:  # a usage error (exit 2, said on stderr), or --help: the code, as for any command
        return int(stop.code or EXIT_OK)
    context: Context | None = None
    lang = args.lang or DEFAULT_LANGUAGE
    try:
        context = Context(runtime.load_settings(db_override=args.db, lang_override=args.lang))
        lang = context.settings.lang
        return int(args.handler(args, context) or EXIT_OK)
    except (UserError, DatabaseError) as error:
        print(f"error: {render(error, lang)}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except RunFailedError as error:
        print(f"error: {error}", file=sys.stderr)
        return EXIT_INTERNAL
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return EXIT_INTERNAL
    except BrokenPipeError:
        # The reader went away (``| head``): stop quietly, as Unix tools do, and keep Python's
        # final flush of stdout from raising again.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return EXIT_BROKEN_PIPE
    finally:
        if context is not None and "store" in context.__dict__:
            context.store.close()
