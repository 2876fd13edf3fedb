"""Process-wide resources, cached once and shared by every browser session."""

from __future__ import annotations

import streamlit as st

from agents.db import Store, open_store
from agents.settings import Settings, load_settings


@st.cache_resource(show_spinner=False)
def _store_for(path: str) -> Store:
    # Keyed by path: one connection per database file for the whole process,
    # never opened or closed per rerun.
    return open_store(path)


def settings() -> Settings:
    """The settings (environment over ``.streamlit/secrets.toml``); cheap to read."""
    return load_settings()


def store() -> Store:
    """The shared database handle."""
    return _store_for(settings().db)
