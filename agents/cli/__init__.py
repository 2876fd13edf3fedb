"""The command line: ``python -m agents [--db PATH] COMMAND ...``.

Exit codes: 0 success; 2 bad input (the message is on stderr and nothing was
changed); 1 an internal error. Each command module adds its sub-commands with
``add_commands(subparsers)``; a command is a function ``(args, context) -> int``.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from agents.db import DatabaseError, Store, open_store
from agents.errors import RunFailedError, UserError
from agents.settings import Settings, load_settings

EXIT_OK, EXIT_INTERNAL, EXIT_BAD_INPUT = 0, 1, 2
#: As a Unix tool killed by SIGPIPE reports it (128 + 13).
EXIT_BROKEN_PIPE = 141


@dataclass
class Context:
    """What a command needs: the settings, and the database opened on first use."""

    settings: Settings

    @cached_property
    def store(self) -> Store:
        """The database, opened once."""
        return open_store(self.settings.db)


def thread_command(
    subparsers: Any, name: str, help_text: str, handler: Any, *, json_help: str | None = "print JSON"
) -> argparse.ArgumentParser:
    """Adds a command that acts on one thread: ``NAME THREAD [--json]``; returns its parser."""
    parser = subparsers.add_parser(name, help=help_text)
    parser.add_argument("thread")
    if json_help is not None:
        parser.add_argument("--json", action="store_true", help=json_help)
    parser.set_defaults(handler=handler)
    return parser


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # type: ignore[override]
        self.print_usage(sys.stderr)
        self.exit(EXIT_BAD_INPUT, f"{self.prog}: error: {message}\n")


def build_parser() -> argparse.ArgumentParser:
    """The full parser, with every command module's sub-commands."""
    from agents.cli import core, explorer, migrate, refund, timeline

    parser = _Parser(prog="python -m agents", description=__doc__.splitlines()[0])
    parser.add_argument("--db", metavar="PATH", help="database file (default: HITL_DB or data/checkpoints.sqlite)")
    subparsers = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    for module in (core, explorer, refund, timeline, migrate):
        module.add_commands(subparsers)
    _accept_db_anywhere(subparsers)
    return parser


def _accept_db_anywhere(subparsers: Any) -> None:
    """Every command (and sub-command) also takes ``--db`` after its name, as the README says."""
    for command in subparsers.choices.values():
        command.add_argument("--db", metavar="PATH", default=argparse.SUPPRESS,
                             help="database file (also accepted before the command)")
        for action in command._actions:  # sub-commands such as ``run robot``
            if isinstance(action, argparse._SubParsersAction):
                _accept_db_anywhere(action)


def main(argv: Sequence[str] | None = None) -> int:
    """Runs one command and returns its exit code."""
    parser = build_parser()
    args = parser.parse_args(argv)
    context: Context | None = None
    try:
        context = Context(load_settings(db_override=args.db))
        return int(args.handler(args, context) or EXIT_OK)
    except (UserError, DatabaseError) as error:
        print(f"error: {error}", file=sys.stderr)
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
