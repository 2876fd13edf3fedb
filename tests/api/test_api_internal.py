"""In-process checks of the app: an internal error is logged and answered with a request id, never a
traceback; the token setting is a secret; the serve command's loopback rule."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from agents.api import lecture, run_routes, threads
from agents.api.app import create_app
from agents.db import Store
from agents.errors import RunFailedError
from agents.runtime import load_settings
from agents.settings import Settings
from agents.validation import is_loopback


@pytest.fixture
def api(store: Store, settings: Settings) -> Iterator[TestClient]:
    with TestClient(create_app(store, settings), base_url="http://127.0.0.1", raise_server_exceptions=False) as client:
        yield client


def test_an_internal_error_is_logged_with_a_request_id(
    api: TestClient, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("secret internals")

    monkeypatch.setattr(threads.lifecycle, "thread_status", broken)
    with caplog.at_level(logging.ERROR, logger="agents.api"):
        answer = api.get("/threads/anything")
    assert answer.status_code == 500
    body = answer.json()
    assert body["request_id"] == answer.headers["x-request-id"]
    assert "secret internals" not in answer.text and "Traceback" not in answer.text
    assert body["request_id"] in caplog.text and "secret internals" in caplog.text


def test_the_token_is_a_secret_setting(db_location: str) -> None:
    settings = load_settings(db_override=db_location, environ={"HITL_API_TOKEN": " zq-9-token "}, secrets={})
    assert settings.api_token is not None and settings.api_token.reveal() == "zq-9-token"
    assert "zq-9-token" not in repr(settings) and str(settings.api_token) == "***"
    assert load_settings(db_override=db_location, environ={}, secrets={}).api_token is None


def test_a_token_guards_the_in_process_app(store: Store, db_location: str) -> None:
    settings = load_settings(db_override=db_location, environ={"HITL_API_TOKEN": "tok"}, secrets={})
    with TestClient(create_app(store, settings), base_url="http://127.0.0.1") as client:
        assert client.get("/ok").status_code == 401
        assert client.get("/ok", headers={"Authorization": "Bearer tok"}).status_code == 200
        assert client.get("/ok", headers={"Authorization": "Bearer tok2"}).status_code == 401


@pytest.mark.parametrize(
    ("host", "loopback"),
    [("127.0.0.1", True), ("127.0.0.2", True), ("::1", True), ("localhost", True), ("0.0.0.0", False), ("::", False)],
)
def test_loopback_hosts(host: str, loopback: bool) -> None:
    assert is_loopback(host) is loopback


def test_a_failed_step_is_a_500_naming_the_thread(api: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    def failing(*args: object, **kwargs: object) -> None:
        raise RunFailedError("lecture-x", ValueError("the model is down"))

    monkeypatch.setattr(lecture.runs, "start_run", failing)
    answer = api.post("/generate", json={})
    assert answer.status_code == 500
    body = answer.json()
    assert body["thread_id"] == "lecture-x" and body["status"] == "attention"
    assert "the model is down" in body["detail"] and body["request_id"] == answer.headers["x-request-id"]


def test_a_step_failing_mid_stream_ends_with_an_error_event(api: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    def failing_run(*args: object, on_event: Any, on_chunk: Any, **kwargs: object) -> None:
        on_event({"name": "propose"})
        on_chunk("values", {"messages": []})
        raise RunFailedError("stream-x", ValueError("the model is down"))

    monkeypatch.setattr(run_routes.runs, "start_run", failing_run)
    body = {"assistant_id": "robot", "input": {}, "if_not_exists": "create", "stream_mode": "values"}
    with api.stream("POST", "/threads/stream-x/runs/stream", json=body) as answer:
        assert answer.status_code == 200
        assert answer.headers["content-type"].startswith("text/event-stream")
        text = "".join(answer.iter_text())
    events = [line.removeprefix("event: ") for line in text.splitlines() if line.startswith("event: ")]
    assert events == ["metadata", "values", "error"]
    assert "the model is down" in text


def test_a_refused_stream_is_a_plain_4xx(api: TestClient) -> None:
    body = {"assistant_id": "robot", "command": {"resume": "yes"}, "if_not_exists": "create"}
    answer = api.post("/threads/stream-new/runs/stream", json=body)
    assert answer.status_code == 404 and answer.headers["content-type"] == "application/json"
    assert answer.json()["field"] == "thread_id"
