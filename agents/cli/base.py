"""What every command module shares: the context, exit codes and the thread-command shape."""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass
from functools import cached_property
from typing import Any, NoReturn

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


class Parser(argparse.ArgumentParser):
    """Exits with :data:`EXIT_BAD_INPUT` (not argparse's 2 by accident) on a usage error."""

    def error(self, message: str) -> NoReturn:
        self.print_usage(sys.stderr)
        self.exit(EXIT_BAD_INPUT, f"{self.prog}: error: {message}\n")
