"""Benchmark: what an open page nobody touches costs, by its live parts' reruns.

Each live part (:mod:`dashboard.live`) reruns on its own timer every ``HITL_LIVE_REFRESH`` seconds, and the
frame's watcher does on a page without one. Each such run, even one that finds nothing new, has the browser
draw the page again. This builds a database of mixed threads (``benchmarks/_data.py``, not measured), serves it
twice, once at the default interval and once with live refresh off (``HITL_LIVE_REFRESH=0``), and opens each
page in Debian's headless Chromium, the two servers in turn page by page. Once a page is ready (see
``benchmarks/_browser.py``) and has run for ``--settle`` seconds, nothing touches it for ``--seconds``: over
that time it counts the script runs the page sees (its ``stApp`` going to running) and reads the CPU time of
Chromium's processes and of the server (``/proc``). Printed per page and interval: the medians of
``--repeats`` rounds, and Chromium's CPU per run.

Usage::

    python benchmarks/bench_idle_page.py [--threads 30] [--seconds 20] [--settle 4] [--repeats 3]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
from contextlib import ExitStack
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from playwright.sync_api import Browser  # noqa: E402

from agents.runtime import open_store  # noqa: E402
from benchmarks._browser import READY, chromium, new_context, serve_dashboard  # noqa: E402
from benchmarks._data import build_mixed_threads, settings_for, thread_name  # noqa: E402

#: The default interval (``Settings.live_refresh``) and live refresh off.
INTERVALS = ("2", "0")
#: Counts the page's script runs from now on (``window.__runs``).
COUNT_RUNS = """() => {
  window.__runs = 0;
  const app = document.querySelector('[data-testid="stApp"]');
  new MutationObserver(() => { if (app.getAttribute('data-test-script-state') === 'running') window.__runs++; })
    .observe(app, {attributes: true, attributeFilter: ['data-test-script-state']});
}"""
TICKS = os.sysconf("SC_CLK_TCK")


def _processes() -> list[tuple[int, int, str, float]]:
    """Every process: (pid, parent pid, command name, CPU seconds so far)."""
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = Path(f"/proc/{entry}/stat").read_text()
            except OSError:  # ended meanwhile
                continue
            name, fields = stat[stat.index("(") + 1 : stat.rindex(")")], stat[stat.rindex(")") + 2 :].split()
            found.append((int(entry), int(fields[1]), name, (int(fields[11]) + int(fields[12])) / TICKS))
    return found


def cpu_now(port: str) -> tuple[float, float]:
    """CPU seconds so far of this process's Chromium processes, and of the server listening on ``port`` (with
    the processes it started), from one read of ``/proc``."""
    processes = _processes()
    children: dict[int, list[tuple[int, str, float]]] = {}
    for pid, parent, name, cpu in processes:
        children.setdefault(parent, []).append((pid, name, cpu))

    def below(root: int) -> list[tuple[int, str, float]]:
        found, todo = [], [root]
        while todo:
            for child in children.get(todo.pop(), []):
                found.append(child)
                todo.append(child[0])
        return found

    browser = server = 0.0
    for pid, name, cpu in below(os.getpid()):
        if "chrom" in name:
            browser += cpu
        elif name.startswith("python"):
            try:
                command = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
            except OSError:
                continue
            if port.encode() in command:
                server += cpu + sum(child_cpu for _child, _name, child_cpu in below(pid))
    return browser, server


def measure(browser: Browser, url: str, path: str, settle: float, seconds: float) -> tuple[int, float, float]:
    """(runs seen, Chromium CPU s, server CPU s) over ``seconds`` with the page at ``path`` open and idle."""
    context = new_context(browser)
    try:
        page = context.new_page()
        page.goto(f"{url}/{path}", timeout=120_000)
        page.wait_for_function(READY, polling=100, timeout=120_000)
        page.wait_for_timeout(settle * 1000)  # the live parts' timers started with the page's first run
        page.evaluate(COUNT_RUNS)
        port = url.rsplit(":", 1)[1]
        browser_before, server_before = cpu_now(port)
        page.wait_for_timeout(seconds * 1000)  # the window measured: nobody touches the page
        browser_after, server_after = cpu_now(port)
        return int(page.evaluate("() => window.__runs")), browser_after - browser_before, server_after - server_before
    finally:
        context.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--threads", type=int, default=30, help="mixed threads in the database (default 30)")
    parser.add_argument("--seconds", type=float, default=20.0, help="the idle window measured (default 20)")
    parser.add_argument("--settle", type=float, default=4.0, help="seconds a page runs before the window (default 4)")
    parser.add_argument("--repeats", type=int, default=3, help="rounds per page and interval (default 3)")
    args = parser.parse_args()
    robot = thread_name("robot", 0)
    pages = {"home": "", "refund": "refund", "robot": f"robot?thread={robot}", "explorer": f"explorer?thread={robot}"}
    print(f"{args.threads} mixed threads; each page open and idle for {args.seconds:.0f} s, {args.repeats} rounds")
    with ExitStack() as stack:
        # Removed last, once the servers have stopped.
        db = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="bench-idle-"))) / "idle.sqlite"
        store = open_store(db)
        try:
            build_mixed_threads(store, settings_for(db), args.threads)
        finally:
            store.close()
        urls = {
            interval: stack.enter_context(serve_dashboard(db, HITL_LIVE_REFRESH=interval)) for interval in INTERVALS
        }
        browser = stack.enter_context(chromium())
        for name, path in pages.items():
            for url in urls.values():
                measure(browser, url, path, 0, 0)  # a first load: the server imports the page
            rounds: dict[str, list[tuple[int, float, float]]] = {interval: [] for interval in INTERVALS}
            for _ in range(args.repeats):
                for interval, url in urls.items():
                    rounds[interval].append(measure(browser, url, path, args.settle, args.seconds))
            for interval in INTERVALS:
                runs = statistics.median(r[0] for r in rounds[interval])
                chrome = statistics.median(r[1] for r in rounds[interval])
                server = statistics.median(r[2] for r in rounds[interval])
                per_run = f"{chrome / runs * 1000:6.0f} ms of Chromium CPU a run" if runs else ""
                label = f"every {interval} s" if interval != "0" else "off"
                print(
                    f"  {name:9} live refresh {label:10} runs {runs:5.1f}  Chromium CPU {chrome:6.2f} s"
                    f"  server CPU {server:5.2f} s  {per_run}"
                )


if __name__ == "__main__":
    main()
