"""The HTTP API's refusals of a refund decision, as a client of the real server reads them: ``POST /decisions``
says an approver's limit and four eyes in the server's language (``HITL_LANG``), for a roles-file token as for
the operator's; and the operator's typed approver name that names a person of the roles file is held to that
person's limit (``/decisions``, ``runs.wait``), as the command line and the pages hold it.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from agents.identity import token_hash
from tests.api.conftest import Server, start_server, stop_server

OPERATOR_TOKEN = "tok-operator-5e21c4"
TOKENS = {"kim": "tok-kim-8a7d02", "lee": "tok-lee-41f6b9"}
ROLES = f"""
[users]
"kim@example.com" = {{ role = "approver", limit_krw = 1_000_000, name = "Kim Minji" }}
"lee@example.com" = {{ role = "approver", limit_krw = 5_000_000 }}

[tokens]
"kim" = {{ sha256 = "{token_hash(TOKENS["kim"])}", email = "kim@example.com" }}
"lee" = {{ sha256 = "{token_hash(TOKENS["lee"])}", email = "lee@example.com" }}
"""
LIMIT_KO = "허용되지 않음: 승인 한도는 1,000,000원인데 이 건은 1,260,000원을 지급하므로 선임 승인자가 필요합니다"
FOUR_EYES_KO = "허용되지 않음: 이 환불은 본인이 요청했습니다. 다른 사람이 승인해야 합니다(4-eyes 원칙)"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A Korean server (``HITL_LANG=ko``) with a roles file and the operator's own token."""
    folder = tmp_path_factory.mktemp("api-refusal-language")
    roles = folder / "roles.toml"
    roles.write_text(ROLES, encoding="utf-8")
    running = start_server(folder / "server", token=OPERATOR_TOKEN, HITL_ROLES_FILE=str(roles), HITL_LANG="ko")
    yield running
    stop_server(running)


def headers(who: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {OPERATOR_TOKEN if who == 'operator' else TOKENS[who]}"}


def request_refund(client: httpx.Client, case: str, amount: int, who: str = "operator") -> None:
    values = {"case_id": case, "customer": "홍길동", "amount": amount, "reason": "r"}
    body = {"assistant_id": "refund", "input": values, "if_not_exists": "create"}
    started = client.post(f"/threads/refund-{case}/runs/wait", json=body, headers=headers(who))
    assert started.status_code == 200, started.text


def decide(client: httpx.Client, case: str, who: str, approver: str) -> dict[str, Any]:
    body = {"items": [f"refund-{case}"], "action": "approve", "approver": approver}
    answered = client.post("/decisions", json=body, headers=headers(who))
    assert answered.status_code == 200, answered.text
    (result,) = answered.json()["results"]
    return dict(result)


def test_a_tokens_refusals_are_said_in_the_servers_language(server: Server) -> None:
    with server.client() as client:
        request_refund(client, "L1", 1_260_000)
        over = decide(client, "L1", "kim", "typed")
        assert over["result"] == "refused" and over["reason"].startswith(LIMIT_KO), over
        request_refund(client, "L2", 300_000, who="kim")
        own = decide(client, "L2", "kim", "typed")
        assert own["result"] == "refused" and own["reason"] == FOUR_EYES_KO, own
        paid = decide(client, "L1", "lee", "typed")
        assert paid["result"] == "paid", paid


def test_the_operators_typed_name_of_the_roles_file_is_held_to_its_persons_limit(server: Server) -> None:
    with server.client() as client:
        request_refund(client, "C16", 1_260_000)
        for typed in ("kim@example.com", "KIM@Example.com", "Kim Minji", "kim"):
            held = decide(client, "C16", "operator", typed)
            assert held["result"] == "refused" and held["reason"].startswith(LIMIT_KO), (typed, held)
        answer = {"assistant_id": "refund", "command": {"resume": {"action": "approve", "approver": "kim@example.com"}}}
        refused = client.post("/threads/refund-C16/runs/wait", json=answer, headers=headers("operator"))
        assert refused.status_code == 403 and "your limit is 1,000,000 KRW" in refused.json()["reason"], refused.text
        values = client.get("/threads/refund-C16/state", headers=headers("operator")).json()["values"]
        assert values.get("approver") is None and values.get("decision") is None
        # a name the file does not know is the operator's own: every right
        assert decide(client, "C16", "operator", "Operator Oh")["result"] == "paid"
