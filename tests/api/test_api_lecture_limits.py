"""A duration no lecture has, over the API: a 422 naming ``duration`` with the bound, and nothing written.

The planner's own ``/generate`` and a LangGraph-style run (``{"request": {...}}``) are refused alike, before
any thread exists.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.api.conftest import Server
from tests.api.test_api_lecture import ORIGINAL_BODY


@pytest.fixture(scope="module")
def server(shared_server: Server) -> Server:
    """The worker's shared server (tests/api/conftest.py): this module's threads have ids of its own."""
    return shared_server


def _snapshot(db: Path) -> tuple[bytes, bytes]:
    wal = Path(f"{db}-wal")
    return db.read_bytes(), wal.read_bytes() if wal.exists() else b""


def _run(duration: str) -> dict[str, Any]:
    return {"assistant_id": "lecture", "input": {"request": {**ORIGINAL_BODY, "duration": duration}}}


CASES = [
    ("/generate", {**ORIGINAL_BODY, "duration": "1000000000000000000000일", "thread_id": "lecture-lim-1"}, "30 days"),
    ("/generate", {**ORIGINAL_BODY, "duration": "1500일", "thread_id": "lecture-lim-2"}, "1,500 teaching days"),
    ("/generate", {**ORIGINAL_BODY, "duration": "1분", "thread_id": "lecture-lim-3"}, "at least 30 min"),
    ("/threads/lecture-lim-4/runs/wait", {**_run("99999999999일"), "if_not_exists": "create"}, "30 days"),
    ("/threads/lecture-lim-5/runs", {**_run("1분"), "if_not_exists": "create"}, "1 min of teaching"),
]


@pytest.mark.parametrize(("path", "body", "why"), CASES)
def test_a_duration_no_lecture_has_is_a_422_naming_duration_and_writes_nothing(
    server: Server, path: str, body: dict[str, Any], why: str
) -> None:
    before = _snapshot(server.db)
    with server.client() as http:
        answer = http.post(path, json=body)
        thread = path.split("/")[2] if path.startswith("/threads/") else body["thread_id"]
        state = http.get(f"/threads/{thread}/state")
    assert answer.status_code == 422, answer.text
    assert answer.json()["field"] == "duration" and why in answer.json()["detail"], answer.json()
    assert _snapshot(server.db) == before
    assert state.status_code == 404, state.text  # no thread was made
