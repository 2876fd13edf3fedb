"""Fixtures of the notification tests: a webhook receiver, an SMTP server, settings that point at them."""

from __future__ import annotations

import dataclasses
import datetime as dt
import socket
from collections.abc import Iterator
from email.header import decode_header, make_header
from email.message import Message
from typing import Any

import pytest

from agents import lifecycle
from agents.settings import Settings
from agents.settings_notify import notify_setting
from tests.notify_receivers import MailBox, WebhookReceiver, smtp_server, webhook_receiver

PUBLIC_URL = "https://dash.example.com"


@pytest.fixture
def receiver() -> Iterator[WebhookReceiver]:
    with webhook_receiver() as running:
        yield running


@pytest.fixture
def mailbox() -> Iterator[tuple[MailBox, int]]:
    with smtp_server() as running:
        yield running


def notifying(settings: Settings, **values: str) -> Settings:
    """``settings`` with the notification settings of ``values`` (as the environment would give them)."""
    return dataclasses.replace(settings, notify=notify_setting({"HITL_PUBLIC_URL": PUBLIC_URL, **values}))


def mailing(settings: Settings, port: int, to: str = "ops@example.com", **changes: Any) -> Settings:
    """``settings`` mailing through the test's SMTP server on ``port`` (to ``to``, ``HITL_NOTIFY_TO``'s value,
    without a roles file), with ``changes`` (``lang``...)."""
    mailed = notifying(
        settings,
        HITL_NOTIFY_SMTP=f"smtp://127.0.0.1:{port}",
        HITL_NOTIFY_FROM="hitl@example.com",
        HITL_NOTIFY_TO=to,
    )
    return dataclasses.replace(mailed, **changes)


@pytest.fixture
def closed_port() -> Iterator[int]:
    """A loopback port bound by no server that listens: a connection to it is refused (the SMTP server down)."""
    with socket.socket() as bound:
        bound.bind(("127.0.0.1", 0))
        yield bound.getsockname()[1]


def since(store: Any, thread_id: str) -> dt.datetime:
    """When ``thread_id`` began waiting."""
    found = lifecycle.thread_status(store, thread_id)
    assert found is not None and found.waiting_since is not None
    return found.waiting_since


def subject(mail: Message) -> str:
    """The subject as a reader sees it: decoded, its folded lines joined again."""
    return str(make_header(decode_header(mail["Subject"]))).replace("\r\n", "").replace("\n", "")


def body(mail: Message) -> str:
    """The mail's text, decoded."""
    return str(mail.get_payload(decode=True).decode())
