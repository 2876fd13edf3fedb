"""``streamlit run`` with each script run timed on the server, for the page benchmark's keystrokes.

Run as ``python benchmarks/_timed_streamlit.py <file of timings> run streamlit_app.py ...``: every
finished run (a whole page's, or a fragment's alone) appends ``<kind> <milliseconds>`` to the file,
where kind is ``fragment`` or ``page``. Only the benchmark uses it; the dashboard runs plain Streamlit.
"""

from __future__ import annotations

import sys
import time
from typing import Any

from streamlit.runtime.scriptrunner.script_runner import ScriptRunner
from streamlit.web.cli import main

TIMINGS = sys.argv.pop(1)
_run_script = ScriptRunner._run_script


def _timed(self: Any, rerun_data: Any) -> None:
    started = time.perf_counter()
    try:
        _run_script(self, rerun_data)
    finally:
        kind = "fragment" if rerun_data.fragment_id_queue else "page"
        with open(TIMINGS, "a", encoding="utf-8") as out:
            out.write(f"{kind} {(time.perf_counter() - started) * 1000:.2f}\n")


ScriptRunner._run_script = _timed  # type: ignore[method-assign]

if __name__ == "__main__":
    sys.exit(main())
