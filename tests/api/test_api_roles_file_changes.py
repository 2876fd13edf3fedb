"""A running ``serve`` follows an edit of its roles file from the next request, without a restart: a token
taken off the file is refused, a person made a viewer may no longer decide, and an edit gone wrong is a 503
naming the line (never the rights it meant to take away) until it is put right. The real ``serve`` command."""

from __future__ import annotations

from pathlib import Path

from tests.api.conftest import start_server, stop_server
from tests.api.test_api_roles import OPERATOR_TOKEN, ROLES_TEXT, TOKENS, as_
from tests.factories import edit
from tests.serving import http_client


def _ask_refund(client, case: str) -> int:
    values = {"case_id": case, "customer": "c", "amount": 300_000, "reason": "r"}
    body = {"assistant_id": "refund", "input": values, "if_not_exists": "create"}
    return client.post(f"/threads/refund-{case}/runs/wait", json=body).status_code


def test_a_running_server_acts_on_the_roles_file_as_it_is_at_each_request(tmp_path: Path) -> None:
    roles = tmp_path / "roles.toml"
    roles.write_text(ROLES_TEXT, encoding="utf-8")
    server = start_server(tmp_path / "srv", token=OPERATOR_TOKEN, HITL_ROLES_FILE=str(roles))
    try:
        with http_client(server.url, headers=as_("lee"), timeout=120) as lee:
            assert _ask_refund(lee, "R1") == 200
            lee_token_line = next(line for line in ROLES_TEXT.splitlines() if line.startswith('"lee" ='))
            edit(roles, ROLES_TEXT.replace(lee_token_line, ""))  # Lee's token revoked
            refused = lee.get("/ok")
            assert refused.status_code == 401, refused.text
        with http_client(server.url, headers=as_("kim"), timeout=120) as kim:
            edit(roles, ROLES_TEXT.replace('role = "approver", limit_krw = 1_000_000, name = "Kim"', 'role = "viewer"'))
            assert _ask_refund(kim, "R2") == 403  # a viewer starts nothing
            edit(roles, ROLES_TEXT + '"ghost" = { sha256 = "not-a-hash", email = "g@example.com" }\n')
            broken = kim.get("/ok")
            assert broken.status_code == 503 and "line 14" in broken.json()["detail"], broken.text
            assert str(roles) in broken.json()["detail"]
            edit(roles, ROLES_TEXT)
            assert kim.get("/ok").status_code == 200
            assert _ask_refund(kim, "R3") == 200
    finally:
        stop_server(server)
    assert "Traceback" not in server.log()
    assert not any(token in server.log() for token in [*TOKENS.values(), OPERATOR_TOKEN])
