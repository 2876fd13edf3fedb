"""The API acts as the identity its bearer token maps to in the roles file, with the same checks as
``runs``: a refusal is 403 with the reason and changes nothing. Tokens are kept as hashes only.

Most tests drive the app in-process (FastAPI's TestClient on the test's database); one starts the
real ``serve`` command with ``HITL_ROLES_FILE`` to prove the setting reaches the server.
"""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient

from agents import readmodel
from agents.api.app import create_app
from agents.db import Store
from agents.identity import token_hash
from agents.nodelog import node_runs
from agents.refund import ledger
from agents.roles_file import parse_roles
from agents.settings import Settings
from agents.settings_values import Secret
from tests.api.conftest import start_server, stop_server
from tests.serving import http_client

TOKENS = {
    "viewer": "tok-viewer-4f1d9a",
    "kim": "tok-kim-approver-77c2e0",
    "lee": "tok-lee-approver-1b9e44",
    "park": "tok-park-senior-0aa3d1",
    "admin": "tok-admin-e5c6b2",
}
OPERATOR_TOKEN = "tok-operator-9d8c7b"
ROLES_TEXT = f"""
[users]
"kim@example.com" = {{ role = "approver", limit_krw = 1_000_000, name = "Kim" }}
"lee@example.com" = {{ role = "approver", limit_krw = 1_000_000 }}
"park@example.com" = {{ role = "senior_approver" }}
"admin@example.com" = {{ role = "admin" }}

[tokens]
"viewer" = {{ sha256 = "{token_hash(TOKENS["viewer"])}", email = "viewer@example.com" }}
"kim" = {{ sha256 = "{token_hash(TOKENS["kim"])}", email = "kim@example.com", name = "Kim" }}
"lee" = {{ sha256 = "{token_hash(TOKENS["lee"])}", email = "lee@example.com" }}
"park" = {{ sha256 = "{token_hash(TOKENS["park"])}", email = "park@example.com" }}
"admin" = {{ sha256 = "{token_hash(TOKENS["admin"])}", email = "admin@example.com" }}
"""


@pytest.fixture
def api(store: Store, settings: Settings) -> Iterator[TestClient]:
    with_roles = dataclasses.replace(settings, roles=parse_roles(ROLES_TEXT, "roles.toml"))
    with TestClient(create_app(store, with_roles), raise_server_exceptions=False) as client:
        yield client


def as_(who: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {TOKENS[who]}"}


def request_refund(api: TestClient, case: str, amount: int, who: str = "lee") -> httpx.Response:
    values = {"case_id": case, "customer": "홍길동", "amount": amount, "reason": "r"}
    body = {"assistant_id": "refund", "input": values, "if_not_exists": "create"}
    return api.post(f"/threads/refund-{case}/runs/wait", json=body, headers=as_(who))


def decide(api: TestClient, case: str, who: str, action: str = "approve", **extra: Any) -> httpx.Response:
    answer = {"action": action, "approver": "typed", **extra}
    body = {"assistant_id": "refund", "command": {"resume": answer}}
    return api.post(f"/threads/refund-{case}/runs/wait", json=body, headers=as_(who))


def test_without_a_known_token_nothing_is_answered(api: TestClient) -> None:
    assert api.get("/ok").status_code == 401
    assert api.get("/ok", headers={"Authorization": "Bearer not-a-token"}).status_code == 401
    assert api.get("/ok", headers={"x-api-key": TOKENS["viewer"]}).status_code == 200


def test_a_viewer_reads_but_every_change_is_403_with_the_reason(api: TestClient, store: Store) -> None:
    assert request_refund(api, "V1", 500_000).status_code == 200
    head = readmodel.head_checkpoint_id(store, "refund-V1")
    run_id = api.get("/threads/refund-V1/runs", headers=as_("lee")).json()[0]["run_id"]
    viewer = as_("viewer")
    assert api.get("/threads/refund-V1/state", headers=viewer).status_code == 200
    refusals = [
        request_refund(api, "V2", 500_000, who="viewer"),
        decide(api, "V1", "viewer"),
        decide(api, "V1", "viewer", action="reject"),
        api.post("/threads/refund-V1/state", json={"values": {"amount": 1}}, headers=viewer),
        api.post("/threads/refund-V1/runs/wait", json={"assistant_id": "refund"}, headers=viewer),
        api.delete("/threads/refund-V1", headers=viewer),
        api.post("/threads", json={"thread_id": "new-one"}, headers=viewer),
        api.post("/generate", json={"topic": "t"}, headers=viewer),
        api.post(f"/threads/refund-V1/runs/{run_id}/cancel", headers=viewer),
        api.get(f"/threads/refund-V1/runs/{run_id}/stream?cancel_on_disconnect=true", headers=viewer),
    ]
    for answer in refusals:
        assert answer.status_code == 403, answer.text
        assert "viewer@example.com is a viewer" in answer.json()["reason"]
    assert readmodel.head_checkpoint_id(store, "refund-V1") == head
    assert readmodel.head_checkpoint_id(store, "refund-V2") is None


def test_an_approver_pays_within_the_limit_and_a_senior_approver_above_it(api: TestClient, store: Store) -> None:
    request_refund(api, "A1", 500_000)
    paid = decide(api, "A1", "kim")
    assert paid.status_code == 200, paid.text
    assert ledger.payout_for(store, "A1")["approver"] == "kim@example.com"
    request_refund(api, "A2", 2_000_000)
    refused = decide(api, "A2", "kim")
    assert refused.status_code == 403
    assert "your limit is 1,000,000 KRW" in refused.json()["reason"]
    assert refused.json()["action"] == "approve_refund"
    assert ledger.payout_for(store, "A2") is None
    assert decide(api, "A2", "park").status_code == 200
    assert ledger.payout_for(store, "A2")["approver"] == "park@example.com"
    audit = {row.case_id: row for row in ledger.audit_rows(store)}
    assert (audit["A2"].requested_by, audit["A2"].approver_role) == ("lee@example.com", "senior_approver")


def test_the_requester_cannot_approve_their_own_case(api: TestClient, store: Store) -> None:
    request_refund(api, "F1", 500_000, who="kim")
    refused = decide(api, "F1", "kim")
    assert refused.status_code == 403 and "four eyes" in refused.json()["reason"]
    assert decide(api, "F1", "lee").status_code == 200
    assert ledger.payout_for(store, "F1")["approver"] == "lee@example.com"


def test_an_admin_deletes_a_thread_and_an_approver_cannot(api: TestClient, store: Store) -> None:
    request_refund(api, "D1", 500_000)
    refused = api.delete("/threads/refund-D1", headers=as_("park"))
    assert refused.status_code == 403 and "deleting a thread needs an admin" in refused.json()["reason"]
    assert readmodel.head_checkpoint_id(store, "refund-D1") is not None
    assert api.delete("/threads/refund-D1", params={"reason": "withdrawn"}, headers=as_("admin")).status_code == 204
    assert readmodel.head_checkpoint_id(store, "refund-D1") is None


def test_the_operator_token_keeps_every_right_beside_the_roles_file(store: Store, settings: Settings) -> None:
    both = dataclasses.replace(settings, roles=parse_roles(ROLES_TEXT), api_token=Secret(OPERATOR_TOKEN))
    with TestClient(create_app(store, both)) as api:
        operator = {"Authorization": f"Bearer {OPERATOR_TOKEN}"}
        values = {"case_id": "O1", "customer": "c", "amount": 2_000_000, "reason": "r"}
        body = {"assistant_id": "refund", "input": values, "if_not_exists": "create"}
        assert api.post("/threads/refund-O1/runs/wait", json=body, headers=operator).status_code == 200
        # A name of the roles file (kim's token label and display name) is held to kim's limit ...
        answer = {"assistant_id": "refund", "command": {"resume": {"action": "approve", "approver": "kim"}}}
        refused = api.post("/threads/refund-O1/runs/wait", json=answer, headers=operator)
        assert refused.status_code == 403 and "your limit is 1,000,000 KRW" in refused.json()["reason"]
        # ... and a name the file does not know is the local operator's, who decides everything.
        answer = {"assistant_id": "refund", "command": {"resume": {"action": "approve", "approver": "Oh"}}}
        assert api.post("/threads/refund-O1/runs/wait", json=answer, headers=operator).status_code == 200
        assert ledger.payout_for(store, "O1")["approver"] == "Oh"  # as typed: the local operator
        assert api.get("/ok", headers=as_("viewer")).status_code == 200


def test_tokens_are_never_stored_or_logged(
    api: TestClient, store: Store, db_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    request_refund(api, "T1", 500_000)
    decide(api, "T1", "kim")
    decide(api, "T1", "viewer")
    api.get("/ok", headers={"Authorization": "Bearer wrong-token-123"})
    logged = caplog.text + str(node_runs(store)) + str(ledger.audit_rows(store))
    saved = b"".join(path.read_bytes() for path in db_path.parent.glob("checkpoints.sqlite*"))
    for token in [*TOKENS.values(), "wrong-token-123"]:
        assert token.encode() not in saved
        assert token not in logged
    assert b"kim@example.com" in saved  # the identity is recorded, the token never


def test_the_serve_command_reads_the_roles_file_setting(tmp_path: Path) -> None:
    roles = tmp_path / "roles.toml"
    roles.write_text(ROLES_TEXT, encoding="utf-8")
    server = start_server(tmp_path / "srv", token=OPERATOR_TOKEN, HITL_ROLES_FILE=str(roles))
    try:
        assert httpx.get(f"{server.url}/ok", timeout=30).status_code == 401
        with http_client(server.url, headers=as_("park"), timeout=120) as client:
            assert client.delete("/threads/nothing-here").status_code == 403
        with http_client(server.url, headers=as_("admin"), timeout=120) as client:
            assert client.delete("/threads/nothing-here").status_code == 404
    finally:
        stop_server(server)
    assert "a roles-file token" in server.log()
    assert not any(token in server.log() for token in [*TOKENS.values(), OPERATOR_TOKEN])


def test_a_bad_roles_file_stops_the_server_naming_the_line(tmp_path: Path) -> None:
    roles = tmp_path / "roles.toml"
    roles.write_text('[users]\n"kim@example.com" = { role = "boss" }\n', encoding="utf-8")
    with pytest.raises(RuntimeError, match="line 2"):
        start_server(tmp_path / "srv", HITL_ROLES_FILE=str(roles))
