"""``python -m agents notify --once | --watch | --status | --dismiss ID``: deliver notifications, or see what failed.

``--once`` records the events found now and sends what is due, then exits (for cron); ``--watch``
keeps doing so every few seconds until stopped; ``--status`` prints the channels (the webhook's host
only: its URL is a secret), the counts, and every event whose last attempt failed, with the error.
``--status`` exits 3 when an event is failing (as ``inbox --overdue`` does when anything is
overdue), so a monitor can alert on it. ``--dismiss EVENT_ID`` stops trying a failing event (exit 2
when no failing event has that id).
"""

from __future__ import annotations

import argparse
import datetime as dt
import signal
import sys
import threading
import time
from typing import Any

from agents.cli.base import Context
from agents.cli.core import print_json
from agents.errors import InputError
from agents.notify import WATCH_INTERVAL_SECONDS
from agents.settings_notify import NOTIFY_SMTP_SETTING, NOTIFY_WEBHOOK_SETTING, NotifySettings

#: ``notify --status``'s exit code when an event's last attempt failed.
EXIT_FAILING = 3


def channel_lines(notify: NotifySettings) -> list[str]:
    """The configured channels in words, without any secret."""
    lines = []
    if notify.webhook is not None:
        lines.append(f"webhook: {notify.webhook_host} (HITL_NOTIFY_WEBHOOK)")
    if notify.smtp_host:
        to = ", ".join(notify.mail_to) or "the approvers of the roles file"
        lines.append(f"email: {notify.smtp_address} from {notify.mail_from} to {to}")
    return lines or [f"no channel: set {NOTIFY_WEBHOOK_SETTING} or {NOTIFY_SMTP_SETTING}"]


def _when(moment: float) -> str:
    return dt.datetime.fromtimestamp(moment, dt.UTC).replace(microsecond=0).isoformat()


def cmd_notify(args: argparse.Namespace, context: Context) -> int:
    # Deliberate late imports (named in pyproject.toml): the deliverer, the outbox and their senders
    # (smtplib, urllib.request, email) only for ``notify``, not for every other command.
    from agents.notify import outbox
    from agents.notify.deliverer import Deliverer, watch

    settings = context.settings
    if args.status:
        found = outbox.status(context.store)
        if args.json:
            print_json(
                {
                    "channels": list(settings.notify.channels),
                    "webhook_host": settings.notify.webhook_host or None,
                    "smtp": settings.notify.smtp_address or None,
                    "delivered": found.delivered,
                    "pending": found.pending,
                    "failing": [
                        {"event_id": e, "channel": c, "attempts": a, "error": err, "next_attempt_at": _when(n)}
                        for e, c, a, err, n in found.failing
                    ],
                }
            )
        else:
            print("\n".join(channel_lines(settings.notify)))
            print(f"delivered {found.delivered}, pending {found.pending}, failing {len(found.failing)}")
            for event_id, channel, attempts, error, next_at in found.failing:
                print(f"  {event_id} ({channel}): {attempts} attempts, next at {_when(next_at)}: {error}")
        return EXIT_FAILING if found.failing else 0
    if args.dismiss is not None:
        if not outbox.dismiss(context.store, args.dismiss, time.time()):
            raise InputError("dismiss", f"no failing event {args.dismiss!r}: notify --status lists them")
        print(f"dismissed {args.dismiss}: it is no longer tried")
        return 0
    if not settings.notify.enabled:
        raise InputError(NOTIFY_WEBHOOK_SETTING, f"no channel is configured: set it or {NOTIFY_SMTP_SETTING}")
    deliverer = Deliverer(context.store, settings)
    if args.once:
        report = deliverer.run_once()
        print(f"recorded {report.recorded}, sent {report.sent}, failed {report.failed}, removed {report.removed}")
        return 0
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    print(f"delivering notifications every {args.interval:g} s; {'; '.join(channel_lines(settings.notify))}",
          file=sys.stderr, flush=True)  # fmt: skip
    try:
        watch(deliverer, stop, args.interval)
    except KeyboardInterrupt:
        pass
    return 0


def _interval(raw: str) -> float:
    try:
        value = float(raw)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a number of seconds; got {raw!r}") from None
    if not 0.05 <= value <= 60:
        raise argparse.ArgumentTypeError(f"must be from 0.05 to 60 seconds; got {raw!r}")
    return value


def add_commands(subparsers: Any) -> None:
    """Adds the ``notify`` command."""
    p = subparsers.add_parser("notify", help="deliver notifications (--once, --watch) or show their --status")
    mode = p.add_mutually_exclusive_group(required=True)
    mode.add_argument("--once", action="store_true", help="record the events found now, send what is due, exit")
    mode.add_argument("--watch", action="store_true", help="keep delivering until stopped")
    mode.add_argument("--status", action="store_true", help="channels, counts and failing events (exit 3 if any)")
    mode.add_argument("--dismiss", metavar="EVENT_ID", help="stop trying a failing event (its id from --status)")
    p.add_argument(
        "--interval",
        type=_interval,
        default=WATCH_INTERVAL_SECONDS,
        help=f"seconds between two passes of --watch (default {WATCH_INTERVAL_SECONDS:g})",
    )
    p.add_argument("--json", action="store_true", help="--status as JSON")
    p.set_defaults(handler=cmd_notify)
