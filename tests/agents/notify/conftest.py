"""Fixtures of the notification tests: a webhook receiver, an SMTP server, settings that point at them."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator

import pytest

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
