"""Process-wide resources, cached once and shared by every browser session."""

from __future__ import annotations

from functools import lru_cache

import streamlit as st

from agents import runtime
from agents.db import Store
from agents.notify.deliverer import start_background
from agents.registry import AGENTS
from agents.settings import Settings, current_settings, merged_sources


@st.cache_resource(show_spinner=False)
def _store_for(path: str, busy_timeout: float) -> Store:
    # Keyed by path: one connection per database file for the whole process,
    # never opened or closed per rerun.
    return runtime.open_store(path, busy_timeout=busy_timeout)


@lru_cache(maxsize=8)
def _settings_for(values: tuple[tuple[str, str], ...], agents: tuple[tuple[str, int], ...]) -> Settings:
    # The frame and the page ask several times per rerun; the values are parsed once per change of
    # the raw values (or of the registered agents). Settings are frozen, so sharing them is safe.
    return runtime.load_settings(environ=dict(values), secrets={})


def settings() -> Settings:
    """The validated settings (environment over ``.streamlit/secrets.toml``).

    The raw values are read on each call, so a changed environment (an operator's restart, a test's
    ``monkeypatch``) is seen; they are parsed once per change. The roles file is read again once it
    changes (:func:`~agents.settings.current_settings`). A bad value raises ``InputError`` naming the
    setting, a roles file that changed and cannot be used ``RolesFileError``.
    """
    values = tuple(sorted(merged_sources().items()))
    return current_settings(_settings_for(values, tuple((name, id(spec)) for name, spec in AGENTS.items())))


@st.cache_resource(show_spinner=False)
def _notifier_for(path: str, busy_timeout: float, _settings: Settings) -> object:
    # One deliverer per process and database, started the first time a page opens the database with
    # notifications configured (a change of channels takes a restart, as for the database itself).
    return start_background(_store_for(path, busy_timeout), _settings)


def store() -> Store:
    """The shared database handle; opening it starts the notification deliverer when one is configured."""
    current = settings()
    opened = _store_for(current.db, current.db_busy_timeout)
    if current.notify.enabled:
        _notifier_for(current.db, current.db_busy_timeout, current)
    return opened
