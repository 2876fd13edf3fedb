"""One graph factory per registered agent, for LangGraph's own server (``langgraph.json``).

``langgraph dev``, LangGraph Studio and a LangGraph deployment load ``agents/langgraph_app.py:<agent>``:
an async function of the run's config, which the server calls whenever it needs the graph (a run, a
state read, the schemas) and whose graph it then runs on its own checkpointer. A factory rather than a
compiled graph, because the server refuses a compiled graph that carries a checkpointer, and every
agent's ``build_graph`` requires one (``agents.common.require_checkpointer``): the factory builds on the
checkpointer the server hands in with the config. Threads run there are therefore saved by that
server, in its own storage; the dashboard, the CLI and ``python -m agents serve`` keep building their
graphs on the configured database (``agents.runtime.graph``).

What an agent keeps outside its checkpoints still goes to the configured database (``HITL_DB`` or
``data/checkpoints.sqlite``), as on every other path: the node log, and the refund ledger, so a case is
paid once whichever server runs it. That database is opened by the first call, in a worker thread (the
development server refuses blocking calls on its event loop), never at import. A config without a
checkpointer (a script calling a factory itself; a stateless run, for which the server then drops the
checkpointer) gets the graph on the configured database, as the CLI's runs have it.

Each graph is bound to its agent's name in every checkpoint's metadata, as the dashboard's runs are, and
writes its node-log queue when a run ends (:class:`_WriteNodeLogAtEnd`), so a client that sees a run
finished finds every call of that run in the node log, as after a run of the CLI.
"""

from __future__ import annotations

import asyncio
import threading
import weakref
from collections.abc import Awaitable, Callable
from typing import Any

from langchain_core.callbacks import AsyncCallbackHandler
from langchain_core.runnables import RunnableConfig
from langgraph.constants import CONFIG_KEY_CHECKPOINTER

from agents import nodelog_queue, runtime
from agents.db import Store
from agents.registry import AGENTS, get_agent

_lock = threading.Lock()
#: The graphs built on a server's checkpointer, by agent: LangGraph's server asks for the graph on
#: every request, and compiling the lecture planner takes tens of milliseconds.
_served: weakref.WeakKeyDictionary[Any, dict[str, Any]] = weakref.WeakKeyDictionary()


def served_graph(agent: str, config: RunnableConfig | None = None) -> Any:
    """The compiled graph of ``agent`` for ``config``: on the checkpointer the server put there, if any.

    Without one, the graph on the configured database's checkpointer (the CLI's). The node log and
    the agent's tables are the configured database's either way.

    Raises:
        InputError: No such agent.
    """
    spec = get_agent(agent)
    checkpointer = ((config or {}).get("configurable") or {}).get(CONFIG_KEY_CHECKPOINTER)
    with _lock:
        settings, store = runtime.configured()
        options = runtime.graph_options(settings, agent)
        if checkpointer is None:
            graph = runtime.graph(store, agent, **options)
        else:
            built = _served.setdefault(checkpointer, {})
            if agent not in built:
                built[agent] = spec.run.build_graph(checkpointer, store=store, **options)
            graph = built[agent]
    return graph.with_config(metadata={"agent": agent}, callbacks=[_WriteNodeLogAtEnd(store)])


class _WriteNodeLogAtEnd(AsyncCallbackHandler):
    """Writes the node log's queue when a run of the graph ends, before the server reports it ended.

    The queue is otherwise written in batches a moment later (``agents.nodelog_queue``); an interrupt
    or an error is written at once by the node that raised it. The write runs in a worker thread: the
    development server refuses blocking calls on its event loop.
    """

    def __init__(self, store: Store) -> None:
        self.store = store

    async def on_chain_end(self, outputs: Any, *, parent_run_id: Any = None, **kwargs: Any) -> None:
        if parent_run_id is None:  # the whole run, not one of its nodes
            await asyncio.to_thread(nodelog_queue.flush, self.store)


def _factory(agent: str) -> Callable[[RunnableConfig], Awaitable[Any]]:
    async def factory(config: RunnableConfig) -> Any:
        # A worker thread: the first call opens the database, and compiling is CPU work.
        return await asyncio.to_thread(served_graph, agent, config)

    factory.__name__ = factory.__qualname__ = agent
    factory.__doc__ = f"The {agent} agent's graph for LangGraph's server, on the checkpointer it hands in."
    return factory


# Module attributes, not a module ``__getattr__``: the server reads the module's namespace.
globals().update({agent: _factory(agent) for agent in AGENTS})
