"""The process's runtime: the database and settings as the registered agents need them, and the
compiled graphs.

The store (:mod:`agents.db`) persists and knows nothing of agents; the registry knows the agents
and nothing of databases. This module joins them: it opens the store with every agent's tables,
loads the settings with every agent's parser, and caches one compiled graph per (store, agent,
options), built on the store's checkpointer. It also tells the read model how to ask a thread's
graph for the tasks a checkpoint prepares (:func:`agents.tasknames.register_task_resolver`).
"""

from __future__ import annotations

import functools
import importlib
import inspect
import threading
import weakref
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from agents import readmodel, tasknames
from agents.damaged import guard
from agents.db import Store, is_postgres_url, project_tables
from agents.db_sqlite import BUSY_TIMEOUT_SECONDS, open_sqlite
from agents.registry import AGENTS, get_agent
from agents.settings import Settings, resolve_settings

_graphs: weakref.WeakKeyDictionary[Store, dict[tuple[str, tuple[tuple[str, Any], ...]], Any]] = (
    weakref.WeakKeyDictionary()
)
_graphs_lock = threading.Lock()


def open_store(location: str | Path, *, busy_timeout: float = BUSY_TIMEOUT_SECONDS) -> Store:
    """Opens the database with the core tables and every registered agent's.

    A ``postgresql://`` URL opens a :class:`~agents.db_postgres.PostgresStore`; anything else is a
    SQLite file (opened read-only when it cannot be written, refused when it cannot and an earlier release
    set it up), whose writes wait ``busy_timeout`` seconds for another process's write lock
    (``Settings.db_busy_timeout``). A saved value that cannot be decoded raises
    :class:`agents.damaged.DamagedValueError` (:func:`agents.damaged.guard`).

    Raises:
        DatabaseError: The file is not a database, is from a newer schema, or the server cannot be
            reached.
    """
    tables = project_tables([table for spec in AGENTS.values() for table in spec.run.tables])
    if is_postgres_url(location):
        # A deliberate late import (named in pyproject.toml): psycopg and LangGraph's
        # PostgreSQL saver add about 90 ms to every start, and only a postgresql:// location
        # needs them.
        from agents.db_postgres import PostgresStore

        return guard(PostgresStore(str(location), tables=tables))
    return guard(open_sqlite(location, tables, busy_timeout))


def load_settings(
    db_override: str | None = None,
    environ: Mapping[str, str] | None = None,
    secrets: Mapping[str, str] | None = None,
    lang_override: str | None = None,
) -> Settings:
    """The process's settings, validated once: the core ones and every registered agent's.

    The arguments are ``agents.settings.resolve_settings``'s.

    Raises:
        InputError: A setting has a value it cannot take (the setting is named).
    """
    parsers = {name: spec.run.settings_from for name, spec in AGENTS.items()}
    return resolve_settings(parsers, db_override, environ, secrets, lang_override)


@functools.cache
def configured() -> tuple[Settings, Store]:
    """This process's settings and its one store on the configured database, made by the first call.

    For code a process may load more than once: LangGraph's server imports ``agents/langgraph_app.py``
    by its path once for every graph ``langgraph.json`` names, and every copy must share one store.
    A second connection to the same SQLite file in one process is not harmless: opening a store checks
    the file by opening and closing it, and closing any handle on a file drops every POSIX lock the
    process holds on it, the other connection's included, after which another process can fold the
    write-ahead log away under it.
    """
    settings = load_settings()
    return settings, open_store(settings.db, busy_timeout=settings.db_busy_timeout)


def graph_options(settings: Settings, agent: str) -> dict[str, Any]:
    """The build options of ``agent``'s graph under ``settings``."""
    return get_agent(agent).run.options_from_settings(settings.agent(agent))


@functools.lru_cache(maxsize=64)
def _build_key(build: Any, agent: str, options: tuple[tuple[str, Any], ...]) -> tuple[str, tuple[tuple[str, Any], ...]]:
    """The graph's cache key: its options with the build function's defaults filled in, so a graph asked
    for without options (the readers') and one asked for with the default values (the writers', under
    default settings) are one graph, built once."""
    # An agent's spec names its build function through ``imported_on_call``; its defaults are the module's.
    target = getattr(importlib.import_module(build.__module__), build.__name__, build)
    try:
        bound = inspect.signature(target).bind_partial(**dict(options))
    except (TypeError, ValueError):  # not a signature to read: options as given
        return agent, options
    bound.apply_defaults()
    filled = {name: value for name, value in bound.arguments.items() if name not in ("checkpointer", "store")}
    try:
        hash(tuple(filled.items()))
    except TypeError:  # a default that cannot be a key: options as given
        return agent, options
    return agent, tuple(sorted(filled.items()))


def graph(store: Store, agent: str, **options: Any) -> Any:
    """The compiled graph of ``agent`` on the store's checkpointer, built once per options (defaults
    filled in)."""
    build = get_agent(agent).run.build_graph
    key = _build_key(build, agent, tuple(sorted(options.items())))
    with _graphs_lock:
        built = _graphs.setdefault(store, {})
        if key not in built:
            built[key] = build(store.saver, store=store, **options)
        return built[key]


def prepared_task_names(store: Store, thread_id: str, checkpoint_id: str) -> dict[str, str]:
    """Task id → node of the tasks a checkpoint prepares, from its graph's public ``get_state(config).tasks``.

    The graph is the thread's agent's, built without options: the options choose routes, never
    nodes or edges, so the tasks it prepares are the same. Empty when the thread names no
    registered agent.
    """
    agent = readmodel.thread_agent(store, thread_id)
    if agent not in AGENTS:
        return {}
    config = {"configurable": {"thread_id": thread_id, "checkpoint_ns": "", "checkpoint_id": checkpoint_id}}
    return {task.id: task.name for task in graph(store, agent).get_state(config).tasks}


tasknames.register_task_resolver(prepared_task_names)
