"""What every command module shares: the context, exit codes and the thread-command shape."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property
from typing import Any, NoReturn, TypeVar

from agents import runtime
from agents.db import Store
from agents.settings import Settings

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
        return runtime.open_store(self.settings.db, busy_timeout=self.settings.db_busy_timeout)


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


_Action = TypeVar("_Action", bound=argparse.Action)


def _given(convert: Callable[[str], Any] | None) -> Callable[[str], Any]:
    """An option's conversion that first refuses an empty or blank value."""

    def check(value: str) -> Any:
        if not value.strip():
            raise argparse.ArgumentTypeError("is empty; give a value, or leave the option out for its default")
        return value if convert is None else convert(value)

    return check


class Parser(argparse.ArgumentParser):
    """Exits with :data:`EXIT_BAD_INPUT` (not argparse's 2 by accident) on a usage error.

    An option given an empty or blank value (``--db ""``, ``--thread " "``, ``--agent ""``) is a usage
    error naming the option, never the option's default: for every option of every command but an
    agent's fields (``add_argument(..., agent_field=True)``), whose own validators refuse it, naming the
    field in the reader's language.
    """

    _agent_field = False

    def add_argument(self, *args: Any, agent_field: bool = False, **kwargs: Any) -> argparse.Action:
        self._agent_field = agent_field
        try:
            return super().add_argument(*args, **kwargs)
        finally:
            self._agent_field = False

    def _add_action(self, action: _Action) -> _Action:
        """Every option added, directly or through a mutually exclusive group, refuses a blank value."""
        if action.option_strings and isinstance(action, argparse._StoreAction) and not self._agent_field:
            action.type = _given(action.type)  # type: ignore[arg-type]  # argparse types it loosely
        return super()._add_action(action)

    def error(self, message: str) -> NoReturn:
        self.print_usage(sys.stderr)
        self.exit(EXIT_BAD_INPUT, f"{self.prog}: error: {message}\n")
