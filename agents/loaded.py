"""Type checks against LangGraph's classes without importing LangGraph.

``langgraph.types`` and ``langgraph.errors`` load LangChain's tracers and LangSmith (about 250 ms
at a command's start). A value can be an instance of one of their classes only once its module is
loaded (LangGraph's deserializer imports it to decode one, and a running graph has it), so a module
that only checks what it is handed need not load it: a command that decodes no such value, ``threads``
on an empty database, never does. What a module must make of LangGraph's classes it makes through
here, importing the module only then.
"""

from __future__ import annotations

import importlib
import sys
from typing import Any


def is_instance(value: Any, module: str, name: str) -> bool:
    """Whether ``value`` is an instance of ``module.name``, without importing ``module``."""
    loaded = sys.modules.get(module)
    return loaded is not None and isinstance(value, getattr(loaded, name))


def resume_command(answer: Any) -> Any:
    """LangGraph's ``Command(resume=answer)``, its module imported when first needed (by a resume)."""
    return importlib.import_module("langgraph.types").Command(resume=answer)
