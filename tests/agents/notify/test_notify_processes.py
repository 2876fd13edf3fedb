"""A deliverer runs inside ``serve`` and inside the dashboard's process when notifications are configured."""

from __future__ import annotations

import os

from tests.factories import start_refund
from tests.fresh_process import start_command
from tests.serving import PROJECT_ROOT, UVICORN_LISTENING, follow_output, free_port, stop_process


def test_serve_delivers_notifications_when_a_webhook_is_configured(store, settings, receiver, db_location):
    start_refund(store, settings, "S1", 500_000)
    env = {**os.environ, "HITL_DB": db_location, "HITL_NOTIFY_WEBHOOK": receiver.url}
    server = start_command(["serve", "--port", str(free_port())], PROJECT_ROOT, env)
    follow_output(server, [], UVICORN_LISTENING)  # its output read to the end, on a thread of its own
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
