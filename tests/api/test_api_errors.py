"""Bad input over every endpoint: a 4xx naming the field, the database byte-identical; and the guards
(bearer token, loopback, body size, internal errors with a request id)."""

from __future__ import annotations

import json
import socket
import subprocess
import unicodedata
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from langgraph_sdk import get_sync_client

from agents.leases import thread_lease
from agents.runtime import open_store
from tests.api.conftest import PROJECT_ROOT, Server, server_env, start_server, stop_server
from tests.api.test_api_lecture import ORIGINAL_BODY
from tests.fresh_process import run_command
from tests.serving import free_port

ROBOT = "bad-robot"
REFUND = "refund-BAD1"
LECTURE = "lecture-bad"
EDIT = {"action": "edit", "approver": "kim"}


def _resume(thread: str, assistant: str, value: Any) -> dict[str, Any]:
    return {"assistant_id": assistant, "command": {"resume": value}}


#: (method, path, JSON body, expected status, the field named)
CASES: list[tuple[str, str, Any, int, str]] = [
    # /generate: the six fields, each checked by the lecture's own validators
    ("POST", "/generate", {k: v for k, v in ORIGINAL_BODY.items() if k != "topic"}, 422, "topic"),
    ("POST", "/generate", {**ORIGINAL_BODY, "topic": "   "}, 422, "topic"),
    ("POST", "/generate", {**ORIGINAL_BODY, "duration": 8}, 422, "duration"),
    ("POST", "/generate", {**ORIGINAL_BODY, "audience_level": "x" * 201}, 422, "audience_level"),
    ("POST", "/generate", {**ORIGINAL_BODY, "platform_tools": "a\x00b"}, 422, "platform_tools"),
    ("POST", "/generate", {**ORIGINAL_BODY, "colour": "blue"}, 422, "colour"),
    ("POST", "/generate", {**ORIGINAL_BODY, "thread_id": "bad id"}, 422, "thread_id"),
    ("POST", "/generate", {**ORIGINAL_BODY, "thread_id": LECTURE}, 422, "thread_id"),
    ("POST", "/generate", {**ORIGINAL_BODY, "thread_id": 0}, 422, "thread_id"),
    ("POST", "/generate", {**ORIGINAL_BODY, "thread_id": False}, 422, "thread_id"),
    ("POST", "/generate", {**ORIGINAL_BODY, "thread_id": []}, 422, "thread_id"),
    # /resume: the original's 400 and 404, and ours
    ("POST", "/resume", {"thread_id": LECTURE, "decision": "maybe"}, 400, "decision"),
    ("POST", "/resume", {"thread_id": LECTURE, "decision": 3}, 400, "decision"),
    ("POST", "/resume", {"thread_id": "lecture-none", "decision": "save"}, 404, "thread_id"),
    ("POST", "/resume", {"thread_id": ROBOT, "decision": "save"}, 404, "thread_id"),
    ("POST", "/resume", {"thread_id": "a/b", "decision": "save"}, 422, "thread_id"),
    ("POST", "/resume", {"thread_id": LECTURE, "decision": "save", "notes": "why"}, 422, "notes"),
    ("POST", "/resume", {"thread_id": LECTURE, "decision": "rework", "extra": 1}, 422, "extra"),
    ("POST", "/resume", {"thread_id": 12345, "decision": "save"}, 422, "thread_id"),
    # an answer the waiting gate does not offer: refused before anything is written
    ("POST", f"/threads/{LECTURE}/runs/wait", _resume(LECTURE, "lecture", "pay"), 422, "action"),
    # runs: the agents' answer checks, the thread, the assistant, the options
    ("POST", f"/threads/{REFUND}/runs/wait", _resume(REFUND, "refund", {**EDIT, "amount": 0}), 422, "amount"),
    ("POST", f"/threads/{REFUND}/runs/wait", _resume(REFUND, "refund", {**EDIT, "amount": 500_001}), 422, "amount"),
    ("POST", f"/threads/{REFUND}/runs/wait", _resume(REFUND, "refund", {**EDIT, "amount": "500,00"}), 422, "amount"),
    ("POST", f"/threads/{REFUND}/runs/wait", _resume(REFUND, "refund", {**EDIT, "amount": 1.5}), 422, "amount"),
    ("POST", f"/threads/{REFUND}/runs/wait", _resume(REFUND, "refund", {"action": "approve"}), 422, "approver"),
    (
        "POST",
        f"/threads/{REFUND}/runs/wait",
        _resume(REFUND, "refund", {"action": "approve", "approver": "automatic"}),
        422,
        "approver",
    ),
    ("POST", f"/threads/{REFUND}/runs/wait", _resume(REFUND, "refund", {"action": "pay"}), 422, "action"),
    ("POST", f"/threads/{REFUND}/runs/wait", _resume(REFUND, "robot", "yes"), 422, "assistant_id"),
    ("POST", f"/threads/{REFUND}/runs/wait", _resume(REFUND, "nobody", "yes"), 404, "assistant_id"),
    ("POST", "/threads/nobody-here/runs/wait", _resume("nobody-here", "robot", "yes"), 404, "thread_id"),
    ("POST", f"/threads/{ROBOT}/runs/wait", {"assistant_id": "robot"}, 422, "thread_id"),
    ("POST", f"/threads/{ROBOT}/runs/wait", {"input": {}}, 422, "assistant_id"),
    ("POST", f"/threads/{ROBOT}/runs/wait", {"assistant_id": "robot", "input": [1]}, 422, "input"),
    (
        "POST",
        f"/threads/{ROBOT}/runs/wait",
        {"assistant_id": "robot", "command": {"goto": "execute"}},
        422,
        "command",
    ),
    (
        "POST",
        f"/threads/{ROBOT}/runs/wait",
        {"assistant_id": "robot", "input": {}, "interrupt_before": ["execute"]},
        422,
        "interrupt_before",
    ),
    (
        "POST",
        f"/threads/{ROBOT}/runs/stream",
        {"assistant_id": "robot", "command": {"resume": "yes"}, "stream_mode": "no-such-mode"},
        422,
        "stream_mode",
    ),
    ("POST", f"/threads/{ROBOT}/runs", {"assistant_id": "robot", "input": {"answer": 1}}, 422, "answer"),
    ("POST", f"/threads/{REFUND}/runs", {"assistant_id": "refund", "input": {"amount": 5}}, 422, "case_id"),
    # state: update_state with the agents' rules
    ("POST", f"/threads/{REFUND}/state", {"values": {"decision": "approve"}, "as_node": "settle"}, 422, "as_node"),
    ("POST", f"/threads/{REFUND}/state", {"values": {"amount": -5}}, 422, "amount"),
    ("POST", f"/threads/{REFUND}/state", {"values": {"colour": "red"}}, 422, "colour"),
    ("POST", f"/threads/{REFUND}/state", {"values": {"decision": "approve"}}, 422, "approver"),
    ("POST", f"/threads/{ROBOT}/state", {"values": [{"decision": "yes"}]}, 422, "values"),
    ("POST", f"/threads/{ROBOT}/state", {"values": {}}, 422, "values"),
    ("POST", f"/threads/{ROBOT}/state", {"values": {"decision": "yes"}, "checkpoint_id": "nope"}, 422, "checkpoint_id"),
    ("POST", f"/threads/{ROBOT}/state", {"values": {"decision": "yes"}, "as_node": "__copy__"}, 422, "as_node"),
    ("POST", f"/threads/{LECTURE}/state", {"values": {"human_notes": "x"}, "as_node": "decide"}, 422, "as_node"),
    ("POST", "/threads/nobody-here/state", {"values": {"decision": "yes"}}, 404, "thread_id"),
    # reads, search, history, create, delete
    ("GET", "/threads/nobody-here", None, 404, "thread_id"),
    ("GET", "/threads/nobody-here/state", None, 404, "thread_id"),
    ("GET", f"/threads/{ROBOT}/state/nope", None, 422, "checkpoint_id"),
    ("POST", f"/threads/{ROBOT}/history", {"limit": 0}, 422, "limit"),
    ("POST", f"/threads/{ROBOT}/history", {"limit": "ten"}, 422, "limit"),
    ("POST", f"/threads/{ROBOT}/history", {"before": "nope"}, 422, "before"),
    ("POST", "/threads/search", {"status": "waiting"}, 422, "status"),
    ("POST", "/threads/search", {"limit": -1}, 422, "limit"),
    ("POST", "/threads/search", {"offset": -1}, 422, "offset"),
    ("POST", "/threads", {"thread_id": ROBOT}, 409, "thread_id"),
    ("POST", "/threads", {"thread_id": "x y"}, 422, "thread_id"),
    ("POST", "/threads", {"metadata": "text"}, 422, "metadata"),
    ("DELETE", "/threads/nobody-here", None, 404, "thread_id"),
    ("POST", "/assistants/search", {"limit": 0}, 422, "limit"),
    ("GET", "/assistants/nobody", None, 404, "assistant_id"),
]


def _snapshot(db: Path) -> tuple[bytes, bytes]:
    wal = Path(f"{db}-wal")
    return db.read_bytes(), wal.read_bytes() if wal.exists() else b""


@pytest.fixture(scope="module")
def prepared(server: Server) -> Iterator[Server]:
    """Waiting threads of each agent: the robot, a 500,000 KRW refund, a lecture at its gate."""
    with server.client() as http:
        http.post("/threads", json={"thread_id": ROBOT})
        http.post(f"/threads/{ROBOT}/runs/wait", json={"assistant_id": "robot", "input": {}}).raise_for_status()
        http.post("/threads", json={"thread_id": REFUND})
        case = {"case_id": "BAD1", "customer": "홍길동", "amount": 500_000, "reason": "r"}
        http.post(f"/threads/{REFUND}/runs/wait", json={"assistant_id": "refund", "input": case}).raise_for_status()
        http.post("/generate", json={**ORIGINAL_BODY, "thread_id": LECTURE}).raise_for_status()
    yield server


def test_the_matrix_has_enough_cases() -> None:
    assert len(CASES) >= 30


@pytest.mark.parametrize(("method", "path", "body", "status", "field"), CASES)
def test_bad_input_names_the_field_and_changes_nothing(
    prepared: Server, method: str, path: str, body: Any, status: int, field: str
) -> None:
    before = _snapshot(prepared.db)
    with prepared.client() as http:
        answer = http.request(method, path, json=body) if body is not None else http.request(method, path)
    assert answer.status_code == status, answer.text
    data = answer.json()
    assert data["field"] == field, data
    assert field in data["detail"] or status in (404, 409), data
    assert "Traceback" not in answer.text
    assert _snapshot(prepared.db) == before


def test_a_body_that_is_not_json_is_refused(prepared: Server) -> None:
    with prepared.client() as http:
        answer = http.post("/generate", content=b"{not json", headers={"Content-Type": "application/json"})
    assert answer.status_code == 422 and answer.json()["field"] == "body"


def test_a_body_over_the_limit_is_refused(prepared: Server) -> None:
    before = _snapshot(prepared.db)
    with prepared.client() as http:
        answer = http.post("/generate", content=b"x" * (1024 * 1024 + 1), headers={"Content-Type": "application/json"})
        chunked = http.post(
            "/generate", content=iter([b"[", b" " * (1024 * 1024 + 1), b"]"]), headers={"Content-Type": "text/plain"}
        )
    assert answer.status_code == 413 and answer.json()["field"] == "body"
    assert chunked.status_code == 413
    assert _snapshot(prepared.db) == before


def test_unsupported_calls_are_named(prepared: Server) -> None:
    with prepared.client() as http:
        patch = http.patch(f"/threads/{ROBOT}", json={"metadata": {}})
        copy = http.post(f"/threads/{ROBOT}/copy")
        stateless = http.post("/runs/wait", json={"assistant_id": "robot", "input": {}})
    assert patch.status_code == 405 and "PATCH" in patch.json()["detail"]
    assert copy.status_code == 404 and stateless.status_code == 404
    assert "no such endpoint" in stateless.json()["detail"]


def test_every_answer_carries_a_request_id(prepared: Server) -> None:
    with prepared.client() as http:
        assert http.get("/ok").headers["x-request-id"]
        assert http.get("/threads/nobody-here").headers["x-request-id"]


TOKEN = "s3cret-token-value"


@pytest.fixture(scope="module")
def guarded(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A server with HITL_API_TOKEN set."""
    running = start_server(tmp_path_factory.mktemp("guarded"), token=TOKEN)
    yield running
    stop_server(running)


def test_with_a_token_every_request_needs_it(guarded: Server) -> None:
    bare = httpx.get(f"{guarded.url}/threads/nobody-here")
    wrong = httpx.get(f"{guarded.url}/ok", headers={"Authorization": "Bearer wrong"})
    assert bare.status_code == 401 and wrong.status_code == 401
    assert TOKEN not in bare.text + wrong.text
    with guarded.client() as http:
        waiting = http.post("/generate", json=ORIGINAL_BODY).json()
        assert http.get("/ok").status_code == 200
    # the SDK's api_key (its x-api-key header) is accepted too
    assert httpx.get(f"{guarded.url}/ok", headers={"x-api-key": TOKEN}).status_code == 200
    with get_sync_client(url=guarded.url, api_key=TOKEN) as sdk:
        assert [a["assistant_id"] for a in sdk.assistants.search()] == ["robot", "refund", "lecture"]
    with get_sync_client(url=guarded.url, api_key=None) as anonymous, pytest.raises(httpx.HTTPStatusError):
        anonymous.assistants.search()
    command = waiting["curl"]["save"]
    assert "$HITL_API_TOKEN" in command and TOKEN not in command
    done = subprocess.run(
        ["bash", "-c", command],
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
        env={"PATH": "/usr/bin:/bin", "HITL_API_TOKEN": TOKEN},
    )
    assert json.loads(done.stdout)["status"] == "completed"
    assert TOKEN not in guarded.log()


def test_no_token_refuses_a_non_loopback_address(tmp_path: Path) -> None:
    done = run_command(
        ["serve", "--host", "0.0.0.0", "--port", str(free_port())], PROJECT_ROOT, server_env(tmp_path / "db.sqlite")
    )
    assert done.returncode == 2
    assert "HITL_API_TOKEN" in done.stderr and "--host" in done.stderr


@pytest.mark.parametrize("host", ["attacker.example", "attacker.example:2024", "127.0.0.1.attacker.example"])
def test_without_a_token_a_request_for_another_host_name_is_refused(prepared: Server, host: str) -> None:
    """A page elsewhere, its name rebound to 127.0.0.1, sends its own name as the host: refused, nothing done."""
    before = _snapshot(prepared.db)
    with prepared.client() as http:
        created = http.post("/threads", json={"thread_id": "rebound"}, headers={"Host": host})
        read = http.get(f"/threads/{ROBOT}", headers={"Host": host})
        local = http.get(f"/threads/{ROBOT}")  # the server's own address still answers
    assert (created.status_code, read.status_code, local.status_code) == (403, 403, 200)
    assert created.json()["field"] == "host" and "DNS rebinding" in created.json()["detail"]
    assert _snapshot(prepared.db) == before


def test_a_stale_head_is_a_conflict_and_changes_nothing(prepared: Server) -> None:
    with prepared.client() as http:
        head = http.get(f"/threads/{ROBOT}/state").json()["checkpoint"]["checkpoint_id"]
        before = _snapshot(prepared.db)
        stale = {"If-Match": head[:-1] + ("0" if head[-1] != "0" else "1")}
        update = http.post(f"/threads/{ROBOT}/state", json={"values": {"decision": "no"}}, headers=stale)
        resume = http.post(
            f"/threads/{ROBOT}/runs/wait", json={"assistant_id": "robot", "command": {"resume": "no"}}, headers=stale
        )
        delete = http.delete(f"/threads/{ROBOT}", headers=stale)
        assert _snapshot(prepared.db) == before
    for answer in (update, resume, delete):
        assert answer.status_code == 409 and "changed since" in answer.json()["detail"], answer.text


def test_a_thread_another_process_runs_is_busy(prepared: Server) -> None:
    store = open_store(prepared.db)
    try:
        with thread_lease(store, REFUND):  # this test process holds the lease, as a running CLI would
            before = _snapshot(prepared.db)
            with prepared.client() as http:
                approve = {"assistant_id": "refund", "command": {"resume": {"action": "approve", "approver": "kim"}}}
                answers = [
                    http.post(f"/threads/{REFUND}/runs/wait", json=approve),
                    http.post(f"/threads/{REFUND}/runs/stream", json=approve),
                    http.post(f"/threads/{REFUND}/state", json={"values": {"amount": 5}}),
                    http.delete(f"/threads/{REFUND}", params={"reason": "withdrawn"}),
                ]
                status = http.get(f"/threads/{REFUND}").json()["status"]
            assert _snapshot(prepared.db) == before
    finally:
        store.close()
    assert [a.status_code for a in answers] == [409, 409, 409, 409], [a.text for a in answers]
    assert status == "busy"


def test_a_port_in_use_exits_2(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = run_command(["serve", "--port", str(port)], PROJECT_ROOT, server_env(tmp_path / "db.sqlite"))
    assert done.returncode == 2 and f"cannot listen on 127.0.0.1:{port}" in done.stderr


def test_a_run_is_found_by_its_thread_id_in_either_unicode_form(prepared: Server) -> None:
    """The thread id is normalised (NFC) where the run is made, and where it is looked up again."""
    composed, decomposed = (unicodedata.normalize(form, "café-run") for form in ("NFC", "NFD"))
    with prepared.client() as http:
        http.post("/threads", json={"thread_id": decomposed}).raise_for_status()
        run = http.post(f"/threads/{decomposed}/runs", json={"assistant_id": "robot", "input": {}}).json()
        joined = http.get(f"/threads/{decomposed}/runs/{run['run_id']}/join")
        assert joined.status_code == 200, joined.text
        for form in (composed, decomposed):
            assert http.get(f"/threads/{form}/runs/{run['run_id']}").status_code == 200
            assert [found["run_id"] for found in http.get(f"/threads/{form}/runs").json()] == [run["run_id"]]
