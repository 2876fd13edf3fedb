"""What every command module shares: the context, exit codes, the thread-command shape and the words.

Every word a command prints or a parser shows comes from :mod:`agents.cli.strings` in the language of
``--lang`` (:func:`say`, :func:`say_count`); a :class:`Parser` made for a language
(:meth:`Parser.in_language`) shows argparse's own words (usage, section titles, ``-h``, usage errors) in
it too.
"""

from __future__ import annotations

import argparse
import functools
import os
import re
import sys
import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Any, NoReturn, TypeVar

from agents import runtime
from agents.cli.strings import STRINGS
from agents.db import Store, is_postgres_url
from agents.errors import InputError
from agents.settings import Settings
from agents.texts import DEFAULT_LANGUAGE, LANGUAGES, text
from agents.texts import say as say_in

EXIT_OK, EXIT_INTERNAL, EXIT_BAD_INPUT = 0, 1, 2
#: The database was busy (another process held its write lock past the busy timeout): nothing was changed, and the
#: same command may succeed later. ``EX_TEMPFAIL`` of sysexits, which mail and cron tools read as "try again".
EXIT_DB_BUSY = 75
#: As a Unix tool killed by SIGPIPE reports it (128 + 13).
EXIT_BROKEN_PIPE = 141


def say(key: str, lang: str, /, **params: Any) -> str:
    """The command line's string ``key`` in ``lang``, formatted with ``params``."""
    return say_in(STRINGS, key, lang, **params)


def say_count(key: str, count: int, lang: str, /, **params: Any) -> str:
    """``KEY.one`` for a count of one, else ``KEY.other``, formatted with ``count`` and ``params``."""
    return say_in(STRINGS, f"{key}.{'one' if count == 1 else 'other'}", lang, count=count, **params)


def word(kind: str, code: str, lang: str) -> str:
    """A stored code in words (``cli.KIND.CODE``, e.g. ``status``, ``waiting``); the code itself when it has none."""
    key = f"cli.{kind}.{code}"
    return say(key, lang) if key in STRINGS else code


def display_width(text: str) -> int:
    """How many terminal columns ``text`` takes: a wide character (Hangul, CJK) takes two."""
    if text.isascii():
        return len(text)
    return sum(2 if unicodedata.east_asian_width(char) in "WF" else 1 for char in text)


def table_lines(headers: Sequence[str], rows: Sequence[Sequence[str]]) -> list[str]:
    """Plain text columns, left-aligned, two spaces apart, by the columns they take on a terminal."""
    widths = [max(display_width(str(cell)) for cell in column) for column in zip(headers, *rows, strict=True)]
    return [
        "  ".join(
            str(cell) + " " * (width - display_width(str(cell))) for cell, width in zip(line, widths, strict=True)
        ).rstrip()
        for line in (headers, *rows)
    ]


@dataclass
class Context:
    """What a command needs: the settings, and the database opened on first use.

    Only a command that starts something (``run``, ``serve``) makes a new SQLite file: any other refuses a
    path where there is none (``creates`` False), so a mistyped ``--db`` or ``HITL_DB`` is said, not read
    as an empty database (``inbox --overdue`` from cron would report nothing overdue) and left behind.
    """

    settings: Settings
    creates: bool = False
    #: The command does its work and exits (not ``serve``, not ``notify --watch``): once one of its writes was
    #: refused for a busy database, the others stop waiting (``Store.give_up_once_busy``), so it says busy about
    #: one busy timeout after it began to wait, not one timeout per write.
    once: bool = False

    @property
    def lang(self) -> str:
        """The language of the command's words (``--lang``, else ``HITL_LANG``, else English)."""
        return self.settings.lang

    @cached_property
    def store(self) -> Store:
        """The database, opened once."""
        location = self.settings.db
        if not self.creates and not is_postgres_url(location) and _nothing_at(Path(location)):
            raise InputError("--db", text(STRINGS, "cli.db.missing", path=str(location)))
        store = runtime.open_store(self.settings.db, busy_timeout=self.settings.db_busy_timeout)
        if self.once:
            store.give_up_once_busy()
        return store


def _nothing_at(path: Path) -> bool:
    """Whether nothing is at ``path`` and it lies in a folder (made or still to be made): a file could be
    made there. A path that is there but cannot be opened (a folder, a symlink loop) or lies under a file is
    the store's to name."""
    if os.path.lexists(path):
        return False
    while not os.path.lexists(path.parent) and path.parent != path:
        path = path.parent
    return path.parent.is_dir()


def thread_command(
    subparsers: Any, name: str, help_text: str, handler: Any, lang: str, *, json_help: str | None = ""
) -> argparse.ArgumentParser:
    """Adds a command that acts on one thread: ``NAME THREAD [--json]``; returns its parser.

    ``json_help`` is ``--json``'s help ("print JSON" when empty); None: the command has no ``--json``.
    """
    parser = subparsers.add_parser(name, help=help_text)
    parser.add_argument("thread", metavar="THREAD", help=say("cli.help.thread", lang))
    if json_help is not None:
        parser.add_argument("--json", action="store_true", help=json_help or say("cli.help.json", lang))
    parser.set_defaults(handler=handler)
    return parser


_Action = TypeVar("_Action", bound=argparse.Action)


def _given(convert: Callable[[str], Any] | None, lang: str) -> Callable[[str], Any]:
    """An option's conversion that first refuses an empty or blank value."""

    def check(value: str) -> Any:
        if not value.strip():
            raise argparse.ArgumentTypeError(say("cli.blank_value", lang))
        return value if convert is None else convert(value)

    return check


#: argparse's usage errors as it words them (Python's ``argparse`` templates), and the catalogue key of
#: each; the named groups are the key's parameters. The first that matches the whole message is used.
_ARGPARSE_ERRORS: tuple[tuple[re.Pattern[str], str], ...] = tuple(
    (re.compile(pattern, re.DOTALL), key)
    for pattern, key in (
        (r"argument (?P<argument>\S+): (?P<message>.*)", "cli.argparse.argument"),
        (r"invalid choice: (?P<value>.*) \(choose from (?P<choices>.*)\)", "cli.argparse.invalid_choice"),
        (r"the following arguments are required: (?P<names>.*)", "cli.argparse.required"),
        (r"one of the arguments (?P<names>.*) is required", "cli.argparse.one_required"),
        (r"unrecognized arguments: (?P<names>.*)", "cli.argparse.unrecognized"),
        (r"not allowed with argument (?P<other>.*)", "cli.argparse.not_allowed_with"),
        (r"ignored explicit argument (?P<value>.*)", "cli.argparse.ignored_value"),
        (r"expected one argument", "cli.argparse.expected_one"),
        (r"expected at most one argument", "cli.argparse.expected_at_most_one"),
        (r"expected at least one argument", "cli.argparse.expected_at_least_one"),
        (r"expected (?P<count>\d+) arguments?", "cli.argparse.expected_count"),
        (r"ambiguous option: (?P<option>\S+) could match (?P<matches>.*)", "cli.argparse.ambiguous"),
        (r"unexpected option string: (?P<option>.*)", "cli.argparse.unexpected_option"),
        (r"invalid (?P<kind>\S+) value: (?P<value>.*)", "cli.argparse.invalid_value"),
        (r"unknown parser (?P<name>\S+) \(choices: (?P<choices>.*)\)", "cli.argparse.unknown_parser"),
    )
)


def argparse_message(message: str, lang: str) -> str:
    """An argparse usage error in ``lang``: its own English for English, its known wordings translated
    (an argument's message too), anything else (a command's own message, already in ``lang``) as it is."""
    if lang == DEFAULT_LANGUAGE:
        return message
    for pattern, key in _ARGPARSE_ERRORS:
        found = pattern.fullmatch(message)
        if found is not None:
            params = found.groupdict()
            if "message" in params:
                params["message"] = argparse_message(params["message"], lang)
            return say(key, lang, **params)
    return message


class _Formatter(argparse.HelpFormatter):
    """argparse's help formatter with the usage line's prefix in the parser's language."""

    def __init__(self, prog: str, usage_prefix: str) -> None:
        super().__init__(prog)
        self._usage_prefix = usage_prefix

    def add_usage(self, usage: Any, actions: Any, groups: Any, prefix: str | None = None) -> None:
        super().add_usage(usage, actions, groups, self._usage_prefix if prefix is None else prefix)


class Parser(argparse.ArgumentParser):
    """Exits with :data:`EXIT_BAD_INPUT` (not argparse's 2 by accident) on a usage error, in :attr:`lang`.

    An option given an empty or blank value (``--db ""``, ``--thread " "``, ``--agent ""``) is a usage
    error naming the option, never the option's default: for every option of every command but an
    agent's fields (``add_argument(..., agent_field=True)``), whose own validators refuse it, naming the
    field in the reader's language.

    A parser speaks :attr:`lang`: make one with :meth:`in_language`, whose class its sub-commands'
    parsers share (``add_subparsers(parser_class=type(parser))``), so argparse's own words (the usage
    line, section titles, ``-h``, usage errors) are in that language too.
    """

    #: The language of argparse's own words and of the blank-value refusal.
    lang: str = DEFAULT_LANGUAGE
    _agent_field = False

    @classmethod
    def in_language(cls, lang: str) -> type[Parser]:
        """The parser class that speaks ``lang``."""
        return _parser_class(cls, lang)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault(
            "formatter_class", functools.partial(_Formatter, usage_prefix=say("cli.argparse.usage", self.lang))
        )
        super().__init__(*args, **kwargs)
        self._positionals.title = say("cli.argparse.positionals", self.lang)
        self._optionals.title = say("cli.argparse.options", self.lang)
        for action in self._actions:
            if isinstance(action, argparse._HelpAction):
                action.help = say("cli.argparse.help", self.lang)

    def add_argument(self, *args: Any, agent_field: bool = False, **kwargs: Any) -> argparse.Action:
        self._agent_field = agent_field
        try:
            return super().add_argument(*args, **kwargs)
        finally:
            self._agent_field = False

    def _add_action(self, action: _Action) -> _Action:
        """Every option added, directly or through a mutually exclusive group, refuses a blank value."""
        if action.option_strings and isinstance(action, argparse._StoreAction) and not self._agent_field:
            action.type = _given(action.type, self.lang)  # type: ignore[arg-type]  # argparse types it loosely
        return super()._add_action(action)

    def error(self, message: str) -> NoReturn:
        self.print_usage(sys.stderr)
        shown = say("cli.argparse.error", self.lang, prog=self.prog, message=argparse_message(message, self.lang))
        self.exit(EXIT_BAD_INPUT, shown + "\n")


#: The parser class of each (class, language), made once, so sub-commands share their parent's class.
_LANGUAGE_PARSERS: dict[tuple[type[Parser], str], type[Parser]] = {}


def _parser_class(base: type[Parser], lang: str) -> type[Parser]:
    made = _LANGUAGE_PARSERS.get((base, lang))
    if made is None:
        made = _LANGUAGE_PARSERS[(base, lang)] = type(f"{base.__name__}_{lang}", (base,), {"lang": lang})
    return made


def parser_language(argv: Sequence[str]) -> str | None:
    """The last language ``argv`` names with ``--lang`` (``--lang ko`` or ``--lang=ko``), None without one.

    Read before the parser is made, so its help and its usage errors are in that language even when
    ``--lang`` comes after ``--help`` or after the mistake; a value that names no language is skipped
    (the parser refuses it, in the language named before it).
    """
    found = None
    for position, argument in enumerate(argv):
        if argument == "--":
            break
        value = argv[position + 1] if argument == "--lang" and position + 1 < len(argv) else None
        if argument.startswith("--lang="):
            value = argument.removeprefix("--lang=")
        if value in LANGUAGES:
            found = value
    return found
