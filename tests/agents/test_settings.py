"""Settings: --db over HITL_DB over the secrets file over the default; secrets never shown."""

from __future__ import annotations

import pytest

from agents.errors import UserError
from agents.runtime import load_settings
from agents.settings import DEFAULT_DB_PATH, read_secrets_file


def test_default_database_path():
    assert load_settings(environ={}, secrets={}).db == str(DEFAULT_DB_PATH)


def test_secrets_file_then_environment_then_cli_option():
    secrets = {"HITL_DB": "/from/secrets.sqlite"}
    assert load_settings(environ={}, secrets=secrets).db == "/from/secrets.sqlite"
    env = {"HITL_DB": "/from/env.sqlite"}
    assert load_settings(environ=env, secrets=secrets).db == "/from/env.sqlite"
    assert load_settings("/from/cli.sqlite", environ=env, secrets=secrets).db == "/from/cli.sqlite"


def test_secrets_file_is_read_and_a_broken_one_is_named(tmp_path):
    path = tmp_path / "secrets.toml"
    path.write_text('HITL_DB = "x.sqlite"\nGOOGLE_API_KEY = "fake-key-123"\n')
    assert read_secrets_file(path) == {"HITL_DB": "x.sqlite", "GOOGLE_API_KEY": "fake-key-123"}
    path.write_text("not = = toml")
    with pytest.raises(UserError, match="secrets.toml is not valid TOML"):
        read_secrets_file(path)
    assert read_secrets_file(tmp_path / "missing.toml") == {}


def test_secret_values_are_not_in_the_repr():
    settings = load_settings(environ={"GOOGLE_API_KEY": "fake-key-123"}, secrets={})
    key = settings.agent("lecture").services.gemini_key
    assert key.reveal() == "fake-key-123" and str(key) == "***"
    assert "fake-key-123" not in repr(settings) and "fake-key-123" not in str(settings)


def test_database_folder_is_created_on_demand(tmp_path):
    from agents.runtime import open_store

    store = open_store(tmp_path / "new" / "folder" / "db.sqlite")
    assert (tmp_path / "new" / "folder" / "db.sqlite").exists()
    store.close()


def test_the_busy_timeout_is_thirty_seconds_unless_set_and_a_bad_value_is_named():
    assert load_settings(environ={}, secrets={}).db_busy_timeout == 30.0
    assert load_settings(environ={"HITL_DB_BUSY_TIMEOUT": "0.25"}, secrets={}).db_busy_timeout == 0.25
    for bad in ("soon", "0", "-1", "inf"):
        with pytest.raises(UserError, match="HITL_DB_BUSY_TIMEOUT"):
            load_settings(environ={"HITL_DB_BUSY_TIMEOUT": bad}, secrets={})


def test_a_write_waits_the_configured_busy_timeout_for_another_process_and_is_refused_as_busy(tmp_path):
    import sqlite3

    from agents.runtime import open_store

    path = tmp_path / "db.sqlite"
    store = open_store(path, busy_timeout=0.05)
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")
    try:
        with pytest.raises(UserError, match="is busy"):
            store.execute_one("INSERT INTO hitl_meta (key, value) VALUES ('k', 'v')", ())
    finally:
        holder.execute("ROLLBACK")
        holder.close()
        store.close()


@pytest.mark.parametrize(
    ("db_override", "environ", "secrets", "named"),
    [(" ", {}, {}, "--db"), (None, {"HITL_DB": " \t"}, {}, "HITL_DB"), (None, {}, {"HITL_DB": "  "}, "HITL_DB")],
    ids=["--db", "environment", "secrets file"],
)
def test_a_blank_database_location_is_refused_naming_where_it_came_from(db_override, environ, secrets, named):
    with pytest.raises(UserError, match="is blank") as refused:
        load_settings(db_override, environ=environ, secrets=secrets)
    assert refused.value.field == named


def test_live_refresh_is_two_seconds_unless_set_zero_turns_it_off_and_a_too_fast_value_is_named():
    assert load_settings(environ={}, secrets={}).live_refresh == 2.0
    assert load_settings(environ={"HITL_LIVE_REFRESH": "0"}, secrets={}).live_refresh == 0.0
    assert load_settings(environ={"HITL_LIVE_REFRESH": "5"}, secrets={}).live_refresh == 5.0
    for value in ("0.1", "-1", "often"):
        with pytest.raises(UserError) as refused:
            load_settings(environ={"HITL_LIVE_REFRESH": value}, secrets={})
        assert refused.value.field == "HITL_LIVE_REFRESH"


def test_the_local_approver_is_a_one_line_name_and_is_refused_beside_a_roles_file(tmp_path):
    assert load_settings(environ={}, secrets={}).local_approver == ""
    assert load_settings(environ={"HITL_LOCAL_APPROVER": " 김민지 "}, secrets={}).local_approver == "김민지"
    for bad in ("kim\nlee", "kim\u202e", "k" * 255):
        with pytest.raises(UserError, match="HITL_LOCAL_APPROVER"):
            load_settings(environ={"HITL_LOCAL_APPROVER": bad}, secrets={})
    roles = tmp_path / "roles.toml"
    roles.write_text('[users]\n"kim@example.com" = { role = "approver", limit_krw = 100_000 }\n')
    with pytest.raises(UserError, match="HITL_LOCAL_APPROVER: .*signed-in identity"):
        load_settings(environ={"HITL_LOCAL_APPROVER": "kim", "HITL_ROLES_FILE": str(roles)}, secrets={})
