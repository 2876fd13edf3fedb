"""The events of finished runs are kept for ``runs.join_stream`` within a bound (``EVENTS_KEPT``)."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from agents.api import run_routes
from agents.api.app import create_app
from agents.db import Store
from agents.settings import Settings


def test_only_the_latest_finished_runs_keep_their_events(
    store: Store, settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(run_routes, "EVENTS_KEPT", 1)
    with TestClient(create_app(store, settings), base_url="http://127.0.0.1") as api:
        started = []
        for name in ("kept-1", "kept-2", "kept-3"):
            assert api.post("/threads", json={"thread_id": name}).status_code == 200
            run = api.post(f"/threads/{name}/runs", json={"assistant_id": "robot", "input": {}}).json()
            api.get(f"/threads/{name}/runs/{run['run_id']}/join")
            started.append(f"/threads/{name}/runs/{run['run_id']}/stream")
        replayed = [api.get(path, headers={"Last-Event-ID": "-1"}).text for path in started]
    assert replayed[:2] == ["", ""]  # forgotten once a newer run had ended
    assert replayed[2].startswith("id: 0\nevent: metadata\n") and "event: values" in replayed[2]
