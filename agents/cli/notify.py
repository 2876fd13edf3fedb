"""``python -m agents notify --once | --watch | --status | --dismiss ID``: deliver notifications, or see what failed.

``--once`` records the events found now and sends what is due, then exits (for cron); ``--watch``
keeps doing so every few seconds until stopped; ``--status`` prints the channels (the webhook's host
only: its URL is a secret), the counts (delivered, pending, failing, and dismissed apart: never sent),
every event whose last attempt failed, with the error, and every mail sent whose server refused some of its
recipients, with whom. ``--status`` exits 3 when an event is failing (as ``inbox --overdue`` does when
anything is overdue), so a monitor can alert on it; so does ``--once`` when a send of its round failed or
went to only some of its recipients (after printing its counts), so cron sees it. ``--dismiss EVENT_ID``
stops trying a failing event, and takes a mail of it that some recipients refused off the lists (exit 2
when no failing event nor such a mail has that id).
"""

from __future__ import annotations

import argparse
import datetime as dt
import signal
import sys
import threading
import time
from collections.abc import Callable
from typing import Any

from agents.cli.base import Context, say, say_count
from agents.cli.core import print_json
from agents.cli.strings import STRINGS
from agents.errors import InputError
from agents.notify import WATCH_INTERVAL_SECONDS
from agents.settings_notify import NOTIFY_SMTP_SETTING, NOTIFY_WEBHOOK_SETTING, NotifySettings
from agents.texts import DEFAULT_LANGUAGE, text

#: The exit code of ``notify --status`` when an event's last attempt failed, and of ``notify --once`` when a
#: send of its round failed.
EXIT_FAILING = 3


def channel_lines(notify: NotifySettings, lang: str = DEFAULT_LANGUAGE) -> list[str]:
    """The configured channels in words (in ``lang``), without any secret."""
    lines = []
    if notify.webhook is not None:
        lines.append(say("cli.notify.webhook", lang, host=notify.webhook_host))
    if notify.smtp_host:
        to = ", ".join(notify.mail_to) or say("cli.notify.approvers", lang)
        lines.append(say("cli.notify.email", lang, address=notify.smtp_address, sender=notify.mail_from, to=to))
    return lines or [say("cli.notify.no_channel", lang, webhook=NOTIFY_WEBHOOK_SETTING, smtp=NOTIFY_SMTP_SETTING)]


def _when(moment: float) -> str:
    return dt.datetime.fromtimestamp(moment, dt.UTC).replace(microsecond=0).isoformat()


def cmd_notify(args: argparse.Namespace, context: Context) -> int:
    # Deliberate late imports (named in pyproject.toml): the deliverer, the outbox and their senders
    # (smtplib, urllib.request, email) only for ``notify``, not for every other command.
    from agents.notify import outbox
    from agents.notify.deliverer import Deliverer, watch

    settings, lang = context.settings, context.lang
    if args.status:
        found = outbox.status(context.store)
        if args.json:
            print_json(
                {
                    "channels": list(settings.notify.channels),
                    "webhook_host": settings.notify.webhook_host or None,
                    "smtp": settings.notify.smtp_address or None,
                    "delivered": found.delivered,
                    "dismissed": found.dismissed,
                    "pending": found.pending,
                    "failing": [
                        {"event_id": e, "channel": c, "attempts": a, "error": err, "next_attempt_at": _when(n)}
                        for e, c, a, err, n in found.failing
                    ],
                    "refused": [
                        {"event_id": e, "channel": c, "delivered_at": _when(at), "error": err}
                        for e, c, err, at in found.refused
                    ],
                }
            )
        else:
            print("\n".join(channel_lines(settings.notify, lang)))
            counts = {"delivered": found.delivered, "pending": found.pending, "dismissed": found.dismissed}
            print(say("cli.notify.counts", lang, failing=len(found.failing), **counts))
            for event_id, channel, attempts, error, next_at in found.failing:
                failing = {"event": event_id, "channel": channel, "when": _when(next_at), "error": error}
                print(say_count("cli.notify.failing", attempts, lang, **failing))
            for event_id, channel, error, at in found.refused:
                print(say("cli.notify.refused", lang, event=event_id, channel=channel, when=_when(at), error=error))
        return EXIT_FAILING if found.failing else 0
    if args.dismiss is not None:
        given_up = outbox.dismiss(context.store, args.dismiss, time.time())
        seen = outbox.dismiss_refused(context.store, args.dismiss)
        if not given_up and not seen:
            raise InputError("--dismiss", text(STRINGS, "cli.notify.no_event", event=repr(args.dismiss)))
        if given_up:
            print(say("cli.notify.dismissed", lang, event=args.dismiss))
        if seen:
            print(say("cli.notify.dismissed_refused", lang, event=args.dismiss))
        return 0
    if not settings.notify.enabled:
        raise InputError(NOTIFY_WEBHOOK_SETTING, text(STRINGS, "cli.notify.not_configured", smtp=NOTIFY_SMTP_SETTING))
    deliverer = Deliverer(context.store, settings)
    if args.once:
        report = deliverer.run_once()
        done = {"recorded": report.recorded, "sent": report.sent, "failed": report.failed, "removed": report.removed}
        print(say("cli.notify.once", lang, **done))
        if report.refused:  # sent, so never tried again: said now, and listed by --status
            print(say("cli.notify.once_refused", lang, count=report.refused))
        return EXIT_FAILING if report.failed or report.refused else 0
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    channels = "; ".join(channel_lines(settings.notify, lang))
    print(
        say("cli.notify.watching", lang, seconds=f"{args.interval:g}", channels=channels), file=sys.stderr, flush=True
    )
    try:
        watch(deliverer, stop, args.interval)
    except KeyboardInterrupt:
        pass
    return 0


def _interval_in(lang: str) -> Callable[[str], float]:
    """``--interval``'s conversion, refusing in ``lang`` what is not a number of seconds from 0.05 to 60."""

    def interval(raw: str) -> float:
        try:
            value = float(raw)
        except ValueError:
            raise argparse.ArgumentTypeError(say("cli.notify.bad_interval", lang, value=repr(raw))) from None
        if not 0.05 <= value <= 60:
            raise argparse.ArgumentTypeError(say("cli.notify.interval_range", lang, value=repr(raw)))
        return value

    return interval


def add_commands(subparsers: Any, lang: str) -> None:
    """Adds the ``notify`` command, its help in ``lang``."""
    p = subparsers.add_parser("notify", help=say("cli.help.notify", lang))
    mode = p.add_mutually_exclusive_group(required=True)
    mode.add_argument("--once", action="store_true", help=say("cli.help.notify.once", lang))
    mode.add_argument("--watch", action="store_true", help=say("cli.help.notify.watch", lang))
    mode.add_argument("--status", action="store_true", help=say("cli.help.notify.status", lang))
    mode.add_argument("--dismiss", metavar="EVENT_ID", help=say("cli.help.notify.dismiss", lang))
    p.add_argument(
        "--interval",
        type=_interval_in(lang),
        default=WATCH_INTERVAL_SECONDS,
        help=say("cli.help.notify.interval", lang, seconds=f"{WATCH_INTERVAL_SECONDS:g}"),
    )
    p.add_argument("--json", action="store_true", help=say("cli.help.notify.json", lang))
    p.set_defaults(handler=cmd_notify)
