"""``python -m agents serve``: the HTTP API on uvicorn, on the same database as the dashboard.

Listens on 127.0.0.1:2024 by default. With ``HITL_API_TOKEN`` set, or tokens in the roles file,
every request needs ``Authorization: Bearer <token>`` (a roles-file token acts as its identity, with
its role's rights); without any token, the server refuses to listen beyond loopback.
"""

from __future__ import annotations

import argparse
import logging
import sys
from collections.abc import Callable
from typing import Any

from agents.cli.base import EXIT_BAD_INPUT, Context, say
from agents.cli.notify import channel_lines
from agents.cli.strings import STRINGS
from agents.errors import InputError
from agents.texts import text
from agents.validation import is_loopback

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 2024


def _port_in(lang: str) -> Callable[[str], int]:
    """``--port``'s conversion, refusing in ``lang`` what is not a port number."""

    def port(value: str) -> int:
        if not value.isdigit() or not 1 <= int(value) <= 65535:
            raise argparse.ArgumentTypeError(say("cli.serve.bad_port", lang, value=repr(value)))
        return int(value)

    return port


def cmd_serve(args: argparse.Namespace, context: Context) -> int:
    host = args.host.strip()
    roles = context.settings.roles
    role_tokens = roles is not None and roles.has_tokens
    if context.settings.api_token is None and not role_tokens and not is_loopback(host):
        raise InputError("--host", text(STRINGS, "cli.serve.no_token", host=repr(host)))
    # Deliberate late imports (named in pyproject.toml): FastAPI, pydantic's models of the routes and
    # uvicorn add about 400 ms, which no other command should pay; the notification deliverer likewise.
    import uvicorn

    from agents.api import access_log
    from agents.api.app import create_app, database_problem
    from agents.notify.deliverer import start_background

    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    access_log.install()  # no query string reaches the log with a secret in it
    shown = f"[{host}]" if ":" in host else host
    app = create_app(context.store, context.settings, base_url=f"http://{shown}:{args.port}")
    lang = context.lang
    if context.settings.api_token:
        token = say("cli.serve.token.api_or_roles" if role_tokens else "cli.serve.token.api", lang)
    else:
        token = say("cli.serve.token.roles" if role_tokens else "cli.serve.token.off", lang)
    print(say("cli.serve.serving", lang, address=f"{shown}:{args.port}", token=token), file=sys.stderr, flush=True)
    problem = database_problem(context.store)  # said at start, not first met by a client's run (GET /ok says it too)
    if problem is not None:
        print(say("cli.serve.warning", lang, problem=problem.render(lang)), file=sys.stderr, flush=True)
    stop_notify = start_background(context.store, context.settings)  # notifications, when configured
    if stop_notify is not None:
        channels = "; ".join(channel_lines(context.settings.notify, lang))
        print(say("cli.serve.notifying", lang, channels=channels), file=sys.stderr)
    config = uvicorn.Config(app, host=host, port=args.port, log_level="info", access_log=True, log_config=None)
    try:
        uvicorn.Server(config).run()
    except SystemExit as stop:  # uvicorn exits when it cannot bind (the reason is in its log above)
        if stop.code not in (0, None):
            refusal = say("cli.serve.cannot_listen", lang, address=f"{shown}:{args.port}")
            print(say("cli.error", lang, message=refusal), file=sys.stderr)
            return EXIT_BAD_INPUT
    except OSError as error:
        why = error.strerror or error
        refusal = say("cli.serve.cannot_listen.why", lang, address=f"{shown}:{args.port}", why=why)
        print(say("cli.error", lang, message=refusal), file=sys.stderr)
        return EXIT_BAD_INPUT
    return 0


def add_commands(subparsers: Any, lang: str) -> None:
    """Adds the ``serve`` command, its help in ``lang``."""
    p = subparsers.add_parser("serve", help=say("cli.help.serve", lang))
    p.add_argument("--host", default=DEFAULT_HOST, help=say("cli.help.serve.host", lang, host=DEFAULT_HOST))
    p.add_argument(
        "--port", type=_port_in(lang), default=DEFAULT_PORT, help=say("cli.help.serve.port", lang, port=DEFAULT_PORT)
    )
    p.set_defaults(handler=cmd_serve, creates_database=True)
