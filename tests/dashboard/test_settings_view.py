"""The settings an admin sees on home: every setting in words, never a secret's value; hidden from others."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from dashboard.settings_view import without_password
from tests.conftest import APP_FILE
from tests.factories import table_cells

GEMINI_KEY = "gm-secret-value-0123456789"


def _settings_table(test: AppTest) -> list[str]:
    expander = next(e for e in test.expander if e.label == "Settings")
    return [str(cell) for frame in expander.dataframe for cell in frame.value.to_numpy().ravel()]


def test_the_local_operator_sees_every_setting_and_no_secret(app, monkeypatch):
    monkeypatch.setenv("GEMINI_API_KEY", GEMINI_KEY)
    monkeypatch.setenv("HITL_REFUND_POLICY", "reroute")
    test = app()
    assert not test.exception
    cells = _settings_table(test)
    assert "reroute" in cells and "not configured: local mode" in cells
    assert "Approval robot" not in " ".join(cells)  # an agent without settings adds no rows
    assert any(cell.startswith("Refund agent: routing policy") for cell in cells)
    assert "set (its value is never shown)" in cells  # the Gemini key is set …
    assert GEMINI_KEY not in str(test._tree) and GEMINI_KEY not in " ".join(table_cells(test))  # … and never shown


def test_the_mail_server_is_shown_with_its_user_and_never_its_password(app, monkeypatch):
    monkeypatch.setenv("HITL_NOTIFY_SMTP", "smtps://mailer:Sm7p-pa55@mail.example.com:465")
    monkeypatch.setenv("HITL_NOTIFY_FROM", "hitl@example.com")
    monkeypatch.setenv("HITL_NOTIFY_KEEP_DAYS", "45")
    test = app()
    assert not test.exception
    cells = _settings_table(test)
    assert "smtps://mailer@mail.example.com:465" in cells and "45" in cells
    assert "Sm7p-pa55" not in str(test._tree) and "Sm7p-pa55" not in " ".join(table_cells(test))


@pytest.mark.parametrize(
    ("location", "shown"),
    [
        ("postgresql://hitl:pa55@db.example.com:5432/hitl", "postgresql://hitl:***@db.example.com:5432/hitl"),
        ("postgresql://hitl@localhost/hitl", "postgresql://hitl@localhost/hitl"),
        ("/var/lib/hitl/checkpoints.sqlite", "/var/lib/hitl/checkpoints.sqlite"),
    ],
)
def test_a_database_password_is_never_shown(location, shown):
    assert without_password(location) == shown


ROLES = """
[users]
"vera@example.com" = { role = "viewer" }
"ann@example.com" = { role = "approver", limit_krw = 1_000_000 }
"ada@example.com" = { role = "admin" }
"""


@pytest.mark.parametrize(
    ("email", "sees"), [("vera@example.com", False), ("ann@example.com", False), ("ada@example.com", True)]
)
def test_only_an_admin_sees_the_settings(use_roles: Callable[[str], Path], email, sees):
    use_roles(ROLES)
    test = AppTest.from_file(APP_FILE, default_timeout=60)
    test.user = {"is_logged_in": True, "email": email, "name": email.split("@")[0].title()}
    test.run()
    assert not test.exception, test.exception
    assert any(e.label == "Settings" for e in test.expander) is sees
    hidden = [c.value for c in test.caption if c.value.startswith("Settings are not shown:")]
    assert bool(hidden) is not sees
