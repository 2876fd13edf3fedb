"""The lecture planner's /generate and /resume over plain HTTP, with the original service's bodies and keys."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from agents.lecture.inputs import DEFAULT_LECTURE_INPUT
from tests.api.conftest import Server


@pytest.fixture(scope="module")
def server(shared_server: Server) -> Server:
    """The worker's shared server (tests/api/conftest.py): this module's threads and cases have ids of its own."""
    return shared_server


#: The original service's request body: the six fields, nothing else.
ORIGINAL_BODY = dict(DEFAULT_LECTURE_INPUT)
WAITING_KEYS = {"status", "thread_id", "score", "feedback", "message"}
COMPLETED_KEYS = {"status", "save_path", "log_path"}


def test_generate_waits_at_the_gate_with_the_original_keys(server: Server) -> None:
    with server.client() as http:
        answer = http.post("/generate", json=ORIGINAL_BODY)
    assert answer.status_code == 200
    body = answer.json()
    assert WAITING_KEYS <= set(body)
    assert body["status"] == "waiting_for_human"
    assert body["thread_id"].startswith("lecture-")
    assert isinstance(body["score"], int) and body["score"] < body["threshold"] == 80
    assert isinstance(body["feedback"], str) and "[time_allocation]" in body["feedback"]
    assert "rework" in body["message"] and "save" in body["message"]
    assert {r["reviewer"] for r in body["reviews"]} == {"content", "time_allocation", "difficulty"}
    assert body["plan_markdown"].startswith("#")
    rework = body["curl"]["rework"]
    assert f"{server.url}/resume" in rework and body["thread_id"] in rework
    assert server.prints(rework)  # the server's log prints the same ready-to-copy command


def test_printed_curl_command_runs_as_printed_and_completes(server: Server) -> None:
    with server.client() as http:
        waiting = http.post("/generate", json=ORIGINAL_BODY).json()
    printed = waiting["curl"]["rework"]
    done = subprocess.run(["bash", "-c", printed], capture_output=True, text=True, check=True, timeout=120)
    body = json.loads(done.stdout)
    assert body["status"] == "completed", body
    assert COMPLETED_KEYS <= set(body)
    plan, log = Path(body["save_path"]), Path(body["log_path"])
    assert plan.read_text(encoding="utf-8") == body["plan_markdown"]
    assert plan.name == f"{waiting['thread_id']}.md"
    assert log.read_text(encoding="utf-8").splitlines()[0].startswith("timestamp,event,subagent_name,duration_sec")
    assert body["score"] >= body["threshold"]


def test_resume_save_and_reject_with_the_original_body(server: Server) -> None:
    with server.client() as http:
        first = http.post("/generate", json=ORIGINAL_BODY).json()
        saved = http.post("/resume", json={"thread_id": first["thread_id"], "decision": "save"})
        assert saved.status_code == 200
        assert saved.json()["status"] == "completed" and saved.json()["outcome"] == "saved_as_is"
        assert Path(saved.json()["save_path"]).is_file()

        second = http.post("/generate", json={**ORIGINAL_BODY, "thread_id": "lecture-http-reject"}).json()
        assert second["thread_id"] == "lecture-http-reject"
        rejected = http.post("/resume", json={"thread_id": "lecture-http-reject", "decision": "reject"}).json()
        assert rejected["status"] == "rejected"


def test_a_reject_with_notes_keeps_them_as_its_reason(server: Server) -> None:
    with server.client() as http:
        first = http.post("/generate", json=ORIGINAL_BODY).json()
        assert "(optional notes with rework or reject)" in first["message"]
        body = {"thread_id": first["thread_id"], "decision": "reject", "notes": "주제가 청중과 맞지 않음"}
        assert http.post("/resume", json=body).json()["status"] == "rejected"
        values = http.get(f"/threads/{first['thread_id']}/state").json()["values"]
        assert values["outcome"] == "rejected" and values["reject_reason"] == "주제가 청중과 맞지 않음"


def test_rework_with_notes_then_save(server: Server) -> None:
    with server.client() as http:
        first = http.post("/generate", json=ORIGINAL_BODY).json()
        notes = {"thread_id": first["thread_id"], "decision": "rework", "notes": "쉬는 시간을 더 넣어 주세요"}
        reworked = http.post("/resume", json=notes).json()
        assert reworked["status"] in ("completed", "waiting_for_human")
        if reworked["status"] == "waiting_for_human":
            reworked = http.post("/resume", json={"thread_id": first["thread_id"], "decision": "save"}).json()
        assert reworked["status"] == "completed"


def test_resume_codes_of_the_original(server: Server) -> None:
    with server.client() as http:
        waiting = http.post("/generate", json=ORIGINAL_BODY).json()
        unknown = http.post("/resume", json={"thread_id": waiting["thread_id"], "decision": "maybe"})
        assert unknown.status_code == 400 and unknown.json()["field"] == "decision"
        missing = http.post("/resume", json={"thread_id": "lecture-nothing-here", "decision": "save"})
        assert missing.status_code == 404
        http.post("/resume", json={"thread_id": waiting["thread_id"], "decision": "save"})
        finished = http.post("/resume", json={"thread_id": waiting["thread_id"], "decision": "save"})
        assert finished.status_code == 404
        http.post("/threads", json={"thread_id": "robot-not-lecture"})
        http.post("/threads/robot-not-lecture/runs/wait", json={"assistant_id": "robot", "input": {}})
        other_agent = http.post("/resume", json={"thread_id": "robot-not-lecture", "decision": "save"})
        assert other_agent.status_code == 404
        assert http.get("/threads/robot-not-lecture").json()["status"] == "interrupted"


def test_docs_and_openapi_are_served(server: Server) -> None:
    with server.client() as http:
        assert http.get("/docs").status_code == 200
        paths = http.get("/openapi.json").json()["paths"]
    assert {"/generate", "/resume", "/threads/{thread_id}/runs/wait", "/threads/search"} <= set(paths)
