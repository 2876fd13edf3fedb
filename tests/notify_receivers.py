"""Real receivers for notifications on loopback: an HTTP webhook receiver and an SMTP server (aiosmtpd).

Shared by the notification tests (tests/agents/notify, tests/reliability) and ``benchmarks/bench_notify.py``.
Each waits on a condition for what it expects, never for a fixed time.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass, field
from email import message_from_bytes
from email.message import Message
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from aiosmtpd.controller import Controller

from tests.serving import free_port

WAIT_SECONDS = 60.0
#: How often (s) the webhook receiver's loop looks whether it was asked to stop: ``shutdown()`` returns
#: only once the loop has looked (``socketserver``'s default, half a second, was half a second of every
#: test that stops one).
STOP_POLL_SECONDS = 0.01


@dataclass
class Received:
    """One webhook request as it arrived."""

    key: str
    body: dict[str, Any]
    at: float
    headers: dict[str, str] = field(default_factory=dict)


class WebhookReceiver:
    """An incoming-webhook stand-in: a real HTTP server that keeps every POST it accepted.

    ``fail_next`` makes the next requests answer 500 (and not be kept); ``hold_after`` makes every request
    after that many accepted ones wait until :attr:`release` is set (a deliverer held in the middle of a
    batch), with :attr:`holding` set once one waits.
    """

    def __init__(self) -> None:
        self.received: list[Received] = []
        self.failed = 0
        self.fail_next = 0
        self.hold_after: int | None = None
        self.release = threading.Event()
        self.holding = threading.Event()
        self.changed = threading.Condition()
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802  # http.server's name
                length = int(self.headers.get("Content-Length", "0"))
                body = json.loads(self.rfile.read(length))
                with receiver.changed:
                    failing = receiver.fail_next > 0
                    if failing:
                        receiver.fail_next -= 1
                        receiver.failed += 1
                    hold = receiver.hold_after is not None and len(receiver.received) >= receiver.hold_after
                if hold:
                    receiver.holding.set()
                    receiver.release.wait(WAIT_SECONDS)
                if failing:
                    self.send_response(500)
                    self.end_headers()
                    return
                with receiver.changed:
                    item = Received(self.headers.get("Idempotency-Key", ""), body, time.time(), dict(self.headers))
                    receiver.received.append(item)
                    receiver.changed.notify_all()
                self.send_response(200)
                self.send_header("Content-Type", "text/plain")
                self.end_headers()
                self.wfile.write(b"ok")

            def log_message(self, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/hooks/T0SECRET/B0SECRET"
        self.thread = threading.Thread(
            target=self.server.serve_forever, kwargs={"poll_interval": STOP_POLL_SECONDS}, daemon=True
        )

    def wait_for(self, count: int, timeout: float = WAIT_SECONDS) -> list[Received]:
        """Waits until ``count`` distinct events arrived; returns everything received."""
        with self.changed:
            self.changed.wait_for(lambda: len(self.keys()) >= count, timeout)
            return list(self.received)

    def keys(self) -> set[str]:
        """The distinct Idempotency-Keys received (what a receiver that drops repeats keeps)."""
        return {item.key for item in self.received}


@contextmanager
def webhook_receiver() -> Iterator[WebhookReceiver]:
    """A running webhook receiver on a free loopback port."""
    receiver = WebhookReceiver()
    receiver.thread.start()
    try:
        yield receiver
    finally:
        receiver.release.set()
        receiver.server.shutdown()
        receiver.server.server_close()


class MailBox:
    """What the SMTP server accepted: each mail with its envelope recipients."""

    def __init__(self) -> None:
        self.mails: list[tuple[list[str], Message]] = []
        self.changed = threading.Condition()

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:  # noqa: N802  # aiosmtpd's name
        with self.changed:
            self.mails.append((list(envelope.rcpt_tos), message_from_bytes(envelope.original_content)))
            self.changed.notify_all()
        return "250 Message accepted for delivery"

    def wait_for(self, count: int, timeout: float = WAIT_SECONDS) -> list[tuple[list[str], Message]]:
        with self.changed:
            self.changed.wait_for(lambda: len(self.mails) >= count, timeout)
            return list(self.mails)


@contextmanager
def smtp_server(box: MailBox | None = None, **options: Any) -> Iterator[tuple[Any, int]]:
    """A real SMTP server (aiosmtpd) on a free loopback port: (its mailbox, its port). ``box``: a mailbox that
    answers as a test needs (refusing a recipient...); ``options``: more of aiosmtpd's ``Controller``'s."""
    box = MailBox() if box is None else box
    port = free_port()
    controller = Controller(box, hostname="127.0.0.1", port=port, **options)
    controller.start()
    try:
        yield box, port
    finally:
        controller.stop()


class PickyBox(MailBox):
    """A mailbox whose server refuses the recipients named (``550 5.1.1``), and takes the others."""

    def __init__(self, refused: set[str]) -> None:
        super().__init__()
        self.refused = refused

    async def handle_RCPT(self, server: Any, session: Any, envelope: Any, address: str, options: list) -> str:  # noqa: N802  # aiosmtpd's name
        if address in self.refused:
            return f"550 5.1.1 mailbox {address} unknown"
        envelope.rcpt_tos.append(address)
        return "250 OK"


def picky_server(*refused: str) -> AbstractContextManager[tuple[PickyBox, int]]:
    """A real SMTP server on a free loopback port that refuses ``refused`` and takes every other recipient."""
    return smtp_server(PickyBox(set(refused)))
