"""``migrate --from SQLITE_PATH --to POSTGRES_URL``: move a save file to PostgreSQL."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from agents.cli.base import Context
from agents.cli.core import print_json
from agents.db import is_postgres_url
from agents.errors import InputError
from agents.migrate import MigrationError, migrate
from agents.runtime import open_store


def cmd_migrate(args: argparse.Namespace, context: Context) -> int:
    if not Path(args.source).is_file():
        raise InputError("from", f"no SQLite file at {args.source}")
    if not is_postgres_url(args.target):
        raise InputError("to", "must be a postgresql:// URL")
    source, target = open_store(args.source), open_store(args.target)
    try:
        report = migrate(source, target)
    except MigrationError as error:
        raise InputError("to", str(error)) from None
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
    print(f"copied {report.threads} threads to {target.path}")
    for name, (source_rows, target_rows) in report.counts.items():
        print(f"  {name:<14} source {source_rows:>8}  target {target_rows:>8}  ok")
    return 0


def add_commands(subparsers: Any) -> None:
    """Adds ``migrate``."""
    p = subparsers.add_parser("migrate", help="copy a SQLite save file into a PostgreSQL database")
    p.add_argument("--from", dest="source", required=True, metavar="SQLITE_PATH")
    p.add_argument("--to", dest="target", required=True, metavar="POSTGRES_URL")
    p.add_argument("--json", action="store_true")
    p.set_defaults(handler=cmd_migrate)
