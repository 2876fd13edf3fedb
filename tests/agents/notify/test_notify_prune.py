"""The outbox does not grow for ever: the deliverer removes delivered events that are over once they are older
than ``HITL_NOTIFY_KEEP_DAYS`` (30 days unless set), keeps what a thread still waiting needs and every
failure until it is delivered, and nothing removed is found and sent again. The clock is a parameter.
"""

from __future__ import annotations

import datetime as dt
import json

import pytest

from agents import runs
from agents.errors import InputError
from agents.notify import outbox
from agents.notify.deliverer import Deliverer
from agents.settings_notify import notify_setting
from tests.agents.notify.conftest import notifying
from tests.factories import start_refund

pytestmark = pytest.mark.usefixtures("backend")

DAY = dt.timedelta(days=1)
REJECT = {"action": "reject", "approver": "kim"}


def rows(store) -> dict[str, tuple[str, float | None]]:
    """Each outbox row: id → (kind, delivered at)."""
    with store.read() as cursor:
        cursor.execute("SELECT id, kind, delivered_at FROM notify_outbox")
        return {row_id: (kind, delivered) for row_id, kind, delivered in cursor.fetchall()}


def test_delivered_events_that_are_over_are_removed_after_the_keep_days_and_failures_stay(store, settings, receiver):
    settings = notifying(settings, HITL_NOTIFY_WEBHOOK=receiver.url, HITL_NOTIFY_KEEP_DAYS="10")
    start = dt.datetime.now(dt.UTC)
    start_refund(store, settings, "OVER1")
    start_refund(store, settings, "OPEN1")
    start_refund(store, settings, "GONE1")
    Deliverer(store, settings, lambda: start).run_once()
    runs.resume_thread(store, settings, "refund-OVER1", REJECT)
    runs.delete_thread(store, "refund-GONE1", reason="entered twice")
    Deliverer(store, settings, lambda: start + DAY).run_once()
    receiver.wait_for(5)  # waiting x3, decided, deleted
    start_refund(store, settings, "FAIL1")
    receiver.fail_next = 100
    Deliverer(store, settings, lambda: start + DAY).run_once()
    assert [error for _e, _c, _a, error, _n in outbox.failing(store)] == ["webhook at 127.0.0.1 answered 500"]
    before = rows(store)

    Deliverer(store, settings, lambda: start + 10 * DAY).run_once()  # OVER1's waiting is 10 days old, not older
    assert rows(store).keys() == before.keys()

    report = Deliverer(store, settings, lambda: start + 11 * DAY + dt.timedelta(hours=1)).run_once()
    left = rows(store)
    gone = {row_id for row_id in before if row_id not in left}
    assert {before[row_id][0] for row_id in gone} == {"waiting", "decided", "deleted", "ended"}
    assert all("refund-OVER1" in row_id or "refund-GONE1" in row_id for row_id in gone)
    # OVER1's waiting and decided; GONE1's waiting, the marker that closed it, and its deletion
    assert report.removed == len(gone) == 5
    assert any("refund-OPEN1" in row_id for row_id in left)  # still waiting: kept, so never told twice
    assert any("refund-FAIL1" in row_id and delivered is None for row_id, (_k, delivered) in left.items())
    assert len(outbox.failing(store)) == 1 and outbox.CURSOR_ID in left

    receiver.fail_next = 0
    Deliverer(store, settings, lambda: start + 12 * DAY).run_once()  # FAIL1 delivered; nothing removed is resent
    keys = [item.key for item in receiver.received]
    assert len(keys) == len(set(keys)) == 6 and not outbox.failing(store)


@pytest.mark.parametrize("value", ["6", "0", "-1", "ten", "1.5"])
def test_a_keep_days_setting_below_a_week_or_not_a_whole_number_is_refused(value):
    with pytest.raises(InputError) as refused:
        notify_setting({"HITL_NOTIFY_KEEP_DAYS": value})
    assert refused.value.field == "HITL_NOTIFY_KEEP_DAYS"


def test_a_failing_event_stays_shown_until_an_admin_dismisses_it(store, settings, receiver, run_cli, monkeypatch):
    monkeypatch.setenv("HITL_NOTIFY_WEBHOOK", receiver.url)
    settings = notifying(settings, HITL_NOTIFY_WEBHOOK=receiver.url)
    start_refund(store, settings, "F1")
    receiver.fail_next = 100
    Deliverer(store, settings).run_once()
    [(event_id, _channel, _attempts, _error, _next)] = outbox.failing(store)
    refused = run_cli("notify", "--dismiss", "waiting:refund-F1:nope")
    assert refused.code == 2 and "dismiss" in refused.err and len(outbox.failing(store)) == 1

    dismissed = run_cli("notify", "--dismiss", event_id)
    assert dismissed.code == 0 and event_id in dismissed.out
    assert run_cli("notify", "--status").code == 0 and not outbox.failing(store)
    Deliverer(store, settings, lambda: dt.datetime.now(dt.UTC) + DAY).run_once()  # not tried again
    assert receiver.failed == 1 and receiver.received == []
    # Nothing was sent: the dismissed event is counted apart, never as delivered.
    assert (outbox.status(store).delivered, outbox.status(store).dismissed) == (0, 1)
    assert "delivered 0, pending 0, failing 0, dismissed 1" in run_cli("notify", "--status").out
    counts = json.loads(run_cli("notify", "--status", "--json").out)
    assert (counts["delivered"], counts["dismissed"], counts["pending"], counts["failing"]) == (0, 1, 0, [])


def test_an_event_dismissed_while_it_is_being_sent_stays_dismissed_when_the_send_fails(store, settings):
    settings = notifying(settings, HITL_NOTIFY_WEBHOOK="http://127.0.0.1:9/hooks/x")
    start_refund(store, settings, "F2")
    Deliverer(store, settings).run_once()  # nothing listens there: a failed attempt
    [(event_id, *_rest)] = outbox.failing(store)
    [row] = outbox.claim(store, dt.datetime.now(dt.UTC).timestamp() + DAY.total_seconds())  # the retry in flight
    assert outbox.dismiss(store, event_id, dt.datetime.now(dt.UTC).timestamp()) == 1
    outbox.failed(store, row.row_id, row.attempts + 1, "webhook at 127.0.0.1 could not be reached", 0.0)
    assert outbox.failing(store) == [] and outbox.status(store).dismissed == 1
