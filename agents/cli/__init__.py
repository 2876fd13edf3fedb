"""The command line: ``python -m agents [--db PATH] [--lang ko|en] COMMAND ...``.

Exit codes: 0 success; 2 bad input (the message is on stderr and nothing was
changed); 75 (``EX_TEMPFAIL`` of sysexits) the database busy: another process held its write lock past the
busy timeout, the refused write changed nothing, the same command may succeed later; 1 an internal error. A
command that runs once waits for that lock about the busy timeout in all (``Store.give_up_once_busy``).
``--lang`` (default ``HITL_LANG``, else ``en``) is the language of its messages, its help and of the runs it
starts; a thread started in another language keeps speaking it. Each command module adds its sub-commands
with ``add_commands(subparsers, lang)`` (their help in ``lang``); a command is a
function ``(args, context) -> int`` that says its words in ``context.lang``.
"""

from __future__ import annotations

import argparse
import operator
import os
import sys
from collections.abc import Sequence
from typing import Any

from agents import runtime
from agents.cli import core, decide, deletions, explorer, migrate, notify, refund, roles, serve, timeline
from agents.cli.base import (
    EXIT_BAD_INPUT,
    EXIT_BROKEN_PIPE,
    EXIT_DB_BUSY,
    EXIT_INTERNAL,
    EXIT_OK,
    Context,
    Parser,
    parser_language,
    say,
)
from agents.db import DatabaseError, is_busy_refusal
from agents.errors import RunFailedError, UserError
from agents.registry import AGENTS
from agents.settings import requested_language
from agents.spec import AgentSpec
from agents.texts import DEFAULT_LANGUAGE, LANGUAGES, render

#: The parser made for each language, with the agents it was made for (:func:`build_parser`).
_BUILT: dict[str, tuple[tuple[AgentSpec, ...], argparse.ArgumentParser]] = {}


def build_parser(lang: str = DEFAULT_LANGUAGE) -> argparse.ArgumentParser:
    """The full parser, with every command module's sub-commands, its help and usage errors in ``lang``.

    Made once per language and kept while the registered agents are the same ones (a ``run`` command is
    made for each agent): making it adds about 150 commands and options with their help, and a process that runs
    commands one after another (the tests, a batch) would pay that for each. Parsing reads the parser and
    changes nothing in it.
    """
    agents = tuple(AGENTS.values())
    built = _BUILT.get(lang)
    if built is not None and len(built[0]) == len(agents) and all(map(operator.is_, built[0], agents)):
        return built[1]
    parser = _new_parser(lang)
    _BUILT[lang] = (agents, parser)
    return parser


def _new_parser(lang: str) -> argparse.ArgumentParser:
    language_parser = Parser.in_language(lang)
    parser = language_parser(
        prog="python -m agents", description=say("cli.description", lang), epilog=say("cli.epilog", lang)
    )
    parser.add_argument("--db", metavar="PATH", help=say("cli.help.db", lang))
    parser.add_argument("--lang", choices=LANGUAGES, help=say("cli.help.lang", lang))
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", required=True, parser_class=language_parser)
    for module in (core, deletions, explorer, refund, decide, timeline, migrate, serve, roles, notify):
        module.add_commands(subparsers, lang)
    _accept_db_anywhere(subparsers, say("cli.help.db_after", lang), say("cli.help.lang_after", lang))
    return parser


def _accept_db_anywhere(subparsers: Any, db_help: str, lang_help: str) -> None:
    """Every command (and sub-command) also takes ``--db`` and ``--lang`` after its name, as the README says."""
    for command in subparsers.choices.values():
        command.add_argument("--db", metavar="PATH", default=argparse.SUPPRESS, help=db_help)
        command.add_argument("--lang", choices=LANGUAGES, default=argparse.SUPPRESS, help=lang_help)
        for action in command._actions:  # sub-commands such as ``run robot``
            if isinstance(action, argparse._SubParsersAction):
                _accept_db_anywhere(action, db_help, lang_help)


def _runs_once(args: argparse.Namespace) -> bool:
    """Whether the command does its work and exits: every one but ``serve`` and ``notify --watch``, which keep
    serving (a refusal of a busy database there is one request's, or one pass's, not the process's end)."""
    return not (args.command == "serve" or getattr(args, "watch", False))


def main(argv: Sequence[str] | None = None) -> int:
    """Runs one command and returns its exit code."""
    arguments = sys.argv[1:] if argv is None else list(argv)
    # The language is known before the parser is made, so --help and a usage error are said in it too.
    lang = requested_language(parser_language(arguments))
    parser = build_parser(lang)
    try:
        args = parser.parse_args(arguments)
    except SystemExit as stop:  # a usage error (exit 2, said on stderr), or --help: the code, as for any command
        return int(stop.code or EXIT_OK)
    context: Context | None = None
    try:
        settings = runtime.load_settings(db_override=args.db, lang_override=args.lang)
        context = Context(settings, creates=getattr(args, "creates_database", False), once=_runs_once(args))
        lang = context.lang
        return int(args.handler(args, context) or EXIT_OK)
    except (UserError, DatabaseError) as error:
        print(say("cli.error", lang, message=render(error, lang)), file=sys.stderr)
        # A busy database is no mistake of the caller's: cron tells "try again later" from bad input by the code.
        return EXIT_DB_BUSY if is_busy_refusal(error) else EXIT_BAD_INPUT
    except RunFailedError as error:
        print(say("cli.error", lang, message=render(error, lang)), file=sys.stderr)
        return EXIT_INTERNAL
    except KeyboardInterrupt:
        print(say("cli.interrupted", lang), file=sys.stderr)
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
