"""The deliverer: scans for events, then sends what is due, with retries and backoff, at least once.

``python -m agents notify --once`` runs :meth:`Deliverer.run_once`; ``--watch``, ``serve`` and the
dashboard run :func:`watch` (a scan every :data:`WATCH_INTERVAL_SECONDS`, so an overdue or escalated
event goes out within a minute of the deadline). Any number of deliverers may run on one database: each
row is claimed by one of them at a time (:func:`agents.notify.outbox.claim`). The clock is a parameter:
what is due, the backoff and the ages in the messages all follow it.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import logging
import threading
import uuid
from collections.abc import Callable
from dataclasses import dataclass

from agents.ages import utc_now
from agents.db import Store
from agents.notify import WATCH_INTERVAL_SECONDS, channels, messages, outbox
from agents.notify.scan import scan
from agents.settings import Settings, current_settings

logger = logging.getLogger(__name__)

#: Rows claimed at once: sent within the claim's time even if each send takes its whole timeout.
BATCH = 10
#: Seconds between two removals of old delivered events by one deliverer (its first pass removes too).
PRUNE_EVERY_SECONDS = 600.0


@dataclass(frozen=True)
class Report:
    """What one pass did: events found, rows sent, rows that failed (to be tried again), old rows removed, and
    the rows sent that the mail server refused for some of their recipients (counted in ``sent`` too)."""

    recorded: int
    sent: int
    failed: int
    removed: int = 0
    refused: int = 0


class Deliverer:
    """Sends the outbox's due rows on the configured channels.

    Args:
        store: The database.
        settings: The process's settings (channels, roles for recipients, deadlines, language).
        clock: The current time (``agents.ages.utc_now`` outside tests).
    """

    def __init__(self, store: Store, settings: Settings, clock: Callable[[], dt.datetime] = utc_now) -> None:
        self.store = store
        self.settings = settings
        self.clock = clock
        self.owner = uuid.uuid4().hex
        self.pruned_at: float | None = None

    def as_sent(self, event: outbox.Event) -> outbox.Event:
        """``event`` as it is told now: a wait's event sent after the wait ended (a retry, or a wait found in
        the history) says how long it lasted, up to its end (``waited_seconds``, when the event has none of its
        own), and how it ended (``wait_over``: ``decided`` or ``ended``; a stuck thread's also ``deleted``), as
        the outbox records the end (:func:`agents.notify.outbox.wait_end`); a wait still going on is counted to
        the time of sending."""
        if event.kind not in messages.EPISODES:
            return event
        end = outbox.wait_end(self.store, event)
        if end is None:
            return event
        how, at = end
        facts = {"waited_seconds": max(0.0, at - dt.datetime.fromisoformat(event.episode).timestamp())}
        return dataclasses.replace(event, facts=facts | event.facts | {"wait_over": how})

    def send(self, row: outbox.Claimed, now: dt.datetime) -> str:
        """Sends one row on its channel; raises :class:`~agents.notify.channels.SendError` when not accepted.
        Returns ``""``, or whom the mail server refused when it took the mail for the others
        (:func:`agents.notify.channels.send_mail`): the row is sent, and that is recorded with it."""
        notify, lang = self.settings.notify, self.settings.lang
        event = self.as_sent(row.event)
        if row.channel == "webhook" and notify.webhook is not None:
            channels.post_webhook(notify, event, now, lang)
            return ""
        if row.channel == "email" and notify.smtp_host:
            to = channels.recipients(notify, self.settings.roles, event)
            if not to:
                raise channels.SendError(
                    "no one to mail: no approver in the roles file may decide it, no HITL_NOTIFY_TO"
                )
            return channels.send_mail(notify, to, event, now, lang)
        raise channels.SendError(f"the {row.channel} channel is not configured in this process")

    def deliver_due(self) -> tuple[int, int, int]:
        """Claims and sends due rows until none is left; returns (sent, failed, sent but refused for some
        recipients)."""
        sent = failed = refused = 0
        while True:
            now = self.clock()
            rows = outbox.claim(self.store, now.timestamp(), limit=BATCH, owner=self.owner)
            if not rows:
                return sent, failed, refused
            for row in rows:
                went, problem = self._attempt(row)
                if went:
                    sent, refused = sent + 1, refused + bool(problem)
                    outbox.delivered(self.store, row.row_id, self.clock().timestamp(), problem)
                else:
                    failed += 1
                    outbox.failed(self.store, row.row_id, row.attempts + 1, problem, self.clock().timestamp())

    def _attempt(self, row: outbox.Claimed) -> tuple[bool, str]:
        """Sends one row; returns whether it was sent, and why not (or whom the mail server refused when it
        took the mail for the others, logged as a warning).

        A message that cannot be made or sent for a reason no channel foresaw (a fault in our code, a fact
        stored damaged) is that row's failure alike, logged with its traceback: it is tried again after its
        backoff and shown by ``notify --status``, and the rows after it are sent. Its error names the kind
        of fault with no secret in it (a webhook URL or password in the fault's text is left out).
        """
        try:
            refused = self.send(row, self.clock())
        except channels.SendError as error:
            logger.warning("notification %s on %s failed: %s", row.event.event_id, row.channel, error)
            return False, str(error)
        except Exception as error:
            logger.exception("notification %s on %s could not be made or sent", row.event.event_id, row.channel)
            said = f"{type(error).__name__}: {error}"
            for secret in (self.settings.notify.webhook, self.settings.notify.smtp_password):
                if secret is not None and secret.reveal():
                    said = said.replace(secret.reveal(), "***")
            return False, f"the {row.channel} message could not be made or sent: {said}"
        if refused:
            logger.warning("notification %s on %s sent, but: %s", row.event.event_id, row.channel, refused)
        return True, refused

    def run_once(self) -> Report:
        """Records the events found now, sends everything due, then (every :data:`PRUNE_EVERY_SECONDS`)
        removes the delivered events that are over and older than ``HITL_NOTIFY_KEEP_DAYS``."""
        self.settings = current_settings(self.settings)  # who is mailed follows an edit of the roles file
        recorded = scan(self.store, self.settings, self.clock())
        sent, failed, refused = self.deliver_due()
        now, removed = self.clock().timestamp(), 0
        if self.pruned_at is None or not 0 <= now - self.pruned_at < PRUNE_EVERY_SECONDS:
            removed = outbox.prune(self.store, now - self.settings.notify.keep_days * 86400.0)
            self.pruned_at = now
        return Report(recorded, sent, failed, removed, refused)


def watch(deliverer: Deliverer, stop: threading.Event, interval: float = WATCH_INTERVAL_SECONDS) -> None:
    """Runs passes until ``stop`` is set; a pass that fails (the database busy) is logged and tried again."""
    while not stop.is_set():
        try:
            deliverer.run_once()
        except Exception:
            logger.exception("a notification pass failed; the next one tries again")
        stop.wait(interval)


def start_background(store: Store, settings: Settings) -> threading.Event | None:
    """Starts a watching deliverer in a daemon thread when notifications are configured; returns its stop event."""
    if not settings.notify.enabled or store.read_only:
        return None
    stop = threading.Event()
    thread = threading.Thread(target=watch, args=(Deliverer(store, settings), stop), name="notify", daemon=True)
    thread.start()
    return stop
