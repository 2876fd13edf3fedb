"""Real-browser fixtures: the dashboard served by ``streamlit run`` and Debian's Chromium.

The server runs on a free local port against a fresh temporary database, with
the embedded model at a small latency. The fixture waits for the server to
say it is listening and to answer its health check, never for a fixed time.
Chromium is Debian's (``/usr/bin/chromium``), driven by Playwright, with the
flags that keep it off the network; no browser is ever downloaded.
"""

from __future__ import annotations

import io
import json
import os
import re
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from PIL import Image
from playwright.sync_api import Browser, Locator, Page, expect

from tests.browser.chromium import close_contexts, shared_browser
from tests.conftest import PROJECT_ROOT
from tests.fresh_process import run_code, run_command
from tests.serving import CHROMIUM, dashboard_env, free_port, local_url, running_streamlit

ARTIFACTS = PROJECT_ROOT / "test-artifacts"
#: How long a CLI command run for a browser test may take before it is killed (s).
CLI_TIMEOUT = 120.0

# The ``browser`` and ``slow`` markers are given to every test in this folder by
# ``pytest_collection_modifyitems`` in tests/conftest.py (a conftest's ``pytestmark`` marks nothing).


@dataclass
class Dashboard:
    """A running dashboard: its URL and its database file."""

    url: str
    db_path: str | Path  # a SQLite file, or a PostgreSQL URL
    env: dict[str, str]
    #: What the server printed after it started, line by line (a failed test's report shows the last lines).
    output: list[str] = field(default_factory=list)

    def cli(self, *args: str) -> subprocess.CompletedProcess[str]:
        """Runs ``python -m agents`` against the dashboard's database, in a process of its own: a fork of the
        tests' fork server (``tests/fresh_process.py``), not a new interpreter, which would import LangGraph
        and the project again (about a second of CPU a command)."""
        argv = ["--db", str(self.db_path), *args]
        done = run_command(argv, PROJECT_ROOT, self.env, timeout=CLI_TIMEOUT)
        return subprocess.CompletedProcess(["agents", *argv], done.returncode, done.stdout, done.stderr)

    def cli_batch(self, *steps: dict[str, Any]) -> list[dict[str, Any]]:
        """Runs ``python -m agents`` commands (and test helpers) in order in ONE process against the
        dashboard's database (``tests/browser/cli_batch.py``: each step ``{"cli": [args]}`` or
        ``{"call": "module:function", "args": [...], "kwargs": {...}}``, with an optional ``env``);
        returns each step's ``code``, ``out`` and ``err``. For seeding: one process, not one a command."""
        database = ["--db", str(self.db_path)]
        batch = [{**step, "cli": [*database, *step["cli"]]} if "cli" in step else step for step in steps]
        code = f"from tests.browser.cli_batch import main\nmain({json.dumps(batch)!r})"
        done = run_code(code, PROJECT_ROOT, self.env, timeout=CLI_TIMEOUT * len(steps))
        assert done.returncode == 0, done.stderr
        return list(json.loads(done.stdout))


@contextmanager
def serve_dashboard(db_location: str | Path, **extra: str) -> Iterator[Dashboard]:
    """Runs ``streamlit run streamlit_app.py`` on a free port against ``db_location`` (``extra``: more settings)."""
    port, env, output = free_port(), dashboard_env(db_location, latency="0.05", **extra), []
    with running_streamlit(env, port, output=output):
        yield Dashboard(url=local_url(port), db_path=db_location, env=env, output=output)


@pytest.fixture
def dashboard(tmp_path: Path) -> Iterator[Dashboard]:
    """The dashboard on a free port with a fresh SQLite database."""
    with serve_dashboard(tmp_path / "dashboard.sqlite") as served:
        yield served


@pytest.fixture(scope="module")
def shared_dashboard(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Dashboard]:
    """One dashboard for the tests of a module that need no fresh database: each reads only what it
    made itself (a thread of its own) or what every database shows (labels, navigation)."""
    with serve_dashboard(tmp_path_factory.mktemp("shared") / "dashboard.sqlite") as served:
        yield served


#: The live parts' interval (s) on :func:`live_dashboard`: short, so a part draws another process's change
#: soon; the tests wait on the page itself.
LIVE_REFRESH = 1.0


@pytest.fixture(scope="module")
def live_dashboard(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Dashboard]:
    """A module's dashboard with its live parts rerunning every :data:`LIVE_REFRESH` seconds."""
    with serve_dashboard(
        tmp_path_factory.mktemp("live") / "dashboard.sqlite", HITL_LIVE_REFRESH=str(LIVE_REFRESH)
    ) as served:
        yield served


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    """Debian's Chromium under Playwright, kept off the network: the test process's one
    (``tests/browser/chromium.py``), started by the first module that needs it and kept for the next; each
    module's contexts are closed after it."""
    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} is missing; the test command installs Debian's chromium")
    yield shared_browser()
    close_contexts()


@pytest.fixture
def page(browser: Browser, request: pytest.FixtureRequest) -> Iterator[Page]:
    """A fresh browser page; on failure its final screenshot and HTML go to test-artifacts/.

    ``HITL_TEST_SCREENSHOTS=1`` keeps every test's final screenshot, to look at the pages the suite drew (a
    full-page screenshot costs about 0.2 s of CPU, so a run takes none it does not need).
    """
    context = browser.new_context(viewport={"width": 1400, "height": 1000}, accept_downloads=True)
    opened = context.new_page()
    request.node.stash[PAGE_EVENTS] = watch_page(opened)
    opened.set_default_timeout(30_000)
    # The same bound for ``expect`` (5 s by default): with the suite on every core, a page's run can take
    # longer than that while the test still waits on the element itself, never on a clock.
    expect.set_options(timeout=30_000)
    yield opened
    ARTIFACTS.mkdir(exist_ok=True)
    # The full id (file and test): two modules' tests of one name, run at once, keep their own files.
    name = re.sub(r"[^\w.\[\]-]+", "_", request.node.nodeid.removeprefix("tests/browser/"))
    failed = any(getattr(getattr(request.node, f"rep_{when}", None), "failed", False) for when in ("setup", "call"))
    try:
        if failed or os.environ.get("HITL_TEST_SCREENSHOTS") == "1":
            opened.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)
        if failed:
            (ARTIFACTS / f"{name}.html").write_text(opened.content(), encoding="utf-8")
            (ARTIFACTS / f"{name}.events.txt").write_text(events_text(request.node), encoding="utf-8")
    finally:
        context.close()


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]):  # noqa: ANN201
    """Keeps each phase's report on the test item, so fixtures can see a failure."""
    report = yield
    setattr(item, f"rep_{report.when}", report)
    if report.failed and PAGE_EVENTS in item.stash:
        report.sections.append(("the page's connections, navigations and errors", events_text(item)))
    if report.failed:
        for name, value in getattr(item, "funcargs", {}).items():
            if isinstance(value, Dashboard) and value.output:
                printed = "".join(value.output[-SERVER_LINES_SHOWN:])
                report.sections.append((f"what the dashboard ({name}) printed last", printed))
    return report


#: How many of a dashboard's last printed lines a failed test's report shows.
SERVER_LINES_SHOWN = 60


#: What happened to a test's page besides its own steps (:func:`watch_page`), kept on the test item.
PAGE_EVENTS = pytest.StashKey[list[str]]()


def watch_page(page: Page) -> list[str]:
    """Records, with the seconds since the page opened, each navigation, each websocket opened or closed
    (Streamlit's connection: a second one means the page lost its session and connected again), each answer
    with an error status, and each error or warning of the page's console or scripts; a failed browser
    test's report lists them."""
    start, events = time.monotonic(), []

    def note(what: str) -> None:
        events.append(f"{time.monotonic() - start:7.2f} s  {what}")

    def websocket(socket: Any) -> None:
        note(f"websocket opened {socket.url}")
        socket.on("close", lambda closed: note(f"websocket closed {closed.url}"))
        socket.on("socketerror", lambda error: note(f"websocket error {error}"))

    page.on("framenavigated", lambda frame: note(f"navigated to {frame.url}") if frame == page.main_frame else None)
    page.on("websocket", websocket)
    page.on(
        "console",
        lambda message: (
            note(f"console {message.type}: {message.text}") if message.type in ("error", "warning") else None
        ),
    )
    page.on("pageerror", lambda error: note(f"page error: {error}"))
    page.on("response", lambda answer: note(f"{answer.status} {answer.url}") if answer.status >= 400 else None)
    page.on("crash", lambda _page: note("the page crashed"))
    return events


def events_text(item: pytest.Item) -> str:
    """The events :func:`watch_page` recorded for ``item``'s page, one a line."""
    return "\n".join(item.stash.get(PAGE_EVENTS, [])) or "(none)"


#: A run of the script has ended, connected, with something drawn in the main block and no element still a
#: placeholder (``stSkeleton``).
RAN = """() => {
  const app = document.querySelector('[data-testid="stApp"]');
  return !!app && app.getAttribute('data-test-script-state') === 'notRunning'
    && app.getAttribute('data-test-connection-state') === 'CONNECTED'
    && !!document.querySelector('[data-testid="stMainBlockContainer"] [data-testid="stElementContainer"]')
    && !document.querySelector('[data-testid="stSkeleton"]');
}"""
#: How often (ms) :func:`wait_for_app` looks at the page's run state.
RAN_POLLING = 100


def wait_for_app(page: Page) -> None:
    """Waits until Streamlit has finished a run of the script and drawn something in the main block.

    Streamlit's ``stApp`` element says ``data-test-script-state="notRunning"`` only once a run has
    ended: before the first run it says ``initial``, while the shell shows a placeholder in the main
    block. Its "running" indicator is no signal: it shows only after half a second of a run, and a
    fresh server's first run, which imports the pages, went seconds without it.

    Nor is a run that has ended a page drawn: tables, charts and JSON load their code lazily and draw after
    the run, one after another, each a placeholder (``stSkeleton``) until then: a test that took "the first
    table" while the first was still a placeholder got a table further down (its box 900 px lower), and
    what is drawn late can move what a click was placed on. So the wait also lasts until no placeholder is
    left.

    After a click, wait first for something the click's rerun changes: until that rerun starts, the
    previous run is still the finished one.

    The state is looked at every 100 ms, not at every animation frame (Playwright's default): a wait on
    frames keeps Chromium drawing one after another for as long as the wait lasts.
    """
    page.wait_for_function(RAN, polling=RAN_POLLING)


def table_with(page: Page, text: str) -> Locator:
    """The drawn table (``st.dataframe``) whose cells contain ``text``.

    The grid paints its cells on a canvas; the cells' text is in its accessible table, which the
    browser does not count as visible, so a table is found by its text and checked as a whole.
    """
    return page.get_by_test_id("stDataFrame").filter(has_text=text).first


#: Resolves after the browser has drawn two more frames (a WebGL chart draws on the next one).
TWO_FRAMES = "() => new Promise(done => requestAnimationFrame(() => requestAnimationFrame(done)))"


def chart_image(page: Page) -> Image.Image:
    """A screenshot of the page's (first) Plotly chart, once it has drawn; WebGL traces draw on a canvas."""
    page.evaluate(TWO_FRAMES)
    return Image.open(io.BytesIO(page.locator(".js-plotly-plot").first.screenshot())).convert("RGB")


def ink_near(image: Image.Image, x: float, y: float, reach: int = 2, colour: str | None = None) -> bool:
    """Whether a pixel within ``reach`` of (x, y) is drawn: darker than the chart's light background,
    or, with ``colour`` (``#rrggbb``), of about that colour."""
    wanted = None if colour is None else tuple(int(colour[i : i + 2], 16) for i in (1, 3, 5))
    for dx in range(-reach, reach + 1):
        for dy in range(-reach, reach + 1):
            pixel = image.getpixel((round(x) + dx, round(y) + dy))
            if wanted is None and sum(pixel) < 3 * 235:
                return True
            if wanted is not None and all(abs(a - b) <= 40 for a, b in zip(pixel, wanted, strict=True)):
                return True
    return False


#: The characters of an element's text where a new drawn line begins, with the character before each.
LINE_STARTS = """node => {
  const starts = []; let lastTop = null, before = '';
  const walker = document.createTreeWalker(node, NodeFilter.SHOW_TEXT);
  let text;
  while ((text = walker.nextNode())) {
    for (let i = 0; i < text.data.length; i++) {
      const range = document.createRange(); range.setStart(text, i); range.setEnd(text, i + 1);
      const rect = range.getClientRects()[0];
      if (!rect) continue;
      if (lastTop !== null && rect.top > lastTop + 2) starts.push([before, text.data[i]]);
      lastTop = rect.top; before = text.data[i];
    }
  }
  return starts;
}"""
