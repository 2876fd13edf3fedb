"""The ``Host`` header is read strictly: no text around a loopback name passes for it.

Against the real ``serve`` command, with the exact bytes a hostile client sends (a raw socket, so no
HTTP client tidies the header first). A server without a token answers only requests addressed to
this machine; an authority with userinfo (``localhost:2031@evil``), spaces, a path, a bad port or any
other junk is not an address at all, and is refused 400 naming ``host`` on every server, with a token
or without, before anything acts.
"""

from __future__ import annotations

import json
import socket
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from agents import readmodel
from agents.runtime import open_store
from tests.api.conftest import Server, start_server, stop_server

ROBOT = "host-robot"

#: Host values that are no authority (RFC 9110 / RFC 3986), each refused 400.
HOSTILE_HOSTS = [
    "localhost:2031@evil",
    "localhost@evil",
    "user@localhost",
    "user:pass@127.0.0.1:2024",
    "localhost:2031@evil.example:2024",
    "127.0.0.1:2024@attacker.example",
    "localhost:2024 evil",
    "localhost evil",
    "local host",
    "localhost:2024/evil",
    "localhost/evil",
    "localhost?x=1",
    "localhost#frag",
    "localhost\\@evil",
    "localhost:",
    "localhost::2024",
    "localhost:-1",
    "localhost:99999",
    "localhost:2024:2024",
    "localhost:0x7e8",
    "127.0.0.1.:2024:x",
    "127.000.000.001",
    "127.1",
    "[::1",
    "::1",
    "[::1]x",
    "[::1]:",
    "[::1]@evil",
    "[fe80::1%25lo]",
    "[v1.fe80::a+en1]",
    "%6cocalhost",
    "localhost%00",
    "-localhost",
    "http://localhost",
    "lo\u0441alhost",  # a Cyrillic с, sent as Latin-1 bytes it cannot be; as UTF-8 it is not ASCII
    "",
]
#: Forms of this machine's own name that are answered.
LOOPBACK_HOSTS = ["localhost", "LOCALHOST", "127.0.0.1", "127.0.0.2", "[::1]", "localhost:2024", "[::1]:80"]


def raw_request(server: Server, method: str, path: str, host_lines: list[bytes], body: dict | None = None) -> tuple:
    """Sends one request with exactly these Host lines; returns the status and the JSON body (or None)."""
    address = urlsplit(server.url)
    payload = json.dumps(body).encode() if body is not None else b""
    head = [f"{method} {path} HTTP/1.1".encode(), *host_lines, b"Connection: close"]
    if server.token:
        head.append(f"Authorization: Bearer {server.token}".encode())
    if body is not None:
        head += [b"Content-Type: application/json", f"Content-Length: {len(payload)}".encode()]
    with socket.create_connection((address.hostname, address.port), timeout=60) as conn:
        conn.sendall(b"\r\n".join(head) + b"\r\n\r\n" + payload)
        answer = b""
        while chunk := conn.recv(65536):
            answer += chunk
    status_line, _, rest = answer.partition(b"\r\n")
    _headers, _, content = rest.partition(b"\r\n\r\n")
    try:
        parsed = json.loads(content) if content else None
    except ValueError:
        parsed = None
    return int(status_line.split()[1]), parsed


def _host_line(host: str) -> list[bytes]:
    return [b"Host: " + host.encode("utf-8")]


@pytest.fixture(scope="module")
def tokenless(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    running = start_server(tmp_path_factory.mktemp("host-tokenless"))
    status, _ = raw_request(running, "POST", "/threads", [b"Host: localhost"], {"thread_id": ROBOT})
    assert status == 200
    body = {"assistant_id": "robot", "input": {}}
    assert raw_request(running, "POST", f"/threads/{ROBOT}/runs/wait", [b"Host: localhost"], body)[0] == 200
    yield running
    stop_server(running)


def _head(db: Path) -> str | None:
    store = open_store(str(db))
    try:
        return readmodel.head_checkpoint_id(store, ROBOT)
    finally:
        store.close()


@pytest.mark.parametrize("host", HOSTILE_HOSTS)
def test_a_host_that_is_no_authority_is_refused_400_and_acts_on_nothing(tokenless: Server, host: str) -> None:
    before = _head(tokenless.db)
    resume = {"assistant_id": "robot", "command": {"resume": "yes"}}
    status, body = raw_request(tokenless, "POST", f"/threads/{ROBOT}/runs/wait", _host_line(host), resume)
    assert status == 400, (host, status, body)
    if body is not None:  # the server's own refusal (the HTTP parser may refuse some bytes first)
        assert body["field"] == "host" and "Host" in body["detail"]
    created, _ = raw_request(tokenless, "POST", "/threads", _host_line(host), {"thread_id": "made-by-host"})
    assert created == 400
    assert _head(tokenless.db) == before, "nothing acted"


def test_two_host_headers_are_refused(tokenless: Server) -> None:
    status, _ = raw_request(tokenless, "GET", f"/threads/{ROBOT}", [b"Host: evil.example", b"Host: localhost"])
    assert status == 400
    status, _ = raw_request(tokenless, "GET", f"/threads/{ROBOT}", [b"Host: localhost", b"Host: evil.example"])
    assert status == 400


@pytest.mark.parametrize("host", LOOPBACK_HOSTS)
def test_this_machines_own_names_are_answered(tokenless: Server, host: str) -> None:
    assert raw_request(tokenless, "GET", f"/threads/{ROBOT}", _host_line(host))[0] == 200


@pytest.mark.parametrize("host", ["evil.example", "evil.example:2024", "localhost.evil.example", "127.0.0.1.nip.io"])
def test_another_name_is_refused_403_without_a_token(tokenless: Server, host: str) -> None:
    status, body = raw_request(tokenless, "GET", f"/threads/{ROBOT}", _host_line(host))
    assert status == 403 and body is not None and body["field"] == "host"


def test_with_a_token_a_host_that_is_no_authority_is_still_refused(tmp_path: Path) -> None:
    running = start_server(tmp_path / "host-token", token="host-test-token-5c1e")
    try:
        assert raw_request(running, "GET", "/ok", [b"Host: api.example:2024"])[0] == 200  # any name, with the token
        status, body = raw_request(running, "GET", "/ok", [b"Host: localhost:2031@evil"])
        assert status == 400 and body is not None and body["field"] == "host"
    finally:
        stop_server(running)
