"""The API and the CLI racing on one waiting refund: exactly one payout, every loser refused with 409 (API)
or exit 2 (CLI), on the same save file."""

from __future__ import annotations

import json
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

import httpx
import pytest

from agents.refund.ledger import ledger_rows
from agents.runtime import open_store
from tests.api.conftest import PROJECT_ROOT, Server, server_env


@pytest.fixture(scope="module")
def server(shared_server: Server) -> Server:
    """The worker's shared server (tests/api/conftest.py): this module's threads and cases have ids of its own."""
    return shared_server


def _approve(approver: str) -> dict[str, object]:
    return {"action": "approve", "approver": approver}


@pytest.mark.parametrize("case", ["RACE1", "RACE2"])
def test_api_and_cli_racing_pay_once(server: Server, case: str) -> None:
    thread = f"refund-{case}"
    request = {"case_id": case, "customer": "홍길동", "amount": 500_000, "reason": "r"}
    with server.client() as http:
        http.post("/threads", json={"thread_id": thread}).raise_for_status()
        waiting = http.post(f"/threads/{thread}/runs/wait", json={"assistant_id": "refund", "input": request})
        assert waiting.json()["__interrupt__"]

    cli = [
        subprocess.Popen(
            [sys.executable, "-m", "agents", "resume", thread, json.dumps(_approve(f"cli{n}"))],
            cwd=PROJECT_ROOT,
            env=server_env(server.db),
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for n in range(2)
    ]

    def api(n: int) -> httpx.Response:
        with server.client() as http:
            body = {"assistant_id": "refund", "command": {"resume": _approve(f"api{n}")}}
            return http.post(f"/threads/{thread}/runs/wait", json=body)

    with ThreadPoolExecutor(4) as pool:
        answers = list(pool.map(api, range(4)))
    finished = [process.communicate(timeout=120) for process in cli]
    codes = [process.returncode for process in cli]

    api_won = [a for a in answers if a.status_code == 200]
    assert all(a.status_code in (200, 409) for a in answers), [a.text for a in answers]
    assert all("Traceback" not in a.text for a in answers)
    assert all(code in (0, 2) for code in codes), finished
    assert len(api_won) + codes.count(0) == 1  # exactly one decision won
    for answer in answers:
        if answer.status_code == 409:
            assert answer.json()["field"] == "thread_id"
    store = open_store(server.db)
    try:
        rows = [row for row in ledger_rows(store) if row["case_id"] == case]
    finally:
        store.close()
    assert len(rows) == 1 and rows[0]["paid_amount"] == 500_000
    if api_won:
        assert rows[0]["approver"] == api_won[0].json()["approver"]
    else:
        assert rows[0]["approver"] == f"cli{codes.index(0)}"
