"""The project reaches LangGraph only through its public modules, so an upgrade that reshapes
LangGraph's internals cannot silently break the read model."""

from __future__ import annotations

import re

import pytest

from tests.conftest import PROJECT_ROOT

#: A LangGraph module path with a private part (``langgraph.pregel._algo``), imported or named as text.
PRIVATE_MODULE = re.compile(r"\blanggraph(?:_sdk)?(?:\.\w+)*\._(?!_)\w+")
#: A private name imported from a LangGraph module (``from langgraph.x import _name``).
PRIVATE_NAME = re.compile(r"from\s+langgraph\S*\s+import\s+\(?\s*_\w+")


def _sources() -> list:
    return sorted(path for root in ("agents", "dashboard", "app_pages") for path in (PROJECT_ROOT / root).rglob("*.py"))


@pytest.mark.parametrize("path", _sources(), ids=lambda path: str(path.relative_to(PROJECT_ROOT)))
def test_no_module_reaches_into_langgraph_private_modules(path):
    source = path.read_text(encoding="utf-8")
    found = PRIVATE_MODULE.findall(source) + PRIVATE_NAME.findall(source)
    assert not found, f"{path.relative_to(PROJECT_ROOT)} uses LangGraph's private API: {found}"


def test_the_check_finds_a_private_import():
    assert PRIVATE_MODULE.search('importlib.import_module("langgraph.pregel._algo")')
    assert PRIVATE_NAME.search("from langgraph.pregel import _algo")
    assert not PRIVATE_MODULE.search("import langgraph.graph")
    assert not PRIVATE_MODULE.search("langgraph.version.__version__")
