"""Benchmark: the live pages' check (``dashboard.live``) at 200 and at 10,000 threads.

Every open page asks, every ``HITL_LIVE_REFRESH`` seconds, whether the database changed since it was
drawn (:func:`dashboard.live.redraw_if_changed` reading :meth:`agents.db.Store.live_token`). That
check must cost the same whatever the number of threads. This builds two databases (building is not
timed): one real refund case waiting for an approver and one real robot run, then SQL copies of them
(checkpoints, writes and node log) under new thread ids, to 200 and to 10,000 threads.

Then, the two sizes interleaved round by round with equal repeats, it times on an unchanged database
(what almost every tick does) the frame's check for a page without live parts
(:func:`dashboard.live.redraw_if_changed`) and a live part's check before it draws its kept rows
(:func:`dashboard.live.rows`), checks that both sizes answer the same (no redraw), and prints
each size's median time per check and the ratio time(10,000) / time(200). Goal: about 1 (at most
``GOAL``). With ``--postgres URL`` the same is measured on PostgreSQL, each size in a schema of its own
(dropped afterwards).

Usage::

    python benchmarks/bench_live_check.py [--rounds 30] [--per-round 200] [--postgres URL]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import psycopg  # noqa: E402

from agents import runs  # noqa: E402
from agents.db import Store  # noqa: E402
from agents.runtime import open_store  # noqa: E402
from benchmarks._data import _copy_thread, settings_for  # noqa: E402
from dashboard import live  # noqa: E402

SIZES = (200, 10_000)
GOAL = 1.5


def fill(store: Store, location: str, threads: int) -> None:
    """One real refund case and one real robot run, then copies of them to ``threads`` threads."""
    settings = settings_for(location)
    runs.start_run(store, settings, "refund", {"case_id": "T", "customer": "c", "amount": 500_000, "reason": "r"})
    runs.start_run(store, settings, "robot", {}, thread_id="robot-T")
    if store.backend == "postgres":
        _copy_on_postgres(store, threads - 2)
    else:
        for number in range(threads - 2):
            source = "refund-T" if number % 2 == 0 else "robot-T"
            _copy_thread(store, source, f"{source}-{number}")
    with store.read() as cursor:
        cursor.execute("SELECT COUNT(DISTINCT thread_id) FROM checkpoints")
        row = cursor.fetchone()
    assert row is not None and int(row[0]) == threads, row


def _copy_on_postgres(store: Store, copies: int) -> None:
    """PostgreSQL's saver keeps its own tables (blobs apart): each thread table copied in one statement."""
    with store.transaction() as cursor:
        for table in ("checkpoints", "checkpoint_blobs", "checkpoint_writes", "node_log"):
            cursor.execute(
                "SELECT column_name FROM information_schema.columns"
                " WHERE table_schema = current_schema() AND table_name = ? AND column_name <> 'id'"
                " ORDER BY ordinal_position",
                (table,),
            )
            columns = [str(row[0]) for row in cursor.fetchall()]
            chosen = ", ".join("src.thread_id || '-' || n" if c == "thread_id" else f"src.{c}" for c in columns)
            cursor.execute(
                f"INSERT INTO {table} ({', '.join(columns)}) SELECT {chosen} FROM {table} AS src"
                " CROSS JOIN generate_series(0, ? - 1) AS n WHERE (src.thread_id = 'refund-T' AND mod(n, 2) = 0)"
                " OR (src.thread_id = 'robot-T' AND mod(n, 2) = 1)",
                (copies,),
            )


def time_checks(store: Store, state: dict[str, object], count: int) -> tuple[float, bool]:
    """Seconds per check over ``count`` checks of an unchanged database, and whether any asked to redraw."""
    redrawn = False

    def rerun() -> None:
        nonlocal redrawn
        redrawn = True

    began = time.perf_counter()
    for _ in range(count):
        live.redraw_if_changed(store, state, rerun)
    return (time.perf_counter() - began) / count, redrawn


def time_part_checks(store: Store, state: dict[str, object], count: int) -> tuple[float, bool]:
    """Seconds per run of a live part's check (:func:`dashboard.live.rows` of the inbox) over ``count``
    runs on an unchanged database, and whether any read the inbox again."""
    read_again = False

    def load() -> list[object]:
        nonlocal read_again
        read_again = True
        return []

    began = time.perf_counter()
    for _ in range(count):
        live.rows("inbox", load, store=store, state=state)
    return (time.perf_counter() - began) / count, read_again


@contextmanager
def postgres_schema(url: str) -> Iterator[str]:
    """A fresh schema on the server at ``url``, first on the search path; dropped afterwards."""
    schema = f"bench_live_{uuid.uuid4().hex[:10]}"
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(f"CREATE SCHEMA {schema}")
    separator = "&" if "?" in url else "?"
    try:
        yield f"{url}{separator}options=-csearch_path%3D{schema}"
    finally:
        with psycopg.connect(url, autocommit=True) as conn:
            conn.execute(f"DROP SCHEMA {schema} CASCADE")


def measure(backend: str, locations: dict[int, str], rounds: int, per_round: int) -> bool:
    """Builds, checks and times both sizes on one backend; prints the figures; returns the verdict."""
    stores = {size: open_store(location) for size, location in locations.items()}
    try:
        for size, store in stores.items():
            began = time.perf_counter()
            fill(store, locations[size], size)
            print(f"{backend}: built {size:,} threads in {time.perf_counter() - began:.1f} s")
        verdict = True
        for name, timed in (("page's check", time_checks), ("live part's check", time_part_checks)):
            verdict = _measure_one(backend, name, timed, stores, rounds, per_round) and verdict
        return verdict
    finally:
        for store in stores.values():
            store.close()


def _measure_one(
    backend: str,
    name: str,
    timed: Callable[[Store, dict[str, object], int], tuple[float, bool]],
    stores: dict[int, Store],
    rounds: int,
    per_round: int,
) -> bool:
    """Times one check at both sizes, interleaved; prints the medians and the ratio; returns the verdict."""
    states: dict[int, dict[str, object]] = {size: {} for size in SIZES}
    times: dict[int, list[float]] = {size: [] for size in SIZES}
    for size in SIZES:
        live.mark_drawn(stores[size], states[size])
        timed(stores[size], states[size], per_round)  # warm: the first check opens its connection
    for number in range(rounds):
        order = SIZES if number % 2 == 0 else SIZES[::-1]  # rotate which goes first
        for size in order:
            live.mark_drawn(stores[size], states[size])  # PostgreSQL's snapshot moves with other traffic
            timed(stores[size], states[size], 1)  # the part's rows, read once after the page was drawn
            seconds, redrawn = timed(stores[size], states[size], per_round)
            times[size].append(seconds)
            if redrawn and backend == "sqlite":  # SQLite's token is this file's alone: it must hold still
                raise AssertionError(f"{backend} at {size}: an unchanged database asked for a redraw ({name})")
    small, large = (statistics.median(times[size]) for size in SIZES)
    for size, median in zip(SIZES, (small, large), strict=True):
        print(f"{backend}: {name}: {size:>6,} threads: {median * 1e6:8.1f} µs per check (median of {rounds} rounds)")
    ratio = large / small
    verdict = ratio <= GOAL
    print(
        f"{backend}: {name}: ratio 10,000 / 200 = {ratio:.2f} (goal ≈ 1, at most {GOAL}): "
        f"{'met' if verdict else 'NOT met'}"
    )
    return verdict


def main(argv: list[str] | None = None) -> int:
    """Runs the benchmark on SQLite (and PostgreSQL when given) and prints the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=30, help="interleaved rounds per size (default 30)")
    parser.add_argument("--per-round", type=int, default=200, help="checks per round (default 200)")
    parser.add_argument("--postgres", help="a PostgreSQL server URL to measure on too")
    args = parser.parse_args(argv)
    verdicts = []
    with tempfile.TemporaryDirectory() as temp:
        locations = {size: str(Path(temp) / f"live-{size}.sqlite") for size in SIZES}
        verdicts.append(measure("sqlite", locations, args.rounds, args.per_round))
    if args.postgres:
        with postgres_schema(args.postgres) as small, postgres_schema(args.postgres) as large:
            verdicts.append(
                measure("postgres", dict(zip(SIZES, (small, large), strict=True)), args.rounds, args.per_round)
            )
    return 0 if all(verdicts) else 1


if __name__ == "__main__":
    sys.exit(main())
