"""The real server's access log (uvicorn's, as ``python -m agents serve`` writes it) holds no secret
sent in a URL: a token, key or password in the query string is written ``***``, refused or not."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from agents.api.access_log import redact_target
from tests.api.conftest import PROJECT_ROOT, STARTUP_LINES, server_env
from tests.fresh_process import start_command
from tests.serving import UVICORN_LISTENING, answers_ok, free_port, http_client, stop_process

TOKEN = "tok-Zq8Xv3LmN5pR2sT7uW9yB4cD6eF1gH0j"
#: Secrets a client might put in a URL; none may reach the log.
SECRETS = {
    "token": TOKEN,
    "api_key": "ak-7Hs9Kd2Lq5Mw8Nx3Pz6Rb1Tc4Vf0Yg",
    "access_token": "at-Q1w2E3r4T5y6U7i8O9p0",
    "password": "pw-correct-horse-battery-staple",
    "client_secret": "cs-9f8e7d6c5b4a3210",
    "sig": "sg-0a1b2c3d4e5f6a7b8c9d",
}
#: (query string, whether the request carries the bearer header too)
QUERIES = [
    *((f"{name}={value}", False) for name, value in SECRETS.items()),  # refused: no header
    *((f"{name}={value}", True) for name, value in SECRETS.items()),  # answered: the header is there
    (f"limit=5&TOKEN={TOKEN}", True),  # case of the name
    (f"%74oken={TOKEN}", False),  # a percent-encoded name
    (f"Token+={TOKEN}", False),  # a name with a trailing space (+)
    (f"limit=5;token={TOKEN}", True),  # a value smuggled behind a shown parameter
    (f"{TOKEN}", False),  # a bare value
    (f"unknown_{TOKEN}=1", False),  # a secret as the name
    (f"redirect=https%3A%2F%2Fx.example%2F%3Ftoken%3D{TOKEN}", True),  # nested in another value
]


@pytest.fixture(scope="module")
def access_lines(tmp_path_factory: pytest.TempPathFactory) -> Iterator[list[str]]:
    """Every line the server wrote while answering :data:`QUERIES`, up to the final marker request."""
    db = Path(tmp_path_factory.mktemp("access")) / "checkpoints.sqlite"
    port = free_port()
    process = start_command(["serve", "--port", str(port)], PROJECT_ROOT, server_env(db, HITL_API_TOKEN=TOKEN))
    assert process.stdout is not None
    try:
        lines: list[str] = []
        for _ in range(STARTUP_LINES):  # the server's own output, not a clock
            lines.append(process.stdout.readline())
            if UVICORN_LISTENING in lines[-1] or not lines[-1]:
                break
        assert UVICORN_LISTENING in lines[-1], "".join(lines)
        url = f"http://127.0.0.1:{port}"
        header = {"Authorization": f"Bearer {TOKEN}"}
        assert answers_ok(url, header)
        statuses = []
        with http_client(url, timeout=30) as http:
            for query, with_header in QUERIES:
                answer = http.get(f"/threads/none?{query}", headers=header if with_header else {})
                statuses.append(answer.status_code)
            http.get("/ok?limit=424242", headers=header)  # the marker: its line ends the capture
        assert set(statuses) == {401, 404}, statuses  # refused without the header, no such thread with it
        logged: list[str] = []
        for line in process.stdout:  # uvicorn writes the line before the answer goes out
            logged.append(line.rstrip("\n"))
            if "/ok?limit=424242" in line:
                break
        yield logged
    finally:
        stop_process(process)


def test_every_request_is_in_the_access_log(access_lines: list[str]) -> None:
    requests = [line for line in access_lines if '"GET /threads/none?' in line]
    assert len(requests) == len(QUERIES), "\n".join(access_lines)
    assert sum(" 401" in line for line in requests) == sum(not header for _q, header in QUERIES)


@pytest.mark.parametrize("name", sorted(SECRETS))
def test_no_secret_sent_in_a_url_reaches_the_log(access_lines: list[str], name: str) -> None:
    log = "\n".join(access_lines)
    assert SECRETS[name] not in log
    assert f"{name}=***" in log  # the operator still sees that one was sent, and under which name


def test_the_token_is_not_in_the_log_in_any_form(access_lines: list[str]) -> None:
    log = "\n".join(access_lines)
    assert TOKEN not in log and TOKEN[4:20] not in log
    assert "%74oken=***" in log and "TOKEN=***" in log


def test_paging_parameters_stay_readable(access_lines: list[str]) -> None:
    log = "\n".join(access_lines)
    assert '"GET /ok?limit=424242 HTTP/1.1" 200' in log
    assert "?limit=5&TOKEN=***" in log and "?limit=***" in log  # a plain number shown; a smuggled value not


@pytest.mark.parametrize(
    ("target", "logged"),
    [
        ("/ok", "/ok"),
        ("/ok?", "/ok?"),
        ("/threads/t/runs?limit=10&offset=0&status=pending", "/threads/t/runs?limit=10&offset=0&status=pending"),
        ("/ok?x-api-key=abc&key=def", "/ok?x-api-key=***&key=***"),
        ("/ok?limit=1%3Btoken%3Dabc", "/ok?limit=***"),
        ("/ok?a=1&&b=2", "/ok?***&***"),
    ],
)
def test_redact_target(target: str, logged: str) -> None:
    assert redact_target(target) == logged
