"""What a read command costs to start: ``python -m agents threads --json`` on an empty database.

A command is mostly its imports: the database and whatever the command's modules pull in. This
measures, interleaved in one run so the machine's load hits all alike, the wall time of

* ``import langgraph.graph``: ``python -c "import langgraph.graph"``, the yardstick (LangGraph's
  graph module, with LangChain's tracers and LangSmith, is what every agent graph imports);
* ``threads --json``: ``python -m agents threads --json`` of this checkout on an empty database;
* ``threads --json, base``: the same command of another checkout (``--base DIR``, e.g. a
  ``git archive`` of the base commit), on its own empty database, when given.

Each repetition runs every command once, rotating which goes first. It prints each command's median
and minimum, the ratio of ``threads --json`` to the import (median of the paired repetitions), and,
with ``--base``, this checkout's ratio over the base's. The goal: this checkout's command at most 0.6
of the base's. Timings are printed, never asserted; every command must print ``[]`` and exit 0.

Usage::

    python benchmarks/bench_cli_start.py [--repeats 15] [--base DIR]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GOAL = 0.6
IMPORT = "import langgraph.graph"


def _timed(command: list[str], cwd: Path, env: dict[str, str], expect: str | None) -> float:
    """Runs one command; returns its wall seconds (checks its output when ``expect`` is given)."""
    began = time.perf_counter()
    done = subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True, check=False)
    elapsed = time.perf_counter() - began
    if done.returncode != 0 or (expect is not None and done.stdout.strip() != expect):
        raise RuntimeError(f"{command} in {cwd}: exit {done.returncode}: {done.stdout[:200]} {done.stderr[-500:]}")
    return elapsed


def main(argv: list[str] | None = None) -> int:
    """Runs the benchmark and prints the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=15, help="runs per command (default 15)")
    parser.add_argument("--base", help="another checkout whose threads --json to measure beside this one")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as temp:
        base_env = {k: v for k, v in os.environ.items() if not k.startswith("HITL_")}
        commands: dict[str, tuple[list[str], Path, dict[str, str], str | None]] = {
            IMPORT: ([sys.executable, "-c", IMPORT], ROOT, base_env, None),
        }
        checkouts = {"threads --json": ROOT}
        if args.base:
            checkouts["threads --json, base"] = Path(args.base).resolve()
        for index, (name, checkout) in enumerate(checkouts.items()):
            env = {**base_env, "HITL_DB": str(Path(temp) / f"empty-{index}.sqlite"), "PYTHONPATH": str(checkout)}
            commands[name] = ([sys.executable, "-m", "agents", "threads", "--json"], checkout, env, "[]")
        names = list(commands)
        for name in names[1:]:  # the empty database, as the dashboard's first start leaves it
            _, checkout, env, _ = commands[name]
            make = "import os; from agents.runtime import open_store; open_store(os.environ['HITL_DB']).close()"
            _timed([sys.executable, "-c", make], checkout, env, None)
        for name in names:  # warm-up: the page cache, .pyc files
            _timed(*commands[name])
        times: dict[str, list[float]] = {name: [] for name in names}
        for repeat in range(args.repeats):
            shift = repeat % len(names)
            for name in names[shift:] + names[:shift]:
                times[name].append(_timed(*commands[name]))

    print(f"{args.repeats} interleaved repeats, wall seconds per process")
    for name in names:
        print(f"  {name:<22} median {statistics.median(times[name]):.3f} s  min {min(times[name]):.3f} s")
    ratios = {
        name: statistics.median(t / i for t, i in zip(times[name], times[IMPORT], strict=True))
        for name in names
        if name != IMPORT
    }
    for name, ratio in ratios.items():
        print(f"  {name} / {IMPORT}: {ratio:.3f} (median of paired repeats)")
    if "threads --json, base" in ratios:
        change = ratios["threads --json"] / ratios["threads --json, base"]
        verdict = "met" if change <= GOAL else "NOT met"
        print(f"  this checkout / base, each against the import: {change:.3f} (goal <= {GOAL}: {verdict})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
