"""A deliverer killed (``kill -9``) in the middle of a batch loses nothing: after a restart the receiver has
every event, and none twice beyond the one in flight at the kill, which its Idempotency-Key lets it drop.

The receiver holds the deliverer mid-batch (a request waits on an event), so the kill lands at a known
point without any sleep.
"""

from __future__ import annotations

import collections
import os
import signal
import subprocess
import sys

import pytest

from agents.notify import outbox
from tests.factories import start_refund
from tests.notify_receivers import webhook_receiver
from tests.serving import PROJECT_ROOT

pytestmark = pytest.mark.usefixtures("backend")

EVENTS = 8
HELD_AFTER = 3


def _deliverer(db_location: str, url: str, *mode: str) -> subprocess.Popen[str]:
    env = {**os.environ, "HITL_DB": db_location, "HITL_NOTIFY_WEBHOOK": url, "PYTHONUNBUFFERED": "1"}
    return subprocess.Popen(
        [sys.executable, "-m", "agents", "notify", *mode],
        cwd=PROJECT_ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )


def test_a_deliverer_killed_mid_batch_loses_no_event_and_repeats_only_the_one_in_flight(store, settings, db_location):
    for index in range(EVENTS):
        start_refund(store, settings, f"K{index}", 500_000 + index)
    with webhook_receiver() as receiver:
        receiver.hold_after = HELD_AFTER
        watching = _deliverer(db_location, receiver.url, "--watch", "--interval", "0.2")
        try:
            assert receiver.holding.wait(120), "the deliverer never reached the receiver"
            os.kill(watching.pid, signal.SIGKILL)
            assert watching.wait(60) == -signal.SIGKILL
        finally:
            if watching.poll() is None:
                watching.kill()
                watching.wait()
            watching.stdout.close()  # type: ignore[union-attr]
        assert len(receiver.received) == HELD_AFTER
        receiver.hold_after = None
        receiver.release.set()  # the request in flight at the kill arrives after all
        assert receiver.wait_for(HELD_AFTER + 1) and outbox.status(store).delivered == HELD_AFTER

        restarted = _deliverer(db_location, receiver.url, "--once")
        output, _ = restarted.communicate(timeout=120)
        assert restarted.returncode == 0, output

        received = receiver.wait_for(EVENTS)
        counts = collections.Counter(item.key for item in received)
        assert len(counts) == EVENTS and {key.split(":")[1] for key in counts} == {
            f"refund-K{index}" for index in range(EVENTS)
        }
        assert sum(counts.values()) - EVENTS <= 1  # only the request in flight at the kill came twice
        assert outbox.status(store).delivered == EVENTS and outbox.status(store).failing == []
