"""``langgraph.json`` names every registered agent's graph, built by the dashboard's own factories."""

from __future__ import annotations

import importlib.util
import json

from langgraph.graph.state import CompiledStateGraph

from agents.registry import AGENTS
from tests.conftest import PROJECT_ROOT


def test_langgraph_json_points_at_every_registered_agent_graph(db_location):
    config = json.loads((PROJECT_ROOT / "langgraph.json").read_text())
    assert set(config["graphs"]) == set(AGENTS)
    for name, target in config["graphs"].items():
        path, _, attribute = target.partition(":")
        spec = importlib.util.spec_from_file_location(f"langgraph_app_{name}", PROJECT_ROOT / path)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        assert module._store.cache_info().currsize == 0  # importing opened nothing
        graph = getattr(module, attribute)  # opens the test's database (HITL_DB), like the tooling would
        assert isinstance(graph, CompiledStateGraph)
        assert graph.checkpointer is module._store().saver
        assert set(graph.nodes) >= {"__start__"} and len(graph.nodes) > 2
        module._store().close()
