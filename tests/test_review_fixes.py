"""Guards found by review: a fresh start never deletes another agent's thread, and bad places give messages."""

from __future__ import annotations

import pytest

from agents import readmodel, runs
from agents.db import DatabaseError
from agents.errors import InputError, UserError
from agents.runtime import open_store
from dashboard.safe_markdown import inert_markdown
from tests.factories import start_refund


def test_start_over_refuses_a_thread_of_another_agent(store, settings):
    start_refund(store, settings, "A1", customer="kim", reason="broken")
    head = readmodel.head_checkpoint_id(store, "refund-A1")
    with pytest.raises(InputError, match="belongs to the refund agent"):
        runs.start_run(store, settings, "robot", {}, thread_id="refund-A1")
    assert readmodel.head_checkpoint_id(store, "refund-A1") == head
    assert readmodel.thread_agent(store, "refund-A1") == "refund"


def test_cli_run_robot_on_another_agents_thread_exits_2(run_cli, store, settings, db_path):
    start_refund(store, settings, "A1", customer="kim", reason="broken")
    result = run_cli("run", "robot", "--thread", "refund-A1")
    assert result.code == 2 and "thread_id" in result.err


def test_robot_page_refuses_other_agents_and_malformed_threads(app, store, settings):
    start_refund(store, settings, "A1", customer="kim", reason="broken")
    at = app("app_pages/robot.py")
    at.query_params["thread"] = "refund-A1"
    at.run()
    assert any("belongs to the refund agent" in e.value for e in at.error)
    at.query_params["thread"] = "`x`](javascript:alert(1))"
    at.run()
    # Named by the sidebar's word for it (the message's field, ``thread_id``, is not shown as code).
    assert any(e.value.startswith("Thread: ") and "may contain only" in e.value for e in at.error), at.error
    assert readmodel.thread_agent(store, "refund-A1") == "refund"


def test_a_database_that_cannot_be_opened_is_a_clear_user_error(tmp_path):
    with pytest.raises(DatabaseError, match="cannot be opened"):
        open_store(tmp_path)  # a directory, not a file
    assert issubclass(DatabaseError, UserError)  # forms and pages show it as a message


def test_model_markdown_loses_images_and_links():
    text = "# Plan\n![track](https://example.invalid/p.png?d=1) see [docs](https://example.invalid) **ok**"
    shown = inert_markdown(text)
    assert "![" not in shown and "](" not in shown
    assert "[image: track]" in shown and "docs (https:// example.invalid)" in shown and "**ok**" in shown
