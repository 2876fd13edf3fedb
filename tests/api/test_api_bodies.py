"""Bodies no JSON parser turns into a value, sent to the real server: each is the documented 422
naming the body and the problem (never FastAPI's bare 400 "There was an error parsing the body"),
and the database stays byte-identical."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests.api.conftest import Server
from tests.api.test_api_lecture import ORIGINAL_BODY

WAITING = "bodies-robot"

#: (id, raw body, Content-Type, words the answer's detail holds)
HOSTILE: list[tuple[str, bytes, str, str]] = [
    ("nested-100k-arrays", b"[" * 100_000 + b"]" * 100_000, "application/json", "nests deeper than"),
    ("nested-5k-objects", b'{"a": ' * 5_000 + b"1" + b"}" * 5_000, "application/json", "nests deeper than"),
    ("integer-5000-digits", b'{"metadata": {"n": 1' + b"2" * 4_999 + b"}}", "application/json", "beyond 64 bits"),
    ("bare-integer-5000-digits", b"9" * 5_000, "application/json", "beyond 64 bits"),
    ("negative-integer-5000-digits", b'{"limit": -' + b"7" * 5_000 + b"}", "application/json", "beyond 64 bits"),
    ("invalid-utf8", b'{"thread_id": "\xff\xfe"}', "application/json", "not valid UTF-8: byte 15 (0xFF)"),
    ("utf8-encoded-surrogate", b'{"thread_id": "\xed\xa0\x80"}', "application/json", "not valid UTF-8"),
    ("overlong-utf8-slash", b'{"thread_id": "\xc0\xaf"}', "application/json", "not valid UTF-8"),
    ("truncated-utf8", b'{"thread_id": "\xea\xb1"}', "application/json", "not valid UTF-8"),
    ("utf16-body", '{"thread_id": "x"}'.encode("utf-16"), "application/json", "not valid UTF-8: byte 0"),
    ("nan", b'{"metadata": {"n": NaN}}', "application/json", "holds NaN"),
    ("infinity", b'{"metadata": {"n": -Infinity}}', "application/json", "holds -Infinity"),
    ("float-overflow", b'{"metadata": {"n": 1e999}}', "application/json", "holds 1e999"),
    ("no-content-type", b'{"metadata": {"n": 1' + b"0" * 5_000 + b"}}", "", "beyond 64 bits"),
    ("json-suffix-type", b"[" * 100_000, "application/merge-patch+json", "nests deeper than"),
    ("charset-parameter", b'{"a": "\x80"}', "application/json; charset=utf-8", "not valid UTF-8"),
    ("syntax-error", b'{"thread_id": ', "application/json", "is not valid JSON"),
]

#: Endpoints that read a body: the SDK's threads, state and runs, and the lecture planner's own.
ENDPOINTS = [
    "/threads",
    "/threads/search",
    f"/threads/{WAITING}/state",
    f"/threads/{WAITING}/runs/wait",
    "/generate",
]


def _snapshot(db: Path) -> tuple[bytes, bytes]:
    wal = Path(f"{db}-wal")
    return db.read_bytes(), wal.read_bytes() if wal.exists() else b""


@pytest.fixture(scope="module")
def prepared(server: Server) -> Iterator[Server]:
    """A robot waiting for its answer, so every endpoint has a thread to act on."""
    with server.client() as http:
        http.post("/threads", json={"thread_id": WAITING}).raise_for_status()
        http.post(f"/threads/{WAITING}/runs/wait", json={"assistant_id": "robot", "input": {}}).raise_for_status()
    yield server


def test_the_list_covers_each_kind_of_body_a_parser_refuses() -> None:
    kinds = {words for _id, _body, _type, words in HOSTILE}
    assert len(HOSTILE) >= 15 and {"nests deeper than", "beyond 64 bits", "not valid UTF-8"} <= kinds


@pytest.mark.parametrize("path", ENDPOINTS)
@pytest.mark.parametrize(("body", "content_type", "words"), [pytest.param(*h[1:], id=h[0]) for h in HOSTILE])
def test_a_body_no_parser_reads_is_a_422_naming_the_problem(
    prepared: Server, path: str, body: bytes, content_type: str, words: str
) -> None:
    before = _snapshot(prepared.db)
    headers = {"Content-Type": content_type} if content_type else {}
    with prepared.client() as http:
        answer = http.post(path, content=body, headers=headers)  # no Content-Type unless given
    assert answer.status_code == 422, answer.text
    data = answer.json()
    assert data["field"] == "body" and data["detail"].startswith("body: "), data
    assert words in data["detail"], data
    assert "error parsing" not in answer.text and "Traceback" not in answer.text
    assert answer.headers["x-request-id"]
    assert _snapshot(prepared.db) == before


def test_the_same_bodies_well_formed_still_work(prepared: Server) -> None:
    """The check refuses only what cannot be parsed: a byte order mark and deep-but-parsable JSON pass on."""
    with prepared.client() as http:
        bom = http.post("/threads", content=b'\xef\xbb\xbf{"thread_id": "bodies-bom"}', headers=_json())
        deep = http.post("/threads", content=b'{"metadata": ' + b'{"a": ' * 40 + b"1" + b"}" * 41, headers=_json())
        korean = http.post("/threads", content='{"thread_id": "건-본문"}'.encode(), headers=_json())
        generate = http.post("/generate", json={**ORIGINAL_BODY, "thread_id": "bodies-lecture"})
    assert bom.status_code == 200 and bom.json()["thread_id"] == "bodies-bom"
    # Parsable but over the field's limit: the field's own check names the field.
    assert deep.status_code == 422 and deep.json()["field"] == "metadata"
    assert korean.status_code == 200 and korean.json()["thread_id"] == "건-본문"
    assert generate.status_code == 200, generate.text


def test_a_text_body_is_not_parsed_as_json(prepared: Server) -> None:
    """A body FastAPI does not parse as JSON (``text/plain``) is refused by the route's own check."""
    with prepared.client() as http:
        answer = http.post("/threads", content=b"\xff" * 10, headers={"Content-Type": "text/plain"})
    assert answer.status_code == 422 and "error parsing" not in answer.text


def _json() -> dict[str, str]:
    return {"Content-Type": "application/json"}


def test_httpx_sends_no_content_type_for_raw_bytes() -> None:
    """The no-content-type case above relies on this."""
    request = httpx.Request("POST", "http://127.0.0.1/threads", content=b"{}")
    assert "content-type" not in request.headers
