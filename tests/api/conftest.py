"""A real server for the API tests: ``python -m agents serve`` on a free port and a fresh database.

The fixture waits on the server itself: it reads the server's log until uvicorn says it listens,
then asks ``GET /ok`` (a bounded number of attempts); it never sleeps.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest
from langgraph_sdk import get_sync_client

from tests.conftest import PROJECT_ROOT
from tests.fresh_process import ForkedCommand, start_command
from tests.serving import UVICORN_LISTENING, answers_ok, follow_output, free_port, http_client, stop_process

#: How many log lines the server may print before it says it listens, and /ok attempts after that.
STARTUP_LINES = 200


@dataclass
class Server:
    """A running server: its address, database, token and log."""

    url: str
    db: Path
    process: ForkedCommand
    token: str | None = None
    lines: list[str] = field(default_factory=list)
    printed: threading.Condition = field(default_factory=threading.Condition)

    @property
    def headers(self) -> dict[str, str]:
        """The headers every request needs."""
        return {"Authorization": f"Bearer {self.token}"} if self.token else {}

    def client(self) -> httpx.Client:
        """A plain HTTP client of this server."""
        return http_client(self.url, headers=self.headers, timeout=120)

    def log(self) -> str:
        """Everything the server printed so far."""
        return "\n".join(self.lines)

    def prints(self, text: str, timeout: float = 60) -> bool:
        """Whether the server prints ``text`` (already, or within ``timeout`` seconds): its output is read on a
        thread of its own, so a line printed before an answer may arrive here after the answer."""
        with self.printed:
            return self.printed.wait_for(lambda: text in self.log(), timeout)


def server_env(db: Path, **extra: str) -> dict[str, str]:
    """The environment of a server or CLI child: the test database, the embedded model without latency."""
    env = {k: v for k, v in os.environ.items() if not k.endswith("_API_KEY") and not k.startswith("HITL_")}
    env.update(HITL_DB=str(db), HITL_MODEL_LATENCY="0", PYTHONUNBUFFERED="1")
    env.update(extra)  # a test's own settings win (e.g. a model latency)
    return env


def start_server(folder: Path, *, token: str | None = None, host: str = "127.0.0.1", **settings: str) -> Server:
    """Starts ``python -m agents serve`` (in a fork of the fork server, :mod:`tests.fresh_process`) and returns
    once it answers ``/ok``."""
    folder.mkdir(parents=True, exist_ok=True)
    db = folder / "checkpoints.sqlite"
    port = free_port()
    extra = {"HITL_API_TOKEN": token} if token else {}
    process = start_command(
        ["serve", "--host", host, "--port", str(port)], PROJECT_ROOT, server_env(db, **extra, **settings)
    )
    server = Server(f"http://{host}:{port}", db, process, token)
    follow_output(process, server.lines, UVICORN_LISTENING, server.printed)
    if process.poll() is not None:
        raise RuntimeError(f"the server did not start:\n{server.log()}")
    if answers_ok(server.url, server.headers):
        return server
    stop_server(server)
    raise RuntimeError(f"the server never answered /ok:\n{server.log()}")


def stop_server(server: Server) -> None:
    """Stops the server (SIGTERM, then SIGKILL if it does not go)."""
    stop_process(server.process)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """One server per test module, on its own fresh database."""
    running = start_server(tmp_path_factory.mktemp("api"))
    yield running
    stop_server(running)


@pytest.fixture(scope="session")
def shared_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """One server per worker, for the modules that name it their ``server``: each of them makes threads and
    refund cases whose ids no other module uses and reads only those, never a count, search or file of the
    whole database, nor a setting of its own; a server start (a second or two) is saved per module."""
    running = start_server(tmp_path_factory.mktemp("api-shared"))
    yield running
    stop_server(running)


@pytest.fixture
def client(server: Server) -> Iterator[Any]:
    """The SDK's synchronous client of the test server (a module's ``server`` fixture chooses which)."""
    with get_sync_client(url=server.url, api_key=None, headers=server.headers) as sdk:
        yield sdk


def refused(call: Any, *args: Any, **kwargs: Any) -> httpx.Response:
    """The answer of a call the server refuses (the SDK raises httpx's error, not a typed one of its own)."""
    with pytest.raises(httpx.HTTPStatusError) as refusal:
        call(*args, **kwargs)
    return refusal.value.response
