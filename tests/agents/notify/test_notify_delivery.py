"""Delivery survives a receiver's failure (retries with backoff on the clock, failures shown to an admin),
two deliverers at once send each event once, and bad settings are refused naming the setting.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import json
import threading

import pytest

from agents import lifecycle
from agents.errors import InputError
from agents.notify import WATCH_INTERVAL_SECONDS, outbox
from agents.notify.deliverer import Deliverer, watch
from agents.roles_file import parse_roles
from agents.runtime import open_store
from agents.settings_notify import notify_setting
from tests.agents.notify.conftest import notifying
from tests.factories import start_refund

pytestmark = pytest.mark.usefixtures("backend")

#: A roles file with someone an overdue refund escalates to.
SENIOR = parse_roles('[users]\n"park@example.com" = { role = "senior_approver", name = "Park" }\n')


def _since(store, thread_id: str) -> dt.datetime:
    found = lifecycle.thread_status(store, thread_id)
    assert found is not None and found.waiting_since is not None
    return found.waiting_since


def test_a_failed_delivery_is_tried_again_after_its_backoff_and_shown_by_notify_status(
    store, settings, receiver, run_cli, monkeypatch
):
    monkeypatch.setenv("HITL_NOTIFY_WEBHOOK", receiver.url)
    settings = notifying(settings, HITL_NOTIFY_WEBHOOK=receiver.url)
    start_refund(store, settings, "R1", 500_000)
    start = _since(store, "refund-R1")
    receiver.fail_next = 2

    first = Deliverer(store, settings, lambda: start).run_once()
    assert (first.recorded, first.sent, first.failed) == (1, 0, 1) and receiver.failed == 1
    shown = run_cli("notify", "--status")
    assert shown.code == 3
    assert "webhook: 127.0.0.1 (HITL_NOTIFY_WEBHOOK)" in shown.out and "failing 1" in shown.out
    assert f"waiting:refund-R1:{start.isoformat()} (webhook): 1 attempt," in shown.out
    assert "webhook at 127.0.0.1 answered 500" in shown.out
    assert "T0SECRET" not in shown.out + shown.err  # the URL's path (its token) is never shown
    as_json = json.loads(run_cli("notify", "--status", "--json").out)
    assert as_json["failing"][0]["error"] == "webhook at 127.0.0.1 answered 500"

    # 10 s backoff after the first failure, 20 s after the second: nothing is sent before its time.
    assert Deliverer(store, settings, lambda: start + dt.timedelta(seconds=9)).deliver_due() == (0, 0, 0)
    assert Deliverer(store, settings, lambda: start + dt.timedelta(seconds=10)).deliver_due() == (0, 1, 0)
    assert Deliverer(store, settings, lambda: start + dt.timedelta(seconds=29)).deliver_due() == (0, 0, 0)
    assert Deliverer(store, settings, lambda: start + dt.timedelta(seconds=30)).deliver_due() == (1, 0, 0)
    assert [item.body["event"] for item in receiver.wait_for(1)] == ["waiting"] and receiver.failed == 2
    assert outbox.status(store).failing == []
    shown = run_cli("notify", "--status")
    assert shown.code == 0 and "delivered 1, pending 0, failing 0" in shown.out


def test_an_unreachable_webhook_is_a_failure_naming_its_host_only(store, settings, receiver):
    url = receiver.url
    receiver.server.shutdown()
    receiver.server.server_close()
    settings = notifying(settings, HITL_NOTIFY_WEBHOOK=url)
    start_refund(store, settings, "U1", 500_000)
    assert Deliverer(store, settings).run_once().failed == 1
    [(_event, channel, attempts, error, _next)] = outbox.status(store).failing
    assert (channel, attempts) == ("webhook", 1)
    assert error.startswith("webhook at 127.0.0.1 could not be reached") and "SECRET" not in error


def test_two_deliverers_at_once_send_each_event_once(store, settings, receiver, db_location):
    settings = notifying(settings, HITL_NOTIFY_WEBHOOK=receiver.url)
    for index in range(12):
        start_refund(store, settings, f"T{index}", 500_000 + index)
    other = open_store(db_location)
    go = threading.Barrier(2)
    errors: list[BaseException] = []

    def deliver(on) -> None:
        try:
            go.wait()
            Deliverer(on, settings).run_once()
        except BaseException as error:  # seen by the assertion below
            errors.append(error)

    workers = [threading.Thread(target=deliver, args=(on,)) for on in (store, other)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    other.close()
    assert errors == []
    received = receiver.wait_for(12)
    assert len(received) == 12 and len(receiver.keys()) == 12  # none sent twice
    assert outbox.status(store).delivered == 12


@pytest.mark.parametrize(
    ("values", "named"),
    [
        ({"HITL_NOTIFY_WEBHOOK": "ftp://hooks.example.com/x"}, "HITL_NOTIFY_WEBHOOK"),
        ({"HITL_NOTIFY_WEBHOOK": "hooks.example.com/x"}, "HITL_NOTIFY_WEBHOOK"),
        ({"HITL_NOTIFY_SMTP": "smtp://mail.example.com", "HITL_NOTIFY_FROM": "a@example.com"}, "HITL_NOTIFY_SMTP"),
        ({"HITL_NOTIFY_SMTP": "mail.example.com:25", "HITL_NOTIFY_FROM": "a@example.com"}, "HITL_NOTIFY_SMTP"),
        ({"HITL_NOTIFY_SMTP": "smtp://u:p@mail.example.com:25", "HITL_NOTIFY_FROM": "a@x.org"}, "HITL_NOTIFY_SMTP"),
        ({"HITL_NOTIFY_SMTP": "smtp://mail.example.com:25"}, "HITL_NOTIFY_FROM"),
        ({"HITL_NOTIFY_TO": "ops"}, "HITL_NOTIFY_TO"),
        ({"HITL_PUBLIC_URL": "dash.example.com"}, "HITL_PUBLIC_URL"),
    ],
)
def test_bad_notification_settings_are_refused_naming_the_setting(values, named, run_cli, monkeypatch):
    with pytest.raises(InputError) as refused:
        notify_setting(values)
    assert refused.value.field == named
    for name, value in values.items():
        monkeypatch.setenv(name, value)
    result = run_cli("notify", "--status")
    assert result.code == 2 and named in result.err


def test_notify_once_without_a_channel_is_refused(run_cli, monkeypatch):
    for name in ("HITL_NOTIFY_WEBHOOK", "HITL_NOTIFY_SMTP"):
        monkeypatch.delenv(name, raising=False)
    result = run_cli("notify", "--once")
    assert result.code == 2 and "HITL_NOTIFY_WEBHOOK" in result.err


def test_the_settings_an_admin_sees_name_the_webhook_host_never_its_url(settings):
    from dashboard.settings_view import settings_rows

    shown = dict(
        settings_rows(
            notifying(
                settings,
                HITL_NOTIFY_WEBHOOK="https://hooks.example.com/services/T0SECRET/B0SECRET",
                HITL_NOTIFY_SMTP="smtp://mail.example.com:2525",
                HITL_NOTIFY_FROM="hitl@example.com",
            )
        )
    )
    assert shown["notification webhook (HITL_NOTIFY_WEBHOOK)"] == "set, to hooks.example.com (the URL is never shown)"
    assert shown["notification mail server (HITL_NOTIFY_SMTP)"] == "smtp://mail.example.com:2525"
    assert "SECRET" not in str(shown)


def test_a_watching_deliverer_sends_overdue_and_escalation_on_its_next_pass(store, settings, receiver):
    settings = dataclasses.replace(
        notifying(settings, HITL_NOTIFY_WEBHOOK=receiver.url), sla=(("refund", 3600),), roles=SENIOR
    )
    start_refund(store, settings, "W1", 500_000)
    past_deadline = _since(store, "refund-W1") + dt.timedelta(seconds=3601)
    stop = threading.Event()
    worker = threading.Thread(target=watch, args=(Deliverer(store, settings, lambda: past_deadline), stop, 0.05))
    worker.start()
    try:
        received = receiver.wait_for(3)
    finally:
        stop.set()
        worker.join()
    assert sorted(item.body["event"] for item in received) == ["escalated", "overdue", "waiting"]
    # A pass every WATCH_INTERVAL_SECONDS: an overdue event goes out within a minute of its deadline.
    assert WATCH_INTERVAL_SECONDS < 60
