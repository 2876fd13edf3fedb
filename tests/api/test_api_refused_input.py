"""Answers a pause would refuse, and empty thread ids, over the API: a 422 naming the field, nothing written.

The same checks as the CLI's and the pages' (``agents.runs``): a plan edit the lecture planner's plan
cannot take is refused before anything is written, on every kind of run, and an empty thread id is bad
input, never "a new thread".
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.api.conftest import Server
from tests.api.test_api_lecture import ORIGINAL_BODY

LECTURE = "lecture-refusals"


def _edit(subtopics: list[Any]) -> dict[str, Any]:
    return {"assistant_id": "lecture", "command": {"resume": {"action": "edit_plan", "subtopics": subtopics}}}


PLAN_EDITS = [
    ([1, 2], "item 0 must be an object"),
    (["A"], "3 to 5 subtopics"),
    ([{"id": "s9", "title": "A"}, "B", "C"], "no subtopic 's9'"),
    ([{"id": "s1", "title": "Renamed"}, "B", "C"], "already researched"),
]
#: (method, path, JSON body, the field named, words of the reason)
CASES: list[tuple[str, str, Any, str, str]] = [
    *[
        ("POST", f"/threads/{LECTURE}/{kind}", _edit(s), "subtopics", why)
        for kind in ("runs/wait",)
        for s, why in PLAN_EDITS
    ],
    ("POST", f"/threads/{LECTURE}/runs", _edit([1, 2]), "subtopics", "item 0"),
    ("POST", f"/threads/{LECTURE}/runs/stream", _edit([{"id": "s9", "title": "A"}, "B", "C"]), "subtopics", "s9"),
    ("POST", "/generate", {**ORIGINAL_BODY, "thread_id": ""}, "thread_id", "empty"),
    ("POST", "/generate", {**ORIGINAL_BODY, "thread_id": " \t"}, "thread_id", "empty"),
    ("POST", "/threads", {"thread_id": ""}, "thread_id", "empty"),
    ("POST", "/threads", {"thread_id": "../x"}, "thread_id", "'.'"),
]


def _snapshot(db: Path) -> tuple[bytes, bytes]:
    wal = Path(f"{db}-wal")
    return db.read_bytes(), wal.read_bytes() if wal.exists() else b""


@pytest.fixture(scope="module")
def waiting(server: Server) -> Iterator[Server]:
    """A lecture waiting at its gate (its subtopics researched)."""
    with server.client() as http:
        http.post("/generate", json={**ORIGINAL_BODY, "thread_id": LECTURE}).raise_for_status()
    yield server


@pytest.mark.parametrize(("method", "path", "body", "field", "why"), CASES)
def test_a_refused_answer_or_an_empty_id_is_a_422_naming_the_field_and_writes_nothing(
    waiting: Server, method: str, path: str, body: Any, field: str, why: str
) -> None:
    before = _snapshot(waiting.db)
    with waiting.client() as http:
        answer = http.request(method, path, json=body)
        state = http.get(f"/threads/{LECTURE}/state").json()
    assert answer.status_code == 422, answer.text
    assert answer.json()["field"] == field and why in answer.json()["detail"], answer.json()
    assert _snapshot(waiting.db) == before
    assert not state["tasks"][0]["interrupts"][0]["value"].get("error")  # no refusal inside the question either
