"""Benchmark: every dashboard page on an empty database, a small one, and N mixed threads plus a big thread.

Builds (not measured; once per run, or once per ``--data-dir``) three kinds of database:

* empty;
* small: one thread of every plan of every agent (:data:`SMALL_THREADS`, in every status) and a
  ``robot-big`` of only :data:`SMALL_BIG_CHECKPOINTS` checkpoints, so every page draws what it draws
  when loaded (its tables, its chart), at the smallest size;
* loaded, for each N of ``--threads``: N mixed threads of the three agents in every status (waiting,
  done, attention; see benchmarks/_data.py) plus ``robot-big``, a robot thread of
  ``--big-checkpoints`` checkpoints with its node log, written last so it is the newest thread.

The small database separates the two things the empty one mixes: what a page costs because it
draws a chart or a table at all (small / empty: the browser loads and starts Plotly's or the
data grid's code, which an empty page never asks for) and what it costs because the data are large
(loaded / small). Then, per N:

1. Server side: each page's script run in ``streamlit.testing.v1.AppTest`` (the frame
   ``streamlit_app.py`` switched to the page, a fresh session per run), the three databases
   interleaved. A new AppTest scans every installed package for Streamlit components before its
   first run (150-250 ms here, the same for every page and database, and a cost of the test harness
   that a served page never pays on a run); the benchmark scans once and gives every session the
   result, so the figures are the page's own. The robot page, the explorer and the timeline open
   ``?thread=robot-big``; home, the refund and the lecture pages open as they are. Each page's
   first run on each database (imports, the process's caches filling) is shown as "first" and is
   not among the repeats.
2. A keystroke: on the loaded database, the rerun after typing into the refund page's approver field
   (a waiting case selected by ``?thread=``) and into the robot page's free answer (a waiting robot
   thread), the two interleaved.
3. Browser (``--browser``, the default): ``streamlit run`` on each of the three databases side by
   side, each page's page-ready time in headless Chromium (a fresh session per load; see
   benchmarks/_browser.py for what "ready" is), the databases interleaved, after a first load of
   each page on each server (shown as "first"). A load not ready within ``--timeout`` seconds is
   that page's error (its goal is missed) and the page is not loaded again on that database.
   Once, before the pages, the floors: ``benchmarks/_floor_app.py`` (a title and a line of text)
   loaded bare, with one three-row table and with one three-point Plotly chart, interleaved. Their
   ratios are what a page that draws a table or a chart only when it has data (every page but home)
   pays on loaded/empty at any size.

Last, ``benchmarks/bench_inspect.py`` is run for ``inspect --json`` at a tenth of and at the big thread's
size. It prints min and median per page and database, the ratios of the medians (loaded / empty,
small / empty and loaded / small), and every goal with whether it is met:

* browser: every page, loaded with 10,000 threads and the big thread, within 1.5× its empty time
  (the goal as it is written) and, judged apart, within 1.5× its small time (the growth with the data);
* a rerun after a keystroke under 50 ms server-side at 10,000 threads;
* ``inspect`` of the big thread linear (10× the checkpoints ≤ 12× the time) and under 100 MB.

A goal stated at 10,000 is judged only at that size; smaller runs print their figures for reference.
The machine's load average is printed before, between and after, to read the figures by.

Usage::

    python benchmarks/bench_pages.py [--threads 1000,10000] [--repeat 2] [--quick] [--pages home,robot]
        [--no-server] [--no-browser] [--no-inspect] [--timeout 180] [--big-checkpoints 10000] [--data-dir DIR]
"""

from __future__ import annotations

import argparse
import functools
import gc
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from contextlib import ExitStack
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

os.environ["HITL_MODEL_LATENCY"] = "0"
# AppTest's bare-mode warnings (a label read outside a run): Streamlit sets its level from its config.
os.environ.setdefault("STREAMLIT_LOGGER_LEVEL", "error")
ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from streamlit.components.v2.component_manager import BidiComponentManager  # noqa: E402
from streamlit.logger import set_log_level  # noqa: E402
from streamlit.testing.v1 import AppTest  # noqa: E402

from benchmarks._browser import (  # noqa: E402
    chromium,
    keystroke_ms,
    new_context,
    page_ready_ms,
    serve_dashboard,
    server_runs,
)
from benchmarks._data import BIG_THREAD, PLANS, built_database, planned_threads  # noqa: E402
from dashboard.i18n import t  # noqa: E402
from dashboard.navigation import pages  # noqa: E402

APP_FILE = str(ROOT / "streamlit_app.py")
RUN_TIMEOUT_S = 900.0  # one AppTest run
BROWSER_RATIO_GOAL = 1.5
KEYSTROKE_GOAL_MS = 50.0
GOAL_THREADS = 10_000
#: ``bench_inspect.py`` takes each size's fastest of this many runs at least: a ratio of two minima of
#: two runs each moved from 9.9 to 15.3 between two runs of this benchmark on a busy machine.
INSPECT_REPEAT = 5
#: The small database: one thread of every plan of every agent (round-robin covers each once), and a
#: ``robot-big`` of a few checkpoints (its fork and copy included).
SMALL_THREADS = sum(len(plans) for plans in PLANS.values())
SMALL_BIG_CHECKPOINTS = 20
DATABASES = ("empty", "small", "loaded")
#: Pages opened on the big thread; the others open as they are.
ON_BIG_THREAD = ("robot", "explorer", "timeline")


@dataclass(frozen=True)
class Page:
    """A page as the benchmark opens it: its name (its URL path), script, and query parameters."""

    name: str
    path: str
    query: dict[str, str]
    default: bool  # the navigation's default page, served at the root

    def url(self, base: str) -> str:
        query = "&".join(f"{key}={value}" for key, value in self.query.items())
        return f"{base}/{'' if self.default else self.name}{'?' + query if query else ''}"


def dashboard_pages(names: list[str] | None) -> list[Page]:
    entries = pages()
    found = [
        Page(e.url_path, e.path, {"thread": BIG_THREAD} if e.url_path in ON_BIG_THREAD else {}, index == 0)
        for index, e in enumerate(entries)
        if names is None or e.url_path in names
    ]
    if names is not None and len(found) != len(names):
        raise SystemExit(f"unknown page in {names}; the pages are {[e.url_path for e in entries]}")
    return found


@dataclass
class Samples:
    """The times (ms) of one page on one database, and its first run."""

    first: float | None = None
    times: list[float] = field(default_factory=list)
    error: str = ""

    def add(self, measure: Callable[[], float]) -> None:
        if self.error:
            return
        try:
            value = measure()
        except Exception as error:  # shown in the table; the other pages go on
            self.error = f"{type(error).__name__}: {error}".splitlines()[0][:160]
            return
        if self.first is None:
            self.first = value
        else:
            self.times.append(value)

    def median(self) -> float | None:
        return statistics.median(self.times) if self.times else None

    def text(self) -> str:
        if self.error:
            return f"ERROR {self.error}"
        if not self.times:
            return "—"
        return f"{min(self.times):10.0f} {self.median():7.0f}"


# --- Server side ------------------------------------------------------------------------------------


@functools.cache
def components() -> BidiComponentManager:
    """The installed Streamlit components, found once (each AppTest would scan every package again)."""
    manager = BidiComponentManager()
    manager.discover_and_register_components(start_file_watching=False)
    return manager


def app_test(location: Path, page: Page) -> AppTest:
    """A fresh AppTest session of the frame, pointed at ``location`` and switched to ``page``."""
    os.environ["HITL_DB"] = str(location)  # the dashboard reads its settings on every call
    at = AppTest.from_file(APP_FILE, default_timeout=RUN_TIMEOUT_S)
    at._bidi_component_manager = components()  # AppTest's own slot for it (Streamlit 1.67)
    for key, value in page.query.items():
        at.query_params[key] = value
    if page.default:
        return at
    if Path(page.path).stem != page.name:
        at.run()  # before the first run a page is found by its file name only
    at.switch_page(page.path)
    return at


def timed_run(at: AppTest) -> float:
    gc.collect()  # start each run clean; the collector stays on while it runs
    started = time.perf_counter()
    at.run()
    elapsed = (time.perf_counter() - started) * 1000
    if at.exception:
        raise RuntimeError(at.exception[0].message)
    return elapsed


def server_side(locations: dict[str, Path], page_list: list[Page], repeat: int) -> dict[str, dict[str, Samples]]:
    """page → database → samples, the databases interleaved on every round."""
    results = {p.name: {db: Samples() for db in locations} for p in page_list}
    for _round in range(repeat + 1):  # round 0 is each page's first run
        for page in page_list:
            for db, location in locations.items():
                results[page.name][db].add(lambda location=location, page=page: timed_run(app_test(location, page)))
    return results


def _text_input(at: AppTest, key: str, label_key: str) -> Any:
    """The text input with this key, or (when the page has renamed its key) the one with this label."""
    for widget in at.text_input:
        if widget.key == key:
            return widget
    label = t(label_key)  # outside a script run: the default language
    for widget in at.text_input:
        if widget.label == label:
            return widget
    raise LookupError(f"no text input {key!r} or labelled {label!r}; have {[w.key for w in at.text_input]}")


def keystrokes(location: Path, threads: int, repeat: int) -> dict[str, Samples]:
    """The rerun after a keystroke: the refund approver and the robot's free answer, interleaved."""
    planned = planned_threads(threads)
    waiting = {
        agent: next(tid for tid, owner, plan in planned if owner == agent and plan.name == "waiting")
        for agent in ("refund", "robot")
    }
    forms = {
        "refund approver": ("refund", waiting["refund"], "refund-approver", "field.approver"),
        "robot free answer": ("robot", waiting["robot"], "robot-free-text", "robot.free_answer"),
    }
    opened: dict[str, AppTest] = {}
    for name, (page_name, thread_id, _key, _label) in forms.items():
        page = next(p for p in dashboard_pages([page_name]))
        at = app_test(location, Page(page.name, page.path, {"thread": thread_id}, page.default))
        timed_run(at)
        opened[name] = at
    results = {name: Samples() for name in forms}
    for index in range(repeat * 3 + 1):  # reruns are short: more of them
        for name, (_page, _thread, key, label) in forms.items():
            at = opened[name]
            os.environ["HITL_DB"] = str(location)
            results[name].add(
                lambda at=at, key=key, label=label, value=f"kim {index}": timed_input(at, key, label, value)
            )
    return results


def timed_input(at: AppTest, key: str, label: str, value: str) -> float:
    _text_input(at, key, label).input(value)
    return timed_run(at)


# --- Browser ----------------------------------------------------------------------------------------


def browser_side(
    locations: dict[str, Path], page_list: list[Page], repeat: int, timeout_s: float
) -> dict[str, dict[str, Samples]]:
    """page → database → page-ready samples in Chromium, one server per database, interleaved.

    A load not ready within ``timeout_s`` is the page's error, and that page is not loaded again there.
    """
    results = {p.name: {db: Samples() for db in locations} for p in page_list}
    with ExitStack() as servers:
        urls = {db: servers.enter_context(serve_dashboard(location)) for db, location in locations.items()}
        with chromium() as browser:
            contexts = {db: new_context(browser) for db in locations}
            for _round in range(repeat + 1):  # round 0: each page's first load on each server
                for page in page_list:
                    for db in locations:
                        url, context = page.url(urls[db]), contexts[db]
                        results[page.name][db].add(lambda u=url, c=context: page_ready_ms(c, u, timeout_s))
    return results


FLOOR_APP = "benchmarks/_floor_app.py"
#: The floor page's loads: name → query.
FLOORS = {"without": "", "with a table": "?table=1", "with a chart": "?chart=1"}


def floors(location: Path, repeat: int, timeout_s: float) -> dict[str, tuple[str, None]]:
    """The least a table and a chart add to page-ready: ``_floor_app.py`` bare, with a table, with a chart.

    One server, one browser context (so the cache holds the grid's and Plotly's code, as for the
    dashboard's pages), the three loads interleaved, after a first load of each; twice the rounds of a
    page, since they are quick and close. Prints the figures; returns the two ratios as goal lines (for
    reference).
    """
    found = {name: Samples() for name in FLOORS}
    with serve_dashboard(location, script=FLOOR_APP) as url, chromium() as browser:
        context = new_context(browser)
        for _round in range(2 * repeat + 1):
            for name, query in FLOORS.items():
                found[name].add(lambda u=f"{url}/{query}": page_ready_ms(context, u, timeout_s))
    print("\nthe least a table and a chart cost (Chromium), ms: a title and a line of text, bare and with one")
    for name, samples in found.items():
        print(f"{name:<14} first {samples.first or 0:6.0f}   min/median {samples.text()}")
    lines = {}
    errors = " ".join(samples.error for samples in found.values() if samples.error)[:40]
    for name, what in (("with a table", "one table (st.dataframe)"), ("with a chart", "one Plotly chart")):
        ratio = ratio_of(found, name, "without")
        lines[f"browser floor: {what} / the same page without"] = (f"{ratio:.2f}" if ratio else errors or "—", None)
    print(
        "a page that draws a table or a chart only when it has data (all but home, on the empty database)"
        " pays its floor on loaded/empty, whatever the data's size"
    )
    return lines


def browser_keystrokes(
    location: Path, threads: int, repeat: int, timeout_s: float, scratch: Path
) -> dict[str, tuple[Samples, Samples, str]]:
    """The same keystrokes in Chromium, each timed twice: on the server and as the user waits.

    AppTest reruns the whole page on every input; a browser reruns only the fragment the field is in
    (the refund page's selected case). The server's time is its script run for the key press (the
    server is started by ``benchmarks/_timed_streamlit.py``); the user's is from the key press to
    the end of that run in the page, round trip and drawing included.

    Returns:
        Per field: (server samples, browser samples, the kind of run a key press caused).
    """
    planned = planned_threads(threads)
    waiting = {
        agent: next(tid for tid, owner, plan in planned if owner == agent and plan.name == "waiting")
        for agent in ("refund", "robot")
    }
    forms = {
        "refund approver": ("refund", waiting["refund"], "field.approver"),
        "robot free answer": ("robot", waiting["robot"], "robot.free_answer"),
    }
    timings = scratch / f"runs-{threads}.txt"
    results: dict[str, tuple[Samples, Samples, str]] = {}
    with serve_dashboard(location, timings=timings) as url, chromium() as browser:
        context = new_context(browser)
        for name, (page_name, thread_id, label_key) in forms.items():
            server, user, kinds = Samples(), Samples(), set()
            values = [f"kim {index}" for index in range(repeat * 3 + 1)]
            try:
                url_of = f"{url}/{page_name}?thread={thread_id}"
                times, first = keystroke_ms(
                    context, url_of, t(label_key), values, timeout_s, lambda: len(server_runs(timings))
                )
            except Exception as error:  # a missed goal, reported with its reason
                server.error = user.error = f"{type(error).__name__}: {error}".splitlines()[0][:60]
                times, first = [], len(server_runs(timings))
            for kind, ms in server_runs(timings)[first:]:  # the key presses' runs, in order
                kinds.add(kind)
                server.add(lambda ms=ms: ms)
            for ms in times:
                user.add(lambda ms=ms: ms)
            results[name] = (server, user, "/".join(sorted(kinds)))
    return results


# --- inspect ----------------------------------------------------------------------------------------


def inspect_goals(big_checkpoints: int, repeat: int) -> dict[str, tuple[str, bool | None]]:
    """Runs bench_inspect.py at a tenth of and at the big thread's size; its goals as (figure, met)."""
    command = [sys.executable, str(ROOT / "benchmarks" / "bench_inspect.py")]
    command += ["--checkpoints", str(big_checkpoints // 10), "--repeat", str(repeat)]
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, check=False)
    print(f"\n$ {' '.join(command[1:])}\n{done.stdout}{done.stderr}", end="")
    ratio = re.search(r"a\(10N\)/a\(N\) = +([\d.]+).*?(met|MISSED)", done.stdout)
    memory = re.search(r"10N ([\d.]+) MiB.*?(met|MISSED|not judged)", done.stdout)
    return {
        "inspect linear: time(10N)/time(N) <= 12": (ratio[1], ratio[2] == "met") if ratio else ("failed", False),
        f"inspect of {big_checkpoints} checkpoints < 100 MB (tracemalloc)": (
            (f"{memory[1]} MiB", None if memory[2] == "not judged" else memory[2] == "met")
            if memory
            else ("failed", False)
        ),
    }


# --- Report -----------------------------------------------------------------------------------------


def verdict(met: bool | None) -> str:
    return {True: "met", False: "MISSED", None: "for reference"}[met]


#: The ratios each table prints: (name, numerator, denominator).
RATIOS = (("loaded/empty", "loaded", "empty"), ("small/empty", "small", "empty"), ("loaded/small", "loaded", "small"))
#: The browser goals: each is judged at 10,000 threads, apart from the other.
BROWSER_GOALS = ("loaded/empty", "loaded/small")


def ratio_of(by_db: dict[str, Samples], numerator: str, denominator: str) -> float | None:
    top, bottom = by_db[numerator].median(), by_db[denominator].median()
    return top / bottom if top and bottom else None


def page_table(title: str, results: dict[str, dict[str, Samples]], goal: float | None, judged: bool) -> dict:
    """Prints one table; returns page → ratio name → (ratio, met) for the goals (``BROWSER_GOALS``)."""
    print(f"\n{title}")
    print(
        f"{'page':<10} {'first: empty':>12} {'small':>6} {'loaded':>7}"
        + "".join(f"   {db + ' min':>10} {'median':>7}" for db in DATABASES)
        + "".join(f"   {name:>12}" for name, _top, _bottom in RATIOS)
        + ("  goals" if goal is not None else "")
    )
    ratios = {}
    for name, by_db in results.items():
        firsts = [f"{by_db[db].first:.0f}" if by_db[db].first is not None else "—" for db in DATABASES]
        row = {ratio: ratio_of(by_db, top, bottom) for ratio, top, bottom in RATIOS}
        verdicts = {}
        for ratio in BROWSER_GOALS if goal is not None else ():
            value, failed = row[ratio], by_db["loaded"].error
            verdicts[ratio] = (value, value <= goal if value is not None else False if failed else None)
        goal_text = "  ".join(f"{ratio} {verdict(met if judged else None)}" for ratio, (_v, met) in verdicts.items())
        print(
            f"{name:<10} {firsts[0]:>12} {firsts[1]:>6} {firsts[2]:>7}"
            + "".join(f"   {by_db[db].text():>18}" for db in DATABASES)
            + "".join(f"   {f'{value:.2f}' if value else '—':>12}" for value in row.values())
            + (f"  <= {goal}: {goal_text}" if goal is not None else "")
        )
        ratios[name] = verdicts
    return ratios


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--threads", default="1000,10000", help="comma-separated numbers of mixed threads")
    parser.add_argument("--repeat", type=int, default=2, help="measured runs per page and database")
    parser.add_argument("--big-checkpoints", type=int, default=10_000)
    parser.add_argument("--server", action=argparse.BooleanOptionalAction, default=True, help="AppTest, keystrokes")
    parser.add_argument("--browser", action=argparse.BooleanOptionalAction, default=True)
    parser.add_argument("--inspect", action=argparse.BooleanOptionalAction, default=True, help="bench_inspect.py")
    parser.add_argument("--timeout", type=float, default=180.0, help="seconds a browser load may take")
    parser.add_argument("--quick", action="store_true", help="100 threads, a 1,000-checkpoint big thread, 1 repeat")
    parser.add_argument("--data-dir", type=Path, help="keep the built databases here and reuse them")
    parser.add_argument("--pages", help="comma-separated page names (default: all)")
    args = parser.parse_args()
    set_log_level(os.environ["STREAMLIT_LOGGER_LEVEL"])  # the loggers made before the config was read
    if args.quick:
        args.threads, args.big_checkpoints, args.repeat = "100", 1_000, 1
    sizes = [int(n.replace("_", "")) for n in args.threads.split(",")]
    page_list = dashboard_pages(args.pages.split(",") if args.pages else None)
    print(f"load before: {os.getloadavg()[0]:.2f} {os.getloadavg()[1]:.2f} {os.getloadavg()[2]:.2f} (1, 5, 15 min)")
    goals: dict[str, tuple[str, bool | None]] = {}
    with tempfile.TemporaryDirectory(prefix="bench-pages-") as scratch:
        folder = args.data_dir or Path(scratch)
        empty = built_database(folder, 0, 0)
        small = built_database(folder, SMALL_THREADS, SMALL_BIG_CHECKPOINTS)
        if args.browser:  # the same at every size: measured once, before the pages
            goals.update(floors(empty, args.repeat, args.timeout))
        for threads in sizes:
            loaded = built_database(folder, threads, args.big_checkpoints)
            locations = {"empty": empty, "small": small, "loaded": loaded}
            judged = threads >= GOAL_THREADS and args.big_checkpoints >= GOAL_THREADS
            label = f"{threads} threads + {BIG_THREAD} ({args.big_checkpoints} checkpoints)"
            if args.server:
                server = server_side(locations, page_list, args.repeat)
                page_table(f"server side (AppTest), ms, {label} vs small and empty", server, None, judged)
                print(f"\nrerun after a keystroke (AppTest), ms, {label}")
            for name, samples in keystrokes(loaded, threads, args.repeat).items() if args.server else ():
                best = samples.median()
                met = best is not None and best < KEYSTROKE_GOAL_MS
                print(f"{name:<18} first {samples.first or 0:6.0f}   min/median {samples.text()}   goal < 50 ms")
                goals[f"keystroke rerun < 50 ms, {name}, {threads} threads"] = (
                    f"{best:.0f} ms" if best is not None else samples.error,
                    met if judged else None,
                )
            if args.browser:
                print(f"\nrerun after a keystroke in Chromium, ms, {label}")
                keyed = browser_keystrokes(loaded, threads, args.repeat, args.timeout, folder)
                for name, (server, user, kind) in keyed.items():
                    print(f"{name:<18} {kind or '?':<8} server min/median {server.text()}   user {user.text()}")
                    best = server.median()
                    goals[f"keystroke rerun < 50 ms, {name}, served ({kind}), {threads} threads"] = (
                        f"{best:.0f} ms" if best is not None else server.error,
                        (best is not None and best < KEYSTROKE_GOAL_MS) if judged else None,
                    )
                shown = browser_side(locations, page_list, args.repeat, args.timeout)
                title = f"browser page-ready (Chromium), ms, {label} vs small and empty"
                ratios = page_table(title, shown, BROWSER_RATIO_GOAL, judged)
                for name, verdicts in ratios.items():
                    errors = " ".join(shown[name][db].error for db in DATABASES if shown[name][db].error)
                    for ratio_name, (ratio, met) in verdicts.items():
                        goals[f"browser {name} {ratio_name} <= 1.5, {threads} threads"] = (
                            f"{ratio:.2f}" if ratio else errors[:40],
                            met if judged else None,
                        )
            print(f"\nload: {os.getloadavg()[0]:.2f} {os.getloadavg()[1]:.2f} {os.getloadavg()[2]:.2f}")
        if args.inspect:
            goals.update(inspect_goals(args.big_checkpoints, max(args.repeat, INSPECT_REPEAT)))
    print("\ngoals")
    for name, (figure, met) in goals.items():
        print(f"  {name:<72} {figure:>12}  {verdict(met)}")
    print(f"load after: {os.getloadavg()[0]:.2f} {os.getloadavg()[1]:.2f} {os.getloadavg()[2]:.2f} (1, 5, 15 min)")


if __name__ == "__main__":
    main()
