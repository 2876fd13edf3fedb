"""``langgraph.json`` names a graph factory per agent, as LangGraph's server looks them up.

The server imports the file by its path and reads the name from the module's namespace (not through
``getattr``); it then calls the factory with the run's config, its own checkpointer in it.
``tests/ecosystem/test_langgraph_dev.py`` runs the real server on them.
"""

from __future__ import annotations

import asyncio
import importlib.util
import inspect
import json
from collections.abc import Iterator
from types import ModuleType

import pytest
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.constants import CONFIG_KEY_CHECKPOINTER

from agents import readmodel, runtime
from agents.nodelog import node_runs
from agents.registry import AGENTS
from tests.conftest import PROJECT_ROOT


@pytest.fixture(autouse=True)
def fresh_runtime(db_location: str) -> Iterator[None]:
    """The process's configured store, opened afresh on this test's database and closed after it."""
    runtime.configured.cache_clear()
    yield
    if runtime.configured.cache_info().currsize:
        runtime.configured()[1].close()
    runtime.configured.cache_clear()


def _load_as_the_server_does(path: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location("served_langgraph_app", PROJECT_ROOT / path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_langgraph_json_names_a_factory_per_agent_in_the_modules_namespace():
    config = json.loads((PROJECT_ROOT / "langgraph.json").read_text())
    assert set(config["graphs"]) == set(AGENTS)
    for name, target in config["graphs"].items():
        path, _, variable = target.partition(":")
        assert (path, variable) == ("./agents/langgraph_app.py", name)
        module = _load_as_the_server_does(path)
        assert runtime.configured.cache_info().currsize == 0  # importing opened nothing
        factory = module.__dict__[variable]
        assert inspect.iscoroutinefunction(factory)
        assert list(inspect.signature(factory).parameters) == ["config"]  # the server passes the run's config
        assert runtime.configured.cache_info().currsize == 0


def test_a_factory_builds_on_the_servers_checkpointer_and_logs_to_the_configured_database(store):
    module = _load_as_the_server_does("agents/langgraph_app.py")
    server_saver = InMemorySaver()
    graph = asyncio.run(module.robot({"configurable": {CONFIG_KEY_CHECKPOINTER: server_saver}}))
    assert graph.checkpointer is server_saver
    run = {"configurable": {"thread_id": "served-1"}}
    waiting = graph.invoke({"messages": [("human", "Start the task")]}, run)
    assert waiting["__interrupt__"]
    assert server_saver.get_tuple(run) is not None  # saved by the server's checkpointer
    assert graph.get_state(run).metadata["agent"] == "robot"
    assert readmodel.thread_agent(store, "served-1") is None  # not in the project's checkpoints
    assert [row["node"] for row in node_runs(store, thread_id="served-1")] == ["propose", "approval"]
    again = asyncio.run(module.robot({"configurable": {CONFIG_KEY_CHECKPOINTER: server_saver}}))
    assert again.checkpointer is server_saver and set(again.nodes) == set(graph.nodes)


def test_every_copy_of_the_module_shares_the_processs_one_store():
    """LangGraph's server loads the file once per graph it names; a second SQLite connection in one
    process would lose its locks (``agents.runtime.configured``)."""
    copies = [_load_as_the_server_does("agents/langgraph_app.py") for _graph in AGENTS]
    saver = InMemorySaver()
    graphs = [
        asyncio.run(copy.__dict__[name]({"configurable": {CONFIG_KEY_CHECKPOINTER: saver}}))
        for copy, name in zip(copies, AGENTS, strict=True)
    ]
    assert [graph.checkpointer for graph in graphs] == [saver] * len(AGENTS)
    assert runtime.configured.cache_info().currsize == 1 and runtime.configured.cache_info().misses == 1
