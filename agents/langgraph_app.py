"""The three graphs at module level, for LangGraph's own tooling (``langgraph.json``).

``langgraph dev`` / LangGraph Studio and the LangGraph server load these
names. They are built by the same factories as the dashboard's, on the
configured database (``HITL_DB`` or ``data/checkpoints.sqlite``), so their
nodes write the same node log. LangGraph's server replaces the checkpointer
with its own when it serves a graph; run through the dashboard or the CLI,
the graphs persist to the configured database.
"""

from agents.db import open_store
from agents.registry import get_agent
from agents.settings import load_settings

_settings = load_settings()
_store = open_store(_settings.db)


def _graph(name: str):  # noqa: ANN202 - the compiled graph type is LangGraph's
    return _store.graph(name, **get_agent(name).options_from_settings(_settings))


robot = _graph("robot")
refund = _graph("refund")
lecture = _graph("lecture")
