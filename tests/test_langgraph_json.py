"""``langgraph.json`` names the three graphs, built by the dashboard's own factories."""

from __future__ import annotations

import importlib.util
import json

from langgraph.graph.state import CompiledStateGraph

from agents.registry import agent_names
from tests.conftest import PROJECT_ROOT


def test_langgraph_json_points_at_the_three_module_level_graphs(db_location):
    config = json.loads((PROJECT_ROOT / "langgraph.json").read_text())
    assert set(config["graphs"]) == set(agent_names())
    for name, target in config["graphs"].items():
        path, _, attribute = target.partition(":")
        spec = importlib.util.spec_from_file_location(f"langgraph_app_{name}", PROJECT_ROOT / path)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)  # opens the test's database (HITL_DB), like the tooling would
        graph = getattr(module, attribute)
        assert isinstance(graph, CompiledStateGraph)
        assert graph.checkpointer is module._store.saver
        assert set(graph.nodes) >= {"__start__"} and len(graph.nodes) > 2
        module._store.close()
