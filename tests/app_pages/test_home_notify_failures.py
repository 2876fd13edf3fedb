"""Home shows an admin the notifications that could not be delivered, with the error, never a secret."""

from __future__ import annotations

import dataclasses

from streamlit.testing.v1 import AppTest

from agents.notify.deliverer import Deliverer
from agents.settings_notify import notify_setting
from tests.conftest import APP_FILE
from tests.factories import start_refund
from tests.notify_receivers import webhook_receiver


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


def test_a_signed_in_viewer_is_not_shown_the_failures_an_admin_is(store, settings, tmp_path, monkeypatch):
    roles = tmp_path / "roles.toml"
    roles.write_text('[users]\n"vera@example.com" = { role = "viewer" }\n"ada@example.com" = { role = "admin" }\n')
    monkeypatch.setenv("HITL_ROLES_FILE", str(roles))
    _failed_notification(store, settings)
    shown = {}
    for email in ("vera@example.com", "ada@example.com"):
        home = AppTest.from_file(APP_FILE, default_timeout=60)
        home.user = {"is_logged_in": True, "email": email, "name": email.split("@")[0]}
        home.run()
        assert not home.exception
        shown[email] = [item.value for item in home.warning if "could not be delivered" in item.value]
    assert shown["vera@example.com"] == [] and len(shown["ada@example.com"]) == 1
