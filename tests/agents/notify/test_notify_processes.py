"""A deliverer runs inside ``serve`` and inside the dashboard's process when notifications are configured."""

from __future__ import annotations

import os
import subprocess
import sys

from tests.factories import start_refund
from tests.serving import PROJECT_ROOT, free_port, stop_process


def test_serve_delivers_notifications_when_a_webhook_is_configured(store, settings, receiver, db_location):
    start_refund(store, settings, "S1", 500_000)
    env = {**os.environ, "HITL_DB": db_location, "HITL_NOTIFY_WEBHOOK": receiver.url}
    server = subprocess.Popen(
        [sys.executable, "-m", "agents", "serve", "--port", str(free_port())],
        cwd=PROJECT_ROOT,
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    try:
        [waiting] = receiver.wait_for(1)
    finally:
        stop_process(server)
    assert waiting.body["event"] == "waiting" and waiting.body["thread_id"] == "refund-S1"


def test_the_dashboard_process_delivers_notifications_when_a_webhook_is_configured(
    store, settings, receiver, app, monkeypatch
):
    start_refund(store, settings, "P1", 500_000)
    monkeypatch.setenv("HITL_NOTIFY_WEBHOOK", receiver.url)
    home = app()
    assert not home.exception
    [waiting] = receiver.wait_for(1)
    assert waiting.body["event"] == "waiting" and waiting.body["thread_id"] == "refund-P1"
