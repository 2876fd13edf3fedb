"""Every registered agent's graph as a module attribute, for LangGraph's own tooling (``langgraph.json``).

``langgraph dev`` / LangGraph Studio and the LangGraph server load ``agents/langgraph_app.py:<agent>``.
Importing this module has no side effect: the first attribute read opens the configured database
(``HITL_DB`` or ``data/checkpoints.sqlite``) and builds that agent's graph with the same factory,
settings and node log as the dashboard's. LangGraph's server replaces the checkpointer with its own
when it serves a graph; run through the dashboard or the CLI, the graphs persist to the configured
database. ``tests/agents/test_langgraph_json.py`` keeps ``langgraph.json`` in step with the registry.
"""

from __future__ import annotations

import threading
from functools import cache
from typing import Any

from agents import runtime
from agents.db import Store
from agents.registry import AGENTS

_lock = threading.Lock()


@cache
def _store() -> Store:
    return runtime.open_store(runtime.load_settings().db)


def __getattr__(name: str) -> Any:
    """``langgraph_app.<agent>``: the agent's compiled graph, built on first use.

    Bound to the agent's name in each checkpoint's metadata, as the dashboard's runs are, so a thread
    this tooling starts in the project's database belongs to the agent: it is listed, answered and
    continued from every page and command like the others.
    """
    if name not in AGENTS:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    with _lock:
        store = _store()
        graph = runtime.graph(store, name, **runtime.graph_options(runtime.load_settings(), name))
        return graph.with_config(metadata={"agent": name})


def __dir__() -> list[str]:
    return sorted([*globals(), *AGENTS])
