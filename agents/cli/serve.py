"""``python -m agents serve``: the HTTP API on uvicorn, on the same database as the dashboard.

Listens on 127.0.0.1:2024 by default. With ``HITL_API_TOKEN`` set, or tokens in the roles file,
every request needs ``Authorization: Bearer <token>`` (a roles-file token acts as its identity, with
its role's rights); without any token, the server refuses to listen beyond loopback.
"""

from __future__ import annotations

import argparse
import logging
import sys
from typing import Any

from agents.cli.base import EXIT_BAD_INPUT, Context
from agents.cli.notify import channel_lines
from agents.errors import InputError
from agents.validation import is_loopback

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 2024


def _port(text: str) -> int:
    if not text.isdigit() or not 1 <= int(text) <= 65535:
        raise argparse.ArgumentTypeError(f"must be a port number from 1 to 65535; got {text!r}")
    return int(text)


def cmd_serve(args: argparse.Namespace, context: Context) -> int:
    host = args.host.strip()
    roles = context.settings.roles
    role_tokens = roles is not None and roles.has_tokens
    if context.settings.api_token is None and not role_tokens and not is_loopback(host):
        raise InputError(
            "--host",
            f"refusing to listen on {host!r} without a token: set HITL_API_TOKEN or give tokens in the roles "
            "file (every request then needs 'Authorization: Bearer <token>'), or listen on 127.0.0.1",
        )
    # Deliberate late imports (named in pyproject.toml): FastAPI, pydantic's models of the routes and
    # uvicorn add about 400 ms, which no other command should pay; the notification deliverer likewise.
    import uvicorn

    from agents.api import access_log
    from agents.api.app import create_app
    from agents.notify.deliverer import start_background

    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    access_log.install()  # no query string reaches the log with a secret in it
    shown = f"[{host}]" if ":" in host else host
    app = create_app(context.store, context.settings, base_url=f"http://{shown}:{args.port}")
    if context.settings.api_token:
        token = "on (Authorization: Bearer $HITL_API_TOKEN" + (", or a roles-file token)" if role_tokens else ")")
    else:
        token = "on (a roles-file token)" if role_tokens else "off (loopback only)"
    print(f"serving http://{shown}:{args.port} (docs at /docs, token {token})", file=sys.stderr, flush=True)
    stop_notify = start_background(context.store, context.settings)  # notifications, when configured
    if stop_notify is not None:
        print("delivering notifications: " + "; ".join(channel_lines(context.settings.notify)), file=sys.stderr)
    config = uvicorn.Config(app, host=host, port=args.port, log_level="info", access_log=True, log_config=None)
    try:
        uvicorn.Server(config).run()
    except SystemExit as stop:  # uvicorn exits when it cannot bind (the reason is in its log above)
        if stop.code not in (0, None):
            print(f"error: cannot listen on {shown}:{args.port}", file=sys.stderr)
            return EXIT_BAD_INPUT
    except OSError as error:
        print(f"error: cannot listen on {shown}:{args.port}: {error.strerror or error}", file=sys.stderr)
        return EXIT_BAD_INPUT
    return 0


def add_commands(subparsers: Any) -> None:
    """Adds the ``serve`` command."""
    p = subparsers.add_parser("serve", help="serve the HTTP API (the lecture planner's /generate, LangGraph's API)")
    p.add_argument("--host", default=DEFAULT_HOST, help=f"address to listen on (default {DEFAULT_HOST})")
    p.add_argument("--port", type=_port, default=DEFAULT_PORT, help=f"port (default {DEFAULT_PORT})")
    p.set_defaults(handler=cmd_serve)
