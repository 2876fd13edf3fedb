"""``GET /info`` and the CORS allow-list (``HITL_API_CORS_ORIGINS``) on the real server.

Preflights and cross-origin requests are sent as a browser sends them, with plain httpx; ``/info``
through the official SDK's own HTTP client, as Agent Chat UI asks it before it connects.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import langgraph.version
import pytest
from langgraph_sdk import get_sync_client

from agents.errors import InputError
from agents.settings import resolve_settings
from agents.settings_api import CORS_ORIGINS_SETTING
from tests.api.conftest import PROJECT_ROOT, Server, server_env, start_server, stop_server
from tests.fresh_process import run_command
from tests.serving import free_port, http_client

INBOX = "http://localhost:3000"
ELSEWHERE = "https://attacker.example"
TOKEN = "cors-test-token"


@pytest.fixture(scope="module")
def open_to_inbox(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A tokenless server that lets pages of the inbox's origin call it."""
    running = start_server(tmp_path_factory.mktemp("cors"), HITL_API_CORS_ORIGINS=f"{INBOX}/, http://127.0.0.1:3000")
    yield running
    stop_server(running)


@pytest.fixture(scope="module")
def guarded_open_to_inbox(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """The same with HITL_API_TOKEN set."""
    running = start_server(tmp_path_factory.mktemp("cors-token"), token=TOKEN, HITL_API_CORS_ORIGINS=INBOX)
    yield running
    stop_server(running)


def preflight(server: Server, origin: str, method: str = "POST", **extra: str) -> httpx.Response:
    """A browser's preflight of a JSON request with a token, before the request itself."""
    headers = {
        "Origin": origin,
        "Access-Control-Request-Method": method,
        "Access-Control-Request-Headers": "authorization, content-type, x-api-key",
        **extra,
    }
    return httpx.options(f"{server.url}/threads", headers=headers, timeout=30)


def test_info_answers_as_langgraphs_server_does(server: Server) -> None:
    with get_sync_client(url=server.url, api_key=None) as sdk:
        answer: Any = sdk.http.get("/info")
    assert answer["version"] and answer["langgraph_py_version"] == langgraph.version.__version__
    assert answer["flags"]["assistants"] is True and answer["flags"]["crons"] is False
    assert answer["flags"]["langsmith"] is False
    assert answer["host"]["kind"] == "self-hosted" and answer["host"]["project_id"] is None


def test_by_default_no_page_of_another_origin_may_call(server: Server) -> None:
    answered = preflight(server, INBOX)
    assert answered.status_code != 200 and "access-control-allow-origin" not in answered.headers
    direct = httpx.get(f"{server.url}/info", headers={"Origin": INBOX}, timeout=30)
    assert direct.status_code == 200 and "access-control-allow-origin" not in direct.headers


def test_a_listed_origin_passes_the_preflight_with_the_token_header(open_to_inbox: Server) -> None:
    answered = preflight(open_to_inbox, INBOX, **{"Access-Control-Request-Private-Network": "true"})
    assert answered.status_code == 200
    assert answered.headers["access-control-allow-origin"] == INBOX
    assert "authorization" in answered.headers["access-control-allow-headers"].lower()
    assert "POST" in answered.headers["access-control-allow-methods"]
    assert answered.headers["access-control-allow-private-network"] == "true"  # a web page calling this machine
    assert "Origin" in answered.headers["vary"]
    second = preflight(open_to_inbox, "http://127.0.0.1:3000", method="DELETE")
    assert second.status_code == 200 and second.headers["access-control-allow-origin"] == "http://127.0.0.1:3000"


def test_a_listed_origin_reads_the_answer_and_its_exposed_headers(open_to_inbox: Server) -> None:
    answered = httpx.get(f"{open_to_inbox.url}/info", headers={"Origin": INBOX}, timeout=30)
    assert answered.status_code == 200
    assert answered.headers["access-control-allow-origin"] == INBOX
    exposed = answered.headers["access-control-expose-headers"].lower()
    assert "content-location" in exposed and "x-request-id" in exposed


def test_another_origin_is_refused_at_the_preflight_and_gets_no_cors_headers(open_to_inbox: Server) -> None:
    answered = preflight(open_to_inbox, ELSEWHERE)
    assert answered.status_code == 400 and "access-control-allow-origin" not in answered.headers
    with http_client(open_to_inbox.url, timeout=30) as http:
        created = http.post("/threads", json={"thread_id": "cors-elsewhere"}, headers={"Origin": ELSEWHERE})
        # A browser sends no JSON request without the preflight; one that is sent is not readable there.
        assert "access-control-allow-origin" not in created.headers


def test_with_a_token_the_preflight_needs_none_and_the_refusal_is_readable(guarded_open_to_inbox: Server) -> None:
    answered = preflight(guarded_open_to_inbox, INBOX)  # a preflight never carries the token
    assert answered.status_code == 200 and answered.headers["access-control-allow-origin"] == INBOX
    refused = httpx.get(f"{guarded_open_to_inbox.url}/info", headers={"Origin": INBOX}, timeout=30)
    assert refused.status_code == 401 and refused.headers["access-control-allow-origin"] == INBOX
    with get_sync_client(url=guarded_open_to_inbox.url, api_key=TOKEN, headers={"Origin": INBOX}) as sdk:
        assert sdk.http.get("/info")["flags"]["assistants"] is True  # the SDK sends it as x-api-key


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("", ()),
        ("HTTP://LocalHost:3000/", ("http://localhost:3000",)),
        ("https://inbox.example:443, http://[::1]:5173", ("https://inbox.example", "http://[::1]:5173")),
        ("*", ("*",)),
    ],
)
def test_the_setting_is_read_as_browsers_send_their_origin(value: str, expected: tuple[str, ...]) -> None:
    settings = resolve_settings({}, environ={CORS_ORIGINS_SETTING: value}, secrets={})
    assert settings.api_cors_origins == expected


@pytest.mark.parametrize(
    "value",
    ["localhost:3000", "http://localhost:3000/inbox", "ftp://host", "http://user@host", "http://host?x", "*, http://a"],
)
def test_a_setting_that_is_not_an_origin_is_refused_by_name(value: str) -> None:
    with pytest.raises(InputError) as refusal:
        resolve_settings({}, environ={CORS_ORIGINS_SETTING: value}, secrets={})
    assert refusal.value.field == CORS_ORIGINS_SETTING


def test_every_origin_is_refused_while_a_token_is_required() -> None:
    with pytest.raises(InputError) as refusal:
        resolve_settings({}, environ={CORS_ORIGINS_SETTING: "*", "HITL_API_TOKEN": TOKEN}, secrets={})
    assert refusal.value.field == CORS_ORIGINS_SETTING and "token" in str(refusal.value)


def test_serve_refuses_to_start_with_every_origin_and_a_token(tmp_path: Path) -> None:
    done = run_command(
        ["serve", "--port", str(free_port())],
        PROJECT_ROOT,
        server_env(tmp_path / "db.sqlite", HITL_API_TOKEN=TOKEN, HITL_API_CORS_ORIGINS="*"),
    )
    assert done.returncode == 2
    assert CORS_ORIGINS_SETTING in done.stderr and TOKEN not in done.stderr + done.stdout
    assert not (tmp_path / "db.sqlite").exists()  # nothing was opened
