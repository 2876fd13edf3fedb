"""A run's ``context`` (LangGraph's runtime context, sent by the SDKs' ``runs.create(..., context=...)``).

LangGraph's server hands a run's ``context`` to the graph as its runtime context (filtered by the
graph's context schema, when it has one) and mirrors it into ``configurable``. None of this project's
agents declares a context schema, so there is nothing to hand a context to: a non-empty one is
refused, naming ``context`` and the agent, rather than dropped unseen. An empty one (``{}``) or none
passes, as does ``config`` without ``configurable``; ``context`` beside ``config.configurable`` is
refused, as LangGraph's server refuses it.

The run's other options are taken as LangGraph's server takes them where this server can honour them
(:func:`run_options`: ``metadata`` into every checkpoint the run writes, ``config.recursion_limit`` as the
graph's step limit) and refused, naming the field, where it cannot: a ``webhook`` (this server makes no
outbound calls) and ``after_seconds`` (a run starts at once).
"""

from __future__ import annotations

from typing import Any

from agents import runtime
from agents.db import Store
from agents.errors import InputError
from agents.runs import RunOptions
from agents.settings import Settings
from agents.spec import AgentSpec
from agents.strings import STRINGS
from agents.texts import text
from agents.validation import check_json_value

#: The largest run ``metadata`` taken (as ``threads.create``'s): it is written into every checkpoint of the run.
METADATA_MAX_BYTES = 16 * 1024


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


def run_options(*, webhook: Any, after_seconds: Any, config: Any, metadata: Any) -> RunOptions:
    """A run request's options as LangGraph's server honours them, or refused (see the module's docstring).

    ``metadata`` goes into the run's checkpoints beside the run's own keys (which it may not name);
    ``config.recursion_limit`` becomes the graph's step limit. An empty ``webhook`` and ``after_seconds``
    0 ask nothing.

    Raises:
        InputError: Naming ``webhook``, ``after_seconds``, ``metadata`` (or one of its keys) or
            ``config.recursion_limit``.
    """
    if webhook is not None and webhook != "":
        raise InputError("webhook", text(STRINGS, "api.error.webhook"))
    if after_seconds is not None and (isinstance(after_seconds, bool) or after_seconds != 0):
        raise InputError("after_seconds", text(STRINGS, "api.error.after_seconds", got=repr(after_seconds)))
    limit = config.get("recursion_limit") if isinstance(config, dict) else None
    given = check_json_value(metadata or {}, "metadata", max_bytes=METADATA_MAX_BYTES)
    return RunOptions(metadata=dict(given), recursion_limit=limit)
