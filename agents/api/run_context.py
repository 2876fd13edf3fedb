"""A run's ``context`` (LangGraph's runtime context, sent by the SDKs' ``runs.create(..., context=...)``).

LangGraph's server hands a run's ``context`` to the graph as its runtime context (filtered by the
graph's context schema, when it has one) and mirrors it into ``configurable``. None of this project's
agents declares a context schema, so there is nothing to hand a context to: a non-empty one is
refused, naming ``context`` and the agent, rather than dropped unseen. An empty one (``{}``) or none
passes, as does ``config`` without ``configurable``; ``context`` beside ``config.configurable`` is
refused, as LangGraph's server refuses it.
"""

from __future__ import annotations

from typing import Any

from agents import runtime
from agents.db import Store
from agents.errors import InputError
from agents.settings import Settings
from agents.spec import AgentSpec


def check_context(store: Store, settings: Settings, spec: AgentSpec, context: Any, config: Any) -> None:
    """Refuses a run's ``context`` that no agent could take (see the module's docstring).

    Raises:
        InputError: Naming ``context``.
    """
    if context is None or context == {}:
        return
    if not isinstance(context, dict):
        raise InputError("context", "must be a JSON object (the graph's runtime context)")
    if isinstance(config, dict) and (config.get("configurable") or {}):
        raise InputError("context", "give context or config.configurable, not both (context replaces configurable)")
    graph = runtime.graph(store, spec.name, **runtime.graph_options(settings, spec.name))
    if graph.get_context_jsonschema() is None:
        raise InputError(
            "context",
            f"the {spec.name} agent declares no runtime context (its graph has no context schema), "
            "so there is nothing to pass it to; leave context out",
        )
    raise InputError("context", f"the {spec.name} agent's runtime context is not taken by this server; leave it out")
