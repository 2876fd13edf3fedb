"""Home shows an admin the notifications that could not be delivered, with the error, never a secret, and the
mails the mail server refused for some recipients, with whom, until dismissed."""

from __future__ import annotations

import dataclasses

import pytest
from streamlit.testing.v1 import AppTest

from agents.notify import outbox
from agents.notify.deliverer import Deliverer
from agents.settings_notify import notify_setting
from tests.agents.notify.conftest import mailing
from tests.conftest import APP_FILE
from tests.factories import start_refund
from tests.notify_receivers import picky_server, webhook_receiver


def test_home_shows_undelivered_notifications_with_their_error(store, settings, app):
    with webhook_receiver() as receiver:
        url = receiver.url
        receiver.fail_next = 1
        notifying = dataclasses.replace(settings, notify=notify_setting({"HITL_NOTIFY_WEBHOOK": url}))
        start_refund(store, notifying, "H1", 500_000)
        assert Deliverer(store, notifying).run_once().failed == 1

    home = app()
    assert not home.exception
    [warning] = [item for item in home.warning if "could not be delivered" in item.value]
    assert warning.value.startswith("1 notification(s) could not be delivered yet")
    [table] = [frame.value for frame in home.dataframe if "last error" in frame.value.columns]
    assert list(table["channel"]) == ["webhook"]
    assert table["last error"][0] == "webhook at 127.0.0.1 answered 500"
    assert "SECRET" not in str(table.to_dict())


def test_home_shows_no_notification_warning_when_nothing_failed(app):
    home = app()
    assert not home.exception
    assert not [item for item in home.warning if "could not be delivered" in item.value]


def _failed_notification(store, settings) -> None:
    with webhook_receiver() as receiver:
        receiver.fail_next = 1
        notifying = dataclasses.replace(settings, notify=notify_setting({"HITL_NOTIFY_WEBHOOK": receiver.url}))
        start_refund(store, notifying, "H2", 500_000)
        assert Deliverer(store, notifying).run_once().failed == 1


def _refused_mail(store, settings) -> str:
    """A refund's waiting mail that the SMTP server took for one approver and refused for the other; its event."""
    start_refund(store, settings, "H3", 500_000)
    with picky_server("gone@example.com") as (box, port):
        to = "ops@example.com, gone@example.com"
        assert Deliverer(store, mailing(settings, port, to=to)).run_once().refused == 1
        box.wait_for(1)
    [(event_id, *_rest)] = outbox.refused(store)
    return event_id


def test_home_shows_a_mail_some_recipients_refused_until_it_is_dismissed(store, settings, app, run_cli):
    event_id = _refused_mail(store, settings)
    home = app()
    assert not home.exception
    [warning] = [item.value for item in home.warning if "reached only some" in item.value]
    assert warning.startswith("1 mail(s) reached only some of their recipients") and "notify --dismiss" in warning
    [table] = [frame.value for frame in home.dataframe if "mail server's answer" in frame.value.columns]
    assert list(table["event"]) == [event_id] and list(table["channel"]) == ["email"]
    answer = table["mail server's answer"][0]
    assert "but refused gone@example.com (550 5.1.1 mailbox gone@example.com unknown)" in answer
    assert not [item for item in home.warning if "could not be delivered" in item.value]  # it was sent

    assert run_cli("notify", "--dismiss", event_id).code == 0
    home = app()
    assert not home.exception and not [item for item in home.warning if "reached only some" in item.value]


@pytest.mark.parametrize(
    ("make", "words"), [(_failed_notification, "could not be delivered"), (_refused_mail, "reached only some")]
)
def test_a_signed_in_viewer_is_not_shown_the_warnings_an_admin_is(store, settings, use_roles, make, words):
    use_roles('[users]\n"vera@example.com" = { role = "viewer" }\n"ada@example.com" = { role = "admin" }\n')
    make(store, settings)
    shown = {}
    for email in ("vera@example.com", "ada@example.com"):
        home = AppTest.from_file(APP_FILE, default_timeout=60)
        home.user = {"is_logged_in": True, "email": email, "name": email.split("@")[0]}
        home.run()
        assert not home.exception
        shown[email] = [item.value for item in home.warning if words in item.value]
    assert shown["vera@example.com"] == [] and len(shown["ada@example.com"]) == 1
