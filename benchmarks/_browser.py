"""The benchmarks' browser side: ``streamlit run`` on a free port, Debian's Chromium under Playwright.

The same way tests/browser starts the dashboard (it waits for the server to say it is listening and
to answer its health check) and keeps Chromium off the network; no browser is ever downloaded.

A page is ready when the script's run has finished (Streamlit's ``stApp`` element says
``data-test-script-state="notRunning"``, which it says only after a run: before the first run it is
``initial``), the main block and the page's title are drawn, no element is still a placeholder
(``stSkeleton``: charts, JSON, tables and inputs load their code lazily and draw after the script
ends) and every Plotly chart has drawn its SVG. The time is taken in the page (``performance.now()``,
from the start of the navigation), polled on every animation frame.

Each load is a new tab (a new Streamlit session) in one browser context per server, so the
browser's cache holds the dashboard's static files after the first load, as for a returning user.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import threading
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from playwright.sync_api import Browser, BrowserContext, sync_playwright

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
    "--disable-default-apps", "--disable-extensions", "--metrics-recording-only",
]  # fmt: skip
SERVER_START_TIMEOUT = 60.0

#: Returns the page's own clock when it is ready, else false (Playwright polls it).
READY = """() => {
  const app = document.querySelector('[data-testid="stApp"]');
  if (!app || app.getAttribute('data-test-script-state') !== 'notRunning') return false;
  const main = document.querySelector('[data-testid="stMainBlockContainer"]');
  if (!main || !main.querySelector('h1')) return false;
  if (document.querySelector('[data-testid="stSkeleton"]')) return false;  // a lazy element not drawn yet
  for (const chart of document.querySelectorAll('[data-testid="stPlotlyChart"]')) {
    if (!chart.querySelector('.main-svg')) return false;
  }
  const failed = document.querySelector('[data-testid="stException"]');
  return {ms: performance.now(), failed: failed ? failed.innerText.slice(0, 300) : ''};
}"""


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _wait_until_listening(process: subprocess.Popen[str], url: str) -> None:
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
def serve_dashboard(db_location: str | Path) -> Iterator[str]:
    """Runs ``streamlit run streamlit_app.py`` on a free port against ``db_location``; yields its URL."""
    port = _free_port()
    env = {**os.environ, "HITL_DB": str(db_location), "HITL_MODEL_LATENCY": "0", "PYTHONUNBUFFERED": "1"}
    for name in ("GOOGLE_API_KEY", "GEMINI_API_KEY", "TAVILY_API_KEY"):
        env.pop(name, None)
    command = [
        sys.executable, "-m", "streamlit", "run", "streamlit_app.py", "--server.port", str(port),
        "--server.address", "127.0.0.1", "--server.headless", "true", "--browser.gatherUsageStats", "false",
        "--server.fileWatcherType", "none",
    ]  # fmt: skip
    process = subprocess.Popen(command, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    url = f"http://127.0.0.1:{port}"
    try:
        _wait_until_listening(process, url)
        # The server's later output is read and dropped, so it never fills the pipe.
        threading.Thread(target=process.stdout.read, daemon=True).start()  # type: ignore[union-attr]
        yield url
    finally:
        process.terminate()
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()


@contextmanager
def chromium() -> Iterator[Browser]:
    """Debian's Chromium under Playwright, kept off the network."""
    if not Path(CHROMIUM).exists():
        raise SystemExit(f"{CHROMIUM} is missing (apt-get install chromium); no browser is downloaded")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            yield browser
        finally:
            browser.close()


def new_context(browser: Browser) -> BrowserContext:
    return browser.new_context(viewport={"width": 1400, "height": 1000})


def page_ready_ms(context: BrowserContext, url: str, timeout_s: float) -> float:
    """Opens ``url`` in a new tab (a new session) and returns its page-ready time in ms.

    Raises:
        RuntimeError: The page showed an exception.
    """
    page = context.new_page()
    try:
        page.goto(url, wait_until="commit", timeout=timeout_s * 1000)
        ready = page.wait_for_function(READY, polling="raf", timeout=timeout_s * 1000).json_value()
        if ready["failed"]:
            raise RuntimeError(f"{url} showed an exception: {ready['failed']}")
        return float(ready["ms"])
    finally:
        page.close()
