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

import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from playwright.sync_api import Browser, BrowserContext, sync_playwright

from tests.serving import (
    CHROMIUM,
    CHROMIUM_ARGS,
    STREAMLIT,
    dashboard_env,
    free_port,
    local_url,
    running_streamlit,
)

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


@contextmanager
def serve_dashboard(
    db_location: str | Path, timings: Path | None = None, script: str = "streamlit_app.py", **env_extra: str
) -> Iterator[str]:
    """Runs ``streamlit run streamlit_app.py`` (or ``script``) on a free port against ``db_location``, with the
    variables ``env_extra`` set too; yields its URL.

    With ``timings``, the server appends each script run's kind and time to that file
    (``benchmarks/_timed_streamlit.py``).
    """
    port, env = free_port(), dashboard_env(db_location, **env_extra)
    launcher = (sys.executable, "benchmarks/_timed_streamlit.py", str(timings)) if timings else STREAMLIT
    with running_streamlit(env, port, launcher=launcher, script=script) as process:
        # The server's later output is read and dropped, so it never fills the pipe.
        threading.Thread(target=process.stdout.read, daemon=True).start()  # type: ignore[union-attr]
        yield local_url(port)


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


#: The script has run and drawn its title (lazy elements may still be placeholders: a collapsed
#: expander's JSON never draws, and typing does not wait for it).
RAN = """() => {
  const app = document.querySelector('[data-testid="stApp"]');
  const main = document.querySelector('[data-testid="stMainBlockContainer"]');
  return !!app && app.getAttribute('data-test-script-state') === 'notRunning' && !!main && !!main.querySelector('h1');
}"""
#: Records each change of the app's script state with the page's clock (``window.__runs``).
WATCH_RUNS = """() => {
  window.__runs = [];
  const app = document.querySelector('[data-testid="stApp"]');
  new MutationObserver(() => window.__runs.push([app.getAttribute('data-test-script-state'), performance.now()]))
    .observe(app, {attributes: true, attributeFilter: ['data-test-script-state']});
}"""
#: The time the first run that started after ``since`` finished, else false.
RUN_DONE_AFTER = """(since) => {
  const runs = window.__runs.filter(([, at]) => at > since);
  const started = runs.findIndex(([state]) => state === 'running');
  if (started < 0) return false;
  const done = runs.slice(started).find(([state]) => state === 'notRunning');
  return done ? done[1] : false;
}"""


def keystroke_ms(
    context: BrowserContext,
    url: str,
    label: str,
    values: list[str],
    timeout_s: float,
    server_runs_done: Callable[[], int],
) -> tuple[list[float], int]:
    """Types each value into the text input labelled ``label`` (then Enter) and times the rerun it starts.

    Measured in the page, from the key press to the end of the run it caused: what a user waits for.
    A run is over when the timed server has recorded it (``server_runs_done`` counts its runs); the
    page's own clock then gives the end it saw (a run too short for the page to show it as running
    ends when the server says so).

    Returns:
        The user's times, and how many runs the server had recorded before the first key press.
    """
    page = context.new_page()
    try:
        page.goto(url, wait_until="commit", timeout=timeout_s * 1000)
        page.wait_for_function(RAN, polling="raf", timeout=timeout_s * 1000)
        page.evaluate(WATCH_RUNS)
        field = page.get_by_test_id("stMain").get_by_role("textbox", name=label, exact=True)
        times, first = [], server_runs_done()
        for value in values:
            field.fill(value)
            done_before = server_runs_done()
            since = page.evaluate("performance.now()")
            field.press("Enter")
            deadline = time.monotonic() + timeout_s
            while server_runs_done() == done_before:
                if time.monotonic() > deadline:
                    raise TimeoutError(f"no run after typing into {label!r} within {timeout_s:.0f} s")
                page.wait_for_timeout(1)  # let the page's events run between polls of the server's record
            page.wait_for_function(RAN, polling="raf", timeout=timeout_s * 1000)
            ended = page.evaluate(RUN_DONE_AFTER, since) or page.evaluate("performance.now()")
            times.append(float(ended) - since)
        return times, first
    finally:
        page.close()


def server_runs(timings: Path) -> list[tuple[str, float]]:
    """The (kind, ms) of each script run the timed server recorded, oldest first."""
    if not timings.exists():
        return []
    return [(kind, float(ms)) for kind, ms in (line.split() for line in timings.read_text().splitlines())]
