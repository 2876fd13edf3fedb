"""``streamlit run streamlit_app.py`` on a free loopback port, and Debian's Chromium flags.

Shared by the browser fixtures (tests/browser/conftest.py), the sign-in fixtures
(tests/browser/oidc_support.py) and the page benchmark (benchmarks/_browser.py), so each starts the
server the same way: it waits for the server to say it is listening and to answer its health check,
never for a fixed time, and stops it afterwards.
"""

from __future__ import annotations

import functools
import os
import socket
import ssl
import subprocess
import sys
import threading
import urllib.request
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx

from tests.fresh_process import ForkedCommand, start_streamlit

PROJECT_ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = "/usr/bin/chromium"
#: The features Playwright turns off in every Chromium it launches (Playwright 1.65's ``chromiumSwitches``).
#: Chromium applies only the last ``--disable-features`` of its command line, so a list of ours after
#: Playwright's replaces it unless it names them too (tests/browser/test_chromium_flags.py checks it does).
PLAYWRIGHT_DISABLED_FEATURES = (
    "AvoidUnnecessaryBeforeUnloadCheckSync", "DestroyProfileOnBrowserClose", "HttpsUpgrades",
    "HttpsFirstBalancedModeAutoEnable", "LensOverlay", "MediaRouter", "PaintHolding",
    "ThirdPartyStoragePartitioning", "AvoidCorsURLLoaderRestartOnRedirect", "TcpPortRandomizationWin",
    "OptimizationHints", "NetworkTimeServiceQuerying", "AimEnabled", "PreconnectToSearch",
    "msForceBrowserSignIn", "msEdgeUpdateLaunchServicesPreferredVersion",
)  # fmt: skip
#: Headless, Chromium still builds each new tab's address-bar suggestion popups as web pages
#: (``chrome://omnibox-popup.top-chrome``) in a renderer of their own: about 0.4 s of CPU a tab for a plain
#: page, 1.5 s for the dashboard's home, which a test's page never shows.
OMNIBOX_POPUPS = ("WebUIOmniboxPopup", "WebUIOmniboxFullPopup", "WebUIOmniboxAimPopup")
#: The flags that keep Chromium off the network, and the omnibox popups off.
CHROMIUM_ARGS = [
    "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
    "--disable-default-apps", "--disable-extensions", "--metrics-recording-only",
    "--disable-features=" + ",".join(PLAYWRIGHT_DISABLED_FEATURES + OMNIBOX_POPUPS),
]  # fmt: skip
SERVER_START_TIMEOUT = 60.0
STREAMLIT = (sys.executable, "-m", "streamlit")


def free_port() -> int:
    """A free local port."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def local_url(port: int) -> str:
    return f"http://127.0.0.1:{port}"


def dashboard_env(db_location: str | Path, latency: str = "0", **extra: str) -> dict[str, str]:
    """The server's environment: the database, the embedded model's latency, no model or search keys."""
    env = {**os.environ, "HITL_DB": str(db_location), "HITL_MODEL_LATENCY": latency, "PYTHONUNBUFFERED": "1"}
    for name in ("GOOGLE_API_KEY", "GEMINI_API_KEY", "TAVILY_API_KEY"):
        env.pop(name, None)
    env.update(extra)
    return env


def _wait_until_listening(process: subprocess.Popen[str] | ForkedCommand, url: str) -> None:
    """Reads the server's output until it reports its URL, then checks its health."""
    assert process.stdout is not None
    seen = []
    for line in process.stdout:  # blocks on the server's own output, not on a clock
        seen.append(line)
        if "URL:" in line or "You can now view" in line:
            break
    else:
        raise RuntimeError("streamlit exited before serving:\n" + "".join(seen))
    with urllib.request.urlopen(f"{url}/_stcore/health", timeout=SERVER_START_TIMEOUT) as answer:
        assert answer.read().strip() == b"ok"


@contextmanager
def running_streamlit(
    env: dict[str, str],
    port: int,
    *,
    launcher: Sequence[str] | None = None,
    extra_args: Sequence[str] = (),
    script: str = "streamlit_app.py",
    module: str = "streamlit",
    output: list[str] | None = None,
) -> Iterator[subprocess.Popen[str] | ForkedCommand]:
    """The dashboard (or another ``script`` of the project) served on ``port`` once it answers; stopped
    (killed if it must be) on exit.

    Without a ``launcher`` (a command line that stands for ``python -m streamlit``), the server is
    ``python -m streamlit run ...`` forked from the tests' fork server (``tests/fresh_process.py``), which has
    imported Streamlit, pandas and the project once: Streamlit's own command line serves the script, as
    in a new interpreter, for half the CPU of a start and of the first page's imports (``module``: a module
    that runs Streamlit's command line, for ``python -m module``).

    Its output after the start is read to the end on a thread of its own, line by line into ``output`` when
    given: a pipe nobody reads stops the server at its first write past the pipe's 64 KiB (a run that logs
    an error would hang, its page left running).
    """
    arguments = [
        "run", script, "--server.port", str(port),
        "--server.address", "127.0.0.1", "--server.headless", "true", "--browser.gatherUsageStats", "false",
        "--server.fileWatcherType", "none", *extra_args,
    ]  # fmt: skip
    process: subprocess.Popen[str] | ForkedCommand
    if launcher is None:
        process = start_streamlit(arguments, cwd=PROJECT_ROOT, env=env, module=module)
    else:
        process = subprocess.Popen(
            [*launcher, *arguments],
            cwd=PROJECT_ROOT,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
    try:
        _wait_until_listening(process, local_url(port))
        kept = output if output is not None else []
        threading.Thread(target=lambda: kept.extend(process.stdout or ()), daemon=True).start()
        yield process
    finally:
        process.terminate()
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()


def stop_process(process: subprocess.Popen[str]) -> None:
    """Stops a server the tests started: SIGTERM, then SIGKILL if it has not gone within 30 s."""
    process.terminate()
    try:
        process.wait(timeout=30)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


#: What uvicorn prints once its socket listens: every server the tests start (``agents serve``,
#: ``langgraph dev``) is asked anything only after it.
UVICORN_LISTENING = "Uvicorn running on"


def follow_output(
    process: subprocess.Popen[str], lines: list[str], marker: str, printed: threading.Condition | None = None
) -> None:
    """Copies the process's output into ``lines`` on a thread of its own; returns once a line holding
    ``marker`` was printed, or the process ended. ``printed``, when given, is notified after each line
    (a test waits on it for a line the process prints around an answer it already sent)."""
    seen = threading.Event()
    copied = printed or threading.Condition()

    def drain() -> None:
        assert process.stdout is not None
        for line in process.stdout:
            with copied:
                lines.append(line.rstrip("\n"))
                copied.notify_all()
            if marker in line:
                seen.set()
        seen.set()  # the server ended: stop waiting

    threading.Thread(target=drain, daemon=True).start()
    seen.wait()


@functools.cache
def _unused_tls() -> ssl.SSLContext:
    """The TLS context of every :func:`http_client`, made once per process."""
    return ssl.create_default_context()


def http_client(base_url: str = "", **options: Any) -> httpx.Client:
    """An HTTP client of a server the tests started.

    httpx makes each client a TLS context with the system's certificates, whether or not it will speak
    TLS: about 45 ms of CPU, more than most requests the tests send. These servers speak plain HTTP on the
    loopback, so the clients share one context, which they never use.
    """
    return httpx.Client(base_url=base_url, verify=_unused_tls(), **options)


def answers_ok(url: str, headers: dict[str, str] | None = None) -> bool:
    """Whether ``GET url/ok`` answers 200, asked once.

    Callers ask after the server printed the line it prints once its socket listens
    (:data:`UVICORN_LISTENING`), so the connection is taken at once and the request waits for the answer. A
    refused connection means a line that comes before the socket is bound was waited on: a mistake to
    fix, not a race to retry until it is won.
    """
    try:
        with http_client(url, headers=headers, timeout=SERVER_START_TIMEOUT) as http:
            return http.get("/ok").status_code == 200
    except httpx.TransportError:
        return False
