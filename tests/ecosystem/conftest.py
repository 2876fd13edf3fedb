"""LangGraph's own development server (``langgraph dev``) on this project's ``langgraph.json``.

The server comes from ``.venv-langgraph-dev`` (made by ``bash scripts/langgraph-dev-env.sh``; its
packages are pinned in ``requirements-langgraph-dev.txt``); without it, the tests that need it are
skipped and say how to make it. It runs on a free loopback port, in a folder of its own (the
in-memory server keeps its files under ``.langgraph_api`` in its working folder), with the project's
``langgraph.json`` whose paths are made absolute, and with nothing that would reach the network:
no browser, no reload, no analytics, no version check, no tracing, no model or search keys. The
graphs' own database (``HITL_DB``: node log, refund ledger) is a fresh file in that folder.

The fixture waits on the server itself, as ``tests/api/conftest.py`` does: it reads the server's
log until uvicorn says it listens, then asks ``GET /ok``; it never sleeps. ``langgraph dev`` logs
uvicorn at ``WARNING`` unless told otherwise, and its own "Application started up" comes before the
socket is bound: a request sent then is refused.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from langgraph_sdk import get_sync_client

from tests.api.conftest import Server, start_server, stop_server
from tests.conftest import PROJECT_ROOT
from tests.serving import UVICORN_LISTENING, answers_ok, follow_output, free_port, stop_process

LANGGRAPH = PROJECT_ROOT / ".venv-langgraph-dev" / "bin" / "langgraph"
MISSING_SERVER = (
    "LangGraph's development server is not installed here: run `bash scripts/langgraph-dev-env.sh` "
    "(it makes .venv-langgraph-dev from requirements-langgraph-dev.txt)"
)
#: What ``langgraph dev`` may otherwise reach out for: usage analytics, PyPI's newest version, LangSmith.
OFFLINE_ENV = {
    "LANGGRAPH_CLI_NO_ANALYTICS": "1",
    "LANGGRAPH_NO_VERSION_CHECK": "true",
    "LANGSMITH_TRACING": "false",
    "LANGCHAIN_TRACING_V2": "false",
    "LANGSMITH_TRACING_V2": "false",
}
#: Uvicorn's listening line and the address in it (logged at ``INFO``, hence ``--server-log-level INFO``).
LISTENING = re.compile(UVICORN_LISTENING + r" (http://[0-9.]+:[0-9]+)")


@dataclass
class DevServer:
    """A running ``langgraph dev``: its address, the graphs' database and its log."""

    url: str
    db: Path
    process: subprocess.Popen[str]
    lines: list[str] = field(default_factory=list)

    def log(self) -> str:
        """Everything the server printed so far."""
        return "\n".join(self.lines)


def served_config(folder: Path) -> Path:
    """The project's ``langgraph.json`` with its paths made absolute, written into ``folder``."""
    config = json.loads((PROJECT_ROOT / "langgraph.json").read_text())
    config["dependencies"] = [str((PROJECT_ROOT / path).resolve()) for path in config["dependencies"]]
    config["graphs"] = {name: str((PROJECT_ROOT / target).resolve()) for name, target in config["graphs"].items()}
    path = folder / "langgraph.json"
    path.write_text(json.dumps(config))
    return path


def dev_env(db: Path, model_latency: str = "0") -> dict[str, str]:
    """The server's environment: offline, the graphs' database, the embedded model (without latency by default)."""
    env = {
        key: value
        for key, value in os.environ.items()
        if not key.endswith("_API_KEY") and not key.startswith(("HITL_", "LANGSMITH_", "LANGCHAIN_"))
    }
    env.update(OFFLINE_ENV, HITL_DB=str(db), HITL_MODEL_LATENCY=model_latency, PYTHONUNBUFFERED="1")
    return env


def start_dev_server(folder: Path, model_latency: str = "0") -> DevServer:
    """Starts ``langgraph dev`` in ``folder`` and returns once it answers ``/ok``.

    The address is the one uvicorn says it listens on: ``langgraph dev`` takes another free port,
    with a warning, when the one asked for was taken in the meantime.
    """
    if not LANGGRAPH.is_file():
        pytest.skip(MISSING_SERVER)
    config = served_config(folder)
    db = folder / "checkpoints.sqlite"
    port = free_port()
    command = [
        str(LANGGRAPH), "dev", "--host", "127.0.0.1", "--port", str(port), "--no-browser", "--no-reload",
        "--server-log-level", "INFO", "--config", str(config),
    ]  # fmt: skip
    process = subprocess.Popen(
        command,
        cwd=folder,
        env=dev_env(db, model_latency),
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    server = DevServer(f"http://127.0.0.1:{port}", db, process)
    follow_output(process, server.lines, UVICORN_LISTENING)
    listening = next((found[1] for line in server.lines if (found := LISTENING.search(line))), None)
    if listening is None:  # its output ended before it listened
        stop_dev_server(server)
        raise RuntimeError(f"langgraph dev did not start:\n{server.log()}")
    server.url = listening
    if answers_ok(server.url):
        return server
    stop_dev_server(server)
    raise RuntimeError(f"langgraph dev never answered /ok:\n{server.log()}")


def stop_dev_server(server: DevServer) -> None:
    """Stops the server (SIGTERM, then SIGKILL if it does not go)."""
    stop_process(server.process)


@pytest.fixture(scope="module")
def langgraph_dev(tmp_path_factory: pytest.TempPathFactory) -> Iterator[DevServer]:
    """One ``langgraph dev`` per test module, in a fresh folder with a fresh database."""
    running = start_dev_server(tmp_path_factory.mktemp("langgraph-dev"))
    yield running
    stop_dev_server(running)


@pytest.fixture(scope="module")
def ours(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """This project's server on a fresh database."""
    running = start_server(tmp_path_factory.mktemp("ours"))
    yield running
    stop_server(running)


@pytest.fixture(scope="module")
def both(langgraph_dev: DevServer, ours: Server) -> Iterator[dict[str, Any]]:
    """The SDK's client of each server, ours first (``langgraph dev`` is started first: it may be skipped)."""
    with (
        get_sync_client(url=ours.url, api_key=None) as mine,
        get_sync_client(url=langgraph_dev.url, api_key=None) as reference,
    ):
        yield {"ours": mine, "langgraph dev": reference}
