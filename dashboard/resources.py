"""Process-wide resources, cached once and shared by every browser session."""

from __future__ import annotations

import streamlit as st

from agents import runtime
from agents.db import Store
from agents.settings import Settings


@st.cache_resource(show_spinner=False)
def _store_for(path: str) -> Store:
    # Keyed by path: one connection per database file for the whole process,
    # never opened or closed per rerun.
    return runtime.open_store(path)


def settings() -> Settings:
    """The validated settings (environment over ``.streamlit/secrets.toml``); cheap to read.

    Read on each rerun rather than cached, so a changed environment (an operator's restart, a
    test's ``monkeypatch``) is seen; a bad value raises ``InputError`` naming the setting.
    """
    return runtime.load_settings()


def store() -> Store:
    """The shared database handle."""
    return _store_for(settings().db)
