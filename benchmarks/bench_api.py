"""The HTTP API's added cost per call, against calling ``runs`` directly, in one run.

Two operations, each measured both ways on the same kind of database (one SQLite file per way,
fresh for the run) and the same code path below the API (:mod:`agents.runs`):

* a robot run plus its resume: ``runs.start_run`` + ``runs.resume_thread("yes")`` directly, and
  ``POST /threads/{id}/runs/wait`` twice (input, then ``command={"resume": "yes"}``) over HTTP;
* ``get_state``: ``runs.thread_snapshot`` directly, and ``GET /threads/{id}/state`` over HTTP.

The server is ``python -m agents serve`` on a free loopback port (the way it is deployed: its own
process, uvicorn, the FastAPI app), and the client a kept-alive ``httpx.Client`` (as the SDK uses).
The repeats interleave the two ways, alternating which goes first, so drift hits both alike. It
prints each way's min and median, the ratio API / direct, and the added milliseconds per call.

Usage::

    python benchmarks/bench_api.py [--repeats 15] [--dir DIR]

Timings are printed, never asserted.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import httpx  # noqa: E402

from agents import runs  # noqa: E402
from agents.runtime import load_settings, open_store  # noqa: E402
from tests.serving import free_port  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent


def start_server(db: Path) -> tuple[subprocess.Popen[str], str]:
    """Starts the server and returns once it answers ``/ok`` (it waits on the server's log, no sleeps)."""
    port = free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith("HITL_")}
    env.update(HITL_DB=str(db), HITL_MODEL_LATENCY="0", PYTHONUNBUFFERED="1")
    process = subprocess.Popen(
        [sys.executable, "-m", "agents", "serve", "--port", str(port)],
        cwd=ROOT,
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    listening = threading.Event()

    def drain() -> None:
        assert process.stdout is not None
        for line in process.stdout:
            if "Uvicorn running on" in line:
                listening.set()
        listening.set()

    threading.Thread(target=drain, daemon=True).start()
    listening.wait()
    url = f"http://127.0.0.1:{port}"
    try:  # uvicorn prints that line once its socket listens: one request is taken at once
        if httpx.get(f"{url}/ok", timeout=60).status_code == 200:
            return process, url
    except httpx.TransportError:
        pass
    process.kill()
    raise SystemExit("the server did not answer /ok")


def _timed(call: Callable[[], object]) -> float:
    started = time.perf_counter()
    call()
    return time.perf_counter() - started


def _line(name: str, direct: list[float], api: list[float], calls: int) -> str:
    d_med, a_med = statistics.median(direct), statistics.median(api)
    added = (a_med - d_med) / calls * 1000
    return (
        f"{name:<26} direct min {min(direct) * 1000:7.2f} ms  median {d_med * 1000:7.2f} ms | "
        f"API min {min(api) * 1000:7.2f} ms  median {a_med * 1000:7.2f} ms | "
        f"ratio {a_med / d_med:5.2f} | added {added:6.2f} ms per call"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=15)
    parser.add_argument("--dir", help="folder for the databases (default: a temporary one)")
    args = parser.parse_args()
    folder = Path(args.dir) if args.dir else Path(tempfile.mkdtemp(prefix="bench-api-"))
    folder.mkdir(parents=True, exist_ok=True)
    direct_db, api_db = folder / "direct.sqlite", folder / "api.sqlite"
    for path in (direct_db, api_db):
        path.unlink(missing_ok=True)

    os.environ["HITL_MODEL_LATENCY"] = "0"
    settings = load_settings(db_override=str(direct_db), secrets={})
    store = open_store(direct_db)
    process, url = start_server(api_db)
    timings: dict[str, list[float]] = {key: [] for key in ("run_direct", "run_api", "state_direct", "state_api")}
    try:
        with httpx.Client(base_url=url, timeout=120) as http:

            def run_direct(thread: str) -> None:
                runs.start_run(store, settings, "robot", {}, thread_id=thread)
                runs.resume_thread(store, settings, thread, "yes")

            def run_api(thread: str) -> None:
                start = {"assistant_id": "robot", "input": {}, "if_not_exists": "create"}
                http.post(f"/threads/{thread}/runs/wait", json=start).raise_for_status()
                resume = {"assistant_id": "robot", "command": {"resume": "yes"}}
                http.post(f"/threads/{thread}/runs/wait", json=resume).raise_for_status()

            def state_direct() -> None:
                runs.thread_snapshot(store, settings, "bench-warm")

            def state_api() -> None:
                http.get("/threads/bench-warm/state").raise_for_status()

            run_direct("bench-warm")  # the first call of each way builds the graph and warms the caches
            run_api("bench-warm")
            for repeat in range(args.repeats):
                direct_thread, api_thread = f"d{repeat}", f"a{repeat}"
                pairs = [
                    ("run_direct", lambda name=direct_thread: run_direct(name)),
                    ("run_api", lambda name=api_thread: run_api(name)),
                ]
                pairs += [("state_direct", state_direct), ("state_api", state_api)]
                if repeat % 2:
                    pairs = [pairs[1], pairs[0], pairs[3], pairs[2]]
                for key, call in pairs:
                    timings[key].append(_timed(call))
    finally:
        process.terminate()
        process.wait(timeout=30)
        store.close()
    print(f"robot run + resume and get_state, {args.repeats} interleaved repeats, server {url}")
    print(_line("robot run + resume (2)", timings["run_direct"], timings["run_api"], 2))
    print(_line("get_state (1)", timings["state_direct"], timings["state_api"], 1))


if __name__ == "__main__":
    main()
