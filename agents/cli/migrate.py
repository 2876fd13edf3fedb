"""``migrate --from SQLITE_PATH --to POSTGRES_URL``: move a save file to PostgreSQL."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from agents.cli.base import Context, say, say_count
from agents.cli.core import print_json
from agents.cli.strings import STRINGS
from agents.db import is_postgres_url
from agents.errors import InputError
from agents.migrate import MigrationError, migrate
from agents.runtime import open_store
from agents.texts import text


def cmd_migrate(args: argparse.Namespace, context: Context) -> int:
    if not Path(args.source).is_file():
        raise InputError("--from", text(STRINGS, "cli.migrate.no_file", path=args.source))
    if not is_postgres_url(args.target):
        raise InputError("--to", text(STRINGS, "cli.migrate.not_postgres"))
    source, target = open_store(args.source), open_store(args.target)
    try:
        report = migrate(source, target)
    except MigrationError as error:
        raise InputError("--to", error.text) from None
    finally:
        source.close()
        target.close()
    if args.json:
        print_json(
            {
                "threads": report.threads,
                "counts": {name: {"source": a, "target": b} for name, (a, b) in report.counts.items()},
            }
        )
        return 0
    lang = context.lang
    print(say_count("cli.migrate.copied", report.threads, lang, target=target.path))
    for name, (source_rows, target_rows) in report.counts.items():
        print(say("cli.migrate.row", lang, table=f"{name:<14}", source=f"{source_rows:>8}", target=f"{target_rows:>8}"))
    return 0


def add_commands(subparsers: Any, lang: str) -> None:
    """Adds ``migrate``, its help in ``lang``."""
    p = subparsers.add_parser("migrate", help=say("cli.help.migrate", lang))
    p.add_argument(
        "--from", dest="source", required=True, metavar="SQLITE_PATH", help=say("cli.help.migrate.from", lang)
    )
    p.add_argument("--to", dest="target", required=True, metavar="POSTGRES_URL", help=say("cli.help.migrate.to", lang))
    p.add_argument("--json", action="store_true", help=say("cli.help.migrate.json", lang))
    p.set_defaults(handler=cmd_migrate)
